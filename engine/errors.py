"""One exception hierarchy for the whole project.

`DamkaError` is the root every layer derives from; errors about bad input also
derive from `ValueError`, so callers that only know the builtin still catch
them. Each message says what was wrong and where.
"""

from __future__ import annotations


class DamkaError(Exception):
    """Root of every error Damka raises on purpose."""


class EngineError(DamkaError):
    """Something the rules engine was asked cannot be done."""


class UnknownVariantError(EngineError, ValueError):
    """No variant has that name or alias."""


class InvalidSquareError(EngineError, ValueError):
    """A square name or number that is not on the board (or not playable)."""


class PositionError(EngineError, ValueError):
    """A FEN or position string that cannot be read, or describes an impossible position."""


class MoveError(EngineError, ValueError):
    """Root of the move errors."""


class InvalidMoveError(MoveError):
    """Move text that cannot be parsed at all (`e3x`, `99-100`)."""


class IllegalMoveError(MoveError):
    """A well-formed move that the rules do not allow in this position."""


class AmbiguousMoveError(MoveError):
    """Move text that matches more than one legal move (give the full capture path)."""


class RecordError(EngineError, ValueError):
    """A PDN game record that cannot be read or written."""
