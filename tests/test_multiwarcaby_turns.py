"""Multiwarcaby turns: two moves each, the null-turn rule, order of 2-4 sides, teams, scores, Game."""

from __future__ import annotations

import pytest

from damka.engine.errors import IllegalMoveError
from damka.engine.game import Game
from damka.engine.move import Move
from damka.engine.multiwarcaby import Multiwarcaby, Multiwarcaby7
from damka.engine.multiwarcaby_position import MultiwarcabyPosition

MW = Multiwarcaby.create()


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


def test_a_turn_is_two_moves_then_the_turn_passes():
    start = MW.start_position()
    assert (MW.side_to_move(start), MW.move_in_turn(start)) == (0, 0)
    first = MW.play(start, step("e4", "e5"))
    assert (MW.side_to_move(first), MW.move_in_turn(first)) == (0, 1)
    assert first.turn_start == MW.occupancy(start)
    second = MW.play(first, step("d3", "e4"))
    assert (MW.side_to_move(second), MW.move_in_turn(second)) == (1, 0)
    assert second.turn_start == MW.occupancy(second)
    assert MW.moves_per_turn == 2


def test_the_second_move_may_not_restore_the_turn_start_board():
    start = MW.start_position()
    first = MW.play(start, step("e4", "e5"))
    moves = MW.legal_moves(first)
    assert step("e5", "e4") not in moves
    assert step("d4", "e4") in moves  # another piece into the hole changes the board
    assert len(moves) == MW.perft(first, 1)
    with pytest.raises(IllegalMoveError):
        Game(MW, first).push(step("e5", "e4"))


def test_a_step_back_is_fine_in_the_next_turn():
    position = board(MW, "a1 i9")
    position = MW.play(MW.play(position, step("a1", "b2")), step("i9", "h8"))
    assert step("b2", "a1") in MW.legal_moves(position)


def test_a_capture_after_a_step_is_never_a_null_turn():
    # After d1-c1 the only capture back is still legal: the board loses a piece.
    position = board(MW, "d1 b1 a5")
    first = MW.play(position, step("d1", "c1"))
    captures = [move for move in MW.legal_moves(first) if move.captures]
    assert captures and all(MW.occupancy(MW.play(first, m)) != position.occupied for m in captures)


def test_three_sides_move_in_order():
    variant = Multiwarcaby.create(sides=3)
    assert variant.sides == ("1", "2", "3")
    position = variant.start_position()
    order = []
    for _ in range(4):
        order.append(variant.side_to_move(position))
        for _ in range(2):
            position = variant.play(position, variant.legal_moves(position)[0])
    assert order == [0, 1, 2, 0]


def test_four_sides_and_the_first_option_rotate_the_order():
    variant = Multiwarcaby.create(sides=4, first=2)
    assert variant.sides == ("1", "2", "3", "4")
    position = variant.start_position()
    order = []
    for _ in range(5):
        order.append(variant.side_to_move(position))
        for _ in range(2):
            position = variant.play(position, variant.legal_moves(position)[0])
    assert order == [2, 3, 0, 1, 2]
    assert len(variant.scores(position)) == 4


def test_teams_are_two_sides():
    variant = Multiwarcaby.create(teams=True)
    assert variant.sides == ("team A", "team B")
    assert Multiwarcaby.create(teams=True, sides=4).sides == ("team A", "team B")
    position = variant.start_position()
    assert variant.scores(position) == (0, 0)
    for _ in range(2):
        position = variant.play(position, variant.legal_moves(position)[0])
    assert variant.side_to_move(position) == 1


def test_each_captured_piece_is_a_small_point_for_the_capturer():
    position = board(MW, "c1 c2 d4 e6 a9 a8", side=1, scores=(4, 2))
    chain = next(m for m in MW.legal_moves(position) if len(m.captures) == 3)
    after = MW.play(position, chain)
    assert MW.scores(after) == (4, 5)
    single = next(m for m in MW.legal_moves(after) if m.captures)  # a9 x a8
    assert MW.scores(MW.play(after, single)) == (4, 6)


def test_scores_follow_the_side_with_three_players():
    variant = Multiwarcaby.create(sides=3, first=2)
    position = variant.start_position()
    capture = next(m for m in variant.legal_moves(position) if m.captures)
    assert variant.scores(variant.play(position, capture)) == (0, 0, 1)


def test_game_push_and_pop_through_turns():
    game = Game(MW)
    start = game.position
    moves = [step("e4", "e5"), step("d3", "e4"), step("f6", "e5"), step("g7", "f6")]
    played = []
    for index in range(4):
        move = moves[index] if moves[index] in game.legal_moves() else game.legal_moves()[0]
        game.push(move)
        played.append(move)
    assert game.ply == 4
    assert (game.turn, game.move_in_turn) == (0, 0)
    snapshots = game.positions
    game.pop()
    assert (game.turn, game.move_in_turn) == (1, 1)
    assert game.position == snapshots[3]
    game.pop()
    game.pop()
    assert (game.turn, game.move_in_turn) == (0, 1)
    assert game.pop() == played[0]
    assert game.position == start
    with pytest.raises(IllegalMoveError):
        game.pop()


def test_game_refuses_an_illegal_move():
    game = Game(MW)
    with pytest.raises(IllegalMoveError):
        game.push(step("a2", "a3"))  # a3 is occupied


def test_small_board_is_for_two_players():
    variant = Multiwarcaby7.create(first=1)
    assert variant.sides == ("1", "2")
    assert variant.side_to_move(variant.start_position()) == 1
    with pytest.raises(ValueError):
        Multiwarcaby7.create(sides=3)
    with pytest.raises(ValueError):
        Multiwarcaby7.create(teams=True)


@pytest.mark.parametrize(
    "options",
    [{"colour": "white"}, {"sides": 5}, {"sides": 1}, {"sides": "3"}, {"teams": True, "sides": 3},
     {"first": 2}, {"first": -1}, {"quiet_rounds": 0}, {"teams": "yes"}],
)
def test_bad_options_are_value_errors(options):
    with pytest.raises(ValueError):
        Multiwarcaby.create(**options)


@pytest.mark.parametrize(
    ("variant", "seed"),
    [(Multiwarcaby.create(), 1), (Multiwarcaby.create(sides=3), 2), (Multiwarcaby.create(teams=True), 3),
     (Multiwarcaby7.create(), 4)],
)
def test_random_games_end_and_the_small_points_add_up(variant, seed):
    import random

    rng = random.Random(seed)
    game = Game(variant)
    pieces = variant.occupancy(game.position).bit_count()
    while not game.is_over:
        assert game.ply < 2000
        game.push(rng.choice(game.legal_moves()))
    assert sum(game.scores) == pieces - variant.occupancy(game.position).bit_count()
    assert game.result.reason
    assert game.move_in_turn == 0 or "fewer than two" in game.result.reason
