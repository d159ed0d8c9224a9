"""The session's coordinator: `Session`, one game on one board.

It owns the phase, the time, what the sensors show and the players' names,
builds the parts and gives App, the page, the hall, DXP and the tests one
public face. What the modes do and which part owns what: the package's
docstring (`controller/session/__init__.py`).
"""

from __future__ import annotations

import time as _time
from collections.abc import Sequence
from typing import Any

from damka.controller import events as ev
from damka.controller.players.chooser import Chooser
from damka.controller.board.eventlog import LogEvent, occupancy_events
from damka.controller.game.record import GameRecord, rebuild_record
from damka.controller.session.assist import Assist
from damka.controller.session.assistants import Assistants
from damka.controller.session.board_guard import BoardRestore, RefusalFlag
from damka.controller.session.clock_binding import ClockBinding
from damka.controller.session.commits import Commits
from damka.controller.session.ends import Ends
from damka.controller.session.forward import Forward
from damka.controller.session.judge import Judge
from damka.controller.session.message_line import MessageLine
from damka.controller.session.output import Output
from damka.controller.session.pending_turn import PendingTurn
from damka.controller.session.takeback_flow import ConsentHook
from damka.controller.session.takebacks import Takebacks
from damka.controller.session.turn_flow import TurnFlow
from damka.controller.session.types import (POLL_MS, CommittedMove, Mode, Opponent, Phase, SessionSettings,
                                            TurnClock)
from damka.controller.board.takeback_guide import TakebackGuide
from damka.controller.board.board_map import BoardMap
from damka.controller.board.tracker import Kind, Reading, Tracker, TrackerState
from damka.engine.game import Game
from damka.engine.move import Move
from damka.engine.variant import Position, Result, Variant
from damka.hardware.interfaces import ButtonPress, ClockPress, InputEvent, LedFrame, Snapshot

__all__ = ["CommittedMove", "Mode", "Phase", "Session", "SessionSettings", "POLL_MS"]


