"""What the clock reports: its state, the events it raises (a flag, a new
stage, a side out, the end) and the answer to a press. Plain values, so the
session, the store and the screen can read them without the clock itself."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class State(StrEnum):
    READY = "ready"
    RUNNING = "running"
    PAUSED = "paused"
    FINISHED = "finished"


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
