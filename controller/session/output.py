"""The session's output: the facts its LED frame is composed from, and
the words on the screen's message line (each change published as an event).

A mixin of `Session` (it reads the session's own state); the frame itself is
composed by the pure `controller/frame.py`, the words come from
`controller/wording.py`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from damka.controller import events as ev
from damka.controller import wording
from damka.controller.frame import FrameFacts, compose_frame, remaining
from damka.controller.session.types import Mode, Phase, seat_away, seat_label
from damka.controller.tracker import Kind
from damka.engine.variant import Result


class SessionOutput:
    # -- output ---------------------------------------------------------------

    def _refresh_frame(self) -> None:
        self._frame = compose_frame(self._frame_facts())

    def _frame_facts(self) -> FrameFacts:
        flag = self._flag[0] if self._flag is not None else None
        base = FrameFacts(self.board, self.occupancy, self.reading, flag=flag)
        if self.phase is Phase.SETUP:
            return replace(base, guide_to=self.tracker.occupancy_of(self.game.position))
        if self._restore_board:
            return replace(base, guide_to=self._reference())
        if self._consent is not None and self.reading.kind is Kind.TAKEBACK:
            return base   # the position waits for the far side's answer: nothing to do on the board
        kind = self.reading.kind
        # A take-back under way guides to its own position, not back to the game's.
        due = kind is Kind.UNKNOWN and self.tracker.guidance_due(self.state, self.now) and not self._restore_request
        must = None
        if kind is Kind.UNKNOWN and (flag is not None or due):
            if not self.game.is_over and self._computer_moves() is None:
                must = self.tracker.index(self.game.position)
        computer = self._computer_moves()
        learning = None
        if not self.game.is_over and self.mode is not Mode.TOURNAMENT:
            stalled = kind is Kind.IN_PROGRESS and self.now - self.state.changed_at >= self.tracker.settings.grace_ms
            if self.hints_on or stalled:
                learning = self.tracker.index(self.game.position, computer[:1] if computer is not None else None)
        hint = self.assistants.hint
        return replace(base, guidance_due=due, reference=self._reference(), must_move=must,
                       takeback_to=self._takeback_target() if self._restore_request else None,
                       computer=remaining(computer, self.reading) if computer else (), learning=learning,
                       hint=remaining(hint, self.reading) if hint else (), last=self.record.last)

    def _prompt(self) -> str:
        """The turn prompt, after a notice (a flag, a player out) until the next move."""
        prompt = self._turn_prompt()
        return f"{self._notice}; {prompt}" if self._notice and not self.game.is_over else prompt

    def _turn_prompt(self) -> str:
        computer = self._is_computer_turn()
        who = seat_label(self.opponent, self.game.turn)
        return wording.turn_prompt(self.variant, self.game, two_moves=self.tracker.two_moves, computer_turn=computer,
                                   thinking=computer and self.opponent is not None and self.planned == (), who=who,
                                   names=self.players, away=computer and seat_away(self.opponent, self.game.turn))

    def _result_text(self, result: Result) -> str:
        return wording.result_text(self.variant, result, self.game.scores, self.tracker.two_moves, self.players)

    def name_players(self, names: Sequence[str]) -> None:
        """The players' names by side ("" where none was given), for the words on the
        screen; the prompt on the screen now is said again with them."""
        prompt = self._prompt() if self.phase is Phase.PLAYING else None
        self.players = tuple(names)
        if prompt is not None and self.message == prompt:
            self._show(self._prompt())

    def say(self, text: str) -> None:
        """Show `text` on the screen's message line (published even when it
        repeats: something new was said). Public: an outside driver (a DXP
        peer, a remote player) speaks on the same line as the session."""
        self.message = text
        self.bus.publish(ev.MessageShown(self.now, self.game.ply, text))

    _say = say

    def _show(self, text: str) -> None:
        """Show `text` if it differs from the line on the screen."""
        if text != self.message:
            self._say(text)
