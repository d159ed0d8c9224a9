"""The legal moves of one position with the occupancy after each, built once
and memoised, so a sensor snapshot costs one dict lookup (see tracker.py).

Each part owns its own tables: a `PositionIndex` its position's moves and the
indexes of the second moves after them (multiwarcaby), a `LruCache` the
tracker's memo, `TurnShapes` a geometry's bit tables that rule second moves
out before any are generated."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Sequence

from damka.controller.board.board_map import bits_of, each_bit
from damka.engine.geometry import Geometry
from damka.engine.move import Move
from damka.engine.variant import Position, Variant


class PositionIndex:
    """The legal moves of one position, with the occupancy after each."""

    __slots__ = ("position", "occ", "moves", "after", "start", "caps", "by_after", "_path", "_by_touch",
                 "_extendable", "_children", "_keys", "_goes_on")

    def __init__(self, position: Position, occupancy: int, moves: Sequence[Move]) -> None:
        self.position = position
        self.occ = occupancy
        self.moves = list(moves)
        self.after: list[int] = []
        self.start: list[int] = []
        self.caps: list[int] = []
        self.by_after: dict[int, list[int]] = {}
        after_list, start_list, caps_list, by_after = self.after, self.start, self.caps, self.by_after
        for i, move in enumerate(self.moves):
            start = 1 << move.start
            caps = 0
            for square in move.captures:
                caps |= 1 << square
            after = (occupancy & ~start & ~caps) | 1 << move.path[-1]
            start_list.append(start)
            caps_list.append(caps)
            after_list.append(after)
            hits = by_after.get(after)
            if hits is None:
                by_after[after] = [i]
            else:
                hits.append(i)
        # Built on first use (speed: most second-move indices are only looked up by result).
        self._path: list[int] | None = None
        self._by_touch: dict[int, list[int]] | None = None
        self._extendable: dict[int, bool] = {}
        # Second-move indices by (first move, the second moves allowed: None for all legal ones).
        self._children: dict[tuple[int, tuple | None], "PositionIndex"] = {}
        self._keys: dict[tuple, int] | None = None
        self._goes_on: dict[int, bool] = {}

    @property
    def path(self) -> list[int]:
        if self._path is None:
            self._path = [bits_of(move.path) for move in self.moves]
        return self._path

    @property
    def by_touch(self) -> dict[int, list[int]]:
        if self._by_touch is None:
            table: dict[int, list[int]] = {}
            for i, start in enumerate(self.start):
                touch = start | self.caps[i]
                while touch:
                    low = touch & -touch
                    table.setdefault(low, []).append(i)
                    touch ^= low
            self._by_touch = table
        return self._by_touch

    def find(self, move: Move) -> int | None:
        """The index of `move` here, or None."""
        if self._keys is None:
            self._keys = {m.key: i for i, m in enumerate(self.moves)}
        return self._keys.get(move.key)

    def extendable(self, i: int) -> bool:
        """Could move `i` be the first part of a longer capture by the same piece?"""
        cached = self._extendable.get(i)
        if cached is None:
            caps = self.caps[i]
            start = self.start[i]
            cached = bool(caps) and any(
                j != i and self.start[j] == start and self.caps[j] & caps == caps and self.caps[j] != caps
                for j in range(len(self.moves))
            )
            self._extendable[i] = cached
        return cached

    def progressing(self, occupancy: int) -> list[int]:
        """Moves that `occupancy` is a part-way stage of (not the finished move)."""
        removed = self.occ & ~occupancy
        added = occupancy & ~self.occ
        if not removed or added & (added - 1):
            return []  # nothing lifted, or two new squares: not one piece in the hand
        low = removed & -removed
        found = []
        path = self.path
        for i in self.by_touch.get(low, ()):
            start = self.start[i]
            if removed & ~(start | self.caps[i]):
                continue
            if added and not (removed & start and added & path[i]):
                continue
            if self.after[i] == occupancy:
                continue
            found.append(i)
        return found

    def turn_goes_on(self, i: int, variant: Variant) -> bool:
        """Whether a second move follows move `i` (multiwarcaby; not when it ends the game)."""
        goes_on = self._goes_on.get(i)
        if goes_on is None:
            goes_on = variant.turn_goes_on(variant.play(self.position, self.moves[i]))
            self._goes_on[i] = goes_on
        return goes_on

    def child(self, i: int, allowed: Sequence[Move] | None, variant: Variant) -> tuple["PositionIndex", bool]:
        """The index of the second moves after move `i` (of `allowed` only, when
        given), and whether it was built now. Keyed by the second moves allowed
        too: a new plan with the same first move (the computer's after a
        take-back) must not read the old one's second."""
        key = (i, None if allowed is None else tuple(m.key for m in allowed))
        child = self._children.get(key)
        if child is not None:
            return child, False
        position = variant.play(self.position, self.moves[i])
        if not self.turn_goes_on(i, variant):
            moves: list[Move] = []  # the first move ended the game: no second move
        else:
            moves = variant.legal_moves(position) if allowed is None else list(allowed)
        child = PositionIndex(position, self.after[i], moves)
        self._children[key] = child
        return child, True


