"""Why a try was not right, in words a child of 6 understands.

The exercise runner (`exercise.py`) asks here when the child lifted a piece
that should stay, made a move the rules allow but the exercise does not want,
or left the board in a shape no legal move explains. Each answer names the
rule the child broke (a man goes forward, a capture is a must, take the most
pieces), read from the position with the engine; the texts are the words
catalogue's (`controller/words/lessons.py`), in English and Polish.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from damka.controller.board.takeback_guide import piece_owner
from damka.controller.words import say
from damka.engine.move import Move
from damka.engine.variant import Position, Variant

if TYPE_CHECKING:
    from damka.teaching.exercise import Exercise, Turn


def _must_capture(variant: Variant, legal: list[Move]) -> bool:
    return bool(legal) and all(move.captures for move in legal)


def _not_yours(variant: Variant, position: Position, square: int) -> str | None:
    """The words when the piece on `square` belongs to the other side (None: it is the mover's, or everybody's)."""
    owner, _ = piece_owner(variant, variant.piece_at(position, square) or "")
    mover = variant.side_to_move(position)
    if owner is None or owner == mover:
        return None
    return say("lesson.why.not_yours")


def lift_reason(variant: Variant, position: Position, square: int) -> str:
    """A piece lifted that should not move now: why not."""
    other = _not_yours(variant, position, square)
    if other is not None:
        return other
    legal = variant.legal_moves(position)
    own = [move for move in legal if move.start == square]
    if not own and _must_capture(variant, legal):
        return say("lesson.why.must_capture")
    if not own:
        return say("lesson.why.stuck")
    return say("lesson.why.other_piece")


def move_reason(exercise: Exercise, turns: tuple[Turn, ...]) -> str:
    """A move (turn) the rules allow, but not the one the exercise asks for: another piece, or another way."""
    starts = {answer[0].start for answer in exercise.right}
    if all(turn[0].start not in starts for turn in turns if turn):
        return say("lesson.why.other_piece")
    return say("lesson.why.other_move")


def puzzle_reason(variant: Variant, position: Position, turns: tuple[Turn, ...]) -> str:
    """A puzzle's wrong move (turn), the rules allow it: what the other side can do then, if it can take
    pieces back at once; else that it does not win."""
    turn = next((turn for turn in turns if turn), None)
    if turn is None:
        return say("puzzle.why.not_best")
    after = position
    for move in turn:
        after = variant.play(after, move)
    if variant.side_to_move(after) != variant.side_to_move(position) and any(
            move.captures for move in variant.legal_moves(after)):
        return say("puzzle.why.taken_points" if variant.uniform_piece is not None else "puzzle.why.taken")
    return say("puzzle.why.not_best")


def board_reason(variant: Variant, position: Position, target: int, occupancy: int) -> str:
    """The board shows something no legal move makes: the rule most likely broken."""
    removed = target & ~occupancy
    added = occupancy & ~target
    legal = variant.legal_moves(position)
    if removed and not added:
        return say("lesson.why.illegal")
    starts = [square for square in _squares(removed) if variant.piece_at(position, square)]
    if len(starts) == 0 or not added or added & (added - 1):
        return say("lesson.why.illegal")
    landing = added.bit_length() - 1
    captured = len(starts) - 1
    if captured == 0 and len(starts) == 1:
        start = starts[0]
        other = _not_yours(variant, position, start)
        if other is not None:
            return other
        if _must_capture(variant, legal):
            return say("lesson.why.must_capture")
        try:
            return _step_reason(variant, position, start, landing)
        except (ValueError, IndexError, KeyError):  # a piece put off the game's board
            return say("lesson.why.illegal")
    most = max((len(move.captures) for move in legal), default=0)
    if most > 0 and 0 < captured < most and getattr(variant, "majority", False):
        return say("lesson.why.majority")
    return say("lesson.why.illegal")


def _step_reason(variant: Variant, position: Position, start: int, landing: int) -> str:
    """A piece moved without capturing where it may not go."""
    geometry = variant.geometry
    if variant.uniform_piece is not None:
        return say("lesson.why.step_any")
    code = variant.piece_at(position, start) or ""
    owner, king = piece_owner(variant, code)
    (file0, rank0), (file1, rank1) = geometry.file_rank(start), geometry.file_rank(landing)
    if king:
        return say("lesson.why.king_line")
    forward = 1 if owner == 0 else -1
    if (rank1 - rank0) * forward <= 0:
        return say("lesson.why.forward")
    if abs(file1 - file0) != 1 or abs(rank1 - rank0) != 1:
        return say("lesson.why.one_step")
    return say("lesson.why.illegal")


def _squares(bits: int) -> list[int]:
    found = []
    while bits:
        low = bits & -bits
        found.append(low.bit_length() - 1)
        bits ^= low
    return found
