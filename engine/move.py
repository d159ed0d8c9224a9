"""Moves: a start square, the landing squares in order, the captured squares.

Two routes with the same start, end and set of captured pieces are the same
move (that is what the players see on the board), so equality and hashing use
only (start, end, captures); `path` keeps one route for display and records.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, eq=False, slots=True)
class Move:
    """One move of one piece. Squares are geometry indices (see `geometry`)."""

    start: int
    path: tuple[int, ...]
    captures: frozenset[int] = frozenset()

    @property
    def end(self) -> int:
        return self.path[-1]

    @property
    def is_capture(self) -> bool:
        return bool(self.captures)

    @property
    def key(self) -> tuple[int, int, frozenset[int]]:
        return (self.start, self.path[-1], self.captures)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        captures = f", frozenset({sorted(self.captures)})" if self.captures else ""
        return f"Move({self.start}, {self.path!r}{captures})"
