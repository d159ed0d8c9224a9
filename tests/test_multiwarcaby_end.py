"""Multiwarcaby end rules, results and places, sides out of play."""

from __future__ import annotations

import pytest

from damka.engine.game import Game
from damka.engine.move import Move
from damka.engine.multiwarcaby import Multiwarcaby
from damka.engine.multiwarcaby_position import MultiwarcabyPosition
from damka.engine.variant import Result

MW = Multiwarcaby.create()
MW3 = Multiwarcaby.create(sides=3)
MW4 = Multiwarcaby.create(sides=4)


def sq(name: str) -> int:
    return MW.geometry.parse(name)


def step(a: str, b: str) -> Move:
    return Move(sq(a), (sq(b),))


def board(variant, pieces: str, **fields) -> MultiwarcabyPosition:
    occupied = variant.geometry.mask_of(pieces.split())
    fields.setdefault("turn_start", occupied)
    count = len(variant.sides)
    fields.setdefault("scores", (0,) * count)
    fields.setdefault("active", (True,) * count)
    return MultiwarcabyPosition(occupied=occupied, **fields)


# -- end rules ----------------------------------------------------------------


def test_the_start_is_not_over():
    assert MW.outcome(MW.start_position(), 1) is None


def test_fewer_than_two_pieces_ends_the_game():
    result = MW.outcome(board(MW, "e5", scores=(40, 35)), 1)
    assert result is not None and "fewer than two pieces" in result.reason
    assert result.winner == 0
    # Also in the middle of a turn.
    assert MW.outcome(board(MW, "e5", move_in_turn=1, turn_start=MW.geometry.mask_of(["e5", "e6", "e7"])), 1)


def test_can_capture_in_turn_sees_captures_now_and_after_a_step():
    assert MW.can_capture_in_turn(board(MW, "a1 a2"))  # a capture now
    assert MW.can_capture_in_turn(board(MW, "a1 c3"))  # c3-b2, then a1 x b2 (or b2 x a1...)
    assert not MW.can_capture_in_turn(board(MW, "a1 i9"))
    assert not MW.can_capture_in_turn(board(MW, "a1 d4"))  # two steps apart: one step is not enough


def test_a_full_round_without_a_capture_possibility_ends_the_game():
    game = Game(MW, board(MW, "a1 i9", scores=(10, 12)))
    assert game.result is None  # one turn start without a threat is not a round yet
    game.push(step("a1", "b2"))
    assert game.result is None  # never in the middle of a turn
    game.push(step("i9", "h8"))
    assert game.position.calm_turns == 1
    result = game.result
    assert result is not None and "no side could capture" in result.reason
    assert result.winner == 1 and result.points == (0.0, 1.0) and result.places == (2, 1)


def test_a_capture_possibility_resets_the_calm_count():
    # Side 0's turn starts calm, but it leaves a capture possible for side 1.
    position = board(MW, "a1 d4 i9")
    position = MW.play(MW.play(position, step("d4", "c3")), step("i9", "i8"))
    assert position.calm_turns == 1
    assert MW.can_capture_in_turn(position)
    assert MW.outcome(position, 1) is None
    position = MW.play(MW.play(position, step("i8", "i7")), step("i7", "i6"))
    assert position.calm_turns == 0


def test_with_three_sides_the_round_is_three_turn_starts():
    position = board(MW3, "a1 i9", calm_turns=1)
    assert MW3.outcome(position, 1) is None
    assert MW3.outcome(board(MW3, "a1 i9", calm_turns=2), 1) is not None


def test_the_backstop_ends_after_quiet_rounds():
    # Captures are possible all along, but nobody makes one: 3 rounds = 6 turns.
    position = board(MW, "a1 a2 i9", quiet_turns=5)
    assert MW.outcome(position, 1) is None
    position = MW.play(MW.play(position, step("i9", "h9")), step("h9", "g9"))
    assert position.quiet_turns == 6
    result = MW.outcome(position, 1)
    assert result is not None and "3 full rounds without a capture" in result.reason


def test_the_backstop_is_a_setting():
    position = board(MW, "a1 a2 i9", quiet_turns=6)
    assert Multiwarcaby.create(quiet_rounds=4).outcome(position, 1) is None
    assert Multiwarcaby.create(quiet_rounds=None).outcome(board(MW, "a1 a2 i9", quiet_turns=99), 1) is None
    assert Multiwarcaby.create(quiet_rounds=1).outcome(board(MW, "a1 a2 i9", quiet_turns=2), 1) is not None


