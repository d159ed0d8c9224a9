"""What a board that settled means, at each update: the setup done, a move
to commit (once quiet, or at once for a fast answer), moves taken back or
restored, a new game, or only words for the screen; and when the session
next has to look again.

A part of `Session` (`core.py`): it owns no state; it reads the session's
public face and acts through the other parts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from damka.controller.board import hints
from damka.controller.session.types import Mode, Phase
from damka.controller.board.tracker import Kind
from damka.engine.move import Move

if TYPE_CHECKING:
    from damka.controller.session.core import Session


class TurnFlow:
    def __init__(self, session: Session) -> None:
        self.s = session

    def update(self) -> None:
        """Act on the board as it is now, then recompose the LEDs."""
        s = self.s
        s.flag.expire(s.now)
        if s.phase is Phase.SETUP:
            self._update_setup()
        else:
            self._update_playing()
        s.output.refresh()

    def deadlines(self) -> list[int]:
        """When something on the board falls due (the session adds the clock's and the assistants')."""
        s = self.s
        due: list[int] = []
        settings = s.tracker.settings
        state = s.state
        kind = s.reading.kind
        if s.flag.until is not None:
            due.append(s.flag.until)
        if s.phase is Phase.SETUP:
            if s.occupancy == s.reference():
                due.append(state.changed_at + settings.settle_ms)
        else:
            if kind in (Kind.COMPLETE, Kind.TAKEBACK, Kind.START) and self.auto_commit_kind(kind):
                due.append(state.changed_at + self.wait_for(kind))
            if s.record.redo and self.redo_match():
                due.append(state.changed_at + settings.takeback_ms)
            if kind is Kind.UNKNOWN and state.unknown_since is not None:
                due.append(state.unknown_since + settings.grace_ms)
            if kind is Kind.IN_PROGRESS and not s.hints_on:
                due.append(state.changed_at + settings.grace_ms)
        if s.warning is not None and kind is Kind.COMPLETE:
            due.append(state.changed_at + s.settings.warn_ms)
        return due

    def fast_answer(self) -> None:
        """A fast answer: the board showed a complete move and, before it settled,
        the next side began its move (a piece lifted at once, or first the
        piece it will capture taken off). While every snapshot since is
        explained as the next side's move in progress, the complete move stays
        pending; once the board is explained by nothing else, it is committed
        then, so the answer reads as a move, not as an unknown board."""
        s = self.s
        reading = s.reading
        if reading.kind is Kind.COMPLETE:
            moves = self._pending_move()
            s.pending.hold(None if moves is None else (s.game.ply, moves))
            return
        held = s.pending.take()
        if held is None:
            return
        ply, moves = held
        if ply != s.game.ply or reading.kind not in (Kind.UNKNOWN, Kind.IN_PROGRESS) or self._pending_move(
                check=False) is None:
            return
        trial = s.game.copy()
        for move in moves:
            trial.push_unchecked(move)
        after = s.tracker.read(trial, s.occupancy, None, False)
        if after.kind not in (Kind.IN_PROGRESS, Kind.COMPLETE):
            return
        if reading.kind is Kind.UNKNOWN:
            s.commits.commit(moves, pressed=None)
        else:
            s.pending.hold(held)  # both readings explain it: wait for the next snapshot

    def _pending_move(self, check: bool = True) -> tuple[Move, ...] | None:
        """The complete move the board shows, to be committed without a press
        once settled (None: no such move). `check=False`: only whether a
        pending move may be committed now (mode, phase, coach)."""
        s = self.s
        if (s.phase is not Phase.PLAYING or s.tracker.two_moves or s.mode is Mode.TOURNAMENT
                or s.assist.coach_checks() or s.warning is not None):
            return None
        if not check:
            return ()
        if not self.auto_commit_kind(Kind.COMPLETE):
            return None
        return s.pending.pick(s.reading.turns)

    def _update_setup(self) -> None:
        s = self.s
        target = s.reference()
        if s.occupancy == target:
            # A board switched on already set up starts at once; one being set up waits to settle.
            if s.tracker.settled(s.state, s.now) or len(s.sensor_log) == 0:
                s.begin()
            else:
                s.line.show("")  # set up: nothing left to fix while the board settles
            return
        s.line.show(hints.guidance_message(s.board, s.occupancy, target, held=None if s.resumed else 0))

    def auto_commit_kind(self, kind: Kind) -> bool:
        """Whether a board of `kind` acts once settled, without a press."""
        s = self.s
        if kind is Kind.COMPLETE:
            if s.assist.computer_turn():
                return True
            if s.mode is Mode.TOURNAMENT or (s.tracker.two_moves and not self.ends_game_alone()):
                return False
            return s.phase is Phase.PLAYING
        if kind is Kind.TAKEBACK:
            return s.mode is not Mode.TOURNAMENT and s.record.can_take_back(s.reading.plies_back)
        if kind is Kind.START:
            return s.mode is not Mode.TOURNAMENT or s.phase is Phase.OVER
        return False

    def ends_game_alone(self) -> bool:
        """The board shows a multiwarcaby first move that ends the game: a whole
        turn (RULES.md), committed like a move of a one-move variant."""
        reading = self.s.reading
        turns = reading.turns
        return reading.kind is Kind.COMPLETE and bool(turns) and len(turns[0]) < self.s.variant.moves_per_turn

    def wait_for(self, kind: Kind) -> int:
        s = self.s
        settings = s.tracker.settings
        if kind is Kind.COMPLETE:
            if s.warning is not None:
                return s.settings.warn_ms
            extend = s.reading.extendable and not s.assist.computer_turn()
            return settings.extend_ms if extend else settings.settle_ms
        return settings.takeback_ms

    def redo_match(self) -> int:
        """How many taken-back moves the board shows replayed (0: none). A
        board put back as it was (or a sensor fault that looked like a
        take-back and ends) restores the moves."""
        s = self.s
        if s.reading.kind in (Kind.UNCHANGED, Kind.COMPLETE, Kind.HALF_TURN):
            return 0
        return s.record.restorable(s.occupancy)

    def _update_playing(self) -> None:
        s = self.s
        if s.restore.active and not self._board_restored():
            return
        reading = s.reading
        kind = reading.kind
        s.judge.report_unknown(kind)
        if s.record.redo and s.mode is not Mode.TOURNAMENT:
            redo = self.redo_match()
            if redo and s.tracker.settled(s.state, s.now, wait=s.tracker.settings.takeback_ms):
                s.commits.redo_moves(redo)
                return
        if kind is not Kind.COMPLETE and s.assistants.check_key is not None:
            s.assistants.clear_check()  # the move was taken back on the board (or changed): the warning goes
        if kind is Kind.COMPLETE and s.assist.coach_checks() and not s.assist.check_move(reading):
            return  # the coach is still looking at the move: no commit before its verdict
        if self._settled_action(kind):
            return
        if not s.game.is_over or s.takebacks.flow.requested:
            s.line.show(s.judge.playing_message(kind))

    def _board_restored(self) -> bool:
        """A player went out mid-turn: False while the board is not back at the turn start."""
        s = self.s
        if s.occupancy != s.reference():
            target = hints.guidance_message(s.board, s.occupancy, s.reference())
            reason = s.restore.reason
            s.line.show(f"{reason}: {target}" if reason else target)
            return False
        s.restore.done()
        s.pending.forget()
        s.line.say(s.output.prompt())
        return True

    def _settled_action(self, kind: Kind) -> bool:
        """Commit the move, take back or start a new game once the board settled; whether it did."""
        s = self.s
        if kind not in (Kind.COMPLETE, Kind.TAKEBACK, Kind.START) or not self.auto_commit_kind(kind):
            return False
        if not s.tracker.settled(s.state, s.now, wait=self.wait_for(kind)):
            return False
        if kind is Kind.COMPLETE:
            s.commits.commit(s.pending.pick(s.reading.turns), pressed=None)
        elif kind is Kind.TAKEBACK:
            s.takebacks.board_takes_back(s.reading.plies_back)
        else:
            s.commits.new_game()
        return True
