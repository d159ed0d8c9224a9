"""Waiting in tests for what they check, never sleeping and then asserting.

Threads, processes and sockets answer when the machine lets them; on a
heavily loaded CI machine that can be seconds. A test waits for the condition
it checks with a deadline far beyond any honest delay (`DEADLINE_S`): a
condition not met by then is a defect, not slowness, and a test that passes
waits no longer than the condition takes. It holds no tests itself.
"""

from __future__ import annotations

import time
from typing import Any, Callable, TypeVar

T = TypeVar("T")

DEADLINE_S = 60.0  # generous: two cores shared with a dozen busy processes
EVERY_S = 0.005    # between looks: short, so a passing test waits for little more than the condition


def wait_until(condition: Callable[[], T], what: str = "", timeout: float = DEADLINE_S,
               every: float = EVERY_S) -> T:
    """Look at `condition` until it gives something true; that value. An
    AssertionError naming `what` after `timeout` seconds."""
    end = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"waited {timeout:g} s in vain for {what or condition}")
        time.sleep(every)


def wait_on_board(board: Any, condition: Callable[[], T], what: str = "", timeout: float = DEADLINE_S,
                  step_ms: int = 20) -> T:
    """As `wait_until`, the virtual board's loop running between looks
    (`step_ms` of board time each): for work off the loop (a search, a peer,
    a page) that the loop picks up when it ticks."""
    def look() -> T:
        value = condition()
        if not value:
            board.advance(step_ms)
        return value

    return wait_until(look, what, timeout)
