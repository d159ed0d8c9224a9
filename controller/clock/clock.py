"""The game clock: one authoritative clock, integer milliseconds, no threads.

The clock never reads the time by itself except through the injected `time`
callable (monotonic, int ms); every method also takes `now` so the controller
(and the tests) say exactly when something happened. Nothing is accumulated
in floats: each turn's time is `now - start` of whole milliseconds, so a
thousand fast presses lose nothing.

Sides are numbered 0..n-1 in turn order (two teams: two sides; the session
maps players to sides). A turn is `moves_per_turn` moves (multiwarcaby: 2);
the clock switches after the press that completes the turn, and increments
are added once per turn. Move quotas count turns.

Flags are found at the exact millisecond the time runs out, whenever the
clock is next asked (`update`, `press`, `view`, ...): the `Flag` says when,
not when it was noticed. A side's time is out when it reaches 0: a press at
that very millisecond is too late. In the last stage the flag ends the game
for the side: with two sides the game is over (loss on time); with three or
four the side is out (`SideOut`), the turn passes on at that millisecond and
the side is skipped from then on. In an earlier stage with a move quota the
flag is recorded and shown and the next stage starts at once (the DGT way);
an earlier stage without a quota simply runs into the next.

The board decides legality: the session passes `board_ok=False` (and a
`reason`) when the board does not show a complete legal move with the
captured pieces removed, and the press is refused.

Arbiter actions (resume when a PIN is set, time changes, move counters,
penalties, undo) need an `ArbiterToken` from `unlock(pin)`; every arbiter
action, pause and failed unlock is logged with its time in `log`.

Who owns what: the `Clock` here owns the time source and is the one way in:
it reads the time, asks the `ArbiterDesk` (`arbiter.py`, the PIN and the log)
who may act, and logs what was done. `Timing` (`timing.py`) owns the running
turn and the presses an undo goes back to; each side's `SideAccount`
(`account.py`) owns that side's time, stage and periods and the timing rules.
"""

from __future__ import annotations

import copy
from typing import Callable, Sequence

from damka.controller.clock.arbiter import ArbiterDesk, ArbiterLog, ArbiterToken
from damka.controller.clock.errors import ClockError, ClockStateError
from damka.controller.clock.records import ClockEvent, Flag, PressResult, State
from damka.controller.clock.timecontrol import TimeControl
from damka.controller.clock.timing import SNAPSHOT_VERSION, Timing
from damka.controller.clock.view import ClockView

TimeSource = Callable[[], int]


