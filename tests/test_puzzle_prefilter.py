"""The cheap look before the proof keeps every real puzzle of a sample proved without it."""

from __future__ import annotations

import pytest

from damka.engine import find_variant
from damka.engine.puzzle_prefilter import may_combine
from damka.engine.puzzle_proof import MaterialProver

# Every classic puzzle proved, without the look, from the first 1,700 positions of the real
# games of ../shared/pdn-corpus/ and self-play seed 1 (benchmarks/puzzles_make.py's candidates).
PROVED_WITHOUT_IT = [
    "W:Wc1,b2,d2,h2,a3,c3,e3,h4:Bg3,a5,c5,g5,b6,d6,f6,h6,e7,g7",
    "W:Wa1,c1,g1,f2,a3,h4:BKe1,c5,e5,b6,f6,a7,c7,f8",
    "W:Wh2,e3,d4,a5,a7:Bh4,g5,d6,f6",
    "B:Wb2,f2,h2,c5:BKe1,g5,c7,g7,b8,d8",
    "B:Wh2,g3,h4,a5,c5:BKc1,f2,f6,h6,c7",
    "W:Wa3,d4,f4,b6,d6:BKe3,h6,b8,f8:H1",
    "W:Wc1,b2,d2,h2,a3,c3,e3,g3,h4:Ba5,c5,e5,g5,b6,d6,f6,h6,e7,g7",
    "B:Wf2,h2,a3,g3,g5,Kd6:BKe1,h4,a5,e5,h6",
    "B:Wb4,a5,d6,Kc7:BKb2,Ke5,a7",
    "B:Wf4,h4,Kc7:BKc1,b4,d6,h6:H1",
    "B:We1,h2,a3,e3,b6,d6:BKc1,h4,a5,e5,b8,f8",
    "W:Wa1,e1,d2,f2,h2,a3,c3,e3,d4,f4:Bh4,a5,b6,d6,f6,h6,a7,c7,d8,f8",
    "W:Wg1,f2,a3,e3,b4,f4,b6:Bh4,c5,g5,f6,h6,a7,d8",
    "W:Wc3,Kc7,Kd8:Bh4,a5,h6,Ke7",
    "B:Wh2,b4,a5,b6:Bh4,d6,h6,b8",
    "W:Wc1,e1,g1,d2,a3,e3,g3,b4,d4:Bh4,c5,b6,d6,f6,h6,b8,d8,f8",
    "B:We1,f2,h2,g3,Kg5:BKc3,f4,h4,a5,e5:H5",
    "B:Wb2,h2,a3,b4,d4,c7,Kf8:BKe1,e3,h4,c5,d6,d8",
    "B:Wa1,c1,e1,g1,c3,a5,c5,e5:Bg5,b6,h6,a7,c7,d8,h8",
    "W:Wh2,Ke3,h4:Bg3,Kb4,Kc5,h6",
    "B:Wc1,g1,b2,a3,e3,h4,c7:BKe1,c5,g5,b6,h6,a7,e7,b8",
    "W:Wc1,g1,a3,c3,Kb4:BKe1,e3,a5,b6",
    "B:Wh2,h4,c5,Kg7:BKe5,g5,f6,h6,a7:H1",
    "B:Wg1,c5,d6,f6,a7:BKe1,h2,a5,b8,f8",
    "B:We1,d2,h2,a3,h4,a5,c5,g7:BKa1,g5,h6,a7,c7,e7,d8",
    "W:Wc1,h2,e3,d4,h4,e5:Bd2,f4,a5,f6,a7,e7,d8,f8",
    "W:Wa1,d2,f2,c3,e3,f4,Ke7:BKc1,h4,a5,c5,h6,a7",
    "W:Wc1,e1,g1,a3,d4,h4:Bc3,g3,e5,d6,f6,h6,c7",
    "B:Wh2,g3,h4,Kd6,Kc7:BKc1,Ke1,Ke3,f6,h6:H1",
    "W:Wf2,h2,c5,Kd8,Kh8:Bd2,Ka3,f4,a7,f8",
    "B:We1,b2,d2,f2,a3,e3,d4,h6:Bc5,b6,d6,f6,e7,b8,d8",
    "B:We1,d2,Kf6,h6:BKh2,g3,c7,d8",
    "W:Wa1,c1,e1,g1,d2,f2,h2,a3,c3,e3,g3,a5:Bc5,e5,g5,d6,h6,a7,c7,e7,b8,d8,f8,h8",
    "B:Wc1,e1,a3,b4,d4,f4,h4,a5,e5,f6:BKh2,d6,a7,c7,b8,d8,f8,h8",
    "W:Wc3,Kd6,Kf6:Bf4,h4,a5",
    "B:Wc1,d4,Kd6,Kd8:BKa1,h4,g5,h6",
    "W:Wh2,g3,c5,d6:BKd2,Kb4,f4,h6,a7,e7",
]


def test_no_puzzle_of_the_sample_is_dropped() -> None:
    variant = find_variant("classic")
    prover = MaterialProver(variant)
    dropped = [fen for fen in PROVED_WITHOUT_IT if not may_combine(prover, variant.parse_position(fen))]
    assert len(PROVED_WITHOUT_IT) == 37 and dropped == []


@pytest.mark.parametrize("name", ["classic", "russian", "international"])
def test_the_start_position_is_passed_over(name: str) -> None:
    """Nothing can be won or offered at the start: the proof is not even tried."""
    variant = find_variant(name)
    assert not may_combine(MaterialProver(variant), variant.start_position())


def test_a_shot_is_kept() -> None:
    """Black b6-c5 gives a man and takes two back (a proved puzzle of tests/test_puzzle_proof.py)."""
    variant = find_variant("classic")
    position = variant.parse_position("B:Wa1,e1,b2,f2,h2,b4,d4:Bg5,b6,d6,a7,g7,h8")
    assert may_combine(MaterialProver(variant), position)