@dataclass
class LruCache:
    """A small least-recently-used table: the tracker's memo of indexes and readings."""

    size: int = 512
    table: OrderedDict = field(default_factory=OrderedDict)

    def get(self, key: Any) -> Any:
        value = self.table.get(key)
        if value is not None:
            self.table.move_to_end(key)
        return value

    def put(self, key: Any, value: Any) -> None:
        self.table[key] = value
        if len(self.table) > self.size:
            self.table.popitem(last=False)


class TurnShapes:
    """Multiwarcaby geometry, to rule out second moves without generating them
    (speed: legal move generation for a 76-piece position costs milliseconds,
    these bit tests microseconds). A step goes to one of the 8 neighbours; a
    jumper keeps its file and rank parity and every captured piece has another.
    The tables are built on first use."""

    def __init__(self, geometry: Geometry) -> None:
        self.geometry = geometry
        self._geo_tables: tuple[dict[int, int], dict[int, int]] | None = None

    def _tables(self) -> tuple[dict[int, int], dict[int, int]]:
        tables = self._geo_tables
        if tables is None:
            geometry = self.geometry
            adjacent: dict[int, int] = {}
            same: dict[int, int] = {}
            classes: dict[tuple[int, int], int] = {}
            squares = list(geometry.squares)
            for sq in squares:
                f, r = geometry.file_rank(sq)
                classes[(f % 2, r % 2)] = classes.get((f % 2, r % 2), 0) | 1 << sq
            for sq in squares:
                f, r = geometry.file_rank(sq)
                mask = 0
                for direction in geometry.deltas:
                    other = geometry.neighbour(sq, direction)
                    if other is not None:
                        mask |= 1 << other
                adjacent[1 << sq] = mask
                same[1 << sq] = classes[(f % 2, r % 2)]
            tables = (adjacent, same)
            self._geo_tables = tables
        return tables

    def plausible_complete(self, removed: int, added: int) -> bool:
        if not added:
            return removed.bit_count() >= 3  # a chain back to its start square
        adjacent, same = self._tables()
        if removed & (removed - 1) == 0:
            return bool(adjacent.get(removed, 0) & added) or self._jump_shape(removed, removed, added, same)
        return any(self._jump_shape(bit, removed, added, same) for bit in each_bit(removed))

    def plausible_progress(self, removed: int, added: int) -> bool:
        if not added:
            return True
        _, same = self._tables()
        return any(self._jump_shape(bit, removed, added, same) for bit in each_bit(removed))

    @staticmethod
    def _jump_shape(start: int, removed: int, landing: int, same: dict[int, int]) -> bool:
        """Could a piece from `start` land on `landing` by jumping, capturing `removed` minus the start?"""
        cls = same.get(start, 0)
        return bool(landing & cls) and not (removed & ~start) & cls