class Clock:
    """A tournament clock for 2-4 sides. See the module docstring for the rules it keeps."""

    def __init__(self, controls: TimeControl | Sequence[TimeControl], *, sides: int | None = None,
                 time: TimeSource | None = None, moves_per_turn: int = 1, pin: str | None = None) -> None:
        if isinstance(controls, TimeControl):
            controls = [controls] * (sides if sides is not None else 2)
        controls = list(controls)
        if sides is not None and len(controls) != sides:
            raise ClockError(f"{len(controls)} time controls for {sides} sides")
        if not 2 <= len(controls) <= 4:
            raise ClockError(f"a clock has 2 to 4 sides, not {len(controls)}")
        if moves_per_turn < 1:
            raise ClockError(f"moves per turn must be at least 1, not {moves_per_turn}")
        if any(c.hourglass for c in controls) and not all(c.hourglass for c in controls):
            raise ClockError("an hourglass clock needs the hourglass on every side")
        self._time = time
        self._desk = ArbiterDesk(pin)
        self._timing = Timing(controls, moves_per_turn)

    # -- reading -----------------------------------------------------------------

    @property
    def sides(self) -> int:
        return self._timing.sides

    @property
    def controls(self) -> list[TimeControl]:
        return self._timing.controls

    @property
    def moves_per_turn(self) -> int:
        return self._timing.moves_per_turn

    @property
    def state(self) -> State:
        return self._timing.state

    @property
    def active(self) -> int:
        """The side to move (after the end: the side that was)."""
        return self._timing.active

    @property
    def flags(self) -> list[Flag]:
        """Every flag that fell, oldest first."""
        return self._timing.flags

    @property
    def in_game(self) -> list[int]:
        """Sides still playing, in turn order."""
        return self._timing.in_game

    @property
    def pin_required(self) -> bool:
        return self._desk.pin_required

    @property
    def log(self) -> ArbiterLog:
        """Every arbiter action, pause, unlock (and failed unlock), restore, oldest first."""
        return self._desk.log

    def _now(self, now: int | None) -> int:
        if now is not None:
            return int(now)
        if self._time is None:
            raise ClockError("this clock has no time source: pass now=")
        return int(self._time())

    def remaining(self, side: int, now: int | None = None) -> int:
        """Main time left for `side` (ms, >= 0)."""
        return self._timing.remaining(side, self._now(now))

    def next_deadline(self, now: int | None = None) -> int | None:
        """The ms at which the side to move's time runs out if nobody presses (None: paused or untimed)."""
        return self._timing.next_deadline(self._now(now))

    def view(self, now: int | None = None) -> ClockView:
        """Everything the screen shows, at `now`."""
        return self._timing.view(self._now(now))

    def update(self, now: int | None = None) -> list[ClockEvent]:
        """Find flags up to `now`; return (and forget) every event since the last call."""
        self._timing.advance(self._now(now))
        return list(self._timing.drain())

    # -- playing -------------------------------------------------------------------

    def start(self, now: int | None = None, first: int = 0) -> None:
        """Start the game with side `first` to move."""
        now = self._now(now)
        self._timing.start(now, first)
        self._desk.record(now, "start", first)

    def press(self, side: int, now: int | None = None, *, board_ok: bool = True, reason: str = "",
              moves: int = 1) -> PressResult:
        """Side `side` pressed after `moves` move(s) (default 1; a whole multiwarcaby turn: 2).

        Refused (with the reason) unless the game runs, it is that side's turn, the
        board is ok (the session's verdict) and the turn has room for the moves.
        The clock switches after the press that completes the turn.
        """
        return self._timing.press(side, self._now(now), board_ok, reason, moves)

    def pause(self, now: int | None = None, *, by: str = "player") -> None:
        """Stop the clock (anyone may: a player stops it to call the arbiter). Logged."""
        now = self._now(now)
        self._timing.pause(now)
        self._desk.record(now, "pause", self.active, by=by)

    def resume(self, now: int | None = None, *, arbiter: ArbiterToken | None = None) -> None:
        """Restart a paused clock (needs the arbiter when a PIN is set). A delay carries on, not afresh."""
        now = self._now(now)
        by = self._desk.authorize(arbiter, "resume")
        self._timing.resume(now)
        self._desk.record(now, "resume", self.active, by=by)
        self._timing.advance(now)

    def drop(self, side: int, now: int | None = None, reason: str = "resigned") -> None:
        """The session takes a side out of a 3-4 side game (or ends a 2-side one). Its turn passes on."""
        now = self._now(now)
        self._timing.advance(now)
        if self.state is State.FINISHED or self._timing.account(side).out:
            raise ClockStateError(f"side {side} is not in a running game")
        if len(self.in_game) <= 2:
            self.stop(now, reason, loser=side)
            return
        self._timing.drop(side, now, reason)
        self._desk.record(now, "drop", side, reason)

    def stop(self, now: int | None = None, reason: str = "game over", loser: int | None = None) -> None:
        """The game ended on the board (or by agreement, resignation): stop the clock for good."""
        now = self._now(now)
        if self._timing.stop(now, reason, loser):
            self._desk.record(now, "stop", loser, reason)

    # -- arbiter ---------------------------------------------------------------------

    def unlock(self, pin: str, now: int | None = None, name: str = "arbiter") -> ArbiterToken:
        """Check the PIN; a token for arbiter actions. Failed attempts are logged too."""
        return self._desk.unlock(pin, self._now(now), name)

    def lock(self, now: int | None = None) -> None:
        """End the arbiter's session: every token issued so far stops working."""
        self._desk.lock(self._now(now))

    def set_time(self, side: int, ms: int, now: int | None = None, *, arbiter: ArbiterToken | None = None,
                 reason: str = "") -> None:
        """Set `side`'s main time to `ms`."""
        now = self._now(now)
        by = self._desk.authorize(arbiter, "set time")
        self._timing.advance(now)
        self._timing.set_main(side, int(ms), now)
        self._desk.record(now, "set-time", side, f"{ms} ms {reason}".strip(), by)

    def adjust(self, side: int, delta_ms: int, now: int | None = None, *, arbiter: ArbiterToken | None = None,
               reason: str = "") -> None:
        """Add (or, negative, remove) time."""
        now = self._now(now)
        by = self._desk.authorize(arbiter, "adjust time")
        self._timing.set_main(side, self._timing.remaining(side, now) + int(delta_ms), now)
        self._desk.record(now, "adjust", side, f"{delta_ms:+d} ms {reason}".strip(), by)

    def penalty(self, side: int, ms: int, now: int | None = None, *, arbiter: ArbiterToken | None = None,
                reason: str = "", credit_others: bool = False) -> None:
        """A time penalty on `side`: `ms` taken off it, or (`credit_others`) given to every other side in play."""
        now = self._now(now)
        by = self._desk.authorize(arbiter, "penalty")
        self._timing.advance(now)
        if ms <= 0:
            raise ClockError(f"a penalty is a positive time, not {ms} ms")
        self._timing.account(side)
        timing = self._timing
        if credit_others:
            for other in self.in_game:
                if other != side:
                    timing.set_main(other, timing.remaining(other, now) + ms, now)
        else:
            timing.set_main(side, timing.remaining(side, now) - ms, now)
        how = "to the others" if credit_others else "deducted"
        self._desk.record(now, "penalty", side, f"{ms} ms {how} {reason}".strip(), by)

    def set_moves(self, side: int, turns: int, now: int | None = None, *, arbiter: ArbiterToken | None = None,
                  moves: int | None = None) -> None:
        """Set `side`'s turn counter (the stage's quota count moves by the same amount); optionally its moves."""
        now = self._now(now)
        by = self._desk.authorize(arbiter, "set moves")
        moves = self._timing.set_moves(side, turns, moves)
        self._desk.record(now, "set-moves", side, f"turns {turns} moves {moves}", by)

    def undo(self, now: int | None = None, *, arbiter: ArbiterToken | None = None) -> None:
        """Take back the last accepted press: every side's time, counters and stage as at that press.

        The clock is left paused (the board is being put back); the time since the press counts for no one.
        """
        now = self._now(now)
        by = self._desk.authorize(arbiter, "undo")
        self._timing.undo(now)
        self._desk.record(now, "undo", self.active, "", by)

    # -- a take-back on the board -------------------------------------------------------

    def take_back(self, movers: Sequence[int], now: int | None = None) -> None:
        """The board took back the turns that `movers` ended (oldest first): the
        first of them is to move again and its clock runs from `now`.

        The time every side used stays used: the running turn is booked (no
        bonus), and what the taken-back presses added (increment, a quota's
        next stage) comes off again, with their move counters and stage. A
        turn whose press the clock does not know (made before a resume) only
        hands the turn back. A paused clock stays paused; a clock stopped by
        the end of the game runs again (a take-back reopens the game), unless
        it ended on time. Not an arbiter action (`undo` is); logged."""
        now = self._now(now)
        if self._timing.take_back(list(movers), now):
            self._desk.record(now, "take-back", self.active, f"{len(movers)} turn{'s' if len(movers) != 1 else ''}")
            self._timing.advance(now)

    # -- snapshots -----------------------------------------------------------------

    def snapshot(self, now: int | None = None) -> dict:
        """The clock as a plain dict (JSON-ready) for storage; `Clock.restore` reads it."""
        now = self._now(now)
        self._timing.advance(now)
        data = self._timing.dump(now)
        data["log"] = self.log.to_list()
        return copy.deepcopy(data)

    @classmethod
    def restore(cls, data: dict, *, time: TimeSource | None = None, pin: str | None = None,
                now: int | None = None) -> Clock:
        """A clock from `snapshot()`. A clock that was running comes back paused (resume after a power cut)."""
        try:
            if data.get("version") != SNAPSHOT_VERSION:
                raise ClockError(f"clock snapshot version {data.get('version')!r}, expected {SNAPSHOT_VERSION}")
            controls = [TimeControl.from_dict(c) for c in data["controls"]]
            clock = cls(controls, time=time, moves_per_turn=int(data["moves_per_turn"]), pin=pin)
            clock._timing.load(copy.deepcopy(data))
            clock._desk = ArbiterDesk(pin, ArbiterLog.from_list(data.get("log", ())))
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, ClockError):
                raise
            raise ClockError(f"bad clock snapshot: {exc!r}") from exc
        at = clock._now(now) if (now is not None or time is not None) else 0
        clock._timing.restored(at)
        clock._desk.record(at, "restore", clock.active)
        return clock
