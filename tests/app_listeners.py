"""Small App listeners for tests: a function told after every input and tick,
or of every change of the board settings (`controller/app/hooks.py`)."""

from __future__ import annotations

from typing import Any, Callable

from damka.controller.app import AppListener
from damka.controller.app.board_settings import BoardSettings


class AfterInput(AppListener):
    """Calls `fn()` after every input and tick, as the page's driver runs its queue."""

    def __init__(self, fn: Callable[[], None]) -> None:
        self.fn = fn

    def after_input(self) -> None:
        self.fn()


class SettingsHeard(AppListener):
    """Calls `fn(settings)` whenever the board settings change."""

    def __init__(self, fn: Callable[[BoardSettings], Any]) -> None:
        self.fn = fn

    def settings_changed(self, settings: BoardSettings) -> None:
        self.fn(settings)


class FarSeats(AppListener):
    """Plays a resumed game's far seats with `make(variant, seats)`, as the page's driver does."""

    def __init__(self, make: Callable[[Any, frozenset[int]], Any]) -> None:
        self.make = make

    def remote_player(self, variant: Any, seats: frozenset[int]) -> Any:
        return self.make(variant, seats)
