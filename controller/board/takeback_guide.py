"""What a take-back under way asks of the players, as plain facts.

The LEDs light the squares to fix (blue: put a piece here, red: take it
away), but a blue square does not say whose piece goes there: a captured
white piece and the black piece that captured it look alike. This works out,
from the position the take-back goes to and what the board shows now, which
moves are being taken back and which piece (side, man or king) goes on which
square. The words are `controller/words/wording.py`'s (screen) and
`controller/words/wording_voice.py`'s (voice, English and Polish).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from damka.controller.game.record import CommittedMove
from damka.controller.board.board_map import BoardMap
from damka.engine.variant import Position, Variant


@dataclass(frozen=True)
class PieceStep:
    """One square to fix: a piece to put on it (`put`) or to take off it.
    `owner`: the side whose piece goes there (None: the pieces are
    everybody's, as in multiwarcaby, or a piece to take off); `king`: a king."""

    square: str
    put: bool
    owner: int | None = None
    king: bool = False


@dataclass(frozen=True)
class TakebackGuide:
    """A take-back under way: the turns taken back, oldest first, as (side,
    the turn's moves in PDN), and the squares still to fix (pieces to put
    first, then pieces to take off). No steps: the pieces are back."""

    turns: tuple[tuple[int, str], ...]
    steps: tuple[PieceStep, ...]


def piece_owner(variant: Variant, code: str) -> tuple[int | None, bool]:
    """(side, king) of a piece code: 'w' a white man, 'B' a black king; a
    variant whose pieces are all alike ('o') has no owner and no kings."""
    if variant.uniform_piece is not None:
        return None, False
    for side, name in enumerate(variant.sides):
        if name[:1] == code.lower():
            return side, code.isupper()
    return None, code.isupper()


def takeback_guide(variant: Variant, board: BoardMap, occupancy: int, target: Position,
                   taken_back: Sequence[CommittedMove]) -> TakebackGuide:
    """The guide from the board's `occupancy` to the `target` position, the
    moves `taken_back` being the committed moves after it."""
    turns: list[tuple[int, str]] = []
    last_turn = None
    for record in taken_back:
        if turns and record.turn == last_turn:
            turns[-1] = (turns[-1][0], f"{turns[-1][1]} {record.text}")
        else:
            turns.append((record.side, record.text))
        last_turn = record.turn
    wanted = variant.occupancy(target)
    geometry = variant.geometry
    moved = {geometry.name(record.move.start) for record in taken_back}
    steps = []
    for name in board.names(wanted & ~occupancy):
        code = variant.piece_at(target, geometry.parse(name)) or ""
        owner, king = piece_owner(variant, code)
        steps.append(PieceStep(name, True, owner, king))
    steps.sort(key=lambda step: step.square not in moved)  # the piece that moved first, then the captured ones
    steps += [PieceStep(name, False) for name in board.names(occupancy & ~wanted)]
    return TakebackGuide(tuple(turns), tuple(steps))