def test_a_capture_resets_the_quiet_count_even_on_the_first_move():
    position = board(MW, "a1 a2 i9", quiet_turns=4)
    position = MW.play(position, Move(sq("a1"), (sq("a3"),), frozenset({sq("a2")})))
    position = MW.play(position, step("i9", "h9"))
    assert position.quiet_turns == 0


def test_agreement_is_declared_with_the_result_by_small_points():
    game = Game(MW3, board(MW3, "a1 a2 e5 i9", scores=(7, 9, 7)))
    assert game.result is None
    game.declare(MW3.result_for(game.position, "agreement"))
    assert game.is_over and game.result.reason == "agreement"
    assert game.result.places == (2, 1, 2) and game.legal_moves() == []


# -- results --------------------------------------------------------------------


def test_two_sides_win_loss_and_draw():
    win = MW.result_for(board(MW, "a1", scores=(30, 20)), "x")
    assert (win.points, win.places, win.winner) == ((1.0, 0.0), (1, 2), 0)
    loss = MW.result_for(board(MW, "a1", scores=(3, 20)), "x")
    assert (loss.points, loss.places, loss.winner) == ((0.0, 1.0), (2, 1), 1)
    draw = MW.result_for(board(MW, "a1", scores=(20, 20)), "x")
    assert (draw.points, draw.places, draw.winner) == ((0.0, 0.0), (1, 1), None)
    assert draw.is_draw


def test_teams_score_like_two_sides():
    teams = Multiwarcaby.create(teams=True)
    result = teams.result_for(board(teams, "a1", scores=(5, 9)), "x")
    assert (result.points, result.places, result.winner) == ((0.0, 1.0), (2, 1), 1)


@pytest.mark.parametrize(
    ("scores", "places", "winner"),
    [
        ((10, 20, 30), (3, 2, 1), 2),
        ((20, 20, 10), (1, 1, 3), None),
        ((10, 20, 20), (3, 1, 1), None),
        ((15, 15, 15), (1, 1, 1), None),
    ],
)
def test_three_players_places_by_small_points_ties_share(scores, places, winner):
    result = MW3.result_for(board(MW3, "a1", scores=scores), "x")
    assert result.places == places and result.winner == winner
    assert result.points == tuple(float(s) for s in scores)  # the match standing adds small points


def test_four_players_places_with_ties():
    result = MW4.result_for(board(MW4, "a1", scores=(3, 7, 7, 1)), "x")
    assert result.places == (3, 1, 1, 4) and result.winner is None
    result = MW4.result_for(board(MW4, "a1", scores=(9, 7, 7, 1)), "x")
    assert result.places == (1, 2, 2, 4) and result.winner == 0
    assert isinstance(result, Result)


# -- sides out of play ------------------------------------------------------------


def test_drop_side_skips_the_side_and_keeps_its_points():
    position = board(MW3, "a1 a2 e5 i9", scores=(1, 2, 3))
    position = MW3.drop_side(position, 1)
    assert position.active == (True, False, True) and MW3.scores(position) == (1, 2, 3)
    assert MW3.side_to_move(position) == 0
    for _ in range(2):
        position = MW3.play(position, MW3.legal_moves(position)[0])
    assert MW3.side_to_move(position) == 2
    for _ in range(2):
        position = MW3.play(position, MW3.legal_moves(position)[0])
    assert MW3.side_to_move(position) == 0


def test_drop_the_side_to_move_mid_turn_passes_a_fresh_turn():
    position = board(MW4, "a1 a2 e5 i9", side=3)
    position = MW4.play(position, step("e5", "e6"))
    assert MW4.move_in_turn(position) == 1
    dropped = MW4.drop_side(position, 3)
    assert (MW4.side_to_move(dropped), MW4.move_in_turn(dropped)) == (0, 0)
    assert dropped.turn_start == dropped.occupied == position.occupied


def test_drop_side_shrinks_the_round():
    position = board(MW3, "a1 i9", calm_turns=1)
    assert MW3.outcome(position, 1) is None
    assert MW3.outcome(MW3.drop_side(position, 2), 1) is not None


def test_one_side_left_ends_the_game():
    position = board(MW3, "a1 a2 e5 i9", scores=(4, 6, 5))
    position = MW3.drop_side(MW3.drop_side(position, 0), 2)
    result = MW3.outcome(position, 1)
    assert result is not None and "one side left" in result.reason
    assert result.places == (3, 1, 2)


def test_drop_side_errors():
    with pytest.raises(ValueError):
        MW.drop_side(MW.start_position(), 0)  # two sides: declare the result
    dropped = MW3.drop_side(MW3.start_position(), 1)
    with pytest.raises(ValueError):
        MW3.drop_side(dropped, 1)
    with pytest.raises(ValueError):
        MW3.drop_side(dropped, 3)
