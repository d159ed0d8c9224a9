"""What the hall says about its boards, bounded: at most one log line per board and kind of problem
every few seconds (a storm from one board account is one line, not thousands), and the limits kept
for a bounded number of (board, kind) pairs, the least recently used dropped first."""

from __future__ import annotations

import logging
from collections import OrderedDict

from damka.log_limit import LogLimit


class BoardLogs:
    """One LogLimit per (board, kind), at most `kept` of them."""

    def __init__(self, log: logging.Logger, every_s: float, kept: int) -> None:
        self.log, self.every_s, self.kept = log, every_s, kept
        self._limits: OrderedDict[tuple[str, str], LogLimit] = OrderedDict()

    def say(self, board: str, kind: str, line: str) -> bool:
        """Log `line` for `board` unless a line of this kind went out less than `every_s` ago; True: logged."""
        limit = self._limits.get((board, kind))
        if limit is None:
            limit = self._limits[(board, kind)] = LogLimit(self.log, self.every_s)
            while len(self._limits) > self.kept:
                self._limits.popitem(last=False)
        self._limits.move_to_end((board, kind))
        return limit.log(logging.WARNING, "board %s: %s", board, line)
