"""The tracker: from what the reed switches see to what happened on the board.

It never turns single lift/drop events into moves. Given the game (its
position at the start of the turn and its history), the whole occupancy the
sensor reports and the time, it says what the board shows:

- `UNCHANGED`: the position of the turn start;
- `IN_PROGRESS`: part of some legal move (a lifted piece, a piece put down on a
  landing square of a capture chain, captured pieces removed before, during or
  after the mover moves); under majority rules a half-cleared capture is this;
- `HALF_TURN` (multiwarcaby): one complete move of the turn's two;
- `COMPLETE`: the occupancy after a legal move (multiwarcaby: a legal
  two-move turn from the turn start, or a first move that ends the game, a
  turn of its own), maybe `extendable` (a capture chain that may go on);
- `TAKEBACK`: an earlier position (`plies_back` plies ago);
- `START`: the variant's start position (a new game);
- `UNKNOWN`: nothing legal explains it.

Only the occupancy matters, so the order of lifts, drops and removals does not,
a slid piece is not a move, a king capture ending on its start square shows
only removals, and routes with the same result are one move. Colours and kings
are the engine's state.

Speed: for each position the occupancy after every legal move is precomputed
once (`PositionIndex`, cached by position), so a snapshot costs one dict
lookup, plus a scan of the moves that touch a changed square when it is not a
complete move. A multiwarcaby turn is two moves: the positions after each
candidate first move are indexed lazily and only for first moves that a cheap
bit test cannot rule out (the second move adds at most one piece).

The tracker is a pure function of (game, occupancy, time, previous tracker
state): `Tracker.observe` returns the new state and a `Reading`; its caches
only memoise.

Parts, each owning its own state: `board_map.py` (square names to bits),
`position_index.py` (one position's moves and the occupancy after each, the
memo, the bit tests that rule second moves out); this module reads.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from damka.controller.board.position_index import LruCache, PositionIndex, TurnShapes
from damka.engine.game import Game
from damka.engine.move import Move
from damka.engine.variant import Position, Variant


@dataclass(frozen=True)
class TrackerSettings:
    """Times in ms. `settle_ms`: quiet time before a complete move counts
    (and how long a multiwarcaby first move is held to count as made: shorter is
    a slide); `extend_ms`: quiet time before a move that could still be extended counts
    (casual mode, no clock); `grace_ms`: how long an unexplained board waits
    before guidance LEDs; `takeback_ms`: quiet time before an earlier (or the
    start) position counts as a take-back (or a new game), longer than a
    move's so that a brief sensor fault is not one; `takeback_depth`: how many plies back a take-back may reach."""

    settle_ms: int = 300
    extend_ms: int = 1500
    grace_ms: int = 2000
    takeback_ms: int = 1000
    takeback_depth: int = 20


class Kind(enum.Enum):
    UNCHANGED = "unchanged"
    IN_PROGRESS = "in_progress"
    HALF_TURN = "half_turn"
    COMPLETE = "complete"
    TAKEBACK = "takeback"
    START = "start"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Progress:
    """A move being made: `before` are the turn's moves already complete
    (multiwarcaby), `move` the one in the hand, `base` the occupancy before it."""

    before: tuple[Move, ...]
    move: Move
    base: int


@dataclass(frozen=True)
class Reading:
    kind: Kind
    occupancy: int
    turns: tuple[tuple[Move, ...], ...] = ()  # COMPLETE / HALF_TURN: candidate move sequences
    extendable: bool = False                  # COMPLETE / HALF_TURN: a chain that may continue
    progress: tuple[Progress, ...] = ()       # IN_PROGRESS
    plies_back: int = 0                       # TAKEBACK
    missing: int = 0                          # squares empty that were occupied at the turn start
    extra: int = 0                            # squares occupied that were empty at the turn start


@dataclass(frozen=True)
class TrackerState:
    """What the tracker remembers between snapshots."""

    occupancy: int = -1
    changed_at: int = 0
    unknown_since: int | None = None


