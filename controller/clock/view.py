"""What the clock shows: a plain snapshot for the screen, and the time formats.

`format_time` rounds *up*, so a display reads 0:00 / 0.0 only once the time is
really gone, and the clock flags at that very millisecond: 0.0 on the screen
always comes with a flag. Above 20 s it shows whole seconds (`4:59`,
`1:59:59`), from 20 s down tenths (`19.9`).
"""

from __future__ import annotations

from dataclasses import dataclass

TENTHS_BELOW_MS = 20_000


def format_time(ms: int) -> str:
    """Time left, rounded up: `1:20:00`, `5:00`, `0:21`, `20.0`, `0.1`; `0.0` only for none left."""
    if ms <= 0:
        return "0.0"
    if ms <= TENTHS_BELOW_MS:
        tenths = -(-ms // 100)
        return f"{tenths // 10}.{tenths % 10}"
    seconds = -(-ms // 1000)
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes}:{seconds:02}"


def format_elapsed(ms: int) -> str:
    """Time used (untimed games count up), rounded down: `0:00`, `12:34`, `1:02:03`."""
    seconds = max(0, ms) // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes}:{seconds:02}"


@dataclass(frozen=True)
class SideView:
    """One side's clock as it stands at one instant."""

    side: int
    remaining_ms: int
    """Main time left (>= 0); for an untimed clock, 0."""
    elapsed_ms: int
    """Time this side has used in the game."""
    active: bool
    flagged: bool
    out: bool
    turns: int
    moves: int
    stage: int
    """0-based stage index."""
    stages: int
    turns_to_control: int | None
    """Turns left to the end of the stage's quota, None without a quota."""
    untimed: bool = False
    delay_ms: int = 0
    """Simple delay still to run this turn (active side only)."""
    periods: int = 0
    """Byo-yomi periods left (0 outside byo-yomi)."""
    period_ms: int | None = None
    """Time left in the current byo-yomi period, once the main time is gone."""

    @property
    def text(self) -> str:
        """The big number: time left (or used, untimed); the period once in byo-yomi overtime."""
        if self.untimed:
            return format_elapsed(self.elapsed_ms)
        if self.period_ms is not None and not self.flagged:
            return format_time(self.period_ms)
        return format_time(self.remaining_ms)

    @property
    def tenths(self) -> bool:
        """Whether the big number shows tenths (the screen should refresh at 10 Hz)."""
        return not self.untimed and "." in self.text


@dataclass(frozen=True)
class ClockView:
    """The whole clock at one instant: what the display draws."""

    sides: tuple[SideView, ...]
    state: str
    """`ready`, `running`, `paused` or `finished`."""
    active: int
    moves_per_turn: int
    turn_moves: int
    """Moves already made in the current turn (multiwarcaby: 0 or 1)."""
    at_ms: int

    @property
    def remaining_ms(self) -> tuple[int, ...]:
        """Main time left per side (the record's clock times)."""
        return tuple(side.remaining_ms for side in self.sides)

    @property
    def paused(self) -> bool:
        return self.state == "paused"

    @property
    def finished(self) -> bool:
        return self.state == "finished"
