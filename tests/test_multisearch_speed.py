"""The multiwarcaby search made faster (issue 26: "the same gain in every
variant") plays exactly as before: at a fixed depth it returns the same move
and score, scores the same root moves alike (the learner levels pick among
them) and expands the same number of nodes. The expected values were taken
from the search before the speed-up (engine/multisearch.py at 4574cb6)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from damka.engine import Game, find_variant
from damka.engine.multisearch import MultiSearcher
from damka.engine.notation import format_move

# (variant, options, depth, ply of the seeded game, move, score, nodes, root scores best first)
BEFORE = [
    ('multiwarcaby', {}, 4, 0, 'g3xi1', 1400, 164,
     (1400, 1350, 1350, 1350, 1300, 1300, 1200, 1200)),
    ('multiwarcaby', {}, 4, 7, 'g1xi1', 760, 118,
     (760, 760, 750, 730, 700, 690, 690, 590)),
    ('multiwarcaby', {}, 4, 20, 'f4xd2xd4xf4xh2', 1400, 151,
     (1400, 1400, 1400, 1400, 1250, 1250, 1250, 1050)),
    ('multiwarcaby', {}, 4, 33, 'a2xc2xc4xa6xa4xc4', 250, 79,
     (250, 0, -50, -60, -120, -120, -160, -180)),
    ('multiwarcaby', {'sides': 3}, 4, 0, 'c3xe5', -1475, 147,
     (-1475, -1475, -1475, -1500, -1500, -1650, -1650, -1650)),
    ('multiwarcaby', {'sides': 3}, 4, 7, 'i9xg9', -1275, 78,
     (-1275, -1275, -1285, -1290, -1300, -1300, -1335, -1425)),
    ('multiwarcaby', {'sides': 3}, 4, 20, 'f4xd2xd4xf4xh2', -1425, 147,
     (-1425, -1550, -1625, -1675, -1700, -1775, -1825, -1950)),
    ('multiwarcaby', {'sides': 3}, 4, 33, 'c6xc8xa6xc6xa4xc4xc2', -860, 77,
     (-860, -860, -880, -955, -960, -960, -960, -990)),
    ('multiwarcaby', {'sides': 4}, 4, 0, 'c3xe5', -1450, 147,
     (-1450, -1450, -1450, -1483, -1483, -1633, -1633, -1633)),
    ('multiwarcaby', {'sides': 4}, 4, 7, 'i9xg9', -1203, 83,
     (-1203, -1206, -1206, -1226, -1233, -1233, -1263, -1366)),
    ('multiwarcaby', {'sides': 4}, 4, 20, 'f4xd2xd4xf4xh2', -1383, 147,
     (-1383, -1533, -1600, -1666, -1683, -1750, -1783, -1933)),
    ('multiwarcaby', {'sides': 4}, 4, 33, 'c6xc8xa6xc6xa4xc4xc2', -876, 90,
     (-876, -906, -926, -926, -926, -926, -926, -1030)),
    ('multiwarcaby', {'teams': True}, 4, 0, 'g3xi1', 1400, 164,
     (1400, 1350, 1350, 1350, 1300, 1300, 1200, 1200)),
    ('multiwarcaby', {'teams': True}, 4, 7, 'g1xi1', 760, 118,
     (760, 760, 750, 730, 700, 690, 690, 590)),
    ('multiwarcaby', {'teams': True}, 4, 20, 'f4xd2xd4xf4xh2', 1400, 151,
     (1400, 1400, 1400, 1400, 1250, 1250, 1250, 1050)),
    ('multiwarcaby', {'teams': True}, 4, 33, 'a2xc2xc4xa6xa4xc4', 250, 79,
     (250, 0, -50, -60, -120, -120, -160, -180)),
    ('multiwarcaby7', {}, 5, 0, 'b6xb8', 650, 441,
     (650, 650, 650, 600, 600, 560, 560, 520)),
    ('multiwarcaby7', {}, 5, 7, 'd4xf2xf4xd4xd6xb8', -500, 338,
     (-500, -550, -550, -550, -650, -650, -700, -700)),
    ('multiwarcaby7', {}, 5, 20, 'b5xd3', -220, 289,
     (-220, -320, -320, -320, -320, -350, -350, -400)),
    ('multiwarcaby7', {}, 5, 33, 'f6xh4xh6xf6xf4xd4', -750, 175,
     (-750, -750, -750, -900, -950, -1100, -1100, -1200)),
]


def position_at(variant: Any, ply: int, seed: int = 5) -> Any:
    """The position after `ply` plies of a seeded random game."""
    rng = random.Random(seed)
    game = Game(variant)
    for _ in range(ply):
        game.push_unchecked(rng.choice(game.legal_moves()))
    return game.position


@pytest.mark.parametrize("name, options, depth, ply, move, score, nodes, root_scores", BEFORE)
def test_the_search_chooses_as_before_at_a_fixed_depth(name: str, options: dict[str, Any], depth: int, ply: int,
                                                      move: str, score: int, nodes: int,
                                                      root_scores: tuple[int, ...]) -> None:
    variant = find_variant(name, **options)
    position = position_at(variant, ply)
    result = MultiSearcher(variant).search(position, max_depth=depth)
    assert (format_move(variant, position, result.move), result.score, result.nodes) == (move, score, nodes)
    assert tuple(sorted(result.root_scores.values(), reverse=True)) == root_scores


def test_the_positions_are_middle_games_with_captures() -> None:
    """The cases are worth checking: many moves to choose from, captures among them."""
    for name, options, _depth, ply, *_ in BEFORE:
        variant = find_variant(name, **options)
        moves = variant.legal_moves(position_at(variant, ply))
        assert len(moves) > 10 and any(move.captures for move in moves), (name, options, ply)
