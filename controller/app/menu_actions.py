"""What a menu row chosen (by a button, the encoder, a tap) does: start a
game, go back, resign, agree a draw, take back, pause the clock, open the
board's settings.

`MenuActions` owns no state: the menus themselves are state in `menus.py`
(which one shows is `screens.py`'s), drawn by `display/screen.py`; a row acts
through the App's public commands, the same ones the web page uses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from damka.controller.app.errors import CommandRefused
from damka.controller.app.screens import AppState
from damka.controller.app.board_settings import SETTINGS_MENU, read_menu, settings_menu
from damka.controller.clock.records import State
from damka.controller.app.menus import GameMenu, Menu, MenuAction
from damka.controller.app.offers import OfferError
from damka.controller.session import Phase
from damka.controller.words import say

if TYPE_CHECKING:
    from damka.controller.app.app import App


class MenuActions:
    """The rows of every menu, acted on."""

    def __init__(self, app: App) -> None:
        self.app = app

    def step_menu(self, delta: int) -> None:
        """Keyboard left/right in a menu: step the current setting."""
        menu = self.app.screens.shown_menu
        if menu is not None and not menu.current.is_action:
            menu.step(delta)

    def tap_menu(self, index: int) -> None:
        """A tap (touch screen, mouse) on the `index`-th row of the menu shown: as ok on that row."""
        menu = self.app.screens.shown_menu
        action = menu.choose(index) if menu is not None else None
        if menu is not None:
            self.settings_changed(menu)
        if action is not None:
            self.act(action)

    def act(self, action: MenuAction) -> None:
        """Do what the row `action` says."""
        if any(listener.act(action) for listener in self.app.listeners):
            return  # a feature's own row (DXP: adjudicate)
        if self.app.teaching.act(action.name):
            return  # the lessons' and puzzles' menus (teaching_desk.py)
        handler = {
            "start": self._start_from_menu, "back": self._back, "continue": self._close_overlay,
            "resume": self.app.games.resume, "new": self.app.games.open_new_menu, "draw": self._agree_draw,
            "resign": self.resign, "takeback": self._menu_takeback, "pause": self._pause, "unpause": self._unpause,
            "settings": self._open_settings, "accept": self._accept_offer, "decline": self._decline_offer,
        }.get(action.name)
        if handler is not None:
            handler()

    def settings_changed(self, menu: Menu) -> None:
        """A row of the settings menu changed: the board's settings follow it."""
        if menu.name == SETTINGS_MENU:
            self.app.set_board_settings(read_menu(menu, self.app.board_settings))

    def from_board(self, act: Callable[[], None]) -> None:
        """A menu row that may be refused (an offer pending already, the game over): the screen says why."""
        try:
            act()
        except (OfferError, CommandRefused) as error:
            if self.app.session is not None:
                self.app.session.say(str(error))

    def resign(self) -> None:
        """The side to move resigns, when it is played at the table (`App.resign`; else the screen says why)."""
        self.app.screens.open_overlay(None)
        if self.app.session is not None:
            self.from_board(lambda: self.app.resign(say("where.menu")))

    # -- the rows --------------------------------------------------------------------------

    def _start_from_menu(self) -> None:
        menu = self.app.screens.menu
        setup = menu.setup() if isinstance(menu, GameMenu) else self.app.setup  # "next game": the same
        self.app.new_game(setup)

    def _back(self) -> None:
        screens, session = self.app.screens, self.app.session
        if screens.overlay is not None:
            screens.open_overlay(None)
        elif screens.state is AppState.RESULT:
            self.app.games.open_new_menu()
        elif screens.state is AppState.MENU and session is not None and session.phase is not Phase.OVER:
            screens.back_to_game()

    def _close_overlay(self) -> None:
        self.app.screens.open_overlay(None)

    def _open_settings(self) -> None:
        self.app.screens.open_overlay(settings_menu(self.app.board_settings))  # menu/Done closes it

    def _agree_draw(self) -> None:
        """At once in a game at the table; offered to a remote player (`offer_desk.py`)."""
        self.app.screens.open_overlay(None)
        self.from_board(lambda: self.app.offer("draw", None, "board"))

    def _accept_offer(self) -> None:
        self.app.screens.open_overlay(None)
        self.from_board(lambda: self.app.answer_offer(True, "board"))

    def _decline_offer(self) -> None:
        self.app.screens.open_overlay(None)
        self.from_board(lambda: self.app.answer_offer(False, "board"))

    def _menu_takeback(self) -> None:
        self.app.screens.open_overlay(None)
        if self.app.session is not None:
            self.from_board(lambda: self.app.offer("takeback", None, "board"))

    def _pause(self) -> None:
        app, session = self.app, self.app.session
        app.screens.open_overlay(None)
        if (app.clock is not None and app.clock.state is State.RUNNING and session is not None
                and session.result is None):
            app.pause_clock(say("where.menu"))   # the same command as the page's (commands.py)

    def _unpause(self) -> None:
        app, session = self.app, self.app.session
        app.screens.open_overlay(None)
        if (app.clock is not None and app.clock.state is State.PAUSED and session is not None
                and session.result is None):
            self.from_board(lambda: app.resume_clock(say("where.menu")))
