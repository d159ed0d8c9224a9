"""Multiwarcaby move generation on bare occupancy bitboards.

All pieces are shared, so the occupancy bitboard *is* the board: a move, the
captures available and the perft tree depend on nothing else. This module
works on plain ints (no position objects) so the hot loops of `perft` stay
cheap; `multiwarcaby.py` wraps it in the `Variant` API.

A *step* moves any piece to an adjacent empty square in any of the eight
directions. A *capture* jumps an adjacent piece onto the empty square beyond;
the same piece may go on jumping, may stop after any jump, never jumps a piece
twice, and may cross or land on squares it has visited (its start square
included). Captured pieces stay on the board, blocking, until the move ends.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator

from damka.engine.geometry import ALL_DIRECTIONS, Geometry

# A capture state is (square the jumper stands on, bitboard of pieces captured
# so far); small tuples hash fast and are all the DFS needs.
CaptureState = tuple[int, int]


@dataclass(frozen=True)
class Board:
    """Precomputed tables of one multiwarcaby geometry (built once at import)."""

    geometry: Geometry
    playable: int = field(init=False)
    # Positive and negated-negative deltas, so whole-board shifts need no sign test.
    up: tuple[int, ...] = field(init=False)
    down: tuple[int, ...] = field(init=False)
    # jumps[sq] = ((over_bit, land_bit, land_square), ...) for the jumps that stay on the board.
    jumps: tuple[tuple[tuple[int, int, int], ...], ...] = field(init=False, repr=False)
    # neighbours[sq] = bitboard of the playable squares one step away.
    neighbours: tuple[int, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        geometry = self.geometry
        deltas = [geometry.deltas[name] for name in ALL_DIRECTIONS]
        size = geometry.stride * geometry.height
        jumps: list[tuple[tuple[int, int, int], ...]] = []
        neighbours: list[int] = []
        for square in range(size):
            table = []
            near = 0
            if geometry.is_playable(square):
                for delta in deltas:
                    over, land = square + delta, square + 2 * delta
                    if geometry.is_playable(over):
                        near |= 1 << over
                        if geometry.is_playable(land):
                            table.append((1 << over, 1 << land, land))
            jumps.append(tuple(table))
            neighbours.append(near)
        object.__setattr__(self, "playable", geometry.playable)
        object.__setattr__(self, "up", tuple(d for d in deltas if d > 0))
        object.__setattr__(self, "down", tuple(-d for d in deltas if d < 0))
        object.__setattr__(self, "jumps", tuple(jumps))
        object.__setattr__(self, "neighbours", tuple(neighbours))

    # -- whole-board tests ----------------------------------------------------

    def step_count(self, occupied: int) -> int:
        """Number of steps (one per from-to pair), by shifts and popcounts."""
        empty = self.playable & ~occupied
        count = 0
        for delta in self.up:
            count += ((occupied << delta) & empty).bit_count()
        for delta in self.down:
            count += ((occupied >> delta) & empty).bit_count()
        return count

    def capturers(self, occupied: int) -> int:
        """Pieces that can make at least one capture (a neighbour, and an empty square beyond)."""
        empty = self.playable & ~occupied
        found = 0
        for delta in self.up:
            found |= (occupied >> delta) & (empty >> 2 * delta)
        for delta in self.down:
            found |= (occupied << delta) & (empty << 2 * delta)
        return found & occupied

    def can_capture_in_turn(self, occupied: int) -> bool:
        """Whether the side to move could capture within a two-move turn:
        a capture now, or a step after which a capture is there."""
        if self.capturers(occupied):
            return True
        for child in self.step_children(occupied):
            if self.capturers(child):
                return True
        return False

    def is_one_step(self, before: int, after: int) -> bool:
        """Whether `after` is `before` with one piece stepped to a neighbouring square."""
        diff = before ^ after
        if diff.bit_count() != 2:
            return False
        gone, came = diff & before, diff & after
        if not gone or not came:
            return False
        return bool(self.neighbours[gone.bit_length() - 1] & came)

    # -- moves as resulting boards ---------------------------------------------

    def step_children(self, occupied: int) -> Iterator[int]:
        """The board after each step."""
        empty = self.playable & ~occupied
        for delta in self.up:
            targets = (occupied << delta) & empty
            while targets:
                low = targets & -targets
                yield occupied ^ low ^ (low >> delta)
                targets ^= low
        for delta in self.down:
            targets = (occupied >> delta) & empty
            while targets:
                low = targets & -targets
                yield occupied ^ low ^ (low << delta)
                targets ^= low

    def capture_states(self, occupied: int, start: int) -> set[CaptureState]:
        """Every (end square, captured bitboard) reachable by the piece on `start`
        with one or more jumps: one per distinct capture move from `start`."""
        jumps = self.jumps
        board = occupied ^ (1 << start)  # the jumper has left its start square
        seen: set[CaptureState] = set()
        for over, land, target in jumps[start]:
            if board & over and not board & land:
                seen.add((target, over))
        if seen:
            self._extend(board, seen, list(seen))
        return seen

    def _extend(self, board: int, seen: set[CaptureState], stack: list[CaptureState]) -> None:
        """Add to `seen` every state reachable from those on `stack` by more jumps."""
        jumps = self.jumps
        while stack:
            square, captured = stack.pop()
            standing = board ^ captured  # pieces not yet captured (captured ones still block landing)
            for over, land, target in jumps[square]:
                if standing & over and not board & land:
                    state = (target, captured | over)
                    if state not in seen:
                        seen.add(state)
                        stack.append(state)

    def children(self, occupied: int) -> set[int]:
        """Every distinct board one move away."""
        result = set(self.step_children(occupied))
        capturers = self.capturers(occupied)
        while capturers:
            low = capturers & -capturers
            start = low.bit_length() - 1
            base = occupied ^ low
            for end, captured in self.capture_states(occupied, start):
                result.add((base ^ captured) | (1 << end))
            capturers ^= low
        return result

    def count_children(self, occupied: int, turn_start: int, second: bool) -> int:
        """len(children) minus the null turn, without building the boards.

        Speed: single jumps are counted with whole-board shifts. A square x is
        a *jump square* in direction d when x+d holds a piece and x+2d is
        empty; a piece on a jump square can jump. A jump from s lands on
        L = s+2d, and the piece can jump on exactly when L is a jump square
        in some direction (never back: that way lies s, which was full). Only
        those pieces go through the deduplicating search for longer chains.
        """
        empty = self.playable & ~occupied
        count = 0
        jump_squares = 0
        chain_starts = 0
        landings = []
        for delta in self.up:
            squares = (occupied >> delta) & (empty >> 2 * delta)
            jumpers = occupied & squares
            count += ((occupied << delta) & empty).bit_count() + jumpers.bit_count()
            jump_squares |= squares
            if jumpers:
                landings.append((jumpers << 2 * delta, 2 * delta))
        for delta in self.down:
            squares = (occupied << delta) & (empty << 2 * delta)
            jumpers = occupied & squares
            count += ((occupied >> delta) & empty).bit_count() + jumpers.bit_count()
            jump_squares |= squares
            if jumpers:
                landings.append((jumpers >> 2 * delta, -2 * delta))
        for landed, shift in landings:
            going_on = landed & jump_squares
            if going_on:
                chain_starts |= going_on >> shift if shift > 0 else going_on << -shift
        if second and self.is_one_step(occupied, turn_start):
            count -= 1  # the step back to the turn-start board is not a legal second move
        if not chain_starts:
            return count
        jumps = self.jumps
        loops: set[int] = set()  # captures ending on their start: equal boards from different starts
        while chain_starts:
            low = chain_starts & -chain_starts
            chain_starts ^= low
            start = low.bit_length() - 1
            board = occupied ^ low
            deep: set[CaptureState] = set()  # chains of two jumps or more
            for over, land, target in jumps[start]:
                if board & over and not board & land:
                    standing = board ^ over
                    for over2, land2, target2 in jumps[target]:
                        if standing & over2 and not board & land2:
                            deep.add((target2, over | over2))
            self._extend(board, deep, list(deep))
            for end, captured in deep:
                if end == start:
                    loops.add(captured)
                else:
                    count += 1
        return count + len(loops)

    # -- perft ----------------------------------------------------------------

    def perft(self, occupied: int, turn_start: int, second: bool, depth: int) -> int:
        """Leaves of the move tree `depth` single moves deep, a node being a
        distinct resulting board at each parent; the second move of a turn may
        not restore the turn-start board."""
        if depth <= 0:
            return 1
        if depth == 1:
            return self.count_children(occupied, turn_start, second)
        children = self.children(occupied)
        total = 0
        if second:
            children.discard(turn_start)
            for child in children:
                total += self.perft(child, child, False, depth - 1)
        else:
            for child in children:
                total += self.perft(child, occupied, True, depth - 1)
        return total


def capture_routes(board: Board, occupied: int, start: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """(landing squares, captured bitboard) of one route per distinct capture
    move from `start` (the first route found by a depth-first search)."""
    jumps = board.jumps
    base = occupied ^ (1 << start)
    seen: set[CaptureState] = set()
    stack: list[tuple[int, int, tuple[int, ...]]] = [(start, 0, ())]
    while stack:
        square, captured, path = stack.pop()
        standing = base ^ captured
        for over, land, target in reversed(jumps[square]):
            if standing & over and not base & land:
                state = (target, captured | over)
                if state not in seen:
                    seen.add(state)
                    route = path + (target,)
                    yield route, state[1]
                    stack.append((target, state[1], route))