class Session:
    """One game on one board. Feed it events; read its frame and messages; subscribe to `bus`."""

    def __init__(self, variant: Variant, settings: SessionSettings | None = None, *,
                 position: Position | None = None, clock: TurnClock | None = None,
                 chooser: Chooser | None = None, opponent: Opponent | None = None,
                 coach: Any = None, bus: ev.EventBus | None = None) -> None:
        self.variant = variant
        self.settings = settings or SessionSettings()
        self.mode = self.settings.mode
        self.bus = bus or ev.EventBus()
        self.clock_binding = ClockBinding(clock, self.settings.carrying_out)
        self.assistants = Assistants(variant, chooser=chooser, opponent=opponent, coach=coach)
        self.tracker = Tracker(variant, self.settings.tracker)
        self.board = BoardMap(variant)
        self.record = GameRecord(variant, self.tracker, position)
        self.phase = Phase.SETUP
        self.now = 0
        self.state = TrackerState()
        self.reading: Reading = Reading(Kind.UNKNOWN, 0)
        self.sensed: frozenset[str] | None = None
        self.occupancy = 0
        self.sensor_log: list[LogEvent] = []
        self.players: tuple[str, ...] = ()  # the players' names by side, "" for none (`name_players`)
        self.resumed = False                # carried on from a saved game (written by `resume` only)
        self.started_ms: int | None = None  # when the board first showed the game's position (None: setting up)
        # The parts: state of their own, and behaviour working through this coordinator's public face.
        self.line = MessageLine(self.bus, lambda: (self.now, self.game.ply))
        self.pending = PendingTurn()
        self.flag = RefusalFlag()
        self.restore = BoardRestore()
        self.output = Output(self)
        self.assist = Assist(self)
        self.takebacks = Takebacks(self)
        self.commits = Commits(self)
        self.judge = Judge(self)
        self.ends = Ends(self)
        self.flow = TurnFlow(self)

    # -- the outside view -----------------------------------------------------

    # The parts' fields on the public face (see forward.py): one owner each.
    game: Forward[Game] = Forward("record.game")
    committed: Forward[list[CommittedMove]] = Forward("record.committed")
    frame: Forward[LedFrame] = Forward("output.frame")
    message: Forward[str] = Forward("line.text")                    # the screen's message line now
    opponent: Forward[Opponent | None] = Forward("assistants.opponent", settable=True)
    coach: Forward[Any] = Forward("assistants.coach", settable=True)  # Any: a Coach or a Hub engine's
    chooser: Forward[Chooser] = Forward("assistants.chooser", settable=True)
    warning: Forward[Any] = Forward("assistants.warning")  # the coach's BlunderWarning for the board (None: none)
    planned: Forward[tuple[Move, ...] | None] = Forward("assistants.planned")  # the computer's turn; (): thinking
    hint: Forward[tuple[Move, ...] | None] = Forward("assistants.hint")
    hints_left: Forward[int | None] = Forward("assistants.hints_left")  # None: no limit or no coach
    # A seat played from afar agrees to a take-back made at the board: the App's hook asks it (an offer).
    takeback_consent: Forward[ConsentHook | None] = Forward("takebacks.flow.hook", settable=True)

    @property
    def result(self) -> Result | None:
        return self.game.result

    @property
    def scores(self) -> tuple[int, ...]:
        return self.game.scores

    @property
    def turn(self) -> int:
        return self.game.turn

    @property
    def hints_on(self) -> bool:
        if self.settings.hints is not None:
            return self.settings.hints
        return self.mode is Mode.LEARNING

    @property
    def clock(self) -> TurnClock | None:
        return self.clock_binding.clock

    @clock.setter
    def clock(self, clock: TurnClock | None) -> None:
        self.clock_binding = ClockBinding(clock, self.settings.carrying_out)

    @property
    def restorable(self) -> tuple[Move, ...]:
        """Moves taken back that the board may still put back (until a new move is made)."""
        return tuple(self.record.redo)

    @property
    def thinking(self) -> bool:
        """The computer is searching for its move (the board stays live meanwhile)."""
        return self.assistants.searching() and self.assist.computer_turn()

    @property
    def busy(self) -> bool:
        """Something runs off the loop: the computer's search, a hint or a blunder check."""
        return self.thinking or self.assistants.coach_busy

    @property
    def takeback_needs_consent(self) -> bool:
        """A take-back made at the board is asked of the far side first (`takebacks.py`)."""
        return self.takebacks.flow.needs_consent(self.opponent)

    @property
    def takeback_guide(self) -> TakebackGuide | None:
        """The take-back under way, for the screen and the voice (None: none is being guided)."""
        return self.takebacks.guide()

    def clock_ms(self) -> tuple[int, ...] | None:
        """Main time left per side now (None: no clock that reports it, or an untimed one)."""
        return self.clock_binding.remaining_ms(self.now)

    # -- commands from outside --------------------------------------------------

    def resume(self, game: Game, committed: list[CommittedMove] | None = None, *, floor_ply: int = 0) -> None:
        """Carry on a saved game: its moves, and their record (rebuilt from the
        game when not given). The board is then set up to the game's position
        (setup LEDs) before play goes on. `floor_ply`: no take-back before it
        (the last ply where a player went out)."""
        record = list(committed) if committed is not None else rebuild_record(self.variant, game)
        self.record.reset(game, record, floor_ply=floor_ply)
        self.pending.forget()
        self.assistants.forget_hint()
        self.assistants.cancel_search()
        self.restore.done()
        self.line.clear_notice()
        self.phase = Phase.SETUP
        self.resumed = True
        self.flow.update()

    def close(self) -> None:
        """Stop what runs off the loop (the computer's search, the coach's)."""
        self.assistants.close()

    def say(self, text: str) -> None:
        """Show `text` on the screen's message line (published even when it
        repeats: something new was said). Public: an outside driver (a DXP
        peer, a remote player) speaks on the same line as the session."""
        self.line.say(text)

    def name_players(self, names: Sequence[str]) -> None:
        """The players' names by side ("" where none was given), for the words on the
        screen; the prompt on the screen now is said again with them."""
        prompt = self.output.prompt() if self.phase is Phase.PLAYING else None
        self.players = tuple(names)
        if prompt is not None and self.message == prompt:
            self.line.show(self.output.prompt())

    def clock_events(self, events: Any) -> None:
        """Act on clock events (`Flag`, `SideOut`, `GameOver`; others are ignored).

        The session calls this itself for a clock it polls; an owner that
        drains a press-only clock (`clock.update()`) passes the events here."""
        self.ends.clock_events(events)

    def declare_loss(self, loser: int, reason: str = "on time", *, at_ms: int | None = None) -> None:
        """End a two-side game as a loss for `loser` (on time, resignation)."""
        self.ends.declare_loss(loser, reason, at_ms=at_ms)

    def declare(self, result: Result, *, at_ms: int | None = None) -> None:
        """End the game from outside the rules (time, agreement, resignation)."""
        self.ends.declare(result, at_ms=at_ms)

    def drop_side(self, side: int, reason: str = "time", *, at_ms: int | None = None) -> None:
        """Take `side` out of a 3-4 player multiwarcaby game (its flag fell): see `ends.py`."""
        self.ends.drop_side(side, reason, at_ms=at_ms)

    def clock_started_by_hand(self) -> None:
        """The clock was restarted by hand (the arbiter, the menu, a DXP peer back): see
        `commits.clock_started_by_hand`."""
        self.commits.clock_started_by_hand()

    def take_back(self, plies: int, *, clock_undone: bool = False) -> None:
        """Take `plies` plies back in the record at once (an arbiter's undo of a
        clock press: `clock_undone`, the clock is put back already); the board
        then guides the pieces to the position."""
        self.commits.take_back(plies, clock_undone=clock_undone)

    def ask_takeback(self, moves: int | None = None) -> None:
        """The take-back button, from outside (an accepted take-back request,
        `controller/app_offers.py`): `moves` back (None: as the button does);
        the LEDs guide the pieces back until the board shows that position."""
        self.takebacks.ask(moves)

    def takeback_answered(self, accept: bool, moves: int, reason: str) -> None:
        """The far side's answer to a take-back asked from the board (the App's offer)."""
        self.takebacks.answered(accept, moves, reason)

    def guide_take_back(self, plies: int, reason: str) -> None:
        """Ask the person to take back `plies` plies (a peer's or an arbiter's
        take-back): `reason` is shown and the LEDs guide the pieces back to
        that position. ValueError for a ply count the game does not have."""
        self.takebacks.guide_back(plies, reason)

    # -- input ----------------------------------------------------------------

    def handle(self, event: InputEvent) -> None:
        # A flag that fell before this event is dealt with first: a press at
        # the millisecond the time runs out is too late.
        self._poll_clock(event.time_ms)
        self.assist.poll()
        if isinstance(event, Snapshot):
            self._on_snapshot(event)
        elif isinstance(event, ClockPress):
            self.judge.on_press(event)
        elif isinstance(event, ButtonPress):
            self.assist.on_button(event)

    def tick(self, now_ms: int) -> None:
        self.now = max(self.now, now_ms)
        self._poll_clock(self.now)
        self.assist.poll()
        self.flow.update()

    def settle(self, timeout: float = 60.0) -> None:
        """Block until the work off the loop (the computer's search, a hint, a
        blunder check) is done and acted on, at the session's current time.
        For scripted replays in virtual time, tests and tools: never on the
        board's loop, which polls instead."""
        end = _time.monotonic() + timeout
        while self.busy and _time.monotonic() < end:
            _time.sleep(0.002)
            self.tick(self.now)

    def next_deadline(self) -> int | None:
        """When the session next needs a `tick` (None: nothing pending)."""
        due = self.flow.deadlines()
        deadline = self.clock_binding.next_deadline(self.now)
        if deadline is not None:
            due.append(deadline)
        if self.busy:
            due.append(self.now + POLL_MS)
        future = [time for time in due if time > self.now]
        return min(future) if future else None

    def arrive(self, time_ms: int) -> None:
        """An input at `time_ms`: the session's time never goes back."""
        self.now = max(self.now, time_ms)

    def _poll_clock(self, now: int) -> None:
        if self.clock_binding.polled:
            self.arrive(now)
            self.ends.clock_events(self.clock_binding.update(self.now))

    def _on_snapshot(self, snapshot: Snapshot) -> None:
        self.arrive(snapshot.time_ms)
        occupied = snapshot.occupied
        if self.sensed is not None:
            for entry in occupancy_events(self.sensed, occupied, self.now):
                self.log(entry)
        self.sensed = occupied
        self.occupancy = self.board.bits(occupied)
        if self.occupancy != self.state.occupancy:
            self.flag.clear()
            # The board leaves a multiwarcaby first move: made if it was held for
            # the settle time; a shorter touch on the way was a slide.
            if self.reading.kind is Kind.HALF_TURN and self.tracker.settled(self.state, self.now):
                self.pending.made(self.reading.turns)
        self.observe()
        self.flow.fast_answer()
        if self.reading.kind is Kind.HALF_TURN:
            self.pending.showed(self.reading.turns)
        elif self.reading.kind is Kind.UNCHANGED:
            self.pending.forget()
        self.flow.update()

    def log(self, entry: LogEvent) -> None:
        """One line of the sensor log (a piece lifted or put down, a press)."""
        self.sensor_log.append(entry)
        self.bus.publish(ev.SensorChanged(entry.time_ms, self.game.ply, str(entry)))

    # -- the reading and the phase (written here only) ----------------------------

    def reference(self) -> int:
        """The occupancy of the game's position (the start of the turn)."""
        return self.tracker.occupancy_of(self.game.position)

    def _read_args(self) -> tuple[tuple[Move, ...] | None, bool, tuple[Move, ...]]:
        """What the tracker reads the board against: the only moves allowed (the
        computer's), whether take-backs are read, the first moves seen this turn."""
        allowed = self.assist.computer_moves() if self.phase is Phase.PLAYING else None
        return allowed, self.mode is not Mode.TOURNAMENT or self.phase is Phase.OVER, self.pending.first_moves

    def observe(self) -> None:
        """Read the board after it changed."""
        self.state, self.reading = self.tracker.observe(self.game, self.state, self.occupancy, self.now,
                                                        *self._read_args())

    def reread(self) -> None:
        """Read the same occupancy again after the game changed (commit, take-back)."""
        self.reading = self.tracker.read(self.game, self.occupancy, *self._read_args())
        unknown = self.state.unknown_since
        if self.reading.kind is Kind.UNKNOWN:
            unknown = self.now if unknown is None else unknown
        else:
            unknown = None
        self.state = TrackerState(self.state.occupancy, self.state.changed_at, unknown)

    def enter(self, phase: Phase) -> None:
        """The game moves to `phase` (over, or playing again after a take-back or a new game)."""
        self.phase = phase

    def begin(self) -> None:
        """The board shows the game's position: play starts."""
        self.phase = Phase.PLAYING
        if self.started_ms is None:
            self.started_ms = self.now
        self.bus.publish(ev.GameStarted(self.now, self.game.ply, self.commits.position_text(),
                                        resumed=self.resumed))
        self.reread()
        self.line.say(self.output.turn_prompt())
