"""Why the App refuses a command: one line a person reads (a `ValueError`)."""

from __future__ import annotations


class CommandRefused(ValueError):
    """What the board cannot do now (no game, the clock is not running): the reason in one line."""


class BadArgument(CommandRefused):
    """A command asked with something that is wrong in itself (no such side, a time out of range)."""
