"""A headless virtual board in virtual time: for tests, replays and benchmarks.

It implements the three device interfaces (`BoardSensor`, `LedOutput`,
`Buttons`) and plays the main loop's part for a connected listener (the
session): every time the *sensed* occupancy changes it hands the listener a
`Snapshot`, it ticks the listener at the deadlines the listener asks for, and
shows the listener's LED frame after each call, recording every change.

Time is an int of milliseconds that moves only when told (`advance`); nothing
sleeps. Hands act at the current time:

    board = VirtualBoard(start_squares)
    board.connect(session)
    board.lift("c3"); board.advance(150); board.drop("d4"); board.advance(1000)
    board.slide("c3", "d4")            # lift and drop 60 ms apart
    board.press(0); board.button("hint")

Noise, applied to what the sensor reports (the pieces themselves are where the
hands put them):

- `bounce(sq, times, every_ms)`: the next change of `sq` chatters;
- `flicker(sq, start_ms, end_ms, every_ms)`: `sq` toggles in that window;
- `miss(sq)`: the next change of `sq` is not reported (until `resync`, or the
  square changes again);
- `stick(sq, occupied)` / `unstick(sq)`: a stuck reed switch.
"""

from __future__ import annotations

import heapq
import itertools
from typing import Iterable, Literal, Protocol

from damka.hardware.interfaces import (
    Button,
    ButtonPress,
    BoardSensor,
    Buttons,
    ClockPress,
    InputEvent,
    LedFrame,
    LedOutput,
    Role,
    Snapshot,
)

FILE_LETTERS = "abcdefghijklmnopqrstuvwxyz"
# What a scheduled change does to a square: hold it occupied or empty, turn
# what is there the other way ("flip"), or let the pieces show again (None).
Override = bool | Literal["flip"] | None


class Listener(Protocol):
    """What the virtual board drives: the session has this shape."""

    def handle(self, event: InputEvent) -> None: ...

    def tick(self, now_ms: int) -> None: ...

    def next_deadline(self) -> int | None: ...

    @property
    def frame(self) -> LedFrame: ...


