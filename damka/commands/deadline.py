"""`--seconds S` (tests, burn-in): when a command that would run until stopped
stops on its own. One deadline from the command's start, shared by whatever
it waits on first (a DXP peer) and the board loop after it."""

from __future__ import annotations

import time
from collections.abc import Callable


class StopAfter:
    """The deadline `seconds` from now; None: never (run until stopped)."""

    def __init__(self, seconds: float | None, clock: Callable[[], float] = time.monotonic) -> None:
        if seconds is not None and not seconds > 0:
            raise ValueError(f"--seconds must be a positive number of seconds, not {seconds:g}")
        self.seconds, self.clock = seconds, clock
        self.at = None if seconds is None else clock() + seconds

    def __call__(self) -> bool:
        """The deadline has passed (a loop's `should_stop`)."""
        return self.at is not None and self.clock() >= self.at

    def left(self) -> float | None:
        """Seconds to the deadline (0 once passed); None: no deadline."""
        return None if self.at is None else max(0.0, self.at - self.clock())
