"""The session: one game on the board, its turn flow and its mode.

Input: `handle(event)` for every snapshot, clock press and button press, and
`tick(now_ms)` when time passes (the main loop asks `next_deadline()` when it
next has to call). Output: `frame` (the LED frame, `controller/frame.py`),
`message` (one line for the screen, `controller/wording.py`), `committed`
(the moves with their PDN text), `result`, `scores`, `sensor_log`, and the
typed events of `controller/events.py` on `bus`, to which the store, the
screen and the tools subscribe.

Modes:
- casual: a complete move that cannot be extended is committed once the board
  has been quiet `settle_ms`; one that could still be extended after
  `extend_ms`; a press of the mover's clock commits at once; so does the
  next side starting its answer before the move settled (a fast answer);
- learning: casual, plus the beginner's LEDs (`hints.learning`) and hints;
  with a `coach`, hints are the coach's (limited per game) and a complete
  move is checked for blunders before it is committed (a warning holds it);
- tournament: no hints, no take-back; a move is committed only by the mover's
  clock press, refused (FLAG on the squares concerned and a message) while the
  board does not show a complete legal move with every captured piece removed;
- computer: the computer's sides' moves come from the assistants
  (`controller/assistants.py`): no move of that side is accepted while it
  thinks; its move is lit with COMPUTER_FROM/TO and only that move is
  accepted (committed once settled, no press needed).
Multiwarcaby: the side's button (clock or 'done') ends the turn in every mode:
accepted when the board is two legal moves from the turn start (the record
shows one such pair); a press after one move asks for the second. A first
move that ends the game (fewer than two pieces left, no second move) is a
turn of its own: committed once settled, or at the press in tournament play.

The clock (`controller/session_clock.py`): a flag in an earlier stage is shown
and play goes on; in the last stage with two sides it is a loss on time;
with three or four multiwarcaby players the flagged player is out of play
(`variant.drop_side`): they keep their points, the board is guided back to
the start of their turn, and the next player moves. When the game ends on
the board the session stops the clock. Starting the clock stays its owner's
business.

Size: the turn state machine itself; its verdicts (`session_judge.py`), record
changes (`session_commits.py`), assistants (`session_assist.py`), ends
(`session_ends.py`) and output (`session_output.py`) are mixins in their own
modules, working on this state.
"""

from __future__ import annotations

import time as _time
from typing import Any, Callable

from damka.controller import events as ev
from damka.controller import hints, wording
from damka.controller.session.assistants import Assistants
from damka.controller.chooser import Chooser
from damka.controller.eventlog import LogEvent, occupancy_events, side_token
from damka.controller.game_record import GameRecord, rebuild_record
from damka.controller.session.assist import SessionAssist
from damka.controller.session.commits import SessionCommits
from damka.controller.session.clock_binding import ClockBinding
from damka.controller.session.ends import SessionEnds
from damka.controller.session.judge import SessionJudge
from damka.controller.session.output import SessionOutput
from damka.controller.session.types import (POLL_MS, CommittedMove, Mode, Opponent, Phase, SessionSettings,
                                            TurnClock)
from damka.controller.tracker import BoardMap, Kind, Reading, Tracker, TrackerState
from damka.engine.game import Game
from damka.engine.move import Move
from damka.engine.variant import Position, Result, Variant
from damka.hardware.interfaces import Button, ButtonPress, ClockPress, InputEvent, LedFrame, Snapshot

__all__ = ["CommittedMove", "Mode", "Phase", "Session", "SessionSettings", "POLL_MS"]


