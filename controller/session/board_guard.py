"""Two things that hold play on the board until a person acts, each owned here.

`RefusalFlag`: a refused press lights FLAG on the squares concerned until
its time is up or the board changes. `BoardRestore`: the board must go back
to the start of the turn before play goes on (a player went out mid-turn,
or the far side declined a take-back made at the board), with the reason
shown beside the guidance.
"""

from __future__ import annotations


class RefusalFlag:
    def __init__(self) -> None:
        self._flag: tuple[int, int] | None = None   # (squares, until_ms)

    @property
    def squares(self) -> int | None:
        """The squares lit FLAG (None: no refusal shown)."""
        return self._flag[0] if self._flag is not None else None

    @property
    def until(self) -> int | None:
        """When the FLAG goes out by itself (None: no refusal shown)."""
        return self._flag[1] if self._flag is not None else None

    def show(self, squares: int, until_ms: int) -> None:
        self._flag = (squares, until_ms)

    def clear(self) -> None:
        """The board changed or a move counted: the refusal is over."""
        self._flag = None

    def expire(self, now: int) -> None:
        if self._flag is not None and now >= self._flag[1]:
            self._flag = None


class BoardRestore:
    def __init__(self) -> None:
        self._active = False
        self._reason = ""

    @property
    def active(self) -> bool:
        """The board must go back to the start of the turn before play goes on."""
        return self._active

    @property
    def reason(self) -> str:
        """Why, shown before the guidance ("" for none)."""
        return self._reason

    def require(self, reason: str) -> None:
        self._active = True
        self._reason = reason

    def explain(self, reason: str) -> None:
        """The reason shown if the board must go back (a player out), whether or not it must now."""
        self._reason = reason

    def done(self) -> None:
        """The board is back, or what asked for it no longer stands (a new game, the game's end)."""
        self._active = False
