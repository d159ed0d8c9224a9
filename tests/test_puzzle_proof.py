"""The puzzle prover: its verdicts checked by a plain minimax written here, without its shortcuts."""

from __future__ import annotations

import pytest

from damka.engine import find_variant
from damka.engine.notation import format_move
from damka.engine.puzzle_proof import GAIN, WON, MaterialProver, ProofTooCostly

# Positions from random classic games (few pieces, so the plain minimax below stays cheap).
PUZZLES = [  # (variant, FEN, the only winning move)
    ("classic", "W:Wc1,g1,d2,h2,d4,h4,a5,g5,a7:Bb6,f6,e7", "a5xc7"),
    ("classic", "B:Wf2,h2,g3,h4:BKc1,a7,b8,f8,h8", "c1-h6"),
    ("classic", "B:Wa3,e3,d4:Bh2,a5,f6,a7,e7,f8", "h2-g1"),
    ("classic", "W:Wa1,e1,f2,a3,g3,f6,h6,e7:Bc3,c7,g7,b8", "f6xh8"),
    ("classic", "B:Wa1,e1,b2,f2,h2,b4,d4:Bg5,b6,d6,a7,g7,h8", "b6-c5"),   # a sacrifice: white must take
    ("classic", "W:Wg1,c3,f4,Ke7:Bg5,b6,h8", "f4xh6"),
    # Russian: a man that reaches the last rank in a capture goes on as a king.
    ("russian", "B:Wa1,f2,g5,Kb6,d6:BKd4,h4,a7", "a7xe7"),
    ("russian", "W:Wc3,Kd6,Kf6:Bf4,h4,a5", "d6xh2"),
]


def plain_value(variant, position, depth: int) -> int:
    """Minimax of the piece balance for the side to move: every line, every capture to its end."""
    moves = variant.legal_moves(position)
    if not moves:
        return -WON
    if depth <= 0 and not moves[0].is_capture:
        mine, theirs = (position.white, position.black) if position.turn == 0 else (position.black, position.white)
        return mine.bit_count() - theirs.bit_count()
    return max(-plain_value(variant, variant.play(position, move), depth - 1) for move in moves)


@pytest.mark.parametrize("name, fen, solution", PUZZLES)
def test_the_proof_agrees_with_a_plain_minimax(name: str, fen: str, solution: str) -> None:
    variant = find_variant(name)
    position = variant.parse_position(fen)
    proof = MaterialProver(variant).prove(position, max_depth=5)
    assert proof is not None and format_move(variant, position, proof.solution) == solution
    mine, theirs = (position.white, position.black) if position.turn == 0 else (position.black, position.white)
    base = mine.bit_count() - theirs.bit_count()
    for depth in (proof.depth, proof.depth + 2):
        winners = [format_move(variant, position, move) for move in variant.legal_moves(position)
                   if -plain_value(variant, variant.play(position, move), depth - 1) >= base + GAIN]
        assert winners == [solution], f"at {depth} plies"
    shallower = [move for move in variant.legal_moves(position)
                 if -plain_value(variant, variant.play(position, move), proof.depth - 2) >= base + GAIN]
    assert len(shallower) != 1 or proof.depth == 1, "the proof's depth is the least that shows the win"
    # The main line is legal and ends where the solution has won what the proof says.
    here = position
    for move in proof.line:
        assert move in variant.legal_moves(here)
        here = variant.play(here, move)


def test_an_international_shot_needs_its_depth() -> None:
    """From a real game's ending (wiegerw corpus): 12-40 wins at 3 plies, and no search shallower sees it."""
    variant = find_variant("international")
    position = variant.parse_position("W:WK10,K12,16,K47,50:BK39,45:H7")
    proof = MaterialProver(variant).prove(position, max_depth=5)
    assert proof is not None and format_move(variant, position, proof.solution) == "12-40" and proof.depth == 3
    assert MaterialProver(variant).prove(position, max_depth=2) is None


def test_two_winning_moves_make_no_puzzle() -> None:
    """White can take the last black man from either side: no single answer, no puzzle."""
    variant = find_variant("classic")
    position = variant.parse_position("W:Wc3,e3:Bd4")
    moves = variant.legal_moves(position)
    assert len(moves) == 2 and all(-plain_value(variant, variant.play(position, move), 0) == WON for move in moves)
    assert MaterialProver(variant).prove(position) is None


def test_the_start_position_is_no_puzzle_and_a_small_budget_says_so() -> None:
    variant = find_variant("international")
    assert MaterialProver(variant, max_nodes=200_000).prove(variant.start_position(), max_depth=3) is None
    with pytest.raises(ProofTooCostly):
        MaterialProver(variant, max_nodes=50).prove(variant.start_position(), max_depth=5)


@pytest.mark.parametrize("name, options", [("classic", {"free_capture": True}), ("multiwarcaby", {})])
def test_variants_where_the_count_is_not_forced_are_refused_by_name(name: str, options: dict) -> None:
    variant = find_variant(name, **options)
    with pytest.raises(ValueError, match=variant.name):
        MaterialProver(variant)
