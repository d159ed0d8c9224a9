"""The clock's running turn: whose turn it is, since when, how many of its
moves are made, and what happens to every side's time at a given
millisecond (a press, a flag, a pause, a take-back).

`Timing` never reads the time and never asks who may do what: the `Clock`
(`clock.py`) gives it the millisecond, checks the arbiter and keeps the log.
Each side's time and the timing rules are its `SideAccount` (`account.py`);
the hourglass, which moves time between sides, is here, as it needs them all.
"""

from __future__ import annotations

from dataclasses import asdict

from damka.controller.clock.account import SideAccount
from damka.controller.clock.errors import ClockError, ClockStateError
from damka.controller.clock.history import PressHistory
from damka.controller.clock.records import ClockEvent, Flag, GameOver, PressResult, SideOut, StageChange, State
from damka.controller.clock.timecontrol import TimeControl
from damka.controller.clock.view import ClockView

SNAPSHOT_VERSION = 1


class Timing:
    """Every side's account and the running turn of one clock."""

    def __init__(self, controls: list[TimeControl], moves_per_turn: int) -> None:
        self.moves_per_turn = moves_per_turn
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

    def account(self, side: int) -> SideAccount:
        if not 0 <= side < len(self._sides):
            raise ClockError(f"no side {side} on a {len(self._sides)}-side clock")
        return self._sides[side]

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

    def remaining(self, side: int, now: int) -> int:
        """Main time left for `side` at `now` (ms, >= 0)."""
        self.account(side)
        self.advance(now)
        return max(0, self._main(side, self._used(now)))

    def next_deadline(self, now: int) -> int | None:
        """The ms at which the side to move's time runs out if nobody presses (None: paused or untimed)."""
        self.advance(now)
        limit = self._sides[self.active].limit()
        if self.state is not State.RUNNING or limit is None or self._run_since is None:
            return None
        return max(self._floor, self._run_since + limit - self._turn_used)

    def view(self, now: int) -> ClockView:
        self.advance(now)
        used = self._used(now)
        views = tuple(side.view(index, self._main(index, used if self.state is not State.READY else 0),
                                index == self.active and self.state is not State.FINISHED,
                                used if index == self.active else 0)
                      for index, side in enumerate(self._sides))
        return ClockView(views, str(self.state), self.active, self.moves_per_turn, self._turn_moves, now)

    def drain(self) -> tuple[ClockEvent, ...]:
        """Every event since the last drain, forgotten."""
        events, self._pending = tuple(self._pending), []
        return events

    # -- flags and stage changes -------------------------------------------------------

    def advance(self, now: int) -> None:
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

    def start(self, now: int, first: int) -> None:
        if self.state is not State.READY:
            raise ClockStateError(f"the clock is already {self.state}")
        if not 0 <= first < len(self._sides):
            raise ClockError(f"no side {first} on a {len(self._sides)}-side clock")
        self.active = first
        self.state = State.RUNNING
        self._run_since = now
        self._floor = now

    def press(self, side: int, now: int, board_ok: bool, reason: str, moves: int) -> PressResult:
        self.advance(now)
        refusal = self._refusal(side, board_ok, reason, moves)
        if refusal:
            return PressResult(False, refusal, False, self.active, self.drain())
        self._history.push(self.dump(now))
        self._sides[side].moves += moves
        self._turn_moves += moves
        if self._turn_moves < self.moves_per_turn:
            return PressResult(True, "", False, self.active, self.drain())
        self._history.ended_turn(self._end_turn(now))
        return PressResult(True, "", True, self.active, self.drain())

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

    def pause(self, now: int) -> None:
        self.advance(now)
        if self.state is not State.RUNNING:
            raise ClockStateError(f"cannot pause: the clock is {self.state}")
        self._turn_used = self._used(now)
        self._run_since = None
        self.state = State.PAUSED

    def resume(self, now: int) -> None:
        if self.state is not State.PAUSED:
            raise ClockStateError(f"cannot resume: the clock is {self.state}")
        self.state = State.RUNNING
        self._run_since = now
        self._floor = now

    def drop(self, side: int, now: int, reason: str) -> None:
        """Take `side` out of a game that goes on without it (3-4 sides); its turn passes on."""
        if side == self.active:
            self._book(now, clamp=True)
        self._sides[side].out = True
        self._pending.append(SideOut(side, now, reason))
        if side == self.active:
            self._pass_turn(now)

    def stop(self, now: int, reason: str, loser: int | None) -> bool:
        """End the game for good at `now`; False if it was over already."""
        self.advance(now)
        if self.state is State.FINISHED:
            return False
        if self.state is not State.READY:
            self._book(now, clamp=True)
        self._finish(now, reason, loser)
        return True

    # -- the arbiter's changes ---------------------------------------------------------

    def set_main(self, side: int, main_ms: int, now: int) -> None:
        """Make `side`'s main time read `main_ms` at `now`, whatever it has used this turn."""
        target = self.account(side)
        if not target.can_be_set_to(main_ms):
            raise ClockError(f"side {side} would have {main_ms} ms left: the clock flags, the arbiter "
                             "declares the result (stop)")
        offset = self._main(side, self._used(now)) - target.remaining_ms
        target.remaining_ms = main_ms - offset
        self._floor = now

    def set_moves(self, side: int, turns: int, moves: int | None) -> int:
        """Set `side`'s turn counter (and its moves, by default a whole number of turns); its moves now."""
        account = self.account(side)
        account.set_counters(turns, moves, self.moves_per_turn)
        return account.moves

    def undo(self, now: int) -> None:
        """Back to just before the last accepted press, paused; the time since counts for no one."""
        self.advance(now)
        entry = self._history.pop()
        if entry is None:
            raise ClockStateError("no press to undo")
        self.load(entry)
        if self.state is not State.READY:
            self.state = State.PAUSED
        self._run_since = None
        self._floor = now

    def take_back(self, movers: list[int], now: int) -> bool:
        """The turns `movers` ended are taken back (see `Clock.take_back`); False if nothing changed."""
        self.advance(now)
        if not movers or self.state is State.READY:
            return False
        if self.state is State.FINISHED:
            if self._over_reason == "time":
                return False
            self.state = State.RUNNING
            self._run_since = None
        self._book(now)
        turn_moves, known = 0, True
        for mover in reversed(movers):
            side = self.account(mover)
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
        return True

    # -- snapshots -----------------------------------------------------------------

    def dump(self, now: int) -> dict:
        """The timing as a plain dict (the clock's snapshot, a press in the history)."""
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

    def load(self, data: dict) -> None:
        """Back to a `dump` (of a timing with the same controls)."""
        if len(data["sides"]) != len(self._sides):
            raise ClockError("clock snapshot: sides and controls disagree")
        self.state = State(data["state"])
        self.active = int(data["active"])
        self._turn_moves = int(data["turn_moves"])
        self._turn_used = int(data["turn_used_ms"])
        for side, record in zip(self._sides, data["sides"]):
            side.load(record)
        self.flags = [Flag(**flag) for flag in data["flags"]]

    def restored(self, at: int) -> None:
        """Loaded after a power cut: a running clock waits, paused, from `at`."""
        if self.state is State.RUNNING:
            self.state = State.PAUSED
        self._floor = at
