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

Who owns what: the clock owns the running turn (whose turn, since when, how
many moves) and its state; each side's `SideAccount` (`account.py`) owns that
side's time, stage and periods and the timing rules; the `ArbiterDesk`
(`arbiter.py`) owns the PIN and the log; `PressHistory` (`history.py`) the
presses an undo or a take-back goes back to.
"""

from __future__ import annotations

import copy
from dataclasses import asdict
from typing import Callable, Sequence

from damka.controller.clock.account import SideAccount, charged
from damka.controller.clock.arbiter import ArbiterDesk, ArbiterLog, ArbiterToken
from damka.controller.clock.errors import ClockError, ClockStateError
from damka.controller.clock.history import PressHistory
from damka.controller.clock.records import ClockEvent, Flag, GameOver, PressResult, SideOut, StageChange, State
from damka.controller.clock.timecontrol import TimeControl
from damka.controller.clock.view import ClockView

TimeSource = Callable[[], int]
SNAPSHOT_VERSION = 1


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
        self.moves_per_turn = moves_per_turn
        self._desk = ArbiterDesk(pin)
        self._sides = [SideAccount.fresh(control) for control in controls]
        self.state = State.READY
        self.active = 0
        self._turn_moves = 0
        self._turn_used = 0          # ms used this turn in finished running spells
        self._run_since: int | None = None
        self._floor = 0              # no flag can be stamped before this (last change of the times)
        self.flags: list[Flag] = []
        self._pending: list[ClockEvent] = []
        self._history = PressHistory()
        self._over_reason = ""       # why the clock finished ("time": a loss on time, never reopened)

    # -- reading -----------------------------------------------------------------

    @property
    def sides(self) -> int:
        return len(self._sides)

    @property
    def controls(self) -> list[TimeControl]:
        return [side.control for side in self._sides]

    @property
    def in_game(self) -> list[int]:
        """Sides still playing, in turn order."""
        return [index for index, side in enumerate(self._sides) if not side.out]

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

    def _used(self, now: int) -> int:
        """Time the side to move has used in this turn."""
        running = now - self._run_since if self._run_since is not None else 0
        return self._turn_used + max(0, running)

    def _credit(self, index: int, used: int) -> int:
        """Hourglass: what side `index` has gained from the side to move's `used` ms."""
        if not self._sides[index].control.hourglass or index == self.active or self._sides[index].out:
            return 0
        others = self._order_from(self.active)[1:]
        if not others:
            return 0
        share, extra = divmod(used, len(others))
        return share + (1 if others.index(index) < extra else 0)

    def _order_from(self, start: int) -> list[int]:
        """In-game sides in turn order starting at `start` (which is first even if out)."""
        n = len(self._sides)
        rest = [(start + k) % n for k in range(1, n)]
        return [start] + [i for i in rest if not self._sides[i].out]

    def _main(self, index: int, used: int) -> int:
        """Main time of side `index` when the side to move has used `used` ms (may be < 0 mid-check)."""
        side = self._sides[index]
        if index != self.active:
            return side.remaining_ms + self._credit(index, used)
        return side.main_after(used)

    def remaining(self, side: int, now: int | None = None) -> int:
        """Main time left for `side` (ms, >= 0)."""
        self._check_side(side)
        now = self._now(now)
        self._advance(now)
        return max(0, self._main(side, self._used(now)))

    def next_deadline(self, now: int | None = None) -> int | None:
        """The ms at which the side to move's time runs out if nobody presses (None: paused or untimed)."""
        now = self._now(now)
        self._advance(now)
        limit = self._sides[self.active].limit()
        if self.state is not State.RUNNING or limit is None or self._run_since is None:
            return None
        return max(self._floor, self._run_since + limit - self._turn_used)

    def view(self, now: int | None = None) -> ClockView:
        """Everything the screen shows, at `now`."""
        now = self._now(now)
        self._advance(now)
        used = self._used(now)
        views = tuple(side.view(index, self._main(index, used if self.state is not State.READY else 0),
                                index == self.active and self.state is not State.FINISHED,
                                used if index == self.active else 0)
                      for index, side in enumerate(self._sides))
        return ClockView(views, str(self.state), self.active, self.moves_per_turn, self._turn_moves, now)

    def update(self, now: int | None = None) -> list[ClockEvent]:
        """Find flags up to `now`; return (and forget) every event since the last call."""
        self._advance(self._now(now))
        return list(self._drain())

    # -- flags and stage changes -------------------------------------------------------

    def _advance(self, now: int) -> None:
        """Process every time-out up to `now`, each at its exact millisecond."""
        while self.state is State.RUNNING and self._run_since is not None:
            limit = self._sides[self.active].limit()
            if limit is None or self._used(now) < limit:
                return
            at = max(self._floor, self._run_since + limit - self._turn_used)
            self._time_out(at)

    def _time_out(self, at: int) -> None:
        index = self.active
        side = self._sides[index]
        stage = side.current
        assert stage is not None
        if side.runs_on_after_time():
            if stage.moves is not None:
                self._record_flag(Flag(index, at, side.stage, final=False))
            side.next_stage_on_time(self._used(at))
            self._floor = at
            self._pending.append(StageChange(index, side.stage, at, "flag" if stage.moves is not None else "time"))
            return
        self._record_flag(Flag(index, at, side.stage, final=True))
        self._book(at, clamp=True)
        side.remaining_ms = 0
        side.periods = 0
        if len(self.in_game) <= 2:
            side.out = len(self._sides) > 2
            self._finish(at, "time", loser=index)
            return
        side.out = True
        self._pending.append(SideOut(index, at, "time"))
        self._pass_turn(at)

    def _record_flag(self, flag: Flag) -> None:
        self._sides[flag.side].flagged = True
        self.flags.append(flag)
        self._pending.append(flag)

    def _book(self, at: int, *, clamp: bool = False) -> None:
        """Book the time the side to move has used in this turn, with no bonus
        (the hourglass credits the others); its turn starts again at `at`.
        `clamp`: the mover's time does not go below 0 (a flag, the end)."""
        used = self._used(at)
        for index, side in enumerate(self._sides):
            if index != self.active:
                side.remaining_ms += self._credit(index, used)
        mover = self._sides[self.active]
        main = self._main(self.active, used)
        mover.remaining_ms = max(0, main) if clamp else main
        mover.used_ms += used
        self._turn_used = 0
        self._run_since = at if self._run_since is not None else None

    def _pass_turn(self, at: int) -> None:
        order = self._order_from(self.active)
        self.active = order[1] if len(order) > 1 else self.active
        self._turn_moves = 0
        self._turn_used = 0
        self._run_since = at if self.state is State.RUNNING else None
        self._floor = at

    def _finish(self, at: int, reason: str, loser: int | None = None) -> None:
        self.state = State.FINISHED
        self._over_reason = reason
        self._run_since = None
        self._pending.append(GameOver(at, reason, loser))

    # -- playing -------------------------------------------------------------------

    def start(self, now: int | None = None, first: int = 0) -> None:
        """Start the game with side `first` to move."""
        now = self._now(now)
        if self.state is not State.READY:
            raise ClockStateError(f"the clock is already {self.state}")
        if not 0 <= first < len(self._sides):
            raise ClockError(f"no side {first} on a {len(self._sides)}-side clock")
        self.active = first
        self.state = State.RUNNING
        self._run_since = now
        self._floor = now
        self._desk.record(now, "start", first)

    def press(self, side: int, now: int | None = None, *, board_ok: bool = True, reason: str = "",
              moves: int = 1) -> PressResult:
        """Side `side` pressed after `moves` move(s) (default 1; a whole multiwarcaby turn: 2).

        Refused (with the reason) unless the game runs, it is that side's turn, the
        board is ok (the session's verdict) and the turn has room for the moves.
        The clock switches after the press that completes the turn.
        """
        now = self._now(now)
        self._advance(now)
        refusal = self._refusal(side, board_ok, reason, moves)
        if refusal:
            return PressResult(False, refusal, False, self.active, self._drain())
        self._history.push(self._dump(now))
        self._sides[side].moves += moves
        self._turn_moves += moves
        if self._turn_moves < self.moves_per_turn:
            return PressResult(True, "", False, self.active, self._drain())
        self._history.ended_turn(self._end_turn(now))
        return PressResult(True, "", True, self.active, self._drain())

    def _refusal(self, side: int, board_ok: bool, reason: str, moves: int) -> str:
        if not 0 <= side < len(self._sides):
            return f"no side {side} on this clock"
        if self.state is State.READY:
            return "the clock has not been started"
        if self.state is State.FINISHED:
            return "the game is over"
        if self.state is State.PAUSED:
            return "the clock is paused"
        if self._sides[side].out:
            return f"side {side} is out of the game"
        if side != self.active:
            return f"it is side {self.active}'s turn, not side {side}'s"
        if not board_ok:
            return reason or "the board does not show a complete legal move"
        left = self.moves_per_turn - self._turn_moves
        if not 1 <= moves <= left:
            return f"the turn has {left} move(s) left, the press claimed {moves}"
        return ""

    def _end_turn(self, now: int) -> int:
        """Book the turn and pass it on; what the press added to the mover's
        time beyond the time it used (increment, a quota's next stage)."""
        index = self.active
        mover = self._sides[index]
        timed = mover.current is not None
        used = self._used(now)
        booked = mover.main_after(used)
        for other in range(len(self._sides)):
            if other != index:
                self._sides[other].remaining_ms += self._credit(other, used)
        change = mover.end_turn(used, index, now)
        if change is not None:
            self._pending.append(change)
        self._pass_turn(now)
        return mover.remaining_ms - booked if timed else 0

    def _drain(self) -> tuple[ClockEvent, ...]:
        events, self._pending = tuple(self._pending), []
        return events

    def pause(self, now: int | None = None, *, by: str = "player") -> None:
        """Stop the clock (anyone may: a player stops it to call the arbiter). Logged."""
        now = self._now(now)
        self._advance(now)
        if self.state is not State.RUNNING:
            raise ClockStateError(f"cannot pause: the clock is {self.state}")
        self._turn_used = self._used(now)
        self._run_since = None
        self.state = State.PAUSED
        self._desk.record(now, "pause", self.active, by=by)

    def resume(self, now: int | None = None, *, arbiter: ArbiterToken | None = None) -> None:
        """Restart a paused clock (needs the arbiter when a PIN is set). A delay carries on, not afresh."""
        now = self._now(now)
        by = self._desk.authorize(arbiter, "resume")
        if self.state is not State.PAUSED:
            raise ClockStateError(f"cannot resume: the clock is {self.state}")
        self.state = State.RUNNING
        self._run_since = now
        self._floor = now
        self._desk.record(now, "resume", self.active, by=by)
        self._advance(now)

    def drop(self, side: int, now: int | None = None, reason: str = "resigned") -> None:
        """The session takes a side out of a 3-4 side game (or ends a 2-side one). Its turn passes on."""
        now = self._now(now)
        self._advance(now)
        if self.state is State.FINISHED or self._sides[side].out:
            raise ClockStateError(f"side {side} is not in a running game")
        if len(self.in_game) <= 2:
            self.stop(now, reason, loser=side)
            return
        if side == self.active:
            self._book(now, clamp=True)
        self._sides[side].out = True
        self._pending.append(SideOut(side, now, reason))
        self._desk.record(now, "drop", side, reason)
        if side == self.active:
            self._pass_turn(now)

    def stop(self, now: int | None = None, reason: str = "game over", loser: int | None = None) -> None:
        """The game ended on the board (or by agreement, resignation): stop the clock for good."""
        now = self._now(now)
        self._advance(now)
        if self.state is State.FINISHED:
            return
        if self.state is not State.READY:
            self._book(now, clamp=True)
        self._finish(now, reason, loser)
        self._desk.record(now, "stop", loser, reason)

    # -- arbiter ---------------------------------------------------------------------

    def unlock(self, pin: str, now: int | None = None, name: str = "arbiter") -> ArbiterToken:
        """Check the PIN; a token for arbiter actions. Failed attempts are logged too."""
        return self._desk.unlock(pin, self._now(now), name)

    def lock(self, now: int | None = None) -> None:
        """End the arbiter's session: every token issued so far stops working."""
        self._desk.lock(self._now(now))

    def _check_side(self, side: int) -> SideAccount:
        if not 0 <= side < len(self._sides):
            raise ClockError(f"no side {side} on a {len(self._sides)}-side clock")
        return self._sides[side]

    def _set_main(self, side: int, main_ms: int, now: int) -> None:
        """Make `side`'s main time read `main_ms` at `now`, whatever it has used this turn."""
        target = self._check_side(side)
        if not target.can_be_set_to(main_ms):
            raise ClockError(f"side {side} would have {main_ms} ms left: the clock flags, the arbiter "
                             "declares the result (stop)")
        offset = self._main(side, self._used(now)) - target.remaining_ms
        target.remaining_ms = main_ms - offset
        self._floor = now

    def set_time(self, side: int, ms: int, now: int | None = None, *, arbiter: ArbiterToken | None = None,
                 reason: str = "") -> None:
        """Set `side`'s main time to `ms`."""
        now = self._now(now)
        by = self._desk.authorize(arbiter, "set time")
        self._advance(now)
        self._set_main(side, int(ms), now)
        self._desk.record(now, "set-time", side, f"{ms} ms {reason}".strip(), by)

    def adjust(self, side: int, delta_ms: int, now: int | None = None, *, arbiter: ArbiterToken | None = None,
               reason: str = "") -> None:
        """Add (or, negative, remove) time."""
        now = self._now(now)
        by = self._desk.authorize(arbiter, "adjust time")
        self._advance(now)
        self._set_main(side, self.remaining(side, now) + int(delta_ms), now)
        self._desk.record(now, "adjust", side, f"{delta_ms:+d} ms {reason}".strip(), by)

    def penalty(self, side: int, ms: int, now: int | None = None, *, arbiter: ArbiterToken | None = None,
                reason: str = "", credit_others: bool = False) -> None:
        """A time penalty on `side`: `ms` taken off it, or (`credit_others`) given to every other side in play."""
        now = self._now(now)
        by = self._desk.authorize(arbiter, "penalty")
        self._advance(now)
        if ms <= 0:
            raise ClockError(f"a penalty is a positive time, not {ms} ms")
        self._check_side(side)
        if credit_others:
            for other in self.in_game:
                if other != side:
                    self._set_main(other, self.remaining(other, now) + ms, now)
        else:
            self._set_main(side, self.remaining(side, now) - ms, now)
        how = "to the others" if credit_others else "deducted"
        self._desk.record(now, "penalty", side, f"{ms} ms {how} {reason}".strip(), by)

    def set_moves(self, side: int, turns: int, now: int | None = None, *, arbiter: ArbiterToken | None = None,
                  moves: int | None = None) -> None:
        """Set `side`'s turn counter (the stage's quota count moves by the same amount); optionally its moves."""
        now = self._now(now)
        by = self._desk.authorize(arbiter, "set moves")
        target = self._check_side(side)
        if turns < 0 or (moves is not None and moves < 0):
            raise ClockError(f"move counters cannot be negative ({turns}, {moves})")
        target.stage_turns = max(0, target.stage_turns + turns - target.turns)
        target.turns = turns
        target.moves = moves if moves is not None else turns * self.moves_per_turn
        self._desk.record(now, "set-moves", side, f"turns {turns} moves {target.moves}", by)

    def undo(self, now: int | None = None, *, arbiter: ArbiterToken | None = None) -> None:
        """Take back the last accepted press: every side's time, counters and stage as at that press.

        The clock is left paused (the board is being put back); the time since the press counts for no one.
        """
        now = self._now(now)
        by = self._desk.authorize(arbiter, "undo")
        self._advance(now)
        entry = self._history.pop()
        if entry is None:
            raise ClockStateError("no press to undo")
        self._load(entry)
        if self.state is not State.READY:
            self.state = State.PAUSED
        self._run_since = None
        self._floor = now
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
        self._advance(now)
        if not movers or self.state is State.READY:
            return
        if self.state is State.FINISHED:
            if self._over_reason == "time":
                return
            self.state = State.RUNNING
            self._run_since = None
        self._book(now)
        turn_moves, known = 0, True
        for mover in reversed(movers):
            side = self._check_side(mover)
            entry = self._history.pop_turn_of(mover) if known else None
            if entry is None:
                known = False  # and for every earlier mover too
                side.forget_turn(self.moves_per_turn)
                turn_moves = 0
                continue
            side.remaining_ms -= entry["bonus_ms"]
            side.load_counters(entry["sides"][mover])
            turn_moves = entry["turn_moves"]
        self.active = movers[0]
        self._turn_moves = turn_moves
        self._turn_used = 0
        self._run_since = now if self.state is State.RUNNING else None
        self._floor = now
        self._desk.record(now, "take-back", self.active, f"{len(movers)} turn{'s' if len(movers) != 1 else ''}")
        self._advance(now)

    # -- snapshots -----------------------------------------------------------------

    def _dump(self, now: int) -> dict:
        return {
            "version": SNAPSHOT_VERSION,
            "controls": [side.control.to_dict() for side in self._sides],
            "moves_per_turn": self.moves_per_turn,
            "state": str(self.state),
            "active": self.active,
            "turn_moves": self._turn_moves,
            "turn_used_ms": self._used(now),
            "sides": [side.to_dict() for side in self._sides],
            "flags": [asdict(flag) for flag in self.flags],
        }

    def _load(self, data: dict) -> None:
        self.state = State(data["state"])
        self.active = int(data["active"])
        self._turn_moves = int(data["turn_moves"])
        self._turn_used = int(data["turn_used_ms"])
        for side, record in zip(self._sides, data["sides"]):
            side.load(record)
        self.flags = [Flag(**flag) for flag in data["flags"]]

    def snapshot(self, now: int | None = None) -> dict:
        """The clock as a plain dict (JSON-ready) for storage; `Clock.restore` reads it."""
        now = self._now(now)
        self._advance(now)
        data = self._dump(now)
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
            if len(data["sides"]) != len(controls):
                raise ClockError("clock snapshot: sides and controls disagree")
            clock._load(copy.deepcopy(data))
            clock._desk = ArbiterDesk(pin, ArbiterLog.from_list(data.get("log", ())))
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, ClockError):
                raise
            raise ClockError(f"bad clock snapshot: {exc!r}") from exc
        if clock.state is State.RUNNING:
            clock.state = State.PAUSED
        at = clock._now(now) if (now is not None or time is not None) else 0
        clock._floor = at
        clock._desk.record(at, "restore", clock.active)
        return clock
