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

Size: one tournament clock: stages, the five timing methods, byo-yomi,
hourglass, arbiter actions and snapshots all act on the same running-turn
state; its text forms (`timecontrol.py`), errors and views are separate
modules.
"""

from __future__ import annotations

import copy
import hmac
import secrets
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Callable, Iterator, Sequence

from damka.controller.clock.errors import ArbiterError, ClockError, ClockStateError
from damka.controller.clock.view import ClockView, SideView
from damka.controller.clock.timecontrol import Mode, Stage, TimeControl

TimeSource = Callable[[], int]
SNAPSHOT_VERSION = 1
UNDO_DEPTH = 200


class State(StrEnum):
    READY = "ready"
    RUNNING = "running"
    PAUSED = "paused"
    FINISHED = "finished"


# -- events and records --------------------------------------------------------


@dataclass(frozen=True)
class Flag:
    """A side's time ran out at `at_ms` in stage `stage` (0-based); `final`: in its last stage."""

    side: int
    at_ms: int
    stage: int
    final: bool


@dataclass(frozen=True)
class StageChange:
    """A side entered stage `stage` at `at_ms`; `by` is `moves` (quota met), `time` or `flag`."""

    side: int
    stage: int
    at_ms: int
    by: str


@dataclass(frozen=True)
class SideOut:
    """A side left the game (flag in a 3-4 side game, or dropped by the session); play goes on."""

    side: int
    at_ms: int
    reason: str


@dataclass(frozen=True)
class GameOver:
    """The clock stopped for good. `loser` is the side that lost on time, if that is why."""

    at_ms: int
    reason: str
    loser: int | None = None


ClockEvent = Flag | StageChange | SideOut | GameOver


@dataclass(frozen=True)
class PressResult:
    """What became of a press: refused with a reason, or accepted (and whether the clock switched)."""

    accepted: bool
    reason: str = ""
    switched: bool = False
    active: int = 0
    events: tuple[ClockEvent, ...] = ()

    def __bool__(self) -> bool:
        return self.accepted


@dataclass(frozen=True)
class ArbiterToken:
    """Proof that the PIN was entered; valid for one clock until `lock()`."""

    name: str
    key: str = field(repr=False)
    epoch: int = 0


@dataclass(frozen=True)
class ArbiterLogEntry:
    """One logged action: when (the clock's ms), what, which side, details, and who."""

    at_ms: int
    action: str
    side: int | None = None
    detail: str = ""
    by: str = ""


class ArbiterLog:
    """The clock's log, oldest first: every arbiter action, pause, unlock (and failed unlock), restore."""

    def __init__(self, entries: Sequence[ArbiterLogEntry] = ()) -> None:
        self._entries = list(entries)

    def append(self, entry: ArbiterLogEntry) -> None:
        self._entries.append(entry)

    def __iter__(self) -> Iterator[ArbiterLogEntry]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __getitem__(self, index: int) -> ArbiterLogEntry:
        return self._entries[index]

    def actions(self) -> list[str]:
        return [entry.action for entry in self._entries]

    def by_arbiter(self) -> list[ArbiterLogEntry]:
        """Entries made with an arbiter token (not by a player, not the clock's own)."""
        return [entry for entry in self._entries if entry.by not in ("", "player")]

    def to_list(self) -> list[dict]:
        return [asdict(entry) for entry in self._entries]

    @classmethod
    def from_list(cls, data: Sequence[dict]) -> ArbiterLog:
        return cls([ArbiterLogEntry(**entry) for entry in data])


# -- per-side state ----------------------------------------------------------------


@dataclass
class _Side:
    control: TimeControl
    remaining_ms: int
    """For the side to move: its time when the turn began (plus any adjustment); others: their time."""
    stage: int = 0
    stage_turns: int = 0
    turns: int = 0
    moves: int = 0
    periods: int = 0
    used_ms: int = 0
    flagged: bool = False
    out: bool = False

    @classmethod
    def fresh(cls, control: TimeControl) -> _Side:
        first = control.stages[0] if control.stages else None
        periods = first.periods if first is not None and first.mode is Mode.BYOYOMI else 0
        return cls(control, control.initial_ms(), periods=periods)

    @property
    def current(self) -> Stage | None:
        return self.control.stage(self.stage) if self.control.stages else None


