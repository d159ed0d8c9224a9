"""The puzzle sets that ship with Damka: present, readable, and proved again by the engine.

A random sample of 30 of each set is proved again (`damka puzzles check
VARIANT --sample 30` logic: the same single winning move at the same depth).
That costs a few seconds of CPU a set (the whole classic set of 220 was
proved again in about 10 s), so CI runs it in full.
"""

from __future__ import annotations

import random
from importlib import resources
from pathlib import Path

import pytest

from damka.engine import find_variant
from damka.teaching.puzzle_maker import pdn_positions
from damka.teaching.puzzles import board_of, reprove, shipped

VARIANTS = ["classic", "russian", "international", "multiwarcaby"]
AT_LEAST = {"classic": 300, "russian": 300, "international": 258, "multiwarcaby": 100}   # what a set promises


def test_every_variant_ships_a_set_in_the_package() -> None:
    folder = resources.files("damka.teaching.sets")
    files = sorted(entry.name for entry in folder.iterdir() if entry.name.endswith(".json"))
    assert files == sorted(f"{name}.json" for name in VARIANTS)
    for name in VARIANTS:
        puzzles = shipped(name)
        assert puzzles and len({puzzle.fen for puzzle in puzzles}) == len(puzzles), name
        assert len({puzzle.id for puzzle in puzzles}) == len(puzzles), name
        assert len(puzzles) >= AT_LEAST[name], (name, len(puzzles))


def check_sample(name: str, size: int) -> None:
    variant = find_variant(name)
    puzzles = shipped(name)
    assert puzzles, name
    sample = random.Random().sample(puzzles, min(size, len(puzzles)))
    problems = [problem for puzzle in sample if (problem := reprove(variant, puzzle)) is not None]
    assert problems == [], problems


@pytest.mark.parametrize("name", VARIANTS)
def test_thirty_of_each_set_are_proved_again(name: str) -> None:
    check_sample(name, 30)


@pytest.mark.parametrize("name", VARIANTS)
def test_every_shipped_puzzle_is_a_legal_position_of_its_sets_board(name: str) -> None:
    """No man on its own crowning row, no side over its starting count, and nothing whose squares
    and line plainly say another board (an English checkers problem in the 10x10 set)."""
    variant = find_variant(name)
    puzzles = shipped(name)
    assert puzzles
    for puzzle in puzzles:
        variant.parse_position(puzzle.fen)   # PositionError for an impossible one
        assert board_of(variant, puzzle) == variant.name, puzzle.id


CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "pdn-corpus"


@pytest.mark.skipif(not CORPUS.is_dir(), reason="needs ../shared/pdn-corpus")
def test_every_international_puzzle_of_a_corpus_file_comes_from_a_record_of_its_board() -> None:
    """The maker reads a record without GameType as `damka import` does: the puzzles it once took
    from English checkers problems read as 10x10 positions (bridges.pdn, goulds.pdn...) are gone."""
    variant = find_variant("international")
    files = {path.name: path for path in CORPUS.rglob("*.pdn")}
    puzzles = [puzzle for puzzle in shipped("international") if puzzle.source.split(" game ")[0] in files]
    assert len(puzzles) > 100
    sources = {puzzle.source.split(" game ")[0] for puzzle in puzzles}
    made = {candidate.source: variant.format_position(candidate.position)
            for candidate in pdn_positions(variant, [files[name] for name in sorted(sources)])}
    assert [puzzle.id for puzzle in puzzles if made.get(puzzle.source) != puzzle.fen] == []
