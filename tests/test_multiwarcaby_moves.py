"""Multiwarcaby moves: steps, jump chains, blocking captured pieces, the 7x7 edge."""

from __future__ import annotations

from damka.engine.move import Move
from damka.engine.multiwarcaby import Multiwarcaby, Multiwarcaby7
from damka.engine.multiwarcaby_position import MultiwarcabyPosition

MW = Multiwarcaby.create()
MW7 = Multiwarcaby7.create()


def board(variant, pieces: str, **fields) -> MultiwarcabyPosition:
    occupied = variant.geometry.mask_of(pieces.split())
    fields.setdefault("turn_start", occupied)
    return MultiwarcabyPosition(occupied=occupied, **fields)


def names(variant, squares) -> set[str]:
    return {variant.geometry.name(square) for square in squares}


def sq(name: str) -> int:
    return MW.geometry.parse(name)


def captures_of(variant, position, start: str) -> dict[tuple[str, frozenset[str]], Move]:
    """Capture moves from `start`, keyed by (end, captured names)."""
    found = {}
    for move in variant.legal_moves(position):
        if move.captures and variant.geometry.name(move.start) == start:
            found[(variant.geometry.name(move.end), frozenset(names(variant, move.captures)))] = move
    return found


def steps_of(variant, position, start: str) -> set[str]:
    return {
        variant.geometry.name(move.end)
        for move in variant.legal_moves(position)
        if not move.captures and variant.geometry.name(move.start) == start
    }


def test_a_piece_steps_in_all_eight_directions():
    position = board(MW, "e5 a1")
    assert steps_of(MW, position, "e5") == {"d4", "e4", "f4", "d5", "f5", "d6", "e6", "f6"}


def test_steps_stop_at_the_edge_and_at_occupied_squares():
    position = board(MW, "a1 b2 i9")
    assert steps_of(MW, position, "a1") == {"a2", "b1"}
    assert steps_of(MW, position, "i9") == {"h9", "h8", "i8"}


def test_a_piece_captures_in_all_eight_directions():
    ring = "d4 e4 f4 d5 f5 d6 e6 f6"
    position = board(MW, "e5 " + ring)
    found = captures_of(MW, position, "e5")
    expected = {
        ("c3", "d4"), ("e3", "e4"), ("g3", "f4"), ("c5", "d5"),
        ("g5", "f5"), ("c7", "d6"), ("e7", "e6"), ("g7", "f6"),
    }
    singles = {(end, next(iter(captured))) for end, captured in found if len(captured) == 1}
    assert singles == expected


def test_a_chain_may_stop_after_any_jump_and_turn_corners():
    # c1 jumps c2 (to c3), then d4 diagonally (to e5), then e6 (to e7).
    position = board(MW, "c1 c2 d4 e6")
    found = captures_of(MW, position, "c1")
    assert set(found) == {
        ("c3", frozenset({"c2"})),
        ("e5", frozenset({"c2", "d4"})),
        ("e7", frozenset({"c2", "d4", "e6"})),
    }
    assert found[("e7", frozenset({"c2", "d4", "e6"}))].path == (sq("c3"), sq("e5"), sq("e7"))


def test_capturing_is_not_compulsory():
    position = board(MW, "c1 c2")
    moves = MW.legal_moves(position)
    assert any(move.captures for move in moves)
    assert any(not move.captures for move in moves)


def test_a_captured_piece_cannot_be_jumped_again():
    # a1 jumps b1 to c1; jumping b1 back to a1 would take it twice.
    position = board(MW, "a1 b1")
    found = captures_of(MW, position, "a1")
    assert set(found) == {("c1", frozenset({"b1"}))}


def test_captured_pieces_block_until_the_move_ends():
    # c3 x d3 -> e3, x e4 -> e5, x d4 -> c3: the captured d3 and e4 stay on
    # the board during the move, so no route jumps one twice or lands on one.
    position = board(MW, "c3 d3 e4 d4")
    for move in MW.legal_moves(position):
        assert not set(move.path) & move.captures
        assert len(move.captures) == len(set(move.captures))
    found = captures_of(MW, position, "c3")
    assert ("e5", frozenset({"d3", "e4"})) in found
    assert ("c3", frozenset({"d3", "e4", "d4"})) in found  # back over d4 to the start square


