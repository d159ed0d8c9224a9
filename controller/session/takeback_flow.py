"""The state of a take-back under way, owned in one place.

A take-back asked from the board's button or from outside (an accepted
offer, a peer's or the arbiter's) may have to wait: for the pieces to go
back one move at a time (`requested`, down to the ply `to`), or for the far
side of a seat played from afar to agree (`waiting`). All of it belongs to
the turn: `forget` when a move counts. The words and the LEDs for it are the
session's (`controller/session/takebacks.py`); this only keeps the facts.
"""

from __future__ import annotations

from typing import Any, Callable

ConsentHook = Callable[[int | None], int]


class TakebackFlow:
    def __init__(self) -> None:
        self._requested = False          # the LEDs guide the pieces back
        self._to: int | None = None      # asked from outside: the ply the LEDs guide back to
        self._asked: int | None = None   # moves asked of the far side until its answer
        self._hook: ConsentHook | None = None

    @property
    def hook(self) -> ConsentHook | None:
        """How the App asks a seat played from afar to agree (an offer): given
        the plies (None: the board's last turn), the moves asked; ValueError
        if it cannot be asked now."""
        return self._hook

    @hook.setter
    def hook(self, hook: ConsentHook | None) -> None:
        self._hook = hook

    @property
    def requested(self) -> bool:
        return self._requested

    @property
    def to(self) -> int | None:
        return self._to

    @property
    def waiting(self) -> bool:
        """The far side has been asked and has not answered yet."""
        return self._asked is not None

    def needs_consent(self, opponent: Any) -> bool:
        """A take-back made at the board is asked of the far side first: the
        opponent plays a seat from afar (its `remote` flag) and the App gave
        the hook that asks it."""
        return self._hook is not None and opponent is not None and opponent.remote

    def aim(self, ply: int | None) -> None:
        """Guide back to `ply` (None: to the last turn start, as the button does)."""
        self._to = ply

    def request(self) -> None:
        """The LEDs start guiding the pieces back."""
        self._requested = True

    def target_ply(self, ply: int, turn_start: Callable[[], int]) -> int:
        """The ply the LEDs guide to: the one asked for, else `turn_start()`."""
        return min(self._to, ply) if self._to is not None else turn_start()

    def ask(self, plies: int | None) -> int:
        """Ask the far side (through the hook) for `plies` back; the moves asked.
        ValueError (nothing changes) when it cannot be asked now."""
        assert self._hook is not None, "asked without a hook"
        self._asked = self._hook(plies)
        self._requested = False
        return self._asked

    def answered(self) -> None:
        self._asked = None

    def refused(self) -> None:
        """Declined (or not asked): nothing is guided back."""
        self._asked = None
        self._requested = False

    def taken_back(self, ply: int) -> None:
        """Moves were taken back, the game is now at `ply`: a take-back to an
        earlier ply asked from outside guides on, anything else is over."""
        target = self._to
        self.forget()
        if target is not None and ply > target:
            self._requested, self._to = True, target

    def forget(self) -> None:
        """A move counted (or a new game): no take-back is under way."""
        self._requested = False
        self._to = None
        self._asked = None
