"""The session's part that talks to its assistants: the computer's turn,
hints, the coach's blunder check, and the board's buttons that ask them.

A part of `Session` (`core.py`) with no state of its own: the searching and
what it found are `assistants.py`'s, off the board's loop; this turns what
comes back into events and words.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from damka.controller import events as ev
from damka.controller.words import wording
from damka.controller.board.eventlog import LogEvent
from damka.controller.session.assistants import moves_text
from damka.controller.session.types import Mode, Phase
from damka.controller.board.tracker import Reading
from damka.controller.words import say
from damka.engine.move import Move
from damka.engine.notation import format_move
from damka.hardware.interfaces import Button, ButtonPress

if TYPE_CHECKING:
    from damka.controller.session.core import Session

log = logging.getLogger(__name__)


class Assist:
    def __init__(self, session: Session) -> None:
        self.s = session

    def computer_turn(self) -> bool:
        s = self.s
        return (s.mode is Mode.COMPUTER and s.phase is Phase.PLAYING and not s.game.is_over
                and s.game.turn in s.settings.computer_sides)

    def computer_moves(self) -> tuple[Move, ...] | None:
        """The computer's turn (None: not its turn, any legal move is read; (): it still thinks)."""
        return self.s.assistants.computer_moves(self.s.game, self.computer_turn())

    def on_button(self, press: ButtonPress) -> None:
        """The hint or the take-back button."""
        s = self.s
        s.arrive(press.time_ms)
        s.log(LogEvent(s.now, "button", press.button.value))
        if s.phase is not Phase.PLAYING and press.button is not Button.TAKE_BACK:
            return
        if press.button is Button.HINT:
            self._ask_hint()
        elif press.button is Button.TAKE_BACK:
            s.takebacks.button()
        s.output.refresh()

    def poll(self) -> None:
        """Pick up what was worked out off the loop: the computer's move, a hint, a blunder check."""
        s = self.s
        for text in s.assistants.notices():
            log.warning("%s", text)   # the screen says it once; the log (the journal) keeps it
            s.bus.publish(ev.EngineFellBack(s.now, s.game.ply, text))
            s.line.say(text)
        if s.thinking:
            moves = s.assistants.poll_computer(s.game)
            if moves:
                s.bus.publish(ev.ComputerPlanned(s.now, s.game.ply, moves_text(s.variant, s.game.position, moves)))
                if s.opponent is not None and s.opponent.keeps_own_clock_for(s.game.turn):
                    s.commits.outside_move_arrived(len(moves))   # whose time carrying it out is: the config's
                s.reread()
                s.output.refresh()  # lit now, whatever input or tick picked it up
                s.line.say(s.output.turn_prompt())
        answer = s.assistants.poll_hint(s.game)
        if answer is not None:
            self._hint_ready(*answer)
        warning = s.assistants.poll_check((s.game.ply, s.occupancy))
        if warning is not None:
            legal = warning.move in s.variant.legal_moves(s.game.position)
            text = format_move(s.variant, s.game.position, warning.move) if legal else ""
            s.bus.publish(ev.BlunderWarned(s.now, s.game.ply, text, warning.loss))
            s.line.say(wording.warning_text(warning))

    def _ask_hint(self) -> None:
        s = self.s
        if s.mode is Mode.TOURNAMENT or s.game.is_over or self.computer_turn():
            s.line.say(say("session.no_hints"))
            return
        text = s.assistants.ask_hint(s.game)
        if s.coach is None and s.assistants.hint:
            self._show_hint()
        elif text:
            s.line.say(text)

    def _hint_ready(self, move: Move | None, error: str) -> None:
        if move is None:
            self.s.line.say(error)
            return
        self._show_hint()
        self.s.output.refresh()

    def _show_hint(self) -> None:
        s = self.s
        moves = moves_text(s.variant, s.game.position, s.assistants.hint or ())
        left = s.hints_left
        s.bus.publish(ev.HintShown(s.now, s.game.ply, moves, left))
        s.line.set_hint(say("session.hint", moves=" ".join(moves)) + (wording.hints_left_text(left) if s.coach else ""))
        s.line.say(s.line.hint_text)

    def coach_checks(self) -> bool:
        """The coach looks at a complete move before it counts (learning mode)."""
        s = self.s
        return (s.coach is not None and s.mode is Mode.LEARNING and s.phase is Phase.PLAYING
                and not s.game.is_over and not self.computer_turn())

    def check_move(self, reading: Reading) -> bool:
        """Start (or read) the coach's verdict on the complete move the board
        shows; True once there is a verdict (`warning` then holds it, or None)."""
        s = self.s
        turn = s.pending.pick(reading.turns)
        before = s.game.copy()
        for move in turn[:-1]:
            before.push_unchecked(move)
        return s.assistants.check((s.game.ply, s.occupancy), before, turn[-1])
