"""What the LEDs show: layers of (square, role) merged by role priority.

Each function here builds one layer from what the tracker read; the session
picks the layers its mode shows (see docs/controller.md) and `compose` merges
them, keeping for each square the role listed first in `Role`.

Layers:
- `guidance`: PUT_HERE on squares that should hold a piece, TAKE_AWAY on
  squares that should be empty (setup, an unexplained board after the grace
  period, a take-back request);
- `learning`: what a beginner sees: pieces that must capture (MUST_MOVE)
  before anything is lifted; the lifted piece (LIFTED), its legal landing
  squares (LEGAL_TARGET: the next landings of a chain when the piece stands on
  one, else the first landings and the ends), the pieces it captures that are
  still on the board (TO_CAPTURE); a lifted piece that may not move
  (ILLEGAL_LIFT);
- `planned`: a move to carry out: the computer's (COMPUTER_FROM/TO) or a hint
  (HINT_FROM/TO), with its captures as TO_CAPTURE;
- `last_move`: LAST_MOVE on the start and landing squares of the move just committed;
- `flag`: FLAG on the squares a refused press is about.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from damka.controller.board.board_map import BoardMap

from damka.controller.board.position_index import PositionIndex

from damka.controller.board.tracker import Kind, Reading
from damka.controller.words import say
from damka.engine.move import Move
from damka.hardware.interfaces import ROLE_PRIORITY, Role

Layer = list[tuple[str, Role]]


def compose(*layers: Iterable[tuple[str, Role]]) -> dict[str, Role]:
    """Merge layers; on a square shared by two roles the higher-priority role wins."""
    frame: dict[str, Role] = {}
    for layer in layers:
        for square, role in layer:
            held = frame.get(square)
            if held is None or ROLE_PRIORITY[role] < ROLE_PRIORITY[held]:
                frame[square] = role
    return frame


def squares(board: BoardMap, bits: int, role: Role) -> Layer:
    return [(name, role) for name in board.names(bits)]


def guidance(board: BoardMap, occupancy: int, target: int) -> Layer:
    """Where the board differs from `target`: put a piece here / take this away."""
    return squares(board, target & ~occupancy, Role.PUT_HERE) + squares(board, occupancy & ~target, Role.TAKE_AWAY)


def guidance_message(board: BoardMap, occupancy: int, target: int, held: int | None = None) -> str:
    """One line for the screen naming the first square to fix. `held`: the
    squares whose pieces stood there in this game before (None: all of
    `target`, a game in play); a piece goes "back on" only those, else "on"
    (setting up: nothing stood anywhere yet)."""
    missing = board.names(target & ~occupancy)
    extra = board.names(occupancy & ~target)
    held = target if held is None else held
    parts = []
    if missing:
        back = say("hint.back") if board.bits(missing[:1]) & held else ""
        parts.append(say("hint.put_piece", back=back, square=missing[0]))
    if extra:
        parts.append(say("hint.take_piece", square=extra[0]))
    more = len(missing) + len(extra) - len(parts)
    text = say("join.and").join(parts)
    return say("hint.more", text=text, count=more) if more > 0 else text


def must_move(board: BoardMap, index: PositionIndex) -> Layer:
    """The pieces that can capture, when capturing is compulsory (every legal move captures)."""
    if not index.moves or not all(index.caps):
        return []
    starts = 0
    for bit in index.start:
        starts |= bit
    return squares(board, starts, Role.MUST_MOVE)


def learning(board: BoardMap, index: PositionIndex, reading: Reading) -> Layer:
    """The beginner's frame for the board as the tracker read it."""
    kind = reading.kind
    occ = reading.occupancy
    if kind is Kind.UNCHANGED:
        return must_move(board, index)
    if kind is Kind.IN_PROGRESS:
        return _in_progress(board, reading)
    if kind in (Kind.COMPLETE, Kind.HALF_TURN) and reading.extendable:
        return _continuations(board, index, reading)
    if kind is Kind.UNKNOWN:
        lifted = index.occ & ~occ
        if lifted and not lifted & (lifted - 1) and not occ & ~index.occ:
            return squares(board, lifted, Role.ILLEGAL_LIFT) + must_move(board, index)
    return []


def _in_progress(board: BoardMap, reading: Reading) -> Layer:
    occ = reading.occupancy
    lifted = targets = capture = 0
    for progress in reading.progress:
        move = progress.move
        start = 1 << move.start
        added = occ & ~progress.base
        if not occ & start:
            lifted |= start
        for square in move.captures:
            if occ >> square & 1:
                capture |= 1 << square
        path = move.path
        if added:
            landing = added.bit_length() - 1
            for k, square in enumerate(path[:-1]):
                if square == landing:
                    targets |= 1 << path[k + 1]
        elif occ & start == 0:
            targets |= 1 << path[0] | 1 << path[-1]
    return (squares(board, lifted, Role.LIFTED) + squares(board, capture, Role.TO_CAPTURE)
            + squares(board, targets & ~occ, Role.LEGAL_TARGET))


def _continuations(board: BoardMap, index: PositionIndex, reading: Reading) -> Layer:
    """A chain that may go on: the further landings and pieces it could still take."""
    occ = reading.occupancy
    targets = capture = 0
    for turn in reading.turns:
        move = turn[-1]
        if len(turn) > 1:
            continue
        for other in index.moves:
            if other.start == move.start and move.captures < other.captures:
                path = other.path
                for k, square in enumerate(path[:-1]):
                    if square == move.end:
                        targets |= 1 << path[k + 1]
                for square in other.captures - move.captures:
                    capture |= 1 << square
    return squares(board, targets & ~occ, Role.LEGAL_TARGET) + squares(board, capture & occ, Role.TO_CAPTURE)


def planned(board: BoardMap, moves: Sequence[Move], occupancy: int, computer: bool) -> Layer:
    """A move (or a multiwarcaby turn) to carry out, as from/to squares and captures."""
    from_role, to_role = (Role.COMPUTER_FROM, Role.COMPUTER_TO) if computer else (Role.HINT_FROM, Role.HINT_TO)
    layer: Layer = []
    for move in moves:
        layer.append((board.name(move.start), from_role))
        layer.extend((board.name(square), to_role) for square in move.path if square != move.start)
        layer.extend((board.name(square), Role.TO_CAPTURE) for square in move.captures if occupancy >> square & 1)
    return layer


def last_move(board: BoardMap, moves: Sequence[Move]) -> Layer:
    layer: Layer = []
    for move in moves:
        layer.append((board.name(move.start), Role.LAST_MOVE))
        layer.extend((board.name(square), Role.LAST_MOVE) for square in move.path)
    return layer


def flag(board: BoardMap, bits: int) -> Layer:
    return squares(board, bits, Role.FLAG)
