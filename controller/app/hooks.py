"""What a feature beside the App may hear and add: the App's one extension point.

A feature that is not part of the board's own game (DXP: a peer over TCP)
subclasses `AppHooks`, overrides only what it needs and is added to
`App.hooks`; every hook has a default that changes nothing. The feature
acts back only through the App's public commands (`pause_clock`,
`adjudicate`, `take_up`, ...), never its private fields.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping

if TYPE_CHECKING:
    from damka.controller.game.factory import BuiltGame
    from damka.controller.app.menus import Menu, MenuAction
    from damka.controller.app.views import View


class AppHooks:
    """Optional hooks, each called by the App on its own thread (the board's loop)."""

    def game_started(self, built: BuiltGame) -> None:
        """A game is about to be on the board (new or resumed), before the App wires its events."""

    def record_tags(self, built: BuiltGame) -> Mapping[str, str]:
        """Tags stored with the game (PDN headers), beside the App's own."""
        return {}

    def after_input(self) -> None:
        """After every input and tick, once the App has done its own work."""

    def next_deadline(self, now: int) -> int | None:
        """When the App should be ticked next for this feature (None: no need)."""
        return None

    def view(self, view: View) -> View:
        """The game screen's view with what the feature adds (the App's own by default)."""
        return view

    def game_menu(self, menu: Menu) -> Menu:
        """The in-game menu the menu button opens (the App's own by default)."""
        return menu

    def act(self, action: MenuAction) -> bool:
        """A menu row was chosen: True when the feature did it (the App then does nothing)."""
        return False
