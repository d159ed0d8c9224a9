"""The LED frame of a game: a pure function of what the session knows now.

The session gathers the facts (`FrameFacts`); `compose_frame` picks the
layers of `hints.py` that its phase and mode show and merges them. Nothing
here reads a sensor or keeps state, so the frame for any moment can be
worked out again from the same facts (tests, the web page, the replay).
"""

from __future__ import annotations

from dataclasses import dataclass

from damka.controller.board import hints
from damka.controller.board.board_map import BoardMap
from damka.controller.board.position_index import PositionIndex
from damka.controller.board.tracker import Kind, Reading
from damka.engine.move import Move
from damka.hardware.interfaces import LedFrame


@dataclass(frozen=True)
class FrameFacts:
    board: BoardMap
    occupancy: int
    reading: Reading
    flag: int | None = None                    # squares a refused press is about
    guide_to: int | None = None                # setup or a board to put back: only guidance is shown
    guidance_due: bool = False                 # an unexplained board past its grace period
    reference: int = 0                         # the occupancy of the game's position
    must_move: PositionIndex | None = None     # the pieces that must capture are shown
    takeback_to: int | None = None             # a take-back request guides here
    computer: tuple[Move, ...] = ()            # the computer's move still to carry out
    learning: PositionIndex | None = None      # the beginner's layer on this index
    hint: tuple[Move, ...] = ()                # the hint still to carry out
    last: tuple[Move, ...] = ()                # the move just committed


def compose_frame(facts: FrameFacts) -> LedFrame:
    board, occupancy, reading = facts.board, facts.occupancy, facts.reading
    layers: list = []
    if facts.flag is not None:
        layers.append(hints.flag(board, facts.flag))
    if facts.guide_to is not None:
        layers.append(hints.guidance(board, occupancy, facts.guide_to))
        return hints.compose(*layers)
    kind = reading.kind
    if facts.guidance_due:
        layers.append(hints.guidance(board, occupancy, facts.reference))
    if facts.must_move is not None:
        # RULES: a move that ignores a compulsory capture is refused and the
        # pieces that must capture are shown.
        layers.append(hints.must_move(board, facts.must_move))
    if facts.takeback_to is not None:
        layers.append(hints.guidance(board, occupancy, facts.takeback_to))
    if facts.computer:
        layers.append(hints.planned(board, facts.computer, occupancy, computer=True))
    if facts.learning is not None:
        layers.append(hints.learning(board, facts.learning, reading))
    if facts.hint and kind in (Kind.UNCHANGED, Kind.IN_PROGRESS, Kind.HALF_TURN):
        layers.append(hints.planned(board, facts.hint, occupancy, computer=False))
    if kind is Kind.UNCHANGED and facts.last:
        layers.append(hints.last_move(board, facts.last))
    return hints.compose(*layers)


def remaining(moves: tuple[Move, ...], reading: Reading) -> tuple[Move, ...]:
    """The planned move to make now: in multiwarcaby the first, then (once it
    is on the board) the second."""
    if len(moves) > 1:
        if reading.kind is Kind.HALF_TURN or any(p.before for p in reading.progress):
            return moves[1:]
        return moves[:1]
    return moves
