"""The session: one game on the board, its turn flow and its mode.

Input: `handle(event)` for every snapshot, clock press and button press, and
`tick(now_ms)` when time passes (the main loop asks `next_deadline()` when it
next has to call). Output, read at any time: `frame` (the LED frame),
`message` (one line for the screen), `committed` (the moves with their PDN
text), `result`, `scores`, `events` (for the game store) and `sensor_log`
(every sensor event with its time, in the `eventlog` format).

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
- computer: the computer's sides' moves are chosen by an `Opponent` thinking
  off the loop (polled in `handle`/`tick`; no move of that side is accepted
  while it thinks; a take-back cancels it) or, without one, at once by a
  `Chooser`; shown with COMPUTER_FROM/TO, and only that move is accepted
  (committed once settled, no press needed); the other sides play as in casual.
Multiwarcaby: the side's button (clock or 'done') ends the turn in every mode:
accepted when the board is two legal moves from the turn start (the record
shows one such pair); a press after one move asks for the second.

A clock is optional: anything with the `TurnClock.press` signature plugs in
(`damka.controller.clock.Clock` does). A clock that also has `update(now)` and
`next_deadline(now)` (the real `Clock`) is polled by the session: flags are
found at their exact millisecond (the session asks to be ticked then), and
- a flag in an earlier stage is shown and play goes on;
- a flag in the last stage with two sides is a loss on time (the game gets
  `declare(Result(..., "on time"))`);
- with three or four multiwarcaby players the flagged player is out of play
  (`variant.drop_side`): they keep their points, the board is guided back to
  the start of their turn, and the next player moves.
The session then drains the clock's events itself: its owner should not also
call `update`, and reads the flags from `events` (`flag`, `side_out`,
`result`). An owner that drains the clock itself passes the events on with
`clock_events(events)`. When the game ends on the board the session stops a
clock that has `stop`. Starting the clock stays its owner's business.
"""

from __future__ import annotations

import enum
import time as _time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Protocol

from damka.controller import hints
from damka.controller.chooser import Chooser, GreedyChooser
from damka.controller.clock import Flag, GameOver, SideOut
from damka.controller.eventlog import LogEvent, occupancy_events, side_token
from damka.controller.tracker import BoardMap, Kind, Reading, Tracker, TrackerSettings, TrackerState, bits_of
from damka.engine.game import Game
from damka.engine.move import Move
from damka.engine.notation import format_move, square_name
from damka.engine.variant import Position, Result, Variant
from damka.hardware.interfaces import Button, ButtonPress, ClockPress, InputEvent, LedFrame, Snapshot


class Mode(enum.Enum):
    CASUAL = "casual"
    LEARNING = "learning"
    TOURNAMENT = "tournament"
    COMPUTER = "computer"


class Phase(enum.Enum):
    SETUP = "setup"      # waiting for the board to show the start position
    PLAYING = "playing"
    OVER = "over"


# While the computer (or the coach) thinks off the loop, the session asks to be
# ticked this often to pick up the answer.
POLL_MS = 20


class Opponent(Protocol):
    """What the session needs of a computer opponent thinking off the loop
    (`controller/opponent.py`'s `ComputerOpponent` fits)."""

    def start(self, game: Game, *, whole_turn: bool = False) -> None: ...

    def poll(self) -> Any: ...

    def cancel(self) -> None: ...


class TurnClock(Protocol):
    """What the session needs of a clock (`controller/clock.py`'s `Clock` fits).

    The session calls `press` when a side's turn is accepted (`board_ok=True`,
    `moves` = the moves of the turn: the clock switches) and when it refuses a
    press (`board_ok=False` with the reason, so the clock records it). Starting,
    pausing and reading the clock are its owner's business."""

    def press(self, side: int, now: int | None = None, *, board_ok: bool = True, reason: str = "",
              moves: int = 1) -> Any: ...


def format_moves(variant: Variant, position: Position, move: Move) -> str:
    """PDN text of a move (`engine/notation.py`)."""
    return format_move(variant, position, move)


@dataclass(frozen=True)
class SessionSettings:
    mode: Mode = Mode.CASUAL
    tracker: TrackerSettings = field(default_factory=TrackerSettings)
    computer_sides: frozenset[int] = frozenset({1})
    flag_ms: int = 2000            # how long a refused press shows FLAG
    hints: bool | None = None      # LEDs for beginners; default: on in learning mode only
    warn_ms: int = 8000            # learning: a move the coach warned about is committed after this quiet


@dataclass(frozen=True)
class CommittedMove:
    ply: int                 # 1-based ply of this move in the game
    turn: int                # 1-based turn number (a multiwarcaby turn has two plies)
    side: int
    side_name: str
    move: Move
    text: str                # PDN text
    captures: tuple[str, ...]
    time_ms: int
    clock_ms: tuple[int, ...] | None = None
    """Main time left per side just after the press that ended the turn (the
    turn's last move only; None without a countdown clock)."""