class Session(SessionJudge, SessionCommits, SessionAssist, SessionEnds, SessionOutput):
    """One game on one board. Feed it events; read its frame and messages; subscribe to `bus`."""

    def __init__(self, variant: Variant, settings: SessionSettings | None = None, *,
                 position: Position | None = None, clock: TurnClock | None = None,
                 chooser: Chooser | None = None, opponent: Opponent | None = None,
                 coach: Any = None, bus: ev.EventBus | None = None) -> None:
        self.variant = variant
        self.settings = settings or SessionSettings()
        self.mode = self.settings.mode
        self.bus = bus or ev.EventBus()
        self._clock = ClockBinding(clock)
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
        self.initial_occupied: frozenset[str] = frozenset()
        self.message = "set up the pieces"
        self.players: tuple[str, ...] = ()  # the players' names by side, "" for none (`name_players`)
        self._flag: tuple[int, int] | None = None           # (squares, until_ms)
        self._hint_text = ""
        self._restore_request = False
        self._restore_to: int | None = None  # a take-back asked from outside: the ply the LEDs guide back to
        # A seat played from afar agrees to a take-back made at the board (session_assist.py):
        # the App's hook asks it (an offer); `_consent` holds the plies asked until the answer.
        self.takeback_consent: Callable[[int | None], int] | None = None
        self._consent: int | None = None
        self._first_moves: dict[Move, int] = {}  # first moves seen complete this turn, in order
        self._pending: tuple[int, tuple[Move, ...]] | None = None  # (ply, move): complete, not yet settled
        self._restore_board = False  # a player went out mid-turn: the board goes back to the turn start
        self._out_message = ""
        self._notice = ""            # a flag or a player out, shown with the turn prompt until the next move
        self._unknown_reported = False
        self._resumed = False
        self._started_ms: int | None = None
        self._frame: LedFrame = {}
        self._handlers: dict[type, Callable[[Any], None]] = {
            Snapshot: self._on_snapshot, ClockPress: self._on_press, ButtonPress: self._on_button,
        }

    # -- the outside view -----------------------------------------------------

    @property
    def game(self) -> Game:
        return self.record.game

    @property
    def committed(self) -> list[CommittedMove]:
        return self.record.committed

    @property
    def frame(self) -> LedFrame:
        return self._frame

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
        return self._clock.clock

    @clock.setter
    def clock(self, clock: TurnClock | None) -> None:
        self._clock = ClockBinding(clock)

    @property
    def opponent(self) -> Opponent | None:
        return self.assistants.opponent

    @opponent.setter
    def opponent(self, opponent: Opponent | None) -> None:
        self.assistants.opponent = opponent

    @property
    def coach(self) -> Any:
        return self.assistants.coach

    @coach.setter
    def coach(self, coach: Any) -> None:
        self.assistants.coach = coach

    @property
    def chooser(self) -> Chooser:
        return self.assistants.chooser

    @chooser.setter
    def chooser(self, chooser: Chooser) -> None:
        self.assistants.chooser = chooser

    @property
    def warning(self) -> Any:
        """The coach's BlunderWarning for the move the board shows (None: no warning)."""
        return self.assistants.warning

    @property
    def planned(self) -> tuple[Move, ...] | None:
        """The computer's planned turn (None: not its turn; (): still thinking)."""
        return self.assistants.planned

    @property
    def hint(self) -> tuple[Move, ...] | None:
        return self.assistants.hint

    @property
    def restorable(self) -> tuple[Move, ...]:
        """Moves taken back that the board may still put back (until a new move is made)."""
        return tuple(self.record.redo)

    @property
    def started_ms(self) -> int | None:
        """When the board first showed the game's position (None: still being set up)."""
        return self._started_ms

    @property
    def hints_left(self) -> int | None:
        """Hints left in this game (None: no limit or no coach)."""
        return self.assistants.hints_left

    @property
    def thinking(self) -> bool:
        """The computer is searching for its move (the board stays live meanwhile)."""
        return self.assistants.searching() and self._is_computer_turn()

    @property
    def busy(self) -> bool:
        """Something runs off the loop: the computer's search, a hint or a blunder check."""
        return self.thinking or self.assistants.coach_busy

    def clock_ms(self) -> tuple[int, ...] | None:
        """Main time left per side now (None: no clock that reports it, or an untimed one)."""
        return self._clock.remaining_ms(self.now)

    def resume(self, game: Game, committed: list[CommittedMove] | None = None, *, floor_ply: int = 0) -> None:
        """Carry on a saved game: its moves, and their record (rebuilt from the
        game when not given). The board is then set up to the game's position
        (setup LEDs) before play goes on. `floor_ply`: no take-back before it
        (the last ply where a player went out)."""
        record = list(committed) if committed is not None else rebuild_record(self.variant, game)
        self.record.reset(game, record, floor_ply=floor_ply)
        self._first_moves = {}
        self.assistants.forget_hint()
        self.assistants.cancel_search()
        self._restore_board = False
        self._notice = ""
        self.phase = Phase.SETUP
        self._resumed = True
        self._update()

    def close(self) -> None:
        """Stop what runs off the loop (the computer's search, the coach's)."""
        self.assistants.close()

    # -- input ----------------------------------------------------------------

    def handle(self, event: InputEvent) -> None:
        # A flag that fell before this event is dealt with first: a press at
        # the millisecond the time runs out is too late.
        self._poll_clock(event.time_ms)
        self._poll_thinking()
        self._handlers[type(event)](event)

    def tick(self, now_ms: int) -> None:
        self.now = max(self.now, now_ms)
        self._poll_clock(self.now)
        self._poll_thinking()
        self._update()

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
        due: list[int] = []
        settings = self.tracker.settings
        state = self.state
        kind = self.reading.kind
        if self._flag is not None:
            due.append(self._flag[1])
        if self.phase is Phase.SETUP:
            if self.occupancy == self.tracker.occupancy_of(self.game.position):
                due.append(state.changed_at + settings.settle_ms)
        else:
            if kind in (Kind.COMPLETE, Kind.TAKEBACK, Kind.START) and self._auto_commit_kind(kind):
                due.append(state.changed_at + self._wait_for(kind))
            if self.record.redo and self._redo_match():
                due.append(state.changed_at + settings.takeback_ms)
            if kind is Kind.UNKNOWN and state.unknown_since is not None:
                due.append(state.unknown_since + settings.grace_ms)
            if kind is Kind.IN_PROGRESS and not self.hints_on:
                due.append(state.changed_at + settings.grace_ms)
        deadline = self._clock.next_deadline(self.now)
        if deadline is not None:
            due.append(deadline)
        if self.busy:
            due.append(self.now + POLL_MS)
        if self.warning is not None and kind is Kind.COMPLETE:
            due.append(state.changed_at + self.settings.warn_ms)
        future = [time for time in due if time > self.now]
        return min(future) if future else None

    def _on_snapshot(self, snapshot: Snapshot) -> None:
        self.now = max(self.now, snapshot.time_ms)
        occupied = snapshot.occupied
        if self.sensed is None:
            self.initial_occupied = occupied
        else:
            for entry in occupancy_events(self.sensed, occupied, self.now):
                self._log(entry)
        self.sensed = occupied
        self.occupancy = self.board.bits(occupied)
        if self.occupancy != self.state.occupancy:
            if self._flag is not None:
                self._flag = None
        self._observe()
        self._fast_answer()
        if self.reading.kind is Kind.HALF_TURN:
            for turn in self.reading.turns:
                self._first_moves.setdefault(turn[0], len(self._first_moves))
        elif self.reading.kind is Kind.UNCHANGED:
            self._first_moves = {}
        self._update()

    def _log(self, entry: LogEvent) -> None:
        self.sensor_log.append(entry)
        self.bus.publish(ev.SensorChanged(entry.time_ms, self.game.ply, str(entry)))

    def _on_press(self, press: ClockPress) -> None:
        self.now = max(self.now, press.time_ms)
        self._log(LogEvent(self.now, "press", side_token(self.variant, press.side)))
        if self.phase is not Phase.PLAYING:
            return
        if self.reading.kind is Kind.UNCHANGED and self._start_clock(self.game.turn):
            self._say(f"clock started; {self._turn_prompt()}")  # the press only started the clock
            return
        if press.side != self.game.turn:
            self._say(f"it is {wording.side_name(self.variant, self.game.turn, self.players)}'s turn")
            return
        if self._is_computer_turn():
            self._say("carry out the computer's move")
            return
        if self._restore_board:
            self._refuse(self.occupancy ^ self._reference(),
                         "put the pieces back as they were at the start of the turn")
            return
        self._press_commit(press.side)
        self._refresh_frame()

    def _on_button(self, press: ButtonPress) -> None:
        self.now = max(self.now, press.time_ms)
        self._log(LogEvent(self.now, "button", press.button.value))
        if self.phase is not Phase.PLAYING and press.button is not Button.TAKE_BACK:
            return
        if press.button is Button.HINT:
            self._ask_hint()
        elif press.button is Button.TAKE_BACK:
            self._ask_takeback()
        self._refresh_frame()

    def _fast_answer(self) -> None:
        """A fast answer: the board showed a complete move and, before it settled,
        the next side began its move (a piece lifted at once, or first the
        piece it will capture taken off). While every snapshot since is
        explained as the next side's move in progress, the complete move stays
        pending; once the board is explained by nothing else, it is committed
        then, so the answer reads as a move, not as an unknown board."""
        reading = self.reading
        if reading.kind is Kind.COMPLETE:
            moves = self._pending_move()
            self._pending = None if moves is None else (self.game.ply, moves)
            return
        pending = self._pending
        if pending is None:
            return
        self._pending = None
        ply, moves = pending
        if ply != self.game.ply or reading.kind not in (Kind.UNKNOWN, Kind.IN_PROGRESS) or self._pending_move(
                check=False) is None:
            return
        trial = self.game.copy()
        for move in moves:
            trial.push_unchecked(move)
        after = self.tracker.read(trial, self.occupancy, None, False)
        if after.kind not in (Kind.IN_PROGRESS, Kind.COMPLETE):
            return
        if reading.kind is Kind.UNKNOWN:
            self._commit(moves, pressed=None)
        else:
            self._pending = pending  # both readings explain it: wait for the next snapshot

    def _pending_move(self, check: bool = True) -> tuple[Move, ...] | None:
        """The complete move the board shows, to be committed without a press
        once settled (None: no such move). `check=False`: only whether a
        pending move may be committed now (mode, phase, coach)."""
        if (self.phase is not Phase.PLAYING or self.tracker.two_moves or self.mode is Mode.TOURNAMENT
                or self._coach_checks() or self.warning is not None):
            return None
        if not check:
            return ()
        if not self._auto_commit_kind(Kind.COMPLETE):
            return None
        return self._pick(self.reading.turns)

    def _pick(self, turns: tuple[tuple[Move, ...], ...]) -> tuple[Move, ...]:
        """One of the candidate turns for the record: the one whose first move
        was seen complete on the board earliest this turn, if any."""
        seen = [turn for turn in turns if turn[0] in self._first_moves]
        return min(seen, key=lambda turn: self._first_moves[turn[0]]) if seen else turns[0]

    # -- the core -------------------------------------------------------------

    def _allowed(self) -> tuple[Move, ...] | None:
        return self._computer_moves() if self.phase is Phase.PLAYING else None

    def _takebacks(self) -> bool:
        return self.mode is not Mode.TOURNAMENT or self.phase is Phase.OVER

    def _observe(self) -> None:
        self.state, self.reading = self.tracker.observe(self.game, self.state, self.occupancy, self.now,
                                                        self._allowed(), self._takebacks(), tuple(self._first_moves))

    def _reread(self) -> None:
        """Read the same occupancy again after the game changed (commit, take-back)."""
        self.reading = self.tracker.read(self.game, self.occupancy, self._allowed(), self._takebacks(),
                                         tuple(self._first_moves))
        unknown = self.state.unknown_since
        if self.reading.kind is Kind.UNKNOWN:
            unknown = self.now if unknown is None else unknown
        else:
            unknown = None
        self.state = TrackerState(self.state.occupancy, self.state.changed_at, unknown)

    def _update(self) -> None:
        if self._flag is not None and self.now >= self._flag[1]:
            self._flag = None
        if self.phase is Phase.SETUP:
            self._update_setup()
        else:
            self._update_playing()
        self._refresh_frame()

    def _update_setup(self) -> None:
        target = self.tracker.occupancy_of(self.game.position)
        if self.occupancy == target:
            # A board switched on already set up starts at once; one being set up waits to settle.
            if self.tracker.settled(self.state, self.now) or len(self.sensor_log) == 0:
                self._begin()
            else:
                self._show("")  # set up: nothing left to fix while the board settles
            return
        self._show(hints.guidance_message(self.board, self.occupancy, target, held=None if self._resumed else 0))

    def _begin(self) -> None:
        self.phase = Phase.PLAYING
        if self._started_ms is None:
            self._started_ms = self.now
        self.bus.publish(ev.GameStarted(self.now, self.game.ply, self._position_text(), resumed=self._resumed))
        self._reread()
        self._say(self._turn_prompt())

    def _auto_commit_kind(self, kind: Kind) -> bool:
        if kind is Kind.COMPLETE:
            if self._is_computer_turn():
                return True
            if self.mode is Mode.TOURNAMENT or (self.tracker.two_moves and not self._ends_game_alone()):
                return False
            return self.phase is Phase.PLAYING
        if kind is Kind.TAKEBACK:
            return self.mode is not Mode.TOURNAMENT and self.record.can_take_back(self.reading.plies_back)
        if kind is Kind.START:
            return self.mode is not Mode.TOURNAMENT or self.phase is Phase.OVER
        return False

    def _ends_game_alone(self) -> bool:
        """The board shows a multiwarcaby first move that ends the game: a whole
        turn (RULES.md), committed like a move of a one-move variant."""
        turns = self.reading.turns
        return self.reading.kind is Kind.COMPLETE and bool(turns) and len(turns[0]) < self.variant.moves_per_turn

    def _wait_for(self, kind: Kind) -> int:
        settings = self.tracker.settings
        if kind is Kind.COMPLETE:
            if self.warning is not None:
                return self.settings.warn_ms
            extend = self.reading.extendable and not self._is_computer_turn()
            return settings.extend_ms if extend else settings.settle_ms
        return settings.takeback_ms

    def _redo_match(self) -> int:
        """How many taken-back moves the board shows replayed (0: none). A
        board put back as it was (or a sensor fault that looked like a
        take-back and ends) restores the moves."""
        if self.reading.kind in (Kind.UNCHANGED, Kind.COMPLETE, Kind.HALF_TURN):
            return 0
        return self.record.restorable(self.occupancy)

    def _update_playing(self) -> None:
        if self._restore_board and not self._board_restored():
            return
        reading = self.reading
        kind = reading.kind
        self._report_unknown(kind)
        if self.record.redo and self.mode is not Mode.TOURNAMENT:
            redo = self._redo_match()
            if redo and self.tracker.settled(self.state, self.now, wait=self.tracker.settings.takeback_ms):
                self._redo_moves(redo)
                return
        if kind is not Kind.COMPLETE and self.assistants.check_key is not None:
            self.assistants.clear_check()  # the move was taken back on the board (or changed): the warning goes
        if kind is Kind.COMPLETE and self._coach_checks() and not self._check_move(reading):
            return  # the coach is still looking at the move: no commit before its verdict
        if self._settled_action(kind):
            return
        if not self.game.is_over or self._restore_request:
            self._show(self._playing_message(kind))

    def _board_restored(self) -> bool:
        """A player went out mid-turn: False while the board is not back at the turn start."""
        if self.occupancy != self._reference():
            target = hints.guidance_message(self.board, self.occupancy, self._reference())
            self._show(f"{self._out_message}: {target}" if self._out_message else target)
            return False
        self._restore_board = False
        self._first_moves = {}
        self._say(self._prompt())
        return True

    def _settled_action(self, kind: Kind) -> bool:
        """Commit the move, take back or start a new game once the board settled; whether it did."""
        if kind not in (Kind.COMPLETE, Kind.TAKEBACK, Kind.START) or not self._auto_commit_kind(kind):
            return False
        if not self.tracker.settled(self.state, self.now, wait=self._wait_for(kind)):
            return False
        if kind is Kind.COMPLETE:
            self._commit(self._pick(self.reading.turns), pressed=None)
        elif kind is Kind.TAKEBACK:
            self._board_takes_back(self.reading.plies_back)
        else:
            self._new_game()
        return True

    def _reference(self) -> int:
        return self.tracker.occupancy_of(self.game.position)
