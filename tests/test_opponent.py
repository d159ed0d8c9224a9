"""The computer opponent thinks off the caller's thread: polls return at once,
stop delivers the best move so far, cancel delivers nothing."""

from __future__ import annotations

import time

import pytest

from damka.controller.opponent import ComputerOpponent, SearchChooser, Thinking
from damka.engine import Game, find_variant
from damka.engine.levels import Level

# Full strength with no depth cap: only the clock or a stop ends its search.
UNBOUNDED = Level("test-unbounded", 64, 30.0, 0, 0.0)


class SteppingClock:
    """A fake clock: each reading is 10 ms after the last."""

    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        self.t += 0.01
        return self.t


@pytest.fixture
def classic_game() -> Game:
    return Game(find_variant("classic"))


def test_polls_return_at_once_while_thinking(classic_game: Game) -> None:
    opponent = ComputerOpponent(classic_game.variant, UNBOUNDED, time_per_move=0.6)
    try:
        opponent.start(classic_game)
        # start hands over and returns: the search (0.6 s) is still running.
        assert isinstance(opponent.poll(), Thinking)
        polls = 0
        while True:
            state = opponent.poll()
            polls += 1
            if not isinstance(state, Thinking):
                break
            time.sleep(0.005)  # the controller's loop does other work between polls
        assert state in classic_game.legal_moves()
        assert polls > 20  # the caller kept control all along
        assert not opponent.thinking
        assert opponent.last_result is not None and opponent.last_result.depth >= 2
    finally:
        opponent.close()


def test_move_is_delivered_once(classic_game: Game) -> None:
    opponent = ComputerOpponent(classic_game.variant, "strong", time_per_move=0.2)
    opponent.start(classic_game)
    move = opponent.wait(5.0)
    assert move in classic_game.legal_moves()
    assert opponent.poll() is None
    opponent.close()


def test_stop_delivers_the_best_move_so_far_promptly(classic_game: Game) -> None:
    opponent = ComputerOpponent(classic_game.variant, UNBOUNDED, time_per_move=30.0)
    try:
        opponent.start(classic_game)
        time.sleep(0.2)
        assert isinstance(opponent.poll(), Thinking)
        opponent.stop()
        move = opponent.wait(2.0)  # of a 30 s search: the stop ended it
        assert move in classic_game.legal_moves()
        assert opponent.last_result is not None and opponent.last_result.stopped
    finally:
        opponent.close()


def test_cancel_discards_the_move_and_ends_the_thread(classic_game: Game) -> None:
    opponent = ComputerOpponent(classic_game.variant, UNBOUNDED, time_per_move=30.0)
    opponent.start(classic_game)
    time.sleep(0.1)
    opponent.cancel()
    assert opponent.poll() is None
    assert opponent.join(2.0)
    assert opponent.poll() is None


def test_restart_after_a_take_back(classic_game: Game) -> None:
    opponent = ComputerOpponent(classic_game.variant, UNBOUNDED, time_per_move=30.0)
    try:
        opponent.start(classic_game)
        time.sleep(0.05)
        classic_game.push(classic_game.legal_moves()[0])
        opponent.start(classic_game)  # the old search is cancelled, a new one starts
        opponent.stop()
        move = opponent.wait(2.0)
        assert move in classic_game.legal_moves()
    finally:
        opponent.close()


def test_multiwarcaby_opponent_moves_within_its_time() -> None:
    variant = find_variant("multiwarcaby", sides=4)
    game = Game(variant)
    clock = SteppingClock()  # every look at the clock costs 10 ms: no dependence on this machine's speed
    opponent = ComputerOpponent(variant, "master", time_per_move=0.3, clock=clock)
    try:
        opponent.start(game)
        move = opponent.wait(5.0)
        assert move in game.legal_moves()
        assert opponent.last_result is not None and opponent.last_result.elapsed <= 0.3 * 1.1
    finally:
        opponent.close()


def test_errors_reach_the_caller() -> None:
    variant = find_variant("classic")
    lost = variant.parse_position("W:W:Bh8")  # white has no piece and no move
    opponent = ComputerOpponent(variant, "beginner", time_per_move=0.1)
    opponent.start(position=lost)
    with pytest.raises(ValueError):
        for _ in range(200):
            if not isinstance(opponent.poll(), Thinking):
                break
            time.sleep(0.01)
    opponent.close()


def test_search_chooser_fits_the_chooser_interface(classic_game: Game) -> None:
    chooser = SearchChooser("novice", time_per_move=0.1, seed=1)
    move = chooser.choose(classic_game.variant, classic_game.position)
    assert move in classic_game.legal_moves()


def test_plans_both_moves_of_a_multiwarcaby_turn() -> None:
    variant = find_variant("multiwarcaby")
    # a2 steps beside c3, then takes c3, e3 and g3 (tests/positions/multiwarcaby.txt).
    position = variant.parse_position("MW9:S2:T1.1:P0,0:K0:Q0:O1o7/9/4o1o2/8o/9/9/2o1o1o2/o8/9")
    opponent = ComputerOpponent(variant, "master", time_per_move=1.0)
    try:
        opponent.start(position=position, whole_turn=True)
        moves = opponent.wait(5.0)
        assert isinstance(moves, tuple) and len(moves) == 2
        game = Game(variant, position)
        for move in moves:
            game.push(move)  # both legal, in order
        assert game.scores[0] == 3 and game.turn == 1
    finally:
        opponent.close()
