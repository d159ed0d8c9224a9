"""The session's output: the LED frame, composed from plain facts, and the
turn prompt and result in words.

A part of `Session` (`core.py`); it owns the frame. The frame itself is
composed by the pure `controller/board/frame.py`, the words come from
`controller/words/wording.py`; the message line is `message_line.py`'s.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from damka.controller.words import wording
from damka.controller.board.frame import FrameFacts, compose_frame, remaining
from damka.controller.session.types import Mode, Phase, seat_away, seat_label
from damka.controller.board.tracker import Kind
from damka.engine.variant import Result
from damka.hardware.interfaces import LedFrame

if TYPE_CHECKING:
    from damka.controller.session.core import Session


class Output:
    def __init__(self, session: Session) -> None:
        self.s = session
        self._frame: LedFrame = {}

    @property
    def frame(self) -> LedFrame:
        return self._frame

    def refresh(self) -> None:
        """Compose the LED frame again from the board and the game as they are now."""
        self._frame = compose_frame(self.facts())

    def facts(self) -> FrameFacts:
        """What the LEDs show, as plain facts for `compose_frame`."""
        s = self.s
        flag = s.flag.squares
        base = FrameFacts(s.board, s.occupancy, s.reading, flag=flag)
        if s.phase is Phase.SETUP:
            return replace(base, guide_to=s.reference())
        if s.restore.active:
            return replace(base, guide_to=s.reference())
        requested = s.takebacks.flow.requested
        if s.takebacks.flow.waiting and s.reading.kind is Kind.TAKEBACK:
            return base   # the position waits for the far side's answer: nothing to do on the board
        kind = s.reading.kind
        # A take-back under way guides to its own position, not back to the game's.
        due = kind is Kind.UNKNOWN and s.tracker.guidance_due(s.state, s.now) and not requested
        must = None
        if kind is Kind.UNKNOWN and (flag is not None or due):
            if not s.game.is_over and s.assist.computer_moves() is None:
                must = s.tracker.index(s.game.position)
        computer = s.assist.computer_moves()
        learning = None
        if not s.game.is_over and s.mode is not Mode.TOURNAMENT:
            stalled = kind is Kind.IN_PROGRESS and s.now - s.state.changed_at >= s.tracker.settings.grace_ms
            if s.hints_on or stalled:
                learning = s.tracker.index(s.game.position, computer[:1] if computer is not None else None)
        hint = s.assistants.hint
        return replace(base, guidance_due=due, reference=s.reference(), must_move=must,
                       takeback_to=s.takebacks.target() if requested else None,
                       computer=remaining(computer, s.reading) if computer else (), learning=learning,
                       hint=remaining(hint, s.reading) if hint else (), last=s.record.last)

    def prompt(self) -> str:
        """The turn prompt, after a notice (a flag, a player out) until the next move."""
        return self.s.line.with_notice(self.turn_prompt(), self.s.game.is_over)

    def turn_prompt(self) -> str:
        s = self.s
        computer = s.assist.computer_turn()
        who = seat_label(s.opponent, s.game.turn)
        return wording.turn_prompt(s.variant, s.game, two_moves=s.tracker.two_moves, computer_turn=computer,
                                   thinking=computer and s.opponent is not None and s.planned == (), who=who,
                                   names=s.players, away=computer and seat_away(s.opponent, s.game.turn))

    def result_text(self, result: Result) -> str:
        s = self.s
        return wording.result_text(s.variant, result, s.game.scores, s.tracker.two_moves, s.players)