class Session:
    """One game on one board. Feed it events; read its frame and messages."""

    def __init__(self, variant: Variant, settings: SessionSettings | None = None, *,
                 position: Position | None = None, clock: TurnClock | None = None,
                 chooser: Chooser | None = None, opponent: Opponent | None = None,
                 coach: Any = None) -> None:
        self.variant = variant
        self.settings = settings or SessionSettings()
        self.mode = self.settings.mode
        self.clock = clock
        self.chooser: Chooser = chooser or GreedyChooser()
        self.opponent = opponent   # thinks off the loop; without one the chooser answers at once
        self.coach = coach         # learning mode: hints (limited) and blunder warnings
        self.tracker = Tracker(variant, self.settings.tracker)
        self.board = BoardMap(variant)
        self.game = Game(variant, position)
        self.phase = Phase.SETUP
        self.now = 0
        self.state = TrackerState()
        self.reading: Reading = Reading(Kind.UNKNOWN, 0)
        self.sensed: frozenset[str] | None = None
        self.occupancy = 0
        self.committed: list[CommittedMove] = []
        self.events: list[dict[str, Any]] = []
        self.sensor_log: list[LogEvent] = []
        self.initial_occupied: frozenset[str] = frozenset()
        self.messages: list[tuple[int, str]] = []
        self.message = "set up the pieces"
        self._turn_number = 0
        self._last: tuple[Move, ...] = ()
        self._flag: tuple[int, int] | None = None           # (squares, until_ms)
        self._hint: tuple[Move, ...] | None = None
        self._computer: tuple[Move, ...] | None = None
        self._computer_key: Any = None
        self._restore_request = False
        self._first_moves: dict[Move, int] = {}  # first moves seen complete this turn, in order
        self._pending: tuple[int, tuple[Move, ...]] | None = None  # (ply, move): complete, not yet settled
        self._redo: list[Move] = []  # moves taken back, in order, until a new move is made
        self._restore_board = False  # a player went out mid-turn: the board goes back to the turn start
        self._out_message = ""
        self._notice = ""            # a flag or a player out, shown with the turn prompt until the next move
        self._floor_ply = 0          # no take-back to before this ply (a player went out there)
        self._frame: dict = {}
        self._jobs: ThreadPoolExecutor | None = None   # the coach's searches, off the loop
        self._hint_job: tuple[Any, Future] | None = None      # (game key, future)
        self._hint_text = ""
        self._check_key: Any = None                           # (ply, occupancy) the blunder check is for
        self._check_job: Future | None = None
        self.warning: Any = None                              # the coach's BlunderWarning for the board now
        self._handlers: dict[type, Callable[[Any], None]] = {
            Snapshot: self._on_snapshot, ClockPress: self._on_press, ButtonPress: self._on_button,
        }

    # -- the outside view -----------------------------------------------------

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

    def resume(self, game: Game, committed: list[CommittedMove] | None = None, *, floor_ply: int = 0) -> None:
        """Carry on a saved game: its moves, and their record (rebuilt from the
        game when not given). The board is then set up to the game's position
        (setup LEDs) before play goes on. `floor_ply`: no take-back before it
        (the last ply where a player went out)."""
        if committed is None:
            committed = []
            replay = Game(self.variant, game.start)
            turn = 0
            for move in game.moves:
                position = replay.position
                mover = self.variant.side_to_move(position)
                if self.variant.move_in_turn(position) == 0:
                    turn += 1
                text = format_move(self.variant, position, move)
                replay.push_unchecked(move)
                captures = tuple(square_name(self.variant, sq) for sq in sorted(move.captures))
                committed.append(CommittedMove(replay.ply, turn, mover, self.variant.sides[mover], move, text,
                                               captures, 0))
        self.game = game
        self.committed = list(committed)
        self._turn_number = max((c.turn for c in committed), default=0)
        self._last = game.moves[-1:]
        self._redo = []
        self._first_moves = {}
        self._hint = None
        self._cancel_search()
        self._restore_board = False
        self._notice = ""
        self._floor_ply = floor_ply
        self.phase = Phase.SETUP
        self._update()

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

    @property
    def thinking(self) -> bool:
        """The computer is searching for its move (the board stays live meanwhile)."""
        return (self.opponent is not None and self._computer_key is not None and self._computer == ()
                and self._is_computer_turn())

    def settle(self, timeout: float = 60.0) -> None:
        """Block until the work off the loop (the computer's search, a hint, a
        blunder check) is done and acted on, at the session's current time.
        For scripted replays in virtual time, tests and tools: never on the
        board's loop, which polls instead."""
        end = _time.monotonic() + timeout
        while self.busy and _time.monotonic() < end:
            _time.sleep(0.002)
            self.tick(self.now)

    @property
    def busy(self) -> bool:
        """Something runs off the loop: the computer's search, a hint or a blunder check."""
        return self.thinking or self._hint_job is not None or self._check_job is not None

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
            if self._redo and self._redo_match():
                due.append(state.changed_at + settings.takeback_ms)
            if kind is Kind.UNKNOWN and state.unknown_since is not None:
                due.append(state.unknown_since + settings.grace_ms)
            if kind is Kind.IN_PROGRESS and not self.hints_on:
                due.append(state.changed_at + settings.grace_ms)
        if self._polls_clock():
            deadline = self.clock.next_deadline(self.now)  # type: ignore[union-attr]
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
            self.sensor_log.extend(occupancy_events(self.sensed, occupied, self.now))
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

    def _on_press(self, press: ClockPress) -> None:
        self.now = max(self.now, press.time_ms)
        self.sensor_log.append(LogEvent(self.now, "press", side_token(self.variant.sides, press.side,
                                                                         self.variant.family)))
        if self.phase is not Phase.PLAYING:
            return
        if press.side != self.game.turn:
            self._say(f"it is {self.variant.sides[self.game.turn]}'s turn")
            return
        if self._is_computer_turn():
            self._say("carry out the computer's move")
            return
        if self._restore_board:
            reference = self._reference()
            self._refuse(self.occupancy ^ reference, "put the pieces back as they were at the start of the turn")
            return
        self._press_commit(press.side)
        self._refresh_frame()

    def _on_button(self, press: ButtonPress) -> None:
        self.now = max(self.now, press.time_ms)
        self.sensor_log.append(LogEvent(self.now, "button", press.button.value))
        if self.phase is not Phase.PLAYING and press.button is not Button.TAKE_BACK:
            return
        if press.button is Button.HINT:
            self._ask_hint()
        elif press.button is Button.TAKE_BACK:
            self._ask_takeback()
        self._refresh_frame()

    # -- the core -------------------------------------------------------------

    def _observe(self) -> None:
        allowed = self._computer_moves() if self.phase is Phase.PLAYING else None
        takebacks = self.mode is not Mode.TOURNAMENT or self.phase is Phase.OVER
        self.state, self.reading = self.tracker.observe(self.game, self.state, self.occupancy, self.now,
                                                        allowed, takebacks, tuple(self._first_moves))

    def _reread(self) -> None:
        """Read the same occupancy again after the game changed (commit, take-back)."""
        allowed = self._computer_moves() if self.phase is Phase.PLAYING else None
        takebacks = self.mode is not Mode.TOURNAMENT or self.phase is Phase.OVER
        self.reading = self.tracker.read(self.game, self.occupancy, allowed, takebacks, tuple(self._first_moves))
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
            return
        self.message = hints.guidance_message(self.board, self.occupancy, target)

    def _begin(self) -> None:
        self.phase = Phase.PLAYING
        self._turn_number = max((c.turn for c in self.committed), default=0)
        self._event("start", position=self.variant.format_position(self.game.position))
        self._reread()
        self._say(self._turn_prompt())

    def _auto_commit_kind(self, kind: Kind) -> bool:
        if kind is Kind.COMPLETE:
            if self._is_computer_turn():
                return True
            if self.mode is Mode.TOURNAMENT or self.tracker.two_moves:
                return False
            return self.phase is Phase.PLAYING
        if kind is Kind.TAKEBACK:
            return self.mode is not Mode.TOURNAMENT and self.game.ply - self.reading.plies_back >= self._floor_ply
        if kind is Kind.START:
            return self.mode is not Mode.TOURNAMENT or self.phase is Phase.OVER
        return False

    def _extend_wait(self) -> bool:
        return self.reading.extendable and not self._is_computer_turn()

    def _wait_for(self, kind: Kind) -> int:
        settings = self.tracker.settings
        if kind is Kind.COMPLETE:
            if self.warning is not None:
                return self.settings.warn_ms
            return settings.extend_ms if self._extend_wait() else settings.settle_ms
        return settings.takeback_ms

    def _redo_match(self) -> int:
        """How many taken-back moves the board shows replayed (0: none).

        A take-back is never final until a new move is made: a board put back
        as it was (or a sensor fault that looked like a take-back and ends)
        restores the moves."""
        if self.reading.kind in (Kind.UNCHANGED, Kind.COMPLETE, Kind.HALF_TURN):
            return 0
        position = self.game.position
        found = 0
        for k, move in enumerate(self._redo, 1):
            position = self.variant.play(position, move)
            if self.tracker.two_moves and self.variant.move_in_turn(position):
                continue
            if self.tracker.occupancy_of(position) == self.occupancy:
                found = k
        return found

    def _update_playing(self) -> None:
        if self._restore_board:
            if self.occupancy != self._reference():
                target = hints.guidance_message(self.board, self.occupancy, self._reference())
                self.message = f"{self._out_message}: {target}" if self._out_message else target
                return
            self._restore_board = False
            self._first_moves = {}
            self._say(self._prompt())
        reading = self.reading
        kind = reading.kind
        if self._redo and self.mode is not Mode.TOURNAMENT:
            redo = self._redo_match()
            if redo and self.tracker.settled(self.state, self.now, wait=self.tracker.settings.takeback_ms):
                self._redo_moves(redo)
                return
        if kind is not Kind.COMPLETE and self._check_key is not None:
            self._clear_check()  # the move was taken back on the board (or changed): the warning goes
        if kind is Kind.COMPLETE and self._coach_checks():
            if not self._check_move(reading):
                return  # the coach is still looking at the move: no commit before its verdict
        if kind in (Kind.COMPLETE, Kind.TAKEBACK, Kind.START) and self._auto_commit_kind(kind):
            if self.tracker.settled(self.state, self.now, wait=self._wait_for(kind)):
                if kind is Kind.COMPLETE:
                    self._commit(self._pick(reading.turns), pressed=None)
                elif kind is Kind.TAKEBACK:
                    self._take_back(reading.plies_back)
                else:
                    self._new_game()
                return
        if self.game.is_over:
            return  # the result stays on the screen (the LEDs still show what differs)
        if kind is Kind.UNKNOWN and self.tracker.guidance_due(self.state, self.now):
            self.message = hints.guidance_message(self.board, self.occupancy, self._reference())
            must = self._must_capture()
            if must:
                self.message += f"; a capture is compulsory ({', '.join(must)})"
        elif kind is Kind.COMPLETE and self.warning is not None:
            self.message = self._warning_text()
        elif kind is Kind.HALF_TURN:
            self.message = "make the second move, then press"
        elif kind is Kind.UNCHANGED and not self.game.is_over:
            self.message = self._hint_text if self._hint and self._hint_text else self._prompt()

    def _reference(self) -> int:
        return self.tracker.occupancy_of(self.game.position)

    def _press_commit(self, side: int) -> None:
        reading = self.reading
        kind = reading.kind
        if kind is Kind.COMPLETE:
            self._commit(self._pick(reading.turns), pressed=side)
            return
        if kind is Kind.HALF_TURN:
            self._say("one move made: make the second move of your turn")
            return
        if kind is Kind.UNCHANGED:
            self._say("make your move before pressing the clock")
            return
        if kind is Kind.IN_PROGRESS and self.tracker.two_moves:
            pairs = self.tracker.complete_pairs(self.game, self.occupancy, self._computer_moves(),
                                                tuple(self._first_moves))
            if pairs:
                self._commit(self._pick(pairs), pressed=side)
                return
        if kind is Kind.IN_PROGRESS:
            squares = 0
            for progress in reading.progress:
                squares |= self.occupancy & bits_of(progress.move.captures)
            if squares:
                self._refuse(squares, "take the captured pieces off the board first")
            else:
                self._refuse(reading.missing | reading.extra, "finish your move first")
            return
        must = self._must_capture()
        text = f"this is not a legal move: a capture is compulsory ({', '.join(must)})" if must else \
            "this is not a legal move"
        self._refuse(reading.missing | reading.extra, text)

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
        self._event("refused", reason=text, squares=self.board.names(squares))
        refused = self.events[-1]
        self._say(f"press refused: {text}")
        if self.clock is not None:
            self._clock_result(self.clock.press(self.game.turn, self.now, board_ok=False, reason=text))
            clock_ms = self.clock_ms()
            if clock_ms is not None:
                refused["clock_ms"] = list(clock_ms)  # the mover's time runs on

    def _commit(self, moves: tuple[Move, ...], pressed: int | None) -> None:
        side = self.game.turn
        if tuple(self._redo[:len(moves)]) == moves:
            del self._redo[:len(moves)]
        else:
            self._redo = []
        for move in moves:
            self._record(move, pressed)
        self._last = moves
        self._first_moves = {}
        self._hint = None
        self._hint_job = None
        self._clear_check()
        self._restore_request = False
        self._flag = None
        self._notice = ""
        if self.clock is not None:
            # The press comes before a result the move makes is acted on: the
            # mover's time (and increment) is booked, then the clock is stopped.
            self._clock_result(self.clock.press(side, self.now, board_ok=True, moves=len(moves)))
            self._stamp_clock()
        if self.game.result is None:
            self._say(f"{' '.join(c.text for c in self.committed[-len(moves):])}; {self._turn_prompt()}")
        else:
            self._stop_clock()
        self._reread()

    def _redo_moves(self, count: int) -> None:
        moves, self._redo = self._redo[:count], self._redo[count:]
        for move in moves:
            self._record(move, pressed=None, redo=True)
        self._last = (moves[-1],)
        self._event("redo", plies=count, position=self.variant.format_position(self.game.position))
        self._say(f"moves restored; {self._turn_prompt()}")
        if self.game.result is not None:
            self._stop_clock()
        self._reread()

    def _record(self, move: Move, pressed: int | None, redo: bool = False) -> None:
        """Push one move onto the game and into the record."""
        position = self.game.position
        # The legal moves are indexed already (speed: notation would generate them again).
        text = format_move(self.variant, position, move, self.tracker.index(position).moves)
        mover = self.variant.side_to_move(position)
        if self.variant.move_in_turn(position) == 0:
            self._turn_number += 1
        self.game.push_unchecked(move)
        captures = tuple(square_name(self.variant, sq) for sq in sorted(move.captures))
        record = CommittedMove(self.game.ply, self._turn_number, mover, self.variant.sides[mover], move, text,
                               captures, self.now)
        self.committed.append(record)
        self._event("move", ply=record.ply, side=mover, text=text, captures=list(record.captures),
                    position=self.variant.format_position(self.game.position), pressed=pressed is not None,
                    redo=redo, scores=list(self.game.scores))
        if self.game.result is not None:
            self._finish()

    def _take_back(self, plies: int) -> None:
        if self.game.ply - plies < self._floor_ply:
            self._say("no take-back past a player going out")
            return
        undone = [self.game.pop() for _ in range(plies)]
        self._redo = undone[::-1] + self._redo
        del self.committed[len(self.committed) - plies:]
        self._turn_number = len({c.turn for c in self.committed}) if self.committed else 0
        self._last = ()
        self._first_moves = {}
        self._hint = None
        self._hint_job = None
        self._clear_check()
        self._cancel_search()
        self._restore_request = False
        if self.phase is Phase.OVER and self.game.result is None:
            self.phase = Phase.PLAYING
        self._event("takeback", plies=len(undone), position=self.variant.format_position(self.game.position))
        self._say(f"took back {len(undone)} move{'s' if len(undone) != 1 else ''}; {self._turn_prompt()}")
        self._reread()

    def _finish(self, at_ms: int | None = None) -> None:
        result = self.game.result
        self.phase = Phase.OVER
        self._event("result", time_ms=self.now if at_ms is None else at_ms, points=list(result.points),
                    places=list(result.places), reason=result.reason, winner=result.winner,
                    scores=list(self.game.scores))
        self._say(f"game over: {self._result_text(result)}")

    def _new_game(self) -> None:
        self._redo = []
        self.game = Game(self.variant)
        self.committed.clear()
        self._restore_board = False
        self._floor_ply = 0
        self._notice = ""
        self._turn_number = 0
        self._last = ()
        self._hint = None
        self._hint_job = None
        self._clear_check()
        self._cancel_search()
        if self.coach is not None:
            self.coach.new_game()
        self._restore_request = False
        self.phase = Phase.PLAYING
        self._event("new_game", position=self.variant.format_position(self.game.position))
        self._say(f"new game; {self._turn_prompt()}")
        self._reread()

    # -- the clock ------------------------------------------------------------

    def _polls_clock(self) -> bool:
        """Whether the session drains the clock itself (a real `Clock`, not a bare press target)."""
        return self.clock is not None and hasattr(self.clock, "update") and hasattr(self.clock, "next_deadline")

    def _poll_clock(self, now: int) -> None:
        if self._polls_clock():
            self.now = max(self.now, now)
            self.clock_events(self.clock.update(self.now))  # type: ignore[union-attr]

    def _clock_result(self, result: Any) -> None:
        """Act on the events a press result carries (a flag found by the press itself)."""
        self.clock_events(getattr(result, "events", ()) or ())

    def clock_events(self, events: Any) -> None:
        """Act on clock events (`Flag`, `SideOut`, `GameOver`; others are ignored).

        The session calls this itself for a clock it polls; an owner that
        drains the clock (`clock.update()`) passes the events here."""
        for event in events:
            if isinstance(event, Flag):
                self._on_flag(event)
            elif isinstance(event, SideOut):
                if event.side < len(self.variant.sides):
                    self.drop_side(event.side, event.reason, at_ms=event.at_ms)
            elif isinstance(event, GameOver) and event.loser is not None:
                self._on_game_over(event)
        self._refresh_frame()

    def _side_name(self, side: int) -> str:
        name = self.variant.sides[side]
        return f"player {name}" if name.isdigit() else name

    def _on_flag(self, flag: Flag) -> None:
        self._event("flag", time_ms=flag.at_ms, side=flag.side, stage=flag.stage + 1, final=flag.final,
                    ply=self.game.ply)
        if not flag.final and self.phase is not Phase.OVER:
            self._notice = f"{self._side_name(flag.side)}'s flag fell in stage {flag.stage + 1}: play goes on"
            self._say(self._prompt())

    def _on_game_over(self, over: GameOver) -> None:
        """The clock ended the game: a loss on time with two sides; with three or
        four players the last flag takes its player out and the engine's rules
        (one side left in play) give the result."""
        if self.game.result is not None:
            return
        reason = "on time" if over.reason == "time" else over.reason
        if len(self.variant.sides) > 2:
            self.drop_side(over.loser, over.reason, at_ms=over.at_ms)  # type: ignore[arg-type]
            return
        self.declare_loss(over.loser, reason, at_ms=over.at_ms)  # type: ignore[arg-type]

    def declare_loss(self, loser: int, reason: str = "on time", *, at_ms: int | None = None) -> None:
        """End a two-side game as a loss for `loser` (on time, resignation)."""
        if self.game.result is not None or len(self.variant.sides) != 2:
            return
        winner = 1 - loser
        points = tuple(1.0 if side == winner else 0.0 for side in range(2))
        places = tuple(1 if side == winner else 2 for side in range(2))
        self.declare(Result(points, places, reason, winner), at_ms=at_ms)

    def declare(self, result: Result, *, at_ms: int | None = None) -> None:
        """End the game from outside the rules (time, agreement, resignation)."""
        if self.game.result is not None:
            return
        self.game.declare(result)
        self._restore_board = False
        self._cancel_search()
        self._finish(at_ms)
        self._stop_clock()
        self._reread()

    def drop_side(self, side: int, reason: str = "time", *, at_ms: int | None = None) -> None:
        """Take `side` out of a 3-4 player multiwarcaby game (its flag fell).

        It keeps its small points and is skipped from now on. If it was to
        move, what it had done on the board this turn does not count: the
        board is guided back to the start of its turn (LEDs and message, and
        presses are refused until it is), then the next player moves."""
        variant = self.variant
        position = self.game.position
        active = getattr(position, "active", None)
        if self.game.result is not None or active is None or not active[side] or len(variant.sides) < 3:
            return
        # The session commits whole turns; a game resumed in mid-turn has its
        # first move taken back so that the turn is void.
        while self.game.turn == side and self.game.move_in_turn and self.game.ply > self._floor_ply:
            self.game.pop()
            if self.committed:
                self.committed.pop()
        mid_turn = self.game.turn == side and self.occupancy != self._reference()
        self.game.amend(variant.drop_side(self.game.position, side))  # type: ignore[attr-defined]
        self._floor_ply = self.game.ply
        self._redo = []
        self._first_moves = {}
        self._hint = None
        self._restore_request = False
        self._cancel_search()
        why = "on time" if reason == "time" else reason
        self._out_message = self._notice = f"{self._side_name(side)} is out ({why})"
        self._event("side_out", time_ms=self.now if at_ms is None else at_ms, side=side, reason=why,
                    ply=self.game.ply, position=variant.format_position(self.game.position),
                    scores=list(self.game.scores))
        if self.game.result is not None:
            self._finish(at_ms)
            self._stop_clock()
        elif mid_turn and self.phase is Phase.PLAYING:
            self._restore_board = True
            self._say(f"{self._out_message}: put the pieces back as they were at the start of the turn")
        else:
            self._say(self._prompt())
        self._reread()

    def _stamp_clock(self) -> None:
        """Put the clock's times after the press on the turn's last move (record and event)."""
        clock_ms = self.clock_ms()
        if clock_ms is None or not self.committed:
            return
        self.committed[-1] = replace(self.committed[-1], clock_ms=clock_ms)
        for event in reversed(self.events):
            if event["type"] == "move":
                event["clock_ms"] = list(clock_ms)
                break

    def clock_ms(self) -> tuple[int, ...] | None:
        """Main time left per side now (None: no clock that reports it, or an untimed one)."""
        view = getattr(self.clock, "view", None)
        if view is None:
            return None
        sides = view(self.now).sides
        if all(side.untimed for side in sides):
            return None
        return tuple(side.remaining_ms for side in sides)

    def _stop_clock(self) -> None:
        stop = getattr(self.clock, "stop", None)
        result = self.game.result
        if stop is not None:
            stop(self.now, result.reason if result is not None else "game over")

    # -- computer, hints, take-back requests ----------------------------------

    def _is_computer_turn(self) -> bool:
        return (self.mode is Mode.COMPUTER and self.phase is Phase.PLAYING and not self.game.is_over
                and self.game.turn in self.settings.computer_sides)

    def _computer_moves(self) -> tuple[Move, ...] | None:
        """The computer's planned turn: None when it is not the computer's
        turn (any legal move is read), () while it still thinks (no move is
        accepted), else its move (both moves of a multiwarcaby turn)."""
        if not self._is_computer_turn():
            if self._computer_key is not None:
                self._cancel_search()
            return None
        key = (self.game.ply, self.game.position)
        if self._computer_key != key:
            self._computer_key = key
            if self.opponent is None:
                self._computer = self._plan(self.game.position)
            else:
                self._computer = ()
                self.opponent.start(self.game, whole_turn=True)
        return self._computer

    def _cancel_search(self) -> None:
        """Forget the computer's move (a take-back, a new game, a player out):
        a search still running is abandoned."""
        if self.opponent is not None and self._computer_key is not None and self._computer == ():
            self.opponent.cancel()
        self._computer_key = None
        self._computer = None

    def _poll_thinking(self) -> None:
        """Pick up what was worked out off the loop: the computer's move, a hint, a blunder check."""
        if self.thinking:
            self._poll_opponent()
        if self._hint_job is not None and self._hint_job[1].done():
            self._hint_ready()
        if self._check_job is not None and self._check_job.done():
            self._check_ready()

    def _poll_opponent(self) -> None:
        answer = self.opponent.poll()  # type: ignore[union-attr]
        if answer is None:
            self._computer_key = None  # cancelled under us: ask again at the next look
            self._computer = None
            return
        if not isinstance(answer, (tuple, Move)):
            return  # still thinking
        moves = answer if isinstance(answer, tuple) else (answer,)
        if not moves or moves[0] not in self.variant.legal_moves(self.game.position):
            moves = self._plan(self.game.position)  # never stuck on a stale answer
        self._computer = moves
        self._event("computer", moves=[format_moves(self.variant, p, m) for p, m in self._planned(moves)])
        self._reread()
        self._say(self._turn_prompt())

    def _plan(self, position: Position) -> tuple[Move, ...]:
        """The chooser's move, or both moves of a multiwarcaby turn."""
        variant = self.variant
        moves = []
        for _ in range(variant.moves_per_turn):
            if not variant.legal_moves(position):
                break
            move = self.chooser.choose(variant, position)
            moves.append(move)
            position = variant.play(position, move)
            if variant.move_in_turn(position) == 0:
                break
        return tuple(moves)

    def _ask_hint(self) -> None:
        if self.mode is Mode.TOURNAMENT or self.game.is_over or self._is_computer_turn():
            self._say("no hints now")
            return
        if self.coach is None:
            self._hint = self._plan(self.game.position)
            if self._hint:
                self._hint_text = "hint: " + " ".join(format_moves(self.variant, p, m)
                                                      for p, m in self._hint_positions())
                self._say(self._hint_text)
            return
        if self.coach.hints_left == 0:
            self._say("no hints left in this game")
            return
        if self._hint_job is not None:
            return  # already thinking of one
        game = self.game.copy()
        self._hint_job = ((self.game.ply, self.game.position), self._submit(self.coach.hint, game))
        self._say("thinking of a hint...")

    def _hint_ready(self) -> None:
        assert self._hint_job is not None
        key, job = self._hint_job
        self._hint_job = None
        if key != (self.game.ply, self.game.position):
            return  # the game moved on meanwhile
        try:
            move = job.result()
        except Exception as error:  # noqa: BLE001 - no hint is better than a crashed board
            self._say(f"no hint: {error}")
            return
        self._hint = (move,)
        self._event("hint", move=format_moves(self.variant, self.game.position, move),
                    hints_left=self.coach.hints_left)
        self._hint_text = f"hint: {format_moves(self.variant, self.game.position, move)}{self._hints_left_text()}"
        self._say(self._hint_text)
        self._refresh_frame()

    def _hints_left_text(self) -> str:
        left = None if self.coach is None else self.coach.hints_left
        if left is None:
            return ""
        return " (no hints left)" if left == 0 else f" ({left} hint{'s' if left != 1 else ''} left)"

    @property
    def hints_left(self) -> int | None:
        """Hints left in this game (None: no limit or no coach)."""
        return None if self.coach is None else self.coach.hints_left

    def _submit(self, work: Callable[..., Any], *args: Any) -> Future:
        if self._jobs is None:
            self._jobs = ThreadPoolExecutor(max_workers=1, thread_name_prefix="damka-coach")
        return self._jobs.submit(work, *args)

    # -- the coach's blunder check (learning mode) ------------------------------

    def _coach_checks(self) -> bool:
        return (self.coach is not None and self.mode is Mode.LEARNING and self.phase is Phase.PLAYING
                and not self.game.is_over and not self._is_computer_turn())

    def _check_move(self, reading: Reading) -> bool:
        """Start (or read) the coach's verdict on the complete move the board
        shows; True once there is a verdict (`self.warning` then holds the
        warning, or None)."""
        key = (self.game.ply, self.occupancy)
        if self._check_key != key:
            self._clear_check()
            self._check_key = key
            turn = self._pick(reading.turns)
            before = self.game.copy()
            for move in turn[:-1]:
                before.push_unchecked(move)
            self._check_job = self._submit(self.coach.check_blunder, before, turn[-1])  # type: ignore[union-attr]
            return False
        return self._check_job is None

    def _check_ready(self) -> None:
        job, self._check_job = self._check_job, None
        assert job is not None
        try:
            warning = job.result()
        except Exception:  # noqa: BLE001 - a failed check warns of nothing
            warning = None
        if warning is None or self._check_key != (self.game.ply, self.occupancy):
            return
        self.warning = warning
        self._event("warning", move=format_moves(self.variant, self.game.position, warning.move)
                    if warning.move in self.variant.legal_moves(self.game.position) else "", loss=warning.loss)
        self._say(self._warning_text())

    def _warning_text(self) -> str:
        warning = self.warning
        men = max(1, round(warning.men)) if warning is not None else 1
        pieces = "a piece" if men == 1 else f"{men} pieces"
        return f"this loses {pieces}: take it back? (or press to play it)"

    def _clear_check(self) -> None:
        if self._check_job is not None:
            self._check_job.cancel()  # not started yet: never runs (a running one is left to finish)
        self._check_key = None
        self._check_job = None
        self.warning = None

    def _hint_positions(self) -> list[tuple[Position, Move]]:
        return self._planned(self._hint or ())

    def _planned(self, moves: tuple[Move, ...]) -> list[tuple[Position, Move]]:
        position = self.game.position
        out = []
        for move in moves:
            out.append((position, move))
            position = self.variant.play(position, move)
        return out

    def close(self) -> None:
        """Stop what runs off the loop (the computer's search, the coach's)."""
        self._cancel_search()
        if self._jobs is not None:
            self._jobs.shutdown(wait=False, cancel_futures=True)
            self._jobs = None

    def _ask_takeback(self) -> None:
        if self.mode is Mode.TOURNAMENT and self.phase is not Phase.OVER:
            self._say("no take-back in tournament play")
            return
        if not self.game.ply:
            self._say("there is no move to take back")
            return
        # The button says what the board means: in multiwarcaby the earlier
        # position is often also a legal turn of the next side.
        plies = self.tracker.takeback_plies(self.game, self.occupancy)
        if plies:
            self._take_back(plies)
            return
        self._restore_request = True
        self._say("to take back, put the pieces back as they were before the last move")

    def _takeback_target(self) -> int:
        """The occupancy a TAKE_BACK request guides to: the last turn start
        (against the computer, the one before your own last move)."""
        positions = self.game.positions
        wanted = 2 if self.mode is Mode.COMPUTER and not self._is_computer_turn() else 1
        count = 0
        for k in range(len(positions) - 2, -1, -1):
            if self.tracker.two_moves and self.variant.move_in_turn(positions[k]):
                continue
            count += 1
            if count == wanted or k == 0:
                return self.tracker.occupancy_of(positions[k])
        return self.tracker.occupancy_of(positions[0])

    # -- output ---------------------------------------------------------------

    def _refresh_frame(self) -> None:
        self._frame = self._compose()

    def _compose(self) -> dict:
        board = self.board
        occ = self.occupancy
        layers: list = []
        if self._flag is not None:
            layers.append(hints.flag(board, self._flag[0]))
        if self.phase is Phase.SETUP:
            layers.append(hints.guidance(board, occ, self.tracker.occupancy_of(self.game.position)))
            return hints.compose(*layers)
        reading = self.reading
        kind = reading.kind
        if self._restore_board:
            layers.append(hints.guidance(board, occ, self._reference()))
            return hints.compose(*layers)
        if kind is Kind.UNKNOWN and self.tracker.guidance_due(self.state, self.now):
            layers.append(hints.guidance(board, occ, self._reference()))
        if kind is Kind.UNKNOWN and (self._flag is not None or self.tracker.guidance_due(self.state, self.now)):
            # RULES: a move that ignores a compulsory capture is refused and the
            # pieces that must capture are shown.
            if not self.game.is_over and self._computer_moves() is None:
                layers.append(hints.must_move(board, self.tracker.index(self.game.position)))
        if self._restore_request:
            layers.append(hints.guidance(board, occ, self._takeback_target()))
        computer = self._computer_moves()
        if computer:
            layers.append(hints.planned(board, self._remaining(computer), occ, computer=True))
        if not self.game.is_over and self.mode is not Mode.TOURNAMENT:
            stalled = kind is Kind.IN_PROGRESS and self.now - self.state.changed_at >= self.tracker.settings.grace_ms
            if self.hints_on or stalled:
                index = self.tracker.index(self.game.position, computer[:1] if computer is not None else None)
                layers.append(hints.learning(board, index, reading))
        if self._hint and kind in (Kind.UNCHANGED, Kind.IN_PROGRESS, Kind.HALF_TURN):
            layers.append(hints.planned(board, self._remaining(self._hint), occ, computer=False))
        if kind is Kind.UNCHANGED and self._last:
            layers.append(hints.last_move(board, self._last))
        return hints.compose(*layers)

    def _remaining(self, moves: tuple[Move, ...]) -> tuple[Move, ...]:
        """The planned move to make now: in multiwarcaby the first, then (once it
        is on the board) the second."""
        if len(moves) > 1:
            reading = self.reading
            if reading.kind is Kind.HALF_TURN or any(p.before for p in reading.progress):
                return moves[1:]
            return moves[:1]
        return moves

    def _prompt(self) -> str:
        """The turn prompt, after a notice (a flag, a player out) until the next move."""
        prompt = self._turn_prompt()
        return f"{self._notice}; {prompt}" if self._notice and not self.game.is_over else prompt

    def _turn_prompt(self) -> str:
        if self.game.is_over:
            result = self.game.result
            return f"game over: {self._result_text(result)}" if result else "game over"
        side = self.variant.sides[self.game.turn]
        if self._is_computer_turn():
            if self.opponent is not None and self._computer == ():
                return f"{side} (computer) is thinking"
            return f"{side} (computer) to move: carry out the lit move"
        if self.tracker.two_moves:
            return f"{side} to move: two moves, then press"
        return f"{side} to move"

    def _result_text(self, result: Result) -> str:
        sides = self.variant.sides
        if result.winner is not None:
            text = f"{sides[result.winner]} wins ({result.reason})"
        elif result.is_draw:
            text = f"draw ({result.reason})"
        else:
            places = ", ".join(f"{sides[i]} {place}" for i, place in enumerate(result.places))
            text = f"places {places} ({result.reason})"
        if self.tracker.two_moves:
            text += "; scores " + " ".join(str(s) for s in self.game.scores)
        return text

    def _say(self, text: str) -> None:
        self.message = text
        self.messages.append((self.now, text))

    def _event(self, kind: str, **data: Any) -> None:
        self.events.append({"type": kind, "time_ms": self.now, **data})