class VirtualBoard(BoardSensor, LedOutput, Buttons):
    """A board of `files` x `ranks` squares (9x9 by default) driven in virtual time."""

    def __init__(self, occupied: Iterable[str] = (), *, files: int = 9, ranks: int = 9, now_ms: int = 0) -> None:
        self.files = files
        self.ranks = ranks
        self.squares = frozenset(f"{FILE_LETTERS[f]}{r + 1}" for f in range(files) for r in range(ranks))
        self.now = now_ms
        self._pieces: set[str] = set()
        self._overrides: dict[str, bool] = {}   # noise: what the sensor says instead of the truth
        self._stuck: dict[str, bool] = {}
        self._missing: set[str] = set()          # squares whose next change goes unreported
        self._bounce: dict[str, tuple[int, int]] = {}
        # (time, seq, square, override, "flip" or None: clear)
        self._schedule: list[tuple[int, int, str, Override]] = []
        self._seq = itertools.count()
        self._presses: list[ClockPress | ButtonPress] = []
        self._listener: Listener | None = None
        self._frame: dict[str, Role] = {}
        self.led_history: list[tuple[int, dict[str, Role]]] = []
        self.snapshots_sent = 0
        for square in occupied:
            self._pieces.add(self._check(square))
        self._sensed = self._compute_sensed()

    # -- wiring ---------------------------------------------------------------

    def connect(self, listener: Listener) -> None:
        """Drive `listener`: it gets the current snapshot at once."""
        self._listener = listener
        self._notify(Snapshot(frozenset(self._sensed), self.now))

    # -- device interfaces ------------------------------------------------------

    def snapshot(self) -> Snapshot:
        return Snapshot(frozenset(self._sensed), self.now)

    def show(self, frame: LedFrame) -> None:
        frame = dict(frame)
        if frame != self._frame:
            self._frame = frame
            self.led_history.append((self.now, frame))

    def presses(self) -> list[ClockPress | ButtonPress]:
        presses, self._presses = self._presses, []
        return presses

    # -- what is on the board -------------------------------------------------

    @property
    def pieces(self) -> frozenset[str]:
        """Where the pieces really are."""
        return frozenset(self._pieces)

    @property
    def sensed(self) -> frozenset[str]:
        """What the sensor reports now."""
        return frozenset(self._sensed)

    @property
    def leds(self) -> dict[str, Role]:
        """The LED frame showing now."""
        return dict(self._frame)

    def lit(self, role: Role) -> set[str]:
        return {square for square, shown in self._frame.items() if shown is role}

    # -- hands ----------------------------------------------------------------

    def lift(self, square: str) -> None:
        square = self._check(square)
        if square not in self._pieces:
            raise ValueError(f"no piece to lift on {square}")
        self._change(square, False)

    def drop(self, square: str) -> None:
        square = self._check(square)
        if square in self._pieces:
            raise ValueError(f"{square} already holds a piece")
        self._change(square, True)

    remove = lift  # a captured piece taken off the board

    def put(self, square: str) -> None:
        """A piece put on the board from the side (setup, or returning a captured piece)."""
        self.drop(square)

    def slide(self, start: str, end: str, ms: int = 60) -> None:
        """Lift and drop quickly (a piece slid along the board)."""
        self.lift(start)
        self.advance(ms)
        self.drop(end)

    def press(self, side: int) -> None:
        """A clock (or 'done') button of side index `side`."""
        event = ClockPress(side, self.now)
        self._presses.append(event)
        self._notify(event)

    def button(self, name: str | Button) -> None:
        button = name if isinstance(name, Button) else Button(name)
        event = ButtonPress(button, self.now)
        self._presses.append(event)
        self._notify(event)

    # -- noise ----------------------------------------------------------------

    def bounce(self, square: str, times: int = 3, every_ms: int = 4) -> None:
        """The next change of `square` chatters `times` times before it holds."""
        self._bounce[self._check(square)] = (times, every_ms)

    def flicker(self, square: str, start_ms: int, end_ms: int, every_ms: int = 40) -> None:
        """`square` reads the wrong way on and off between `start_ms` and `end_ms`."""
        square = self._check(square)
        wrong = True
        for time in range(start_ms, end_ms, every_ms):
            self._at(time, square, ("flip" if wrong else None))
            wrong = not wrong
        self._at(end_ms, square, None)

    def miss(self, square: str) -> None:
        """The next change of `square` is not reported."""
        self._missing.add(self._check(square))

    def stick(self, square: str, occupied: bool) -> None:
        self._stuck[self._check(square)] = occupied
        self._refresh()

    def unstick(self, square: str) -> None:
        self._stuck.pop(self._check(square), None)
        self._refresh()

    def resync(self) -> None:
        """Forget missed changes (a heartbeat snapshot after a reconnect)."""
        self._overrides.clear()
        self._missing.clear()
        self._refresh()

    # -- time -----------------------------------------------------------------

    def advance(self, ms: int) -> None:
        """Let `ms` milliseconds pass: noise plays out, the listener is ticked."""
        target = self.now + ms
        while True:
            when = self._next_time()
            if when is None or when > target:
                break
            self.now = max(self.now, when)
            self._run_due()
        self.now = target
        self._tick()

    def step(self) -> None:
        """One pass of the board's loop at the current time: tick the listener
        and show its LED frame. The board's loop (`controller/board_loop.py`)
        ticks on every pass, not only at a deadline, so what was worked out off
        the loop meanwhile (the computer's move, a hint, a remote seat's move)
        is lit at this pass; a driver that ticked the listener itself would
        change its frame behind the LEDs' back."""
        if self._listener is not None:
            self._listener.tick(self.now)
            self.show(self._listener.frame)

    def run_until_idle(self, limit_ms: int = 600_000) -> None:
        """Advance until neither noise nor the listener has anything pending."""
        end = self.now + limit_ms
        while True:
            when = self._next_time()
            if when is None or when > end:
                break
            self.now = max(self.now, when)
            self._run_due()

    def _next_time(self) -> int | None:
        times = []
        if self._schedule:
            times.append(self._schedule[0][0])
        if self._listener is not None:
            deadline = self._listener.next_deadline()
            if deadline is not None:
                times.append(max(deadline, self.now))
        return min(times) if times else None

    def _run_due(self) -> None:
        changed = False
        while self._schedule and self._schedule[0][0] <= self.now:
            _, _, square, value = heapq.heappop(self._schedule)
            if value == "flip":
                self._overrides[square] = square not in self._pieces
            elif value is None:
                self._overrides.pop(square, None)
            else:
                self._overrides[square] = bool(value)
            changed = True
        if changed:
            self._refresh()
        self._tick()

    def _tick(self) -> None:
        if self._listener is not None:
            deadline = self._listener.next_deadline()
            if deadline is not None and deadline <= self.now:
                self._listener.tick(self.now)
                self.show(self._listener.frame)

    # -- internals ------------------------------------------------------------

    def _check(self, square: str) -> str:
        square = square.strip().lower()
        if square not in self.squares:
            raise ValueError(f"{square!r} is not a square of this {self.files}x{self.ranks} board")
        return square

    def _at(self, time: int, square: str, value: Override) -> None:
        heapq.heappush(self._schedule, (time, next(self._seq), square, value))

    def _change(self, square: str, occupied: bool) -> None:
        before = square in self._pieces
        if occupied:
            self._pieces.add(square)
        else:
            self._pieces.discard(square)
        if square in self._missing:
            self._missing.discard(square)
            self._overrides[square] = before  # the sensor keeps the old reading
        elif square in self._overrides and self._overrides[square] == occupied:
            self._overrides.pop(square)       # a missed change caught up
        bounce = self._bounce.pop(square, None)
        if bounce:
            times, every = bounce
            for k in range(1, 2 * times + 1):
                self._at(self.now + k * every, square, before if k % 2 else occupied)
            self._at(self.now + (2 * times + 1) * every, square, None)
        self._refresh()

    def _compute_sensed(self) -> set[str]:
        sensed = set(self._pieces)
        for table in (self._overrides, self._stuck):
            for square, value in table.items():
                if value:
                    sensed.add(square)
                else:
                    sensed.discard(square)
        return sensed

    def _refresh(self) -> None:
        sensed = self._compute_sensed()
        if sensed != self._sensed:
            self._sensed = sensed
            self._notify(Snapshot(frozenset(sensed), self.now))

    def _notify(self, event: InputEvent) -> None:
        if self._listener is None:
            return
        if isinstance(event, Snapshot):
            self.snapshots_sent += 1
        self._listener.handle(event)
        self.show(self._listener.frame)


def carry_out(board: VirtualBoard, start: str, path: list[str] | tuple[str, ...], captures: Iterable[str] = (),
              remove: str = "after", step_ms: int = 150, touch_down: bool = True) -> None:
    """A hand making one move: lift `start`, put the piece down on each landing
    square (`touch_down`; else only on the last), and take the captured pieces
    off `before` lifting, `during` the chain (one after each landing) or `after`
    it. Time moves `step_ms` between actions; nothing waits at the end."""
    captured = list(captures)
    if remove == "before":
        for square in captured:
            board.remove(square)
            board.advance(step_ms)
        captured = []
    board.lift(start)
    board.advance(step_ms)
    landings = list(path) if touch_down else list(path[-1:])
    for k, square in enumerate(landings):
        board.drop(square)
        board.advance(step_ms)
        if remove == "during" and captured:
            board.remove(captured.pop(0))
            board.advance(step_ms)
        if k < len(landings) - 1:
            board.lift(square)
            board.advance(step_ms)
    for square in captured:
        board.remove(square)
        board.advance(step_ms)
