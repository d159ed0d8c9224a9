"""The session's clock binding: one place that presses, polls and reads the clock.

Any clock with the `TurnClock.press` signature plugs in; one that is also a
`PolledClock` (the real `controller/clock/clock.py` `Clock`) is polled by the
session: flags are found at their exact millisecond (the session asks to be
ticked then), its times are stamped on the record, and it is stopped when
the game ends on the board. An owner that drains a press-only clock itself
passes its events on with `Session.clock_events`.

While people carry out an outside program's move (a DXP peer's, a Hub
engine's: its own clock stopped when it sent it), the board's config says
whose time it is (`CarryingOut`): nobody's (the clock pauses until the move
is committed), the mover's (nothing changes: the press comes with the
committed move) or the next side's (the press comes when the move arrives,
and the committed move presses nothing).
"""

from __future__ import annotations

from typing import Any, Iterable

from damka.controller.session.types import CarryingOut, PolledClock, TurnClock

CARRYING_OUT = "carrying out"   # who stopped the clock, in its log: people carrying out a move


class ClockBinding:
    def __init__(self, clock: TurnClock | None, carrying_out: CarryingOut = CarryingOut.NOBODY) -> None:
        self.clock = clock
        # Asked on every input, tick and deadline: a runtime Protocol check costs
        # tens of microseconds each time, and the binding's clock never changes.
        self.polled = isinstance(clock, PolledClock)
        self.carrying_out = carrying_out    # whose time carrying out an outside program's move is
        # The side whose turn was pressed when its move arrived (CarryingOut.NEXT),
        # until that move is committed or taken back (None: no press made early).
        self.pressed_on_arrival: int | None = None

    def update(self, now: int) -> list:
        """The clock's events up to `now` (flags, a player out, game over): polled clocks only."""
        return self.clock.update(now) if self.polled else []  # type: ignore[union-attr]

    def next_deadline(self, now: int) -> int | None:
        return self.clock.next_deadline(now) if self.polled else None  # type: ignore[union-attr]

    def press(self, side: int, now: int, *, board_ok: bool, reason: str = "",
              moves: int = 1) -> tuple[bool, Iterable[Any]]:
        """Press (or record a refused press): whether the clock took it, and the
        events the press itself found. A press it refuses (not `side`'s turn on
        the clock, which a power cut can leave so) is no `ClockPressed`."""
        if self.clock is None:
            return False, ()
        result = self.clock.press(side, now, board_ok=board_ok, reason=reason, moves=moves)
        return bool(result), getattr(result, "events", ()) or ()  # a bare press target may answer with a bool

    def start_if_waiting(self, now: int, first: int) -> bool:
        """Start a clock that waits for the game's first press or move (tournament
        clocks do not run before anyone plays); whether it started now."""
        if not self.polled or self.clock.state.value != "ready":  # type: ignore[union-attr]
            return False
        self.clock.start(now, first=first)  # type: ignore[union-attr]
        return True

    def remaining_ms(self, now: int) -> tuple[int, ...] | None:
        """Main time left per side (None: no clock that reports it, or an untimed one)."""
        if not self.polled:
            return None
        view = self.clock.view(now)  # type: ignore[union-attr]
        if all(side.untimed for side in view.sides):
            return None
        return view.remaining_ms

    def take_back(self, movers: list[int], now: int, *, clock_undone: bool = False) -> None:
        """The turns `movers` ended were taken back (oldest first): the clock
        hands the turn back to the first of them (a clock that cannot: as it is).
        A press made early for a move still being carried out is the newest
        press: it goes back too (that move is not played now). `clock_undone`:
        the arbiter undid the clock's last press already; when that was the
        early press, the presses of `movers` still stand and go back here."""
        early, self.pressed_on_arrival = self.pressed_on_arrival, None
        if clock_undone and early is None:
            return
        if early is not None and not clock_undone:
            movers = [*movers, early]
        hand_back = getattr(self.clock, "take_back", None)
        if movers and hand_back is not None:
            hand_back(movers, now)

    def press_on_arrival(self, side: int, now: int, moves: int) -> Iterable[Any] | None:
        """An outside program's move for `side` has arrived and carrying it out is
        the next side's time (`CarryingOut.NEXT`): `side`'s turn is pressed now,
        and its committed move presses nothing (`settle_arrival_press`). The
        events the press found; None: not pressed (the clock does not run)."""
        if not self.polled or self.clock.state.value != "running":  # type: ignore[union-attr]
            return None   # (a paused clock is whoever paused it's to restart)
        accepted, found = self.press(side, now, board_ok=True, moves=moves)
        if not accepted:
            return None
        self.pressed_on_arrival = side
        return found

    def settle_arrival_press(self, side: int) -> bool:
        """`side`'s move is committed: whether its turn was pressed already when
        the move arrived (then the commit presses nothing)."""
        early, self.pressed_on_arrival = self.pressed_on_arrival, None
        return early == side

    def pause_for_carrying_out(self, now: int) -> bool:
        """Stop a running clock while people carry out an outside program's move
        (its own clock stopped when it sent it); the committed move restarts it
        (`game/factory.py` ResumableClock). Whether it stopped now."""
        if not self.polled or self.clock.state.value != "running":  # type: ignore[union-attr]
            return False
        if getattr(self.clock, "pin_required", False):
            return False   # a PIN-locked clock: only the arbiter may restart it, so it is not stopped
        self.clock.pause(now, by=CARRYING_OUT)  # type: ignore[union-attr]
        return True

    def stop(self, now: int, reason: str) -> None:
        self.pressed_on_arrival = None
        if self.polled:
            self.clock.stop(now, reason)  # type: ignore[union-attr]
