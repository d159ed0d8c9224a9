"""Judging what the board shows when it is not simply a move: a press on an
unfinished or illegal move (refused, with the squares concerned), a piece
lifted that may not move (learning mode says why), a board nothing explains
(guidance once its grace period is over), and the words for each.

A mixin of `Session`: the turn state machine's verdicts, kept apart from its
flow (`session.py`) and from the record's changes (`session_commits.py`).
"""

from __future__ import annotations

from damka.controller import events as ev
from damka.controller import hints, wording
from damka.controller.tracker import Kind, bits_of


class SessionJudge:
    def _playing_message(self, kind: Kind) -> str:
        guide = self.takeback_guide
        if guide is not None:  # a take-back under way says so, and which piece goes where
            return wording.takeback_text(self.variant, guide)
        advice = self._lift_advice() if kind is Kind.UNKNOWN and self.hints_on else ""
        if advice:
            return advice
        if kind is Kind.UNKNOWN and self.tracker.guidance_due(self.state, self.now):
            text = hints.guidance_message(self.board, self.occupancy, self._reference())
            must = self._must_capture()
            return f"{text}; a capture is compulsory ({', '.join(must)})" if must else text
        if kind is Kind.COMPLETE and self.warning is not None:
            return wording.warning_text(self.warning)
        if kind is Kind.HALF_TURN:
            return wording.second_move_text(self._is_computer_turn())
        if self._ends_game_alone():
            return wording.last_move_text()
        if kind is Kind.UNCHANGED:
            hint = self.assistants.hint
            return self._hint_text if hint and self._hint_text else self._prompt()
        return self.message

    def _lift_advice(self) -> str:
        """Learning mode: one piece lifted that may not move (the ILLEGAL_LIFT LEDs): say why."""
        reference = self._reference()
        lifted = reference & ~self.occupancy
        if not lifted or lifted & (lifted - 1) or self.occupancy & ~reference or self.game.is_over:
            return ""
        if self._computer_moves() is not None:
            return ""
        name = self.board.names(lifted)[0]
        piece = self.variant.piece_at(self.game.position, self.variant.geometry.parse(name)) or ""
        mover = self.variant.sides[self.game.turn][:1]
        own = piece.lower() in ("o", mover)  # multiwarcaby's pieces are everybody's
        return wording.lift_advice(name, self._must_capture() if own else [], blocked=own)

    def _report_unknown(self, kind: Kind) -> None:
        """Publish when the board stops (or starts again) making sense, once each way."""
        due = kind is Kind.UNKNOWN and self.tracker.guidance_due(self.state, self.now) and not self._restore_request
        if due and not self._unknown_reported:
            self._unknown_reported = True
            reference = self._reference()
            self.bus.publish(ev.PositionUnknown(self.now, self.game.ply,
                                                tuple(self.board.names(reference & ~self.occupancy)),
                                                tuple(self.board.names(self.occupancy & ~reference))))
        elif kind is not Kind.UNKNOWN and self._unknown_reported:
            self._unknown_reported = False
            self.bus.publish(ev.PositionRecovered(self.now, self.game.ply))

    def _press_commit(self, side: int) -> None:
        reading = self.reading
        kind = reading.kind
        if kind is Kind.COMPLETE:
            self._commit(self._pick(reading.turns), pressed=side)
        elif kind is Kind.HALF_TURN:
            # One move gives this board, but so may two (a2-a1 then b1-a2 leaves
            # what b1-a1 leaves): a whole turn whose first move the board showed
            # complete this turn is what was played (a single move never is one).
            pairs = [pair for pair in self.tracker.complete_pairs(self.game, self.occupancy, self._computer_moves(),
                                                                  tuple(self._first_moves))
                     if pair[0] in self._first_moves]
            if pairs:
                self._commit(self._pick(pairs), pressed=side)
            else:
                self._say("one move made: make the second move of your turn")
        elif kind is Kind.UNCHANGED:
            self._say("make your move before pressing the clock")
        elif kind is Kind.IN_PROGRESS:
            self._press_in_progress(side)
        else:
            must = self._must_capture()
            text = f"this is not a legal move: a capture is compulsory ({', '.join(must)})" if must else \
                "this is not a legal move"
            self._refuse(reading.missing | reading.extra, text)

    def _press_in_progress(self, side: int) -> None:
        reading = self.reading
        if self.tracker.two_moves:
            pairs = self.tracker.complete_pairs(self.game, self.occupancy, self._computer_moves(),
                                                tuple(self._first_moves))
            if pairs:
                self._commit(self._pick(pairs), pressed=side)
                return
        squares = 0
        for progress in reading.progress:
            squares |= self.occupancy & bits_of(progress.move.captures)
        if squares:
            self._refuse(squares, "take the captured pieces off the board first")
        else:
            self._refuse(reading.missing | reading.extra, "finish your move first")

    def _must_capture(self) -> list[str]:
        """The pieces that must capture (names), when every legal move is a capture; else []."""
        if self.game.is_over or self._computer_moves() is not None:
            return []
        index = self.tracker.index(self.game.position)
        if not index.moves or not all(index.caps):
            return []
        starts = 0
        for bit in index.start:
            starts |= bit
        return self.board.names(starts)

    def _refuse(self, squares: int, text: str) -> None:
        self._flag = (squares, self.now + self.settings.flag_ms)
        self._say(f"press refused: {text}")
        found = self._clock.press(self.game.turn, self.now, board_ok=False, reason=text)
        self.bus.publish(ev.MoveRefused(self.now, self.game.ply, self.game.turn, text,
                                        tuple(self.board.names(squares)), self.clock_ms()))
        self.clock_events(found)
