"""How a part outside the App hears it and adds to it: the one listener interface.

A part beside the App (the web page's feed and driver, the hall's publisher,
the sound and voice cues, the LEDs' light, DXP) subclasses `AppListener`,
overrides only the hooks it needs and is added with `App.listen(listener)`
(`App.unlisten` takes it away). Every hook has a default that does nothing
and changes nothing, so a new hook breaks no listener. Every hook is called
on the board's thread (the board loop's), in the order the listeners were
added. A listener reads the App through `App.read_model()` and acts back only
through the App's public commands (`pause_clock`, `adjudicate`, `take_up`,
...), never its private fields.

The events themselves travel on `App.bus` (`controller/events.py`): a
listener that overrides `on_event` is subscribed to it, so one that raises is
logged and counted there and the others still hear the event.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping

if TYPE_CHECKING:
    from damka.controller.app.board_settings import BoardSettings
    from damka.controller.events import GameEvent
    from damka.controller.game.factory import BuiltGame
    from damka.controller.app.menus import Menu, MenuAction
    from damka.controller.players import Opponent
    from damka.controller.app.views import View
    from damka.engine.variant import Variant


class AppListener:
    """Optional hooks; each default does nothing."""

    # -- hearing the App -----------------------------------------------------------------

    def on_event(self, event: GameEvent) -> None:
        """An event of the game on the board (a move, a clock press, a message, an offer...)."""

    def tick(self, now: int) -> None:
        """The App was ticked at `now` (time passing: the cues' clock warnings)."""

    def after_input(self) -> None:
        """After every input and tick, once the App has done its own work: run
        what was queued for the board's thread, see whether anything shown changed."""

    def next_deadline(self, now: int) -> int | None:
        """When the App should be ticked next for this listener (None: no need)."""
        return None

    def settings_changed(self, settings: BoardSettings) -> None:
        """The board settings changed (the menu, the config, the page): the light, the sound, the voice."""

    # -- taking part in a game -------------------------------------------------------------

    def game_started(self, built: BuiltGame) -> None:
        """A game is about to be on the board (new or resumed), before the App wires its events."""

    def record_tags(self, built: BuiltGame) -> Mapping[str, str]:
        """Tags stored with the game (PDN headers), beside the App's own."""
        return {}

    def remote_player(self, variant: Variant, seats: frozenset[int]) -> Opponent | None:
        """Who plays a resumed game's `seats` from afar (None: not this listener's;
        no listener's: those seats come back to the table)."""
        return None

    # -- adding to the screen and the menu ---------------------------------------------------

    def view(self, view: View) -> View:
        """The game screen's view with what the listener adds (the App's own by default)."""
        return view

    def game_menu(self, menu: Menu) -> Menu:
        """The in-game menu the menu button opens (the App's own by default)."""
        return menu

    def act(self, action: MenuAction) -> bool:
        """A menu row was chosen: True when the listener did it (the App then does nothing)."""
        return False
