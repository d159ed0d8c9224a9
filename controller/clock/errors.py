"""Errors of the game clock.

`ClockError` is the root; like every Damka error about bad input it is also a
`ValueError`. Each message names the part that was wrong.
"""

from __future__ import annotations

from damka.engine.errors import DamkaError


class ClockError(DamkaError, ValueError):
    """Root of the clock's errors."""


class TimeControlError(ClockError):
    """A time control (text, preset name or stage) that cannot be read or is impossible."""


class ClockStateError(ClockError):
    """An action the clock cannot do in its present state (start twice, resume a running clock)."""


class ArbiterError(ClockError):
    """A wrong PIN, or an arbiter action attempted without a valid arbiter token."""
