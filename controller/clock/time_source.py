"""Time sources for the clock: callables returning integer milliseconds.

The board uses `monotonic_ms` (never the wall clock: it jumps when NTP or the
user sets it). Tests and scripted simulations use `FakeTime`, advanced by hand.
"""

from __future__ import annotations

import time


def monotonic_ms() -> int:
    """Milliseconds from an arbitrary start, never going back."""
    return time.monotonic_ns() // 1_000_000


class FakeTime:
    """A time source that moves only when told: `t = FakeTime(); t.advance(1500); t()`."""

    def __init__(self, start_ms: int = 0) -> None:
        self.now = int(start_ms)

    def __call__(self) -> int:
        return self.now

    def advance(self, ms: int) -> int:
        if ms < 0:
            raise ValueError(f"monotonic time cannot go back ({ms} ms)")
        self.now += int(ms)
        return self.now

    def __repr__(self) -> str:
        return f"FakeTime({self.now})"
