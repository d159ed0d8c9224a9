"""A problem that repeats fast (a hostile peer, a broken device) is logged at
a limited rate: the first time at once, then at most one line every `every_s`
seconds saying how many more came meanwhile. A flood of bad input then costs
a few log lines, not hundreds of thousands (which fill the disk and the
board's stderr and slow everything down)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable


class LogLimit:
    """`log(level, text, *args)` as `logger.log`, but at most once every `every_s` s."""

    def __init__(self, logger: logging.Logger, every_s: float = 5.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.logger, self.every_s, self.clock = logger, every_s, clock
        self.total = 0                  # every problem offered, logged or not
        self.unsaid = 0                 # offered since the last line, not logged
        self._last: float | None = None

    def log(self, level: int, text: str, *args: object) -> bool:
        """Log this line unless one went out less than `every_s` ago (then count it); True: logged."""
        self.total += 1
        now = self.clock()
        since = None if self._last is None else now - self._last
        if since is not None and since < self.every_s:
            self.unsaid += 1
            return False
        if self.unsaid and since is not None:
            text += f" (and {self.unsaid:,} more like it in the last {since:.0f} s, not logged)"
        self.logger.log(level, text, *args)
        self._last, self.unsaid = now, 0
        return True

    def flush(self, level: int, what: str) -> None:
        """Say how many were not logged (at the end of a flood: a drop, a close)."""
        if self.unsaid:
            self.logger.log(level, "%s: %s more not logged", what, f"{self.unsaid:,}")
            self.unsaid = 0
