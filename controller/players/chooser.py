"""Who picks the computer's move: a small interface and a placeholder.

`Chooser.choose(variant, position) -> Move` is all the session asks. The
placeholder prefers the move that captures most and breaks ties with a seeded
random generator, so games against it are reproducible; a real engine
(`damka.engine.search`) replaces it behind the same interface.
"""

from __future__ import annotations

import random
from typing import Protocol

from damka.engine.move import Move
from damka.engine.variant import Position, Variant


class Chooser(Protocol):
    def choose(self, variant: Variant, position: Position) -> Move:
        """A legal move in `position` (the position must have one)."""
        ...


class GreedyChooser:
    """Largest capture first, else a seeded random move."""

    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)

    def choose(self, variant: Variant, position: Position) -> Move:
        moves = variant.legal_moves(position)
        if not moves:
            raise ValueError("no legal move to choose from")
        most = max(len(move.captures) for move in moves)
        best = [move for move in moves if len(move.captures) == most]
        return self._random.choice(best)
