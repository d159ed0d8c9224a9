"""The changes the session makes to the game's record, and the events
each one publishes: a committed turn (with the clock pressed and its times
stamped), taken-back moves restored, a take-back, the game's end, a new game.

A mixin of `Session`; the record itself is `controller/game_record.py`.
"""

from __future__ import annotations

from typing import Any

from damka.controller import events as ev
from damka.controller.session.types import CommittedMove, Phase
from damka.engine.errors import IllegalMoveError
from damka.engine.game import Game
from damka.engine.move import Move


class SessionCommits:
    def _commit(self, moves: tuple[Move, ...], pressed: int | None) -> None:
        side = self.game.turn
        try:
            records = self.record.commit(moves, self.now)
        except IllegalMoveError as error:  # nothing is ever recorded after the end
            self._say(f"no move counts now: {error}")
            return
        self._first_moves = {}
        self._forget_turn()
        self._flag = None
        self._notice = ""
        # The press comes before a result the move makes is acted on: the
        # mover's time (and increment) is booked, then the clock is stopped.
        found, clock_ms = self._press_clock(side, len(moves))
        for index, record in enumerate(records):
            last = index == len(records) - 1
            self._publish_move(*record, pressed=pressed is not None, clock_ms=clock_ms if last else None)
        self._clock_pressed(side, clock_ms)
        if self.game.result is None:
            self._say(f"{' '.join(c.text for c in self.committed[-len(moves):])}; {self._turn_prompt()}")
        else:
            self._finish()
            self._stop_clock()
        self.clock_events(found)
        self._reread()

    def _press_clock(self, side: int, moves: int) -> tuple[Any, tuple[int, ...] | None]:
        """The clock pressed for `side`'s turn of `moves` moves, just committed
        (the first move starts a clock nobody started, the mover's time not
        counted); the events the press found and the times stamped on the turn."""
        self._start_clock(side)
        found = self._clock.press(side, self.now, board_ok=True, moves=moves)
        clock_ms = self.clock_ms()
        if clock_ms is not None:
            self.record.stamp_clock(clock_ms)
        return found, clock_ms

    def _clock_pressed(self, side: int, clock_ms: tuple[int, ...] | None) -> None:
        if self._clock.clock is not None:
            self.bus.publish(ev.ClockPressed(self.now, self.game.ply, side, clock_ms))

    def _redo_moves(self, count: int) -> None:
        """The board shows taken-back moves replayed: they count again, and each
        turn they end presses the clock for its mover, as a move made does."""
        found: list[Any] = []
        in_turn = 0
        for _ in range(count):
            side = self.game.turn
            entry = self.record.restore(1, self.now)[0]
            in_turn += 1
            ends_turn = not self.game.move_in_turn or self.game.is_over
            clock_ms = None
            if ends_turn:
                press, clock_ms = self._press_clock(side, in_turn)
                found.extend(press)
                in_turn = 0
            self._publish_move(*entry, pressed=False, redo=True, clock_ms=clock_ms)
            if ends_turn:
                self._clock_pressed(side, clock_ms)
        if self.game.result is not None:
            self._finish()
        self.bus.publish(ev.Redone(self.now, self.game.ply, count, self._position_text()))
        self._say(f"moves restored; {self._turn_prompt()}")
        if self.game.result is not None:
            self._stop_clock()
        self.clock_events(found)
        self._reread()

    def _publish_move(self, record: CommittedMove, position: str, scores: tuple[int, ...], *, pressed: bool,
                      redo: bool = False, clock_ms: tuple[int, ...] | None = None) -> None:
        self.bus.publish(ev.MoveCommitted(
            record.time_ms, record.ply, record.turn, record.side, record.side_name, record.move, record.text,
            record.captures, position, pressed, redo, scores, clock_ms))

    def _forget_turn(self) -> None:
        """What belonged to the turn just ended: the hint, the coach's check, a take-back request."""
        self.assistants.forget_hint()
        self.assistants.clear_check()
        self._restore_request = False
        self._restore_to = None
        self._consent = None

    def take_back(self, plies: int, *, clock_undone: bool = False) -> None:
        """Take `plies` plies back in the record at once (an arbiter's undo of a
        clock press: `clock_undone`, the clock is put back already); the board
        then guides the pieces to the position."""
        self._take_back(plies, clock_undone=clock_undone)

    def _take_back(self, plies: int, *, clock_undone: bool = False) -> None:
        """Every take-back ends here (the button, the pieces put back, an
        accepted offer, a peer's, the arbiter's): the record goes back and the
        clock hands the turn back to the side to move again."""
        if not self.record.can_take_back(plies):
            self._say(f"no take-back past {self.record.floor_reason}")
            return
        movers = self._turn_movers(self.committed[len(self.committed) - plies:])
        undone = self.record.take_back(plies)
        if not clock_undone:
            self._clock.take_back(movers, self.now)
        self._first_moves = {}
        target = self._restore_to
        self._forget_turn()
        if target is not None and self.game.ply > target:
            self._restore_request, self._restore_to = True, target  # an accepted request: the LEDs guide on
        self._hint_text = ""
        self.assistants.cancel_search()
        if self.phase is Phase.OVER and self.game.result is None:
            self.phase = Phase.PLAYING
        self.bus.publish(ev.TakenBack(self.now, self.game.ply, undone, self._position_text(), self.clock_ms()))
        self._say(f"took back {undone} move{'s' if undone != 1 else ''}; {self._turn_prompt()}")
        self._reread()

    @staticmethod
    def _turn_movers(moves: list[CommittedMove]) -> list[int]:
        """The side of each turn among `moves` (oldest first): one clock press each."""
        movers: list[int] = []
        turns: list[int] = []
        for move in moves:
            if not turns or turns[-1] != move.turn:
                turns.append(move.turn)
                movers.append(move.side)
        return movers

    def _finish(self, at_ms: int | None = None) -> None:
        result = self.game.result
        self.phase = Phase.OVER
        self.bus.publish(ev.GameOver(self.now if at_ms is None else at_ms, self.game.ply, result,
                                     tuple(self.game.scores)))
        self._say(f"game over: {self._result_text(result)}")

    def _new_game(self) -> None:
        self.record.reset(Game(self.variant), [])
        self._restore_board = False
        self._notice = ""
        self._forget_turn()
        self._hint_text = ""
        self.assistants.cancel_search()
        if self.coach is not None:
            self.coach.new_game()
        self.phase = Phase.PLAYING
        self.bus.publish(ev.NewGame(self.now, 0, self._position_text()))
        self._say(f"new game; {self._turn_prompt()}")
        self._reread()

    def _start_clock(self, first: int) -> bool:
        """Start the clock if it still waits for the game's first press or move."""
        if self.game.is_over or not self._clock.start_if_waiting(self.now, first):
            return False
        self.bus.publish(ev.ClockStarted(self.now, self.game.ply, first))
        return True

    def _position_text(self) -> str:
        return self.variant.format_position(self.game.position)
