"""The changes the session makes to the game's record, and the events
each one publishes: a committed turn (with the clock pressed and its times
stamped), taken-back moves restored, a take-back, the game's end, a new game.

A part of `Session` (`core.py`) with no state of its own; the record itself
is `controller/game/record.py`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

from damka.controller import events as ev
from damka.controller.session.types import CarryingOut, CommittedMove, Phase
from damka.controller.words import say
from damka.engine.errors import IllegalMoveError
from damka.engine.game import Game
from damka.engine.move import Move

if TYPE_CHECKING:
    from damka.controller.session.core import Session


class Commits:
    def __init__(self, session: Session) -> None:
        self.s = session

    def commit(self, moves: tuple[Move, ...], pressed: int | None) -> None:
        """A turn counts: `pressed` is the side whose press committed it (None: the board settled)."""
        s = self.s
        side = s.game.turn
        try:
            records = s.record.commit(moves, s.now)
        except IllegalMoveError as error:  # nothing is ever recorded after the end
            s.line.say(say("session.no_move_counts", error=error))
            return
        s.pending.forget()
        self.forget_turn()
        s.flag.clear()
        s.line.clear_notice()
        # The press comes before a result the move makes is acted on: the
        # mover's time (and increment) is booked, then the clock is stopped.
        found, clock_ms, pressed_now = self._press_clock(side, len(moves))
        for index, record in enumerate(records):
            last = index == len(records) - 1
            self._publish_move(*record, pressed=pressed is not None, clock_ms=clock_ms if last else None)
        if pressed_now:
            self._clock_pressed(side, clock_ms)
        if s.game.result is None:
            s.line.say(f"{' '.join(c.text for c in s.committed[-len(moves):])}; {s.output.turn_prompt()}")
        else:
            self.finish()
            self.stop_clock()
        s.ends.clock_events(found)
        s.reread()

    def _press_clock(self, side: int, moves: int) -> tuple[Any, tuple[int, ...] | None, bool]:
        """The clock pressed for `side`'s turn of `moves` moves, just committed
        (the first move starts a clock nobody started, the mover's time not
        counted; a turn pressed when its move arrived is not pressed again);
        the events the press found, the times stamped on the turn and whether
        the clock took a press now."""
        s = self.s
        self.start_clock(side)
        found: Iterable[Any] = ()
        pressed_now = False
        if not s.clock_binding.settle_arrival_press(side):
            pressed_now, found = s.clock_binding.press(side, s.now, board_ok=True, moves=moves)
        clock_ms = s.clock_ms()
        if clock_ms is not None:
            s.record.stamp_clock(clock_ms)
        return found, clock_ms, pressed_now

    def outside_move_arrived(self, moves: int) -> None:
        """An outside program's move (a DXP peer's, a Hub engine's) is lit for
        people to carry out; its own clock stopped when it sent it. The board's
        clock does as the config says (`CarryingOut`): it stops, runs on for the
        mover, or is pressed now so that the next side's time runs."""
        s = self.s
        binding = s.clock_binding
        side = s.game.turn
        if binding.carrying_out is CarryingOut.NOBODY:
            if binding.pause_for_carrying_out(s.now):
                self._clock_held(side, binding.carrying_out)
        elif binding.carrying_out is CarryingOut.NEXT:
            self.start_clock(side)
            found = binding.press_on_arrival(side, s.now, moves)
            if found is not None:
                self._clock_pressed(side, s.clock_ms())
                self._clock_held(side, binding.carrying_out)
                s.ends.clock_events(found)

    def clock_started_by_hand(self) -> None:
        """The clock was set going by hand (a press that starts a clock waiting for the game's
        first, the arbiter's restart, a DXP peer back) while an outside program's move waits lit.
        It came while the clock did not run, so nothing was done for it then: it is done now, as
        if it came now (stopped again for `nobody`, pressed early for `next`), or the program's
        side would be charged for carrying it out."""
        s = self.s
        if (s.planned and s.opponent is not None and s.opponent.keeps_own_clock_for(s.game.turn)
                and s.clock_binding.pressed_on_arrival is None):
            self.outside_move_arrived(len(s.planned))

    def _clock_held(self, side: int, by: CarryingOut) -> None:
        s = self.s
        s.bus.publish(ev.ClockHeldForCarryingOut(s.now, s.game.ply, side, by.value, s.clock_ms()))

    def _clock_pressed(self, side: int, clock_ms: tuple[int, ...] | None) -> None:
        s = self.s
        if s.clock_binding.clock is not None:
            s.bus.publish(ev.ClockPressed(s.now, s.game.ply, side, clock_ms))

    def redo_moves(self, count: int) -> None:
        """The board shows taken-back moves replayed: they count again, and each
        turn they end presses the clock for its mover, as a move made does."""
        s = self.s
        found: list[Any] = []
        in_turn = 0
        for _ in range(count):
            side = s.game.turn
            entry = s.record.restore(1, s.now)[0]
            in_turn += 1
            ends_turn = not s.game.move_in_turn or s.game.is_over
            clock_ms = None
            pressed_now = False
            if ends_turn:
                press, clock_ms, pressed_now = self._press_clock(side, in_turn)
                found.extend(press)
                in_turn = 0
            self._publish_move(*entry, pressed=False, redo=True, clock_ms=clock_ms)
            if pressed_now:
                self._clock_pressed(side, clock_ms)
        if s.game.result is not None:
            self.finish()
        s.bus.publish(ev.Redone(s.now, s.game.ply, count, self.position_text()))
        s.line.say(say("session.restored", prompt=s.output.turn_prompt()))
        if s.game.result is not None:
            self.stop_clock()
        s.ends.clock_events(found)
        s.reread()

    def _publish_move(self, record: CommittedMove, position: str, scores: tuple[int, ...], *, pressed: bool,
                      redo: bool = False, clock_ms: tuple[int, ...] | None = None) -> None:
        self.s.bus.publish(ev.MoveCommitted(
            record.time_ms, record.ply, record.turn, record.side, record.side_name, record.move, record.text,
            record.captures, position, pressed, redo, scores, clock_ms))

    def _forget_help(self) -> None:
        """The hint and the coach's check belonged to the turn just ended."""
        self.s.assistants.forget_hint()
        self.s.assistants.clear_check()

    def forget_turn(self) -> None:
        """What belonged to the turn just ended: the hint, the coach's check, a take-back request."""
        self._forget_help()
        self.s.takebacks.flow.forget()

    def take_back(self, plies: int, *, clock_undone: bool = False) -> None:
        """Every take-back ends here (the button, the pieces put back, an
        accepted offer, a peer's, the arbiter's): the record goes back and the
        clock hands the turn back to the side to move again (`clock_undone`:
        the arbiter put the clock back already)."""
        s = self.s
        if not s.record.can_take_back(plies):
            s.line.say(say("session.no_takeback_past", floor=s.record.floor_reason))
            return
        movers = self._turn_movers(s.committed[len(s.committed) - plies:])
        undone = s.record.take_back(plies)
        s.clock_binding.take_back(movers, s.now, clock_undone=clock_undone)
        s.pending.forget()
        self._forget_help()
        s.takebacks.flow.taken_back(s.game.ply)  # an accepted request further back: the LEDs guide on
        s.line.clear_hint()
        s.assistants.cancel_search()
        if s.phase is Phase.OVER and s.game.result is None:
            s.enter(Phase.PLAYING)
        s.bus.publish(ev.TakenBack(s.now, s.game.ply, undone, self.position_text(), s.clock_ms()))
        s.line.say(say("session.took_back", count=undone, prompt=s.output.turn_prompt()))
        s.reread()

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

    def finish(self, at_ms: int | None = None) -> None:
        """The game is over (its result is set): say so and publish it."""
        s = self.s
        result = s.game.result
        assert result is not None, "finished without a result"
        s.enter(Phase.OVER)
        s.bus.publish(ev.GameOver(s.now if at_ms is None else at_ms, s.game.ply, result, tuple(s.game.scores)))
        s.line.say(say("session.game_over", result=s.output.result_text(result)))

    def new_game(self) -> None:
        """The board shows the start position after the game: a new game."""
        s = self.s
        s.record.reset(Game(s.variant), [])
        s.restore.done()
        s.line.clear_notice()
        self.forget_turn()
        s.line.clear_hint()
        s.assistants.cancel_search()
        if s.coach is not None:
            s.coach.new_game()
        s.enter(Phase.PLAYING)
        s.bus.publish(ev.NewGame(s.now, 0, self.position_text()))
        s.line.say(say("session.new_game", prompt=s.output.turn_prompt()))
        s.reread()

    def start_clock(self, first: int) -> bool:
        """Start the clock if it still waits for the game's first press or move."""
        s = self.s
        if s.game.is_over or not s.clock_binding.start_if_waiting(s.now, first):
            return False
        s.bus.publish(ev.ClockStarted(s.now, s.game.ply, first))
        return True

    def stop_clock(self) -> None:
        """The game ended on the board (or was declared): the clock stops."""
        s = self.s
        result = s.game.result
        s.clock_binding.stop(s.now, result.reason if result is not None else "game over")

    def position_text(self) -> str:
        return self.s.variant.format_position(self.s.game.position)
