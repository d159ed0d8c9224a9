"""The app's menu controller: what a menu row chosen (by a button, the encoder,
a tap) does to the app: start a game, go back, resign, agree a draw, take
back, pause the clock, the board's settings.

A mixin of `App` (it acts on the app's own state and games); the menus
themselves are state in `menus.py`, drawn by `display/screen.py`.
"""

from __future__ import annotations

import enum
from typing import Callable

from damka.controller.app_commands import CommandRefused
from damka.controller.board_settings import SETTINGS_TITLE, BoardSettings, read_menu, settings_menu
from damka.controller.clock import State
from damka.controller.menus import GameMenu, Menu, MenuAction, game_menu
from damka.controller.offers import OfferError
from damka.controller.recorder import GameRef, Write
from damka.controller.session import Phase


class AppState(enum.Enum):
    MENU = "menu"
    RESUME = "resume"
    GAME = "game"
    RESULT = "result"


class AppMenus:
    # -- menus ------------------------------------------------------------------------

    @property
    def shown_menu(self) -> Menu | None:
        """The menu on the screen now (None: the game or the result shows)."""
        if self.overlay is not None:
            return self.overlay
        return self.menu if self.state in (AppState.MENU, AppState.RESUME) else None

    def step_menu(self, delta: int) -> None:
        """Keyboard left/right in a menu: step the current setting."""
        menu = self.shown_menu
        if menu is not None and not menu.current.is_action:
            menu.step(delta)

    def tap_menu(self, index: int) -> None:
        """A tap (touch screen, mouse) on the `index`-th row of the menu shown: as ok on that row."""
        menu = self.shown_menu
        action = menu.choose(index) if menu is not None else None
        if menu is not None:
            self._settings_changed(menu)
        if action is not None:
            self._act(action)

    def _act(self, action: MenuAction) -> None:
        if any(hooks.act(action) for hooks in self.hooks):
            return  # a feature's own row (DXP: adjudicate)
        handler = {
            "start": self._start_from_menu, "back": self._back, "continue": self._close_overlay,
            "resume": self._resume, "new": self._open_new_menu, "draw": self._agree_draw, "resign": self._resign,
            "takeback": self._menu_takeback, "pause": self._pause, "unpause": self._unpause,
            "settings": self._open_settings, "accept": self._accept_offer, "decline": self._decline_offer,
        }.get(action.name)
        if handler is not None:
            handler()

    def _start_from_menu(self) -> None:
        setup = self.menu.setup() if isinstance(self.menu, GameMenu) else self.setup  # "next game": the same
        self.new_game(setup)

    def _back(self) -> None:
        if self.overlay is not None:
            self.overlay = None
        elif self.state is AppState.RESULT:
            self._open_new_menu()
        elif self.state is AppState.MENU and self.session is not None and self.session.phase is not Phase.OVER:
            self.state = AppState.GAME

    def _close_overlay(self) -> None:
        self.overlay = None

    def _open_settings(self) -> None:
        self.overlay = settings_menu(self.board_settings)  # over the menu or the game; menu/Done closes it

    def set_board_settings(self, settings: BoardSettings) -> None:
        """New board settings (the menu, the config at start, later the web page): tell the listeners."""
        if settings != self.board_settings:
            self.board_settings = settings
            if self.overlay is not None and self.overlay.title == SETTINGS_TITLE:  # open while the page changed them:
                cursor, self.overlay = self.overlay.cursor, settings_menu(settings)  # it shows them (and keeps them)
                self.overlay.cursor = cursor
            for listener in self.settings_listeners:
                listener(settings)

    def _settings_changed(self, menu: Menu) -> None:
        if menu.title == SETTINGS_TITLE:
            self.set_board_settings(read_menu(menu, self.board_settings))

    def _open_new_menu(self) -> None:
        if self.state is AppState.RESUME and self._resume_offer is not None and self.store is not None:
            self.writes.put(Write("finish", GameRef(self._resume_offer.id, True),  # declined: kept as abandoned
                                  lambda store, gid: store.finish(gid, None)))
            self.writes.drain()
            self._resume_offer = None
        self.overlay = None
        self.menu = game_menu(self.setup)
        self.state = AppState.MENU

    def _agree_draw(self) -> None:
        """At once in a game at the table; offered to a remote player (`app_offers.py`)."""
        self.overlay = None
        self._from_board(lambda: self.offer("draw", None, "board"))

    def _accept_offer(self) -> None:
        self.overlay = None
        self._from_board(lambda: self.answer_offer(True, "board"))

    def _decline_offer(self) -> None:
        self.overlay = None
        self._from_board(lambda: self.answer_offer(False, "board"))

    def _from_board(self, act: Callable[[], None]) -> None:
        """A menu row that may be refused (an offer pending already, the game over): the screen says why."""
        try:
            act()
        except (OfferError, CommandRefused) as error:
            if self.session is not None:
                self.session.say(str(error))

    def _resign(self) -> None:
        """The side to move resigns, when it is played at the table (`App.resign`; else the screen says why)."""
        self.overlay = None
        if self.session is not None:
            self._from_board(lambda: self.resign("the board's menu"))

    def _menu_takeback(self) -> None:
        self.overlay = None
        if self.session is not None:
            self._from_board(lambda: self.offer("takeback", None, "board"))

    def _pause(self) -> None:
        self.overlay = None
        if self.clock is not None and self.clock.state is State.RUNNING and self.session.result is None:
            self.pause_clock("the board's menu")   # the same command as the page's (app_commands.py)

    def _unpause(self) -> None:
        self.overlay = None
        if self.clock is not None and self.clock.state is State.PAUSED and self.session.result is None:
            self._from_board(lambda: self.resume_clock("the board's menu"))
