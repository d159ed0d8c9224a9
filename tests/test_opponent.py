"""The computer opponent thinks off the caller's thread: polls return at once,
stop delivers the best move so far, cancel delivers nothing."""

from __future__ import annotations

import time

import pytest

from damka.controller.players.computer import ComputerOpponent, SearchChooser, Thinking
from damka.engine import Game, find_variant
from damka.engine.levels import Level
from waiting import DEADLINE_S, wait_until

# Full strength with no depth cap: only the clock or a stop ends its search.
UNBOUNDED = Level("test-unbounded", 64, 30.0, 0, 0.0)


def frozen() -> float:
    """A clock that never moves: the search ends only on a stop or a cancel."""
    return 0.0


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
    """The board's loop stays responsive while the computer thinks: its search
    (on a frozen clock it never ends by itself) never keeps a poll waiting,
    however busy the machine; only a stop brings its move."""
    opponent = ComputerOpponent(classic_game.variant, UNBOUNDED, time_per_move=0.6, clock=frozen)
    try:
        opponent.start(classic_game)
        longest = 0.0
        end = time.monotonic() + 0.5
        while time.monotonic() < end:            # the loop's half second of polls, as the board makes them
            began = time.monotonic()
            assert isinstance(opponent.poll(), Thinking)
            longest = max(longest, time.monotonic() - began)
            time.sleep(0.005)                     # paces the loop: it does other work between polls
        assert longest < 2.0                      # a poll that waited for the search would never return
        assert opponent.thinking
        opponent.stop()
        assert opponent.wait(DEADLINE_S) in classic_game.legal_moves()
        assert not opponent.thinking
        assert opponent.last_result is not None and opponent.last_result.stopped
    finally:
        opponent.close()


def test_move_is_delivered_once(classic_game: Game) -> None:
    opponent = ComputerOpponent(classic_game.variant, "strong", time_per_move=0.2)
    opponent.start(classic_game)
    move = opponent.wait(DEADLINE_S)
    assert move in classic_game.legal_moves()
    assert opponent.poll() is None
    opponent.close()


def test_stop_delivers_the_best_move_so_far(classic_game: Game) -> None:
    opponent = ComputerOpponent(classic_game.variant, UNBOUNDED, time_per_move=30.0, clock=frozen)
    try:
        opponent.start(classic_game)
        assert isinstance(opponent.poll(), Thinking)
        opponent.stop()
        move = opponent.wait(DEADLINE_S)  # on a frozen clock only the stop ends the search
        assert move in classic_game.legal_moves()
        assert opponent.last_result is not None and opponent.last_result.stopped
    finally:
        opponent.close()


def test_cancel_discards_the_move_and_ends_the_thread(classic_game: Game) -> None:
    opponent = ComputerOpponent(classic_game.variant, UNBOUNDED, time_per_move=30.0, clock=frozen)
    opponent.start(classic_game)
    opponent.cancel()
    assert opponent.poll() is None
    assert opponent.join(DEADLINE_S)  # on a frozen clock only the cancel ends the search
    assert opponent.poll() is None


def test_restart_after_a_take_back(classic_game: Game) -> None:
    opponent = ComputerOpponent(classic_game.variant, UNBOUNDED, time_per_move=30.0, clock=frozen)
    try:
        opponent.start(classic_game)
        classic_game.push(classic_game.legal_moves()[0])
        opponent.start(classic_game)  # the old search is cancelled, a new one starts
        opponent.stop()
        move = opponent.wait(DEADLINE_S)
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
        move = opponent.wait(DEADLINE_S)
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
        wait_until(lambda: not isinstance(opponent.poll(), Thinking), "the search to fail")
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
        moves = opponent.wait(DEADLINE_S)
        assert isinstance(moves, tuple) and len(moves) == 2
        game = Game(variant, position)
        for move in moves:
            game.push(move)  # both legal, in order
        assert game.scores[0] == 3 and game.turn == 1
    finally:
        opponent.close()
