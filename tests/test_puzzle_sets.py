"""The puzzle sets that ship with Damka: present, readable, and proved again by the engine.

A random sample of 30 of each set is proved again (`damka puzzles check
VARIANT --sample 30` logic: the same single winning move at the same depth).
That costs a few seconds of CPU a set (the whole classic set of 220 was
proved again in about 10 s), so CI runs it in full.
"""

from __future__ import annotations

import random
from importlib import resources

import pytest

from damka.engine import find_variant
from damka.teaching.puzzles import reprove, shipped

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