_SIDE_FIELDS = {name for name in _Side.__dataclass_fields__ if name != "control"}


def _charged(stage: Stage | None, used: int) -> int:
    """How much of `used` ms in this turn comes off the main time."""
    if stage is not None and stage.mode is Mode.DELAY:
        return max(0, used - stage.increment_ms)
    return used


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
        self._pin = pin
        self._key = secrets.token_hex(8)
        self._epoch = 0
        self._sides = [_Side.fresh(control) for control in controls]
        self.state = State.READY
        self.active = 0
        self._turn_moves = 0
        self._turn_used = 0          # ms used this turn in finished running spells
        self._run_since: int | None = None
        self._floor = 0              # no flag can be stamped before this (last change of the times)
        self.flags: list[Flag] = []
        self.log = ArbiterLog()
        self._pending: list[ClockEvent] = []
        self._undo: list[dict] = []
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
        return self._pin is not None

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
        return side.remaining_ms - _charged(side.current, used)

    def _limit(self) -> int | None:
        """Turn time after which the side to move's stage runs out, or None (untimed)."""
        side = self._sides[self.active]
        stage = side.current
        if stage is None:
            return None
        limit = side.remaining_ms
        if stage.mode is Mode.DELAY:
            limit += stage.increment_ms
        elif stage.mode is Mode.BYOYOMI:
            limit += side.periods * stage.increment_ms
        return limit

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
        limit = self._limit()
        if self.state is not State.RUNNING or limit is None or self._run_since is None:
            return None
        return max(self._floor, self._run_since + limit - self._turn_used)

    def view(self, now: int | None = None) -> ClockView:
        """Everything the screen shows, at `now`."""
        now = self._now(now)
        self._advance(now)
        used = self._used(now)
        views = []
        for index, side in enumerate(self._sides):
            stage = side.current
            active = index == self.active and self.state is not State.FINISHED
            main = self._main(index, used if self.state is not State.READY else 0)
            period_ms = None
            periods = side.periods
            delay = 0
            if stage is not None and stage.mode is Mode.BYOYOMI and main < 0 and not side.flagged:
                spent, into = divmod(-main, stage.increment_ms)
                periods -= spent
                period_ms = stage.increment_ms - into
            elif stage is not None and stage.mode is Mode.BYOYOMI and main <= 0 and not side.flagged:
                period_ms = stage.increment_ms
            if active and stage is not None and stage.mode is Mode.DELAY:
                delay = max(0, stage.increment_ms - used)
            quota = stage.moves if stage is not None else None
            views.append(SideView(
                side=index, remaining_ms=max(0, main), active=active,
                elapsed_ms=side.used_ms + (used if index == self.active else 0),
                flagged=side.flagged, out=side.out, turns=side.turns, moves=side.moves,
                stage=side.stage, stages=len(side.control.stages),
                turns_to_control=None if quota is None else quota - side.stage_turns,
                untimed=side.control.untimed, delay_ms=delay, periods=max(0, periods), period_ms=period_ms))
        return ClockView(tuple(views), str(self.state), self.active, self.moves_per_turn, self._turn_moves, now)

    def update(self, now: int | None = None) -> list[ClockEvent]:
        """Find flags up to `now`; return (and forget) every event since the last call."""
        self._advance(self._now(now))
        events, self._pending = self._pending, []
        return events

    # -- flags and stage changes -------------------------------------------------------

    def _advance(self, now: int) -> None:
        """Process every time-out up to `now`, each at its exact millisecond."""
        while self.state is State.RUNNING and self._run_since is not None:
            limit = self._limit()
            if limit is None or self._used(now) < limit:
                return
            at = max(self._floor, self._run_since + limit - self._turn_used)
            self._time_out(at)

    def _time_out(self, at: int) -> None:
        index = self.active
        side = self._sides[index]
        stage = side.current
        assert stage is not None
        used = self._used(at)
        if stage.mode is not Mode.BYOYOMI and not side.control.is_last(side.stage):
            if stage.moves is not None:
                self._record_flag(Flag(index, at, side.stage, final=False))
            side.stage += 1
            side.stage_turns = 0
            nxt = side.current
            assert nxt is not None
            side.remaining_ms = nxt.time_ms + _charged(nxt, used)
            if nxt.mode is Mode.BYOYOMI:
                side.periods = nxt.periods
            self._floor = at
            self._pending.append(StageChange(index, side.stage, at, "flag" if stage.moves is not None else "time"))
            return
        self._record_flag(Flag(index, at, side.stage, final=True))
        self._settle(at)
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

    def _settle(self, at: int) -> None:
        """Book the running turn's time as if the turn ended now with no bonus (flag, finish)."""
        used = self._used(at)
        for index, side in enumerate(self._sides):
            if index != self.active:
                side.remaining_ms += self._credit(index, used)
        mover = self._sides[self.active]
        mover.remaining_ms = max(0, self._main(self.active, used))
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
        self._log(now, "start", first)

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
        self._push_undo(now)
        mover = self._sides[side]
        mover.moves += moves
        self._turn_moves += moves
        if self._turn_moves < self.moves_per_turn:
            return PressResult(True, "", False, self.active, self._drain())
        self._undo[-1]["bonus_ms"] = self._end_turn(now)
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
        stage = mover.current
        used = self._used(now)
        booked = mover.remaining_ms - _charged(stage, used)
        for other in range(len(self._sides)):
            if other != index:
                self._sides[other].remaining_ms += self._credit(other, used)
        mover.used_ms += used
        mover.turns += 1
        if stage is not None:
            main = mover.remaining_ms - _charged(stage, used)
            if stage.mode is Mode.BYOYOMI and main < 0:
                mover.periods -= -main // stage.increment_ms
                main = 0
            elif stage.mode is Mode.FISCHER:
                main += stage.increment_ms
            elif stage.mode is Mode.BRONSTEIN:
                main += min(used, stage.increment_ms)
            mover.remaining_ms = main
            mover.stage_turns += 1
            if stage.moves is not None and mover.stage_turns >= stage.moves:
                mover.stage = mover.stage + 1 if not mover.control.is_last(mover.stage) else mover.stage
                mover.stage_turns = 0
                nxt = mover.current
                assert nxt is not None
                mover.remaining_ms += nxt.time_ms
                if nxt.mode is Mode.BYOYOMI:
                    mover.periods = nxt.periods
                self._pending.append(StageChange(index, mover.stage, now, "moves"))
        self._pass_turn(now)
        return mover.remaining_ms - booked if stage is not None else 0

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
        self._log(now, "pause", self.active, by=by)

    def resume(self, now: int | None = None, *, arbiter: ArbiterToken | None = None) -> None:
        """Restart a paused clock (needs the arbiter when a PIN is set). A delay carries on, not afresh."""
        now = self._now(now)
        by = self._authorize(arbiter, "resume")
        if self.state is not State.PAUSED:
            raise ClockStateError(f"cannot resume: the clock is {self.state}")
        self.state = State.RUNNING
        self._run_since = now
        self._floor = now
        self._log(now, "resume", self.active, by=by)
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
            self._settle(now)
        self._sides[side].out = True
        self._pending.append(SideOut(side, now, reason))
        self._log(now, "drop", side, reason)
        if side == self.active:
            self._pass_turn(now)

    def stop(self, now: int | None = None, reason: str = "game over", loser: int | None = None) -> None:
        """The game ended on the board (or by agreement, resignation): stop the clock for good."""
        now = self._now(now)
        self._advance(now)
        if self.state is State.FINISHED:
            return
        if self.state is not State.READY:
            self._settle(now)
        self._finish(now, reason, loser)
        self._log(now, "stop", loser, reason)

    # -- arbiter ---------------------------------------------------------------------

    def unlock(self, pin: str, now: int | None = None, name: str = "arbiter") -> ArbiterToken:
        """Check the PIN; a token for arbiter actions. Failed attempts are logged too."""
        now = self._now(now)
        if self._pin is not None and not hmac.compare_digest(str(pin).encode(), self._pin.encode()):
            self._log(now, "unlock-failed", None, by=name)
            raise ArbiterError("wrong arbiter PIN")
        self._log(now, "unlock", None, by=name)
        return ArbiterToken(name, self._key, self._epoch)

    def lock(self, now: int | None = None) -> None:
        """End the arbiter's session: every token issued so far stops working."""
        self._epoch += 1
        self._log(self._now(now), "lock")

    def _authorize(self, arbiter: ArbiterToken | None, action: str) -> str:
        if arbiter is None:
            if self._pin is None:
                return "player"
            raise ArbiterError(f"{action} needs the arbiter (enter the PIN)")
        if not isinstance(arbiter, ArbiterToken) or arbiter.key != self._key or arbiter.epoch != self._epoch:
            raise ArbiterError(f"{action}: the arbiter token is not valid for this clock (unlock again)")
        return arbiter.name

    def _log(self, at: int, action: str, side: int | None = None, detail: str = "", by: str = "") -> None:
        self.log.append(ArbiterLogEntry(at, action, side, detail, by))

    def _check_side(self, side: int) -> _Side:
        if not 0 <= side < len(self._sides):
            raise ClockError(f"no side {side} on a {len(self._sides)}-side clock")
        return self._sides[side]

    def _set_main(self, side: int, main_ms: int, now: int) -> None:
        """Make `side`'s main time read `main_ms` at `now`, whatever it has used this turn."""
        target = self._check_side(side)
        if main_ms <= 0 and not (target.current is not None and target.current.mode is Mode.BYOYOMI
                                 and target.periods > 0):
            raise ClockError(f"side {side} would have {main_ms} ms left: the clock flags, the arbiter "
                             "declares the result (stop)")
        used = self._used(now)
        offset = self._main(side, used) - target.remaining_ms
        target.remaining_ms = main_ms - offset
        self._floor = now

    def set_time(self, side: int, ms: int, now: int | None = None, *, arbiter: ArbiterToken | None = None,
                 reason: str = "") -> None:
        """Set `side`'s main time to `ms`."""
        now = self._now(now)
        by = self._authorize(arbiter, "set time")
        self._advance(now)
        self._set_main(side, int(ms), now)
        self._log(now, "set-time", side, f"{ms} ms {reason}".strip(), by)

    def adjust(self, side: int, delta_ms: int, now: int | None = None, *, arbiter: ArbiterToken | None = None,
               reason: str = "") -> None:
        """Add (or, negative, remove) time."""
        now = self._now(now)
        by = self._authorize(arbiter, "adjust time")
        self._advance(now)
        self._set_main(side, self.remaining(side, now) + int(delta_ms), now)
        self._log(now, "adjust", side, f"{delta_ms:+d} ms {reason}".strip(), by)

    def penalty(self, side: int, ms: int, now: int | None = None, *, arbiter: ArbiterToken | None = None,
                reason: str = "", credit_others: bool = False) -> None:
        """A time penalty on `side`: `ms` taken off it, or (`credit_others`) given to every other side in play."""
        now = self._now(now)
        by = self._authorize(arbiter, "penalty")
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
        self._log(now, "penalty", side, f"{ms} ms {how} {reason}".strip(), by)

    def set_moves(self, side: int, turns: int, now: int | None = None, *, arbiter: ArbiterToken | None = None,
                  moves: int | None = None) -> None:
        """Set `side`'s turn counter (the stage's quota count moves by the same amount); optionally its moves."""
        now = self._now(now)
        by = self._authorize(arbiter, "set moves")
        target = self._check_side(side)
        if turns < 0 or (moves is not None and moves < 0):
            raise ClockError(f"move counters cannot be negative ({turns}, {moves})")
        target.stage_turns = max(0, target.stage_turns + turns - target.turns)
        target.turns = turns
        target.moves = moves if moves is not None else turns * self.moves_per_turn
        self._log(now, "set-moves", side, f"turns {turns} moves {target.moves}", by)

    def undo(self, now: int | None = None, *, arbiter: ArbiterToken | None = None) -> None:
        """Take back the last accepted press: every side's time, counters and stage as at that press.

        The clock is left paused (the board is being put back); the time since the press counts for no one.
        """
        now = self._now(now)
        by = self._authorize(arbiter, "undo")
        self._advance(now)
        if not self._undo:
            raise ClockStateError("no press to undo")
        self._load(self._undo.pop())
        if self.state is not State.READY:
            self.state = State.PAUSED
        self._run_since = None
        self._floor = now
        self._log(now, "undo", self.active, "", by)

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
            entry = self._undo[-1] if known and self._undo else None
            if entry is None or entry["active"] != mover or "bonus_ms" not in entry:
                known = False  # and for every earlier mover too
                side.turns, side.stage_turns = max(0, side.turns - 1), max(0, side.stage_turns - 1)
                side.moves = max(0, side.moves - self.moves_per_turn)
                turn_moves = 0
                continue
            self._undo.pop()
            side.remaining_ms -= entry["bonus_ms"]
            for key in ("stage", "stage_turns", "turns", "moves", "periods"):
                setattr(side, key, entry["sides"][mover][key])
            turn_moves = entry["turn_moves"]
        self.active = movers[0]
        self._turn_moves = turn_moves
        self._turn_used = 0
        self._run_since = now if self.state is State.RUNNING else None
        self._floor = now
        self._log(now, "take-back", self.active, f"{len(movers)} turn{'s' if len(movers) != 1 else ''}")
        self._advance(now)

    def _book(self, now: int) -> None:
        """Book the time the side to move has used in this turn (no bonus, the
        hourglass credits to the others); its turn starts again at `now`."""
        used = self._used(now)
        for index, side in enumerate(self._sides):
            if index != self.active:
                side.remaining_ms += self._credit(index, used)
        mover = self._sides[self.active]
        mover.remaining_ms = self._main(self.active, used)
        mover.used_ms += used
        self._turn_used = 0
        self._run_since = now if self._run_since is not None else None

    # -- snapshots -----------------------------------------------------------------

    def _push_undo(self, now: int) -> None:
        self._undo.append(self._dump(now))
        del self._undo[:-UNDO_DEPTH]

    def _dump(self, now: int) -> dict:
        return {
            "version": SNAPSHOT_VERSION,
            "controls": [side.control.to_dict() for side in self._sides],
            "moves_per_turn": self.moves_per_turn,
            "state": str(self.state),
            "active": self.active,
            "turn_moves": self._turn_moves,
            "turn_used_ms": self._used(now),
            "sides": [{key: value for key, value in asdict(side).items() if key != "control"}
                      for side in self._sides],
            "flags": [asdict(flag) for flag in self.flags],
        }

    def _load(self, data: dict) -> None:
        self.state = State(data["state"])
        self.active = int(data["active"])
        self._turn_moves = int(data["turn_moves"])
        self._turn_used = int(data["turn_used_ms"])
        for side, record in zip(self._sides, data["sides"]):
            unknown = set(record) - _SIDE_FIELDS
            if unknown:
                raise ClockError(f"clock snapshot: unknown side fields {sorted(unknown)}")
            for key, value in record.items():
                setattr(side, key, value)
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
            clock.log = ArbiterLog.from_list(data.get("log", ()))
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, ClockError):
                raise
            raise ClockError(f"bad clock snapshot: {exc!r}") from exc
        if clock.state is State.RUNNING:
            clock.state = State.PAUSED
        at = clock._now(now) if (now is not None or time is not None) else 0
        clock._floor = at
        clock._log(at, "restore", clock.active)
        return clock
