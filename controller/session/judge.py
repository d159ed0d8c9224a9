"""Judging what the board shows when it is not simply a move: a press on an
unfinished or illegal move (refused, with the squares concerned), a piece
lifted that may not move (learning mode says why), a board nothing explains
(guidance once its grace period is over), and the words for each.

A part of `Session` (`core.py`); it owns whether an unexplained board was
reported (`PositionUnknown`, then `PositionRecovered`, once each way).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from damka.controller import events as ev
from damka.controller.words import wording
from damka.controller.board import hints
from damka.controller.board.eventlog import LogEvent, side_token
from damka.controller.session.types import Phase
from damka.controller.board.board_map import bits_of
from damka.controller.board.tracker import Kind
from damka.controller.words import say
from damka.hardware.interfaces import ClockPress

if TYPE_CHECKING:
    from damka.controller.session.core import Session


class Judge:
    def __init__(self, session: Session) -> None:
        self.s = session
        self._unknown_reported = False

    def on_press(self, press: ClockPress) -> None:
        """A press of a side's clock (or its 'done' button)."""
        s = self.s
        s.arrive(press.time_ms)
        s.log(LogEvent(s.now, "press", side_token(s.variant, press.side)))
        if s.phase is not Phase.PLAYING:
            return
        if s.reading.kind is Kind.UNCHANGED and s.commits.start_clock(s.game.turn):
            s.commits.clock_started_by_hand()   # a program's move lit before: whose time carrying it out is
            s.line.say(say("session.clock_started", prompt=s.output.turn_prompt()))  # the press only started the clock
            return
        if press.side != s.game.turn:
            s.line.say(say("session.its_turn", side=wording.side_name(s.variant, s.game.turn, s.players)))
            return
        if s.assist.computer_turn():
            s.line.say(say("session.carry_out_computer"))
            return
        if s.restore.active:
            self.refuse(s.occupancy ^ s.reference(), say("session.put_back_turn"))
            return
        self._press_commit(press.side)
        s.output.refresh()

    def playing_message(self, kind: Kind) -> str:
        """The words for the board as it reads now."""
        s = self.s
        guide = s.takeback_guide
        if guide is not None:  # a take-back under way says so, and which piece goes where
            return wording.takeback_text(s.variant, guide)
        advice = self._lift_advice() if kind is Kind.UNKNOWN and s.hints_on else ""
        if advice:
            return advice
        if kind is Kind.UNKNOWN and s.tracker.guidance_due(s.state, s.now):
            text = hints.guidance_message(s.board, s.occupancy, s.reference())
            must = self.must_capture()
            return say("session.must_capture", text=text, squares=", ".join(must)) if must else text
        if kind is Kind.COMPLETE and s.warning is not None:
            return wording.warning_text(s.warning)
        if kind is Kind.HALF_TURN:
            return wording.second_move_text(s.assist.computer_turn())
        if s.flow.ends_game_alone():
            return wording.last_move_text()
        if kind is Kind.UNCHANGED:
            hint = s.assistants.hint
            return s.line.hint_text if hint and s.line.hint_text else s.output.prompt()
        return s.message

    def _lift_advice(self) -> str:
        """Learning mode: one piece lifted that may not move (the ILLEGAL_LIFT LEDs): say why."""
        s = self.s
        reference = s.reference()
        lifted = reference & ~s.occupancy
        if not lifted or lifted & (lifted - 1) or s.occupancy & ~reference or s.game.is_over:
            return ""
        if s.assist.computer_moves() is not None:
            return ""
        name = s.board.names(lifted)[0]
        piece = s.variant.piece_at(s.game.position, s.variant.geometry.parse(name)) or ""
        mover = s.variant.sides[s.game.turn][:1]
        own = piece.lower() in ("o", mover)  # multiwarcaby's pieces are everybody's
        return wording.lift_advice(name, self.must_capture() if own else [], blocked=own)

    def report_unknown(self, kind: Kind) -> None:
        """Publish when the board stops (or starts again) making sense, once each way."""
        s = self.s
        due = kind is Kind.UNKNOWN and s.tracker.guidance_due(s.state, s.now) and not s.takebacks.flow.requested
        if due and not self._unknown_reported:
            self._unknown_reported = True
            reference = s.reference()
            s.bus.publish(ev.PositionUnknown(s.now, s.game.ply, tuple(s.board.names(reference & ~s.occupancy)),
                                             tuple(s.board.names(s.occupancy & ~reference))))
        elif kind is not Kind.UNKNOWN and self._unknown_reported:
            self._unknown_reported = False
            s.bus.publish(ev.PositionRecovered(s.now, s.game.ply))

    def _press_commit(self, side: int) -> None:
        s = self.s
        reading = s.reading
        kind = reading.kind
        if kind is Kind.COMPLETE:
            s.commits.commit(s.pending.pick(reading.turns), pressed=side)
        elif kind is Kind.HALF_TURN:
            # One move gives this board, but so may two (a2-a1 then b1-a2 leaves
            # what b1-a1 leaves): a pair is taken only when its first move was
            # made (held for the settle time); else it is one move (a piece slid
            # across a square) and the press asks for the second.
            pairs = [pair for pair in s.tracker.complete_pairs(s.game, s.occupancy, s.assist.computer_moves(),
                                                               s.pending.first_moves)
                     if s.pending.was_made(pair[0])]
            if pairs:
                s.commits.commit(s.pending.pick(pairs), pressed=side)
            else:
                s.line.say(say("session.second_move"))
        elif kind is Kind.UNCHANGED:
            s.line.say(say("session.move_first"))
        elif kind is Kind.IN_PROGRESS:
            self._press_in_progress(side)
        else:
            must = self.must_capture()
            text = say("session.illegal_must_capture", squares=", ".join(must)) if must else \
                say("session.illegal")
            self.refuse(reading.missing | reading.extra, text)

    def _press_in_progress(self, side: int) -> None:
        s = self.s
        reading = s.reading
        if s.tracker.two_moves:
            pairs = s.tracker.complete_pairs(s.game, s.occupancy, s.assist.computer_moves(), s.pending.first_moves)
            if pairs:
                s.commits.commit(s.pending.pick(pairs), pressed=side)
                return
        squares = 0
        for progress in reading.progress:
            squares |= s.occupancy & bits_of(progress.move.captures)
        if squares:
            self.refuse(squares, say("session.take_captured"))
        else:
            self.refuse(reading.missing | reading.extra, say("session.finish_move"))

    def must_capture(self) -> list[str]:
        """The pieces that must capture (names), when every legal move is a capture; else []."""
        s = self.s
        if s.game.is_over or s.assist.computer_moves() is not None:
            return []
        index = s.tracker.index(s.game.position)
        if not index.moves or not all(index.caps):
            return []
        starts = 0
        for bit in index.start:
            starts |= bit
        return s.board.names(starts)

    def refuse(self, squares: int, text: str) -> None:
        """A refused press: FLAG on `squares`, the reason on the screen, the refusal on the clock."""
        s = self.s
        s.flag.show(squares, s.now + s.settings.flag_ms)
        s.line.say(say("session.press_refused", text=text))
        _, found = s.clock_binding.press(s.game.turn, s.now, board_ok=False, reason=text)
        s.bus.publish(ev.MoveRefused(s.now, s.game.ply, s.game.turn, text, tuple(s.board.names(squares)),
                                     s.clock_ms()))
        s.ends.clock_events(found)