def test_landing_squares_never_hold_a_captured_piece():
    # A jumper lands only on squares of its start's file and rank parity, and
    # a captured piece is never on one: check it on a crowded random board.
    import random

    rng = random.Random(3)
    occupied = 0
    for square in MW.geometry.squares:
        if rng.random() < 0.6:
            occupied |= 1 << square
    position = MultiwarcabyPosition(occupied=occupied, turn_start=occupied)
    moves = [move for move in MW.legal_moves(position) if move.captures]
    assert moves
    for move in moves:
        assert not set(move.path) & move.captures
        assert move.end == move.start or not occupied >> move.end & 1


def test_a_jumper_may_return_to_its_start_square():
    # Around the square: c3 x d3 -> e3, x e4 -> e5, x d5 -> c5, x c4 -> c3.
    position = board(MW, "c3 d3 e4 d5 c4")
    found = captures_of(MW, position, "c3")
    loop = ("c3", frozenset({"d3", "e4", "d5", "c4"}))
    assert loop in found
    # Clockwise and anticlockwise are two routes of one move.
    assert sum(1 for end, captured in found if end == "c3" and len(captured) == 4) == 1
    after = MW.play(position, found[loop])
    assert MW.occupancy(after) == MW.geometry.mask_of(["c3"])


def test_a_jumper_may_cross_a_square_it_visited():
    # c1 x c2 -> c3, x d3 -> e3, x e4 -> e5, x d4 -> c3 (again), x b3 -> a3.
    position = board(MW, "c1 c2 d3 e4 d4 b3")
    found = captures_of(MW, position, "c1")
    assert ("c3", frozenset({"c2"})) in found
    assert ("c3", frozenset({"c2", "d3", "e4", "d4"})) in found
    assert ("a3", frozenset({"c2", "d3", "e4", "d4", "b3"})) in found
    move = found[("a3", frozenset({"c2", "d3", "e4", "d4", "b3"}))]
    assert names(MW, move.path[:1]) == {"c3"} and move.path.count(sq("c3")) == 2


def test_one_move_per_start_end_and_captured_set():
    position = board(MW, "c3 d3 e4 d5 c4 f6 g7")
    moves = MW.legal_moves(position)
    assert len(moves) == len(set(moves))


def test_no_capture_or_step_across_the_edge_of_the_small_board():
    # d1 and a-file squares are off the 7x7 (b2-h8): d3 cannot jump d2 to d1.
    position = board(MW7, "d3 d2 b4 b5")
    assert captures_of(MW7, position, "d3") == {}
    assert steps_of(MW7, position, "b4") == {"c3", "c4", "c5", "b3"}
    # On the 9x9 the same jump is legal.
    assert ("d1", frozenset({"d2"})) in captures_of(MW, board(MW, "d3 d2 b4 b5"), "d3")


def test_capture_inside_the_small_board_reaches_its_edge():
    position = board(MW7, "d4 d3")
    assert set(captures_of(MW7, position, "d4")) == {("d2", frozenset({"d3"}))}


def test_play_removes_captured_pieces_and_moves_the_jumper():
    position = board(MW, "c1 c2 d4 e6 i9")
    move = captures_of(MW, position, "c1")[("e7", frozenset({"c2", "d4", "e6"}))]
    after = MW.play(position, move)
    assert MW.occupancy(after) == MW.geometry.mask_of(["e7", "i9"])
    assert MW.piece_at(after, sq("e7")) == "o"
    assert MW.piece_at(after, sq("c1")) is None
    assert MW.scores(after) == (3, 0)


def test_start_positions():
    start = MW.start_position()
    assert MW.occupancy(start).bit_count() == 76
    assert all(MW.piece_at(start, sq(name)) is None for name in ("a1", "i1", "a9", "i9", "e5"))
    small = MW7.start_position()
    assert MW7.occupancy(small).bit_count() == 44
    expected = MW7.geometry.playable & ~MW7.geometry.mask_of(["b2", "h2", "b8", "h8", "e5"])
    assert MW7.occupancy(small) == expected
    assert len(MW.legal_moves(start)) == 40 and len(MW7.legal_moves(small)) == 40
