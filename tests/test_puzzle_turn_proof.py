"""The multiwarcaby turn prover: its verdicts checked by a plain count over every turn and every answer."""

from __future__ import annotations

import pytest

from damka.engine import find_variant
from damka.engine.notation import format_move
from damka.engine.puzzle_proof import GAIN
from damka.engine.puzzle_turn_proof import PLIES, TurnProver

# Positions of self-play games with few pieces, so the plain count stays cheap: (position, the turn's first move).
PUZZLES = [
    ("MW9:S2:T1.1:P32,38:K0:Q1:Oo8/9/9/2o6/9/9/2o6/7o1/5o2o", "f1-g2"),
]


def turns(variant, position):
    """{board after the turn: pieces taken}, through the Variant API, every pair of legal moves."""
    found = {}
    total = position.occupied.bit_count()
    for first in variant.legal_moves(position):
        middle = variant.play(position, first)
        for second in variant.legal_moves(middle):
            after = variant.play(middle, second)
            found[after.occupied] = total - after.occupied.bit_count()
    return found


def plain_wins(variant, position) -> dict[int, int]:
    """{board: points won} of every turn: taken minus the most any whole answer takes."""
    wins = {}
    for (after, taken) in turns(variant, position).items():
        answer_from = type(position)(occupied=after, side=1 - position.side, turn_start=after,
                                     scores=position.scores, active=position.active)
        wins[after] = taken - max(turns(variant, answer_from).values(), default=0)
    return wins


@pytest.mark.parametrize("text, first", PUZZLES)
def test_the_turn_proof_agrees_with_a_plain_count(text: str, first: str) -> None:
    variant = find_variant("multiwarcaby")
    position = variant.parse_position(text)
    proof = TurnProver(variant).prove(position)
    assert proof is not None and format_move(variant, position, proof.solution) == first
    wins = plain_wins(variant, position)
    winners = [board for board, won in wins.items() if won >= GAIN]
    assert len(winners) == 1 and proof.gain == wins[winners[0]]
    here = position
    for move in proof.line[:2]:
        here = variant.play(here, move)
    assert here.occupied == winners[0] and proof.depth == PLIES
    # The answer in the line is one of the best: it takes what the proof counted against the solution.
    for move in proof.line[2:]:
        here = variant.play(here, move)
    assert here.scores[1] - position.scores[1] == wins[winners[0]] and here.scores[0] - position.scores[0] == 0 \
        or (here.scores[0] - position.scores[0]) - (here.scores[1] - position.scores[1]) == proof.gain


def test_two_turns_that_win_make_no_puzzle_and_a_quiet_board_none() -> None:
    variant = find_variant("multiwarcaby")
    # a9 takes b9 and d9 in one move; any second move then wins two: many turns, no single answer.
    two = variant.parse_position("MW9:S2:T1.1:P0,0:K0:Q0:Ooo1o5/9/9/9/9/9/9/9/8o")
    assert sum(1 for won in plain_wins(variant, two).values() if won >= GAIN) != 1
    assert TurnProver(variant).prove(two) is None
    quiet = variant.parse_position("MW9:S2:T1.1:P0,0:K0:Q0:Oo8/9/9/9/9/9/9/9/8o")
    assert TurnProver(variant).prove(quiet) is None


def test_only_two_sided_multiwarcaby_is_proved_by_turns() -> None:
    with pytest.raises(ValueError, match="classic"):
        TurnProver(find_variant("classic"))
    with pytest.raises(ValueError):
        TurnProver(find_variant("multiwarcaby", sides=3))