class Tracker:
    """Reads occupancy snapshots against a game. One per variant; its caches
    only memoise (positions are immutable), so `observe` stays pure."""

    def __init__(self, variant: Variant, settings: TrackerSettings | None = None) -> None:
        self.variant = variant
        self.settings = settings or TrackerSettings()
        self.two_moves = variant.moves_per_turn == 2
        self._indices = LruCache(1024)
        self._occupancies = LruCache(1024)
        self._readings = LruCache(64)
        self._start = variant.start_position()
        self._start_occ = variant.occupancy(self._start)
        self._shapes = TurnShapes(variant.geometry)

    # -- indices ------------------------------------------------------------

    def _key(self, position: Position) -> Any:
        try:
            hash(position)
            return position
        except TypeError:  # an unhashable position type: fall back on its text
            return self.variant.format_position(position)

    def occupancy_of(self, position: Position) -> int:
        key = self._key(position)
        occ = self._occupancies.get(key)
        if occ is None:
            occ = self.variant.occupancy(position)
            self._occupancies.put(key, occ)
        return occ

    def index(self, position: Position, allowed: Sequence[Move] | None = None) -> PositionIndex:
        """The position's index (of `allowed` moves only, when given)."""
        key = (self._key(position), None if allowed is None else tuple(m.key for m in allowed))
        index = self._indices.get(key)
        if index is None:
            moves = self.variant.legal_moves(position) if allowed is None else list(allowed)
            index = PositionIndex(position, self.occupancy_of(position), moves)
            self._indices.put(key, index)
        return index

    def _child(self, parent: PositionIndex, i: int, allowed: Sequence[Move] | None) -> PositionIndex:
        child, new = parent.child(i, allowed, self.variant)
        if new and allowed is None:  # also found by position (the record's notation asks)
            self._indices.put((self._key(child.position), None), child)
        return child

    # -- reading ------------------------------------------------------------

    def read(self, game: Game, occupancy: int, allowed: Sequence[Move] | None = None,
             takebacks: bool = True, prefer: Sequence[Move] = ()) -> Reading:
        """What `occupancy` shows, relative to the game's current (turn start) position.

        `takebacks=False` (tournament play) reads neither earlier positions nor
        the start position: such a board is unknown. `prefer` (multiwarcaby):
        first moves made on the board this turn (shown complete and held for
        the settle time: `PendingTurn`); a turn starting with
        one of them is looked for first, and when one is found the other first
        moves are not searched. `allowed` restricts the legal moves (the computer's chosen turn: one
        move, or two in multiwarcaby)."""
        position = game.position
        key = (self._key(position), occupancy, None if allowed is None else tuple(m.key for m in allowed),
               takebacks, game.moves, tuple(m.key for m in prefer))
        cached = self._readings.get(key)
        if cached is not None:
            return cached
        reading = self._read(game, occupancy, allowed, takebacks, prefer)
        self._readings.put(key, reading)
        return reading

    def _read(self, game: Game, occ: int, allowed: Sequence[Move] | None, takebacks: bool,
              prefer: Sequence[Move]) -> Reading:
        base = self.occupancy_of(game.position)
        if occ == base:  # before any move generation: a commit's re-read stays cheap
            return Reading(Kind.UNCHANGED, occ)
        over = game.is_over
        first_allowed = None if allowed is None else allowed[:1]
        index = self.index(game.position, () if over else first_allowed)
        missing = base & ~occ
        extra = occ & ~base
        hits = index.by_after.get(occ)
        if hits:
            turns = tuple((index.moves[i],) for i in hits)
            extendable = any(index.extendable(i) for i in hits)
            # A first move that ends the game is a whole turn (RULES.md: recorded alone).
            half = self.two_moves and index.turn_goes_on(hits[0], self.variant)
            kind = Kind.HALF_TURN if half else Kind.COMPLETE
            return Reading(kind, occ, turns, extendable, missing=missing, extra=extra)
        second_allowed = None if allowed is None else allowed[1:2]
        if self.two_moves and allowed is not None and len(allowed) == 2:
            # The computer's whole turn is known: the board it leaves is that turn, even
            # when its first move part-way leaves the same board (c5xe5, then e5-d5 onto
            # the square of the piece it took: only c5 looks empty).
            pairs = self._pairs_from(index, range(len(index.moves)), occ, second_allowed, True)
            if pairs:
                return Reading(Kind.COMPLETE, occ, tuple(p[:2] for p in pairs), missing=missing, extra=extra)
        # A part-way first move is read before a complete pair (a pair is
        # searched for on demand when the side presses: `complete_pairs`).
        singles = index.progressing(occ)
        if singles:
            progress = tuple(Progress((), index.moves[i], base) for i in singles)
            return Reading(Kind.IN_PROGRESS, occ, progress=progress, missing=missing, extra=extra)
        if self.two_moves:
            # First moves made on the board first (speed: one second-move index
            # instead of one per legal first move), then all of them.
            seen = [i for i in (index.find(move) for move in prefer) if i is not None]
            for firsts in ((seen, range(len(index.moves))) if seen else (range(len(index.moves)),)):
                pairs = self._pairs_from(index, firsts, occ, second_allowed, True)
                if pairs:
                    return Reading(Kind.COMPLETE, occ, tuple(p[:2] for p in pairs), missing=missing, extra=extra)
                pairs = self._pairs_from(index, firsts, occ, second_allowed, False)
                if pairs:
                    progress = tuple(Progress((m1,), m2, after) for m1, m2, after in pairs)
                    return Reading(Kind.IN_PROGRESS, occ, progress=progress, missing=missing, extra=extra)
        if takebacks and game.ply:
            back = self.takeback_plies(game, occ)
            if back:
                return Reading(Kind.TAKEBACK, occ, plies_back=back, missing=missing, extra=extra)
        if takebacks and occ == self._start_occ and (game.ply or game.position != self._start):
            return Reading(Kind.START, occ, missing=missing, extra=extra)
        return Reading(Kind.UNKNOWN, occ, missing=missing, extra=extra)

    def complete_pairs(self, game: Game, occupancy: int, allowed: Sequence[Move] | None = None,
                       prefer: Sequence[Move] = ()) -> tuple[tuple[Move, Move], ...]:
        """Every two-move turn from the game's position that leaves `occupancy`."""
        if not self.two_moves or game.is_over:
            return ()
        index = self.index(game.position, None if allowed is None else allowed[:1])
        second = None if allowed is None else allowed[1:2]
        return tuple(p[:2] for p in self._pairs(index, occupancy, second, True, prefer))

    def _pairs(self, index: PositionIndex, occ: int, allowed: Sequence[Move] | None, complete: bool,
               prefer: Sequence[Move] = ()) -> list[tuple[Move, Move, int]]:
        """Two-move turns whose result is `occ` (complete) or in progress towards it."""
        if prefer:
            first = [i for i in (index.find(move) for move in prefer) if i is not None]
            found = self._pairs_from(index, first, occ, allowed, complete)
            if found:
                return found
        return self._pairs_from(index, range(len(index.moves)), occ, allowed, complete)

    def _pairs_from(self, index: PositionIndex, firsts: Iterable[int], occ: int, allowed: Sequence[Move] | None,
                    complete: bool) -> list[tuple[Move, Move, int]]:
        found = []
        plausible = self._shapes.plausible_complete if complete else self._shapes.plausible_progress
        after = index.after
        for i in firsts:
            occ1 = after[i]
            added = occ & ~occ1
            if added & (added - 1):
                continue  # the second move puts down at most one piece
            removed = occ1 & ~occ
            if not removed or not plausible(removed, added):
                continue
            child = self._child(index, i, allowed)
            if complete:
                for j in child.by_after.get(occ, ()):
                    found.append((index.moves[i], child.moves[j], occ1))
            else:
                for j in child.progressing(occ):
                    found.append((index.moves[i], child.moves[j], occ1))
        return found

    def takeback_plies(self, game: Game, occ: int) -> int:
        """How many plies back the board shows an earlier turn start (0: none within reach)."""
        positions = game.positions
        variant = self.variant
        depth = self.settings.takeback_depth
        last = len(positions) - 1
        for k in range(last - 1, max(-1, last - 1 - depth), -1):
            position = positions[k]
            if self.two_moves and variant.move_in_turn(position):
                continue
            if self.occupancy_of(position) == occ:
                return last - k
        return 0

    # -- the pure step --------------------------------------------------------

    def observe(self, game: Game, state: TrackerState, occupancy: int, now: int,
                allowed: Sequence[Move] | None = None, takebacks: bool = True,
                prefer: Sequence[Move] = ()) -> tuple[TrackerState, Reading]:
        """Read one snapshot; the new state records when the occupancy last changed
        and since when the board has been unexplained."""
        reading = self.read(game, occupancy, allowed, takebacks, prefer)
        changed_at = now if occupancy != state.occupancy else state.changed_at
        if reading.kind is Kind.UNKNOWN:
            unknown_since = state.unknown_since if state.unknown_since is not None else now
        else:
            unknown_since = None
        return TrackerState(occupancy, changed_at, unknown_since), reading

    def settled(self, state: TrackerState, now: int, extendable: bool = False, wait: int | None = None) -> bool:
        if wait is None:
            wait = self.settings.extend_ms if extendable else self.settings.settle_ms
        return now - state.changed_at >= wait

    def guidance_due(self, state: TrackerState, now: int) -> bool:
        return state.unknown_since is not None and now - state.unknown_since >= self.settings.grace_ms
