"""Levels: a table of named strengths; the weak ones err believably, the top one does not."""

from __future__ import annotations

import random

import pytest

from damka.engine import Game, find_variant
from damka.engine.levels import LEVELS, Level, choose_move, find_level, level_names, make_searcher
from damka.engine.notation import parse_move


def test_levels_run_from_beginner_to_full_strength() -> None:
    assert level_names()[0] == "beginner" and level_names()[-1] == "master"
    depths = [level.depth for level in LEVELS]
    assert depths == sorted(depths)
    noise = [level.noise for level in LEVELS]
    assert noise == sorted(noise, reverse=True)
    assert LEVELS[-1].exact and not LEVELS[0].exact


def test_find_level() -> None:
    assert find_level(" Club ").name == "club"
    with pytest.raises(ValueError, match="beginner"):
        find_level("grandmaster")


def test_full_strength_plays_the_search_move() -> None:
    variant = find_variant("classic")
    position = variant.parse_position("W:Wa1,g1,d4,c5:Bg3,h4,a7,c7")
    full_strength_depth_8 = Level("master-8", 8, 1.0, 0, 0.0)
    result = choose_move(variant, position, full_strength_depth_8, rng=random.Random(1))
    assert result.move == parse_move(variant, position, "d4-e5")


def _opening_positions(variant, count: int, seed: int):
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        game = Game(variant)
        for _ in range(rng.randrange(4, 20)):
            moves = game.legal_moves()
            if not moves:
                break
            game.push_unchecked(rng.choice(moves))
        if len(game.legal_moves()) >= 3:
            positions.append(game.position)
    return positions


def test_beginner_differs_from_full_strength_but_not_always() -> None:
    variant = find_variant("classic")
    beginner = find_level("beginner")
    strong = Level("fixed", 4, 1.0, 0, 0.0)
    rng = random.Random(7)
    searcher = make_searcher(variant)
    positions = _opening_positions(variant, 20, seed=2)
    same = sum(
        choose_move(variant, p, beginner, rng=rng).move == choose_move(variant, p, strong, searcher=searcher).move
        for p in positions
    )
    assert 2 <= same <= 18  # believable: often the good move, often not


def test_beginner_sometimes_misses_an_optional_capture() -> None:
    variant = find_variant("classic", free_capture=True)
    # A free capture of a loose man: d4xf6 takes e5 for nothing.
    position = variant.parse_position("W:Wa1,d4:Be5,h8")
    capture = parse_move(variant, position, "d4xf6")
    rng = random.Random(3)
    choices = [choose_move(variant, position, find_level("beginner"), rng=rng).move for _ in range(60)]
    missed = sum(move != capture for move in choices)
    assert 3 <= missed <= 40
    master = [choose_move(variant, position, Level("m", 4, 1.0, 0, 0.0)).move for _ in range(3)]
    assert master == [capture] * 3


def test_learner_levels_always_play_legal_moves() -> None:
    for name, options in (("russian", {}), ("american", {}), ("multiwarcaby", {"sides": 3})):
        variant = find_variant(name, **options)
        rng = random.Random(11)
        for position in _opening_positions(variant, 5, seed=4):
            for level in LEVELS[:3]:
                move = choose_move(variant, position, level, rng=rng).move
                assert move in variant.legal_moves(position)


def test_the_time_setting_overrides_the_level() -> None:
    variant = find_variant("classic")

    class Clock:
        t = 0.0

        def __call__(self) -> float:
            self.t += 0.01
            return self.t

    clock = Clock()
    result = choose_move(variant, variant.start_position(), find_level("master"), time_limit=0.3, now=clock)
    assert result.elapsed <= 0.3 * 1.1
