"""One side's time account: its main time, stage, byo-yomi periods and
counters, and the timing rules that change them at the end of a turn or
when its time runs out (Fischer, Bronstein, delay, byo-yomi, move quotas).

The account knows nothing of whose turn it is: the clock tells it how much
time its turn used. The hourglass, which moves time between sides, is the
clock's (it needs every side).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from damka.controller.clock.errors import ClockError
from damka.controller.clock.records import StageChange
from damka.controller.clock.timecontrol import Mode, Stage, TimeControl
from damka.controller.clock.view import SideView

COUNTERS = ("stage", "stage_turns", "turns", "moves", "periods")


def charged(stage: Stage | None, used: int) -> int:
    """How much of `used` ms in this turn comes off the main time (a delay is free)."""
    if stage is not None and stage.mode is Mode.DELAY:
        return max(0, used - stage.increment_ms)
    return used


@dataclass
class SideAccount:
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
    def fresh(cls, control: TimeControl) -> SideAccount:
        first = control.stages[0] if control.stages else None
        periods = first.periods if first is not None and first.mode is Mode.BYOYOMI else 0
        return cls(control, control.initial_ms(), periods=periods)

    @property
    def current(self) -> Stage | None:
        return self.control.stage(self.stage) if self.control.stages else None

    def main_after(self, used: int) -> int:
        """Main time when this side, to move, has used `used` ms of its turn (< 0 in byo-yomi or past a flag)."""
        return self.remaining_ms - charged(self.current, used)

    def limit(self) -> int | None:
        """Turn time after which this side's stage runs out, or None (untimed)."""
        stage = self.current
        if stage is None:
            return None
        limit = self.remaining_ms
        if stage.mode is Mode.DELAY:
            limit += stage.increment_ms
        elif stage.mode is Mode.BYOYOMI:
            limit += self.periods * stage.increment_ms
        return limit

    def runs_on_after_time(self) -> bool:
        """Whether running out of time now only starts the next stage (not byo-yomi, not the last stage)."""
        stage = self.current
        return stage is not None and stage.mode is not Mode.BYOYOMI and not self.control.is_last(self.stage)

    def next_stage_on_time(self, used: int) -> None:
        """The stage's time ran out with `used` ms of the turn gone: the next stage starts at once."""
        self.stage += 1
        self.stage_turns = 0
        nxt = self.current
        assert nxt is not None
        self.remaining_ms = nxt.time_ms + charged(nxt, used)
        if nxt.mode is Mode.BYOYOMI:
            self.periods = nxt.periods

    def end_turn(self, used: int, side: int, at: int) -> StageChange | None:
        """Book a finished turn of `used` ms: the increment, byo-yomi periods
        spent, the next stage when the quota is met (a StageChange then)."""
        stage = self.current
        self.used_ms += used
        self.turns += 1
        if stage is None:
            return None
        main = self.main_after(used)
        if stage.mode is Mode.BYOYOMI and main < 0:
            self.periods -= -main // stage.increment_ms
            main = 0
        elif stage.mode is Mode.FISCHER:
            main += stage.increment_ms
        elif stage.mode is Mode.BRONSTEIN:
            main += min(used, stage.increment_ms)
        self.remaining_ms = main
        self.stage_turns += 1
        if stage.moves is None or self.stage_turns < stage.moves:
            return None
        self.stage = self.stage + 1 if not self.control.is_last(self.stage) else self.stage
        self.stage_turns = 0
        nxt = self.current
        assert nxt is not None
        self.remaining_ms += nxt.time_ms
        if nxt.mode is Mode.BYOYOMI:
            self.periods = nxt.periods
        return StageChange(side, self.stage, at, "moves")

    def forget_turn(self, moves_per_turn: int) -> None:
        """A turn taken back that the clock has no record of: only its counters go back."""
        self.turns, self.stage_turns = max(0, self.turns - 1), max(0, self.stage_turns - 1)
        self.moves = max(0, self.moves - moves_per_turn)

    def set_counters(self, turns: int, moves: int | None, moves_per_turn: int) -> None:
        """The arbiter's count of turns (the stage's quota count moves by as
        much) and of moves (by default a whole number of turns)."""
        if turns < 0 or (moves is not None and moves < 0):
            raise ClockError(f"move counters cannot be negative ({turns}, {moves})")
        self.stage_turns = max(0, self.stage_turns + turns - self.turns)
        self.turns = turns
        self.moves = moves if moves is not None else turns * moves_per_turn

    def can_be_set_to(self, main_ms: int) -> bool:
        """A main time of `main_ms` or less would flag at once, unless byo-yomi periods are left."""
        stage = self.current
        return main_ms > 0 or (stage is not None and stage.mode is Mode.BYOYOMI and self.periods > 0)

    def view(self, side: int, main: int, active: bool, used: int) -> SideView:
        """What the screen shows of this side with main time `main`; `used`: the running turn's time, if active."""
        stage = self.current
        period_ms = None
        periods = self.periods
        delay = 0
        if stage is not None and stage.mode is Mode.BYOYOMI and main < 0 and not self.flagged:
            spent, into = divmod(-main, stage.increment_ms)
            periods -= spent
            period_ms = stage.increment_ms - into
        elif stage is not None and stage.mode is Mode.BYOYOMI and main <= 0 and not self.flagged:
            period_ms = stage.increment_ms
        if active and stage is not None and stage.mode is Mode.DELAY:
            delay = max(0, stage.increment_ms - used)
        quota = stage.moves if stage is not None else None
        return SideView(
            side=side, remaining_ms=max(0, main), active=active, elapsed_ms=self.used_ms + used,
            flagged=self.flagged, out=self.out, turns=self.turns, moves=self.moves,
            stage=self.stage, stages=len(self.control.stages),
            turns_to_control=None if quota is None else quota - self.stage_turns,
            untimed=self.control.untimed, delay_ms=delay, periods=max(0, periods), period_ms=period_ms)

    def to_dict(self) -> dict:
        """Everything but the control (a snapshot keeps the controls once, apart)."""
        return {key: value for key, value in asdict(self).items() if key != "control"}

    def load(self, record: dict) -> None:
        unknown = set(record) - _FIELDS
        if unknown:
            raise ClockError(f"clock snapshot: unknown side fields {sorted(unknown)}")
        for key, value in record.items():
            setattr(self, key, value)

    def load_counters(self, record: dict) -> None:
        """Stage, counters and periods as `record` (a snapshot) had them; the times stay."""
        for key in COUNTERS:
            setattr(self, key, record[key])


_FIELDS = {name for name in SideAccount.__dataclass_fields__ if name != "control"}
