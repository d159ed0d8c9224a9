"""Which screen the board shows: a menu, the resume offer, a game, the result.

`Screens` owns that choice (`state`), the menu under it (`menu`), the menu
opened over the game or a menu (`overlay`: the in-game menu, the settings)
and the result's view. Everyone else reads these and asks for a change.
"""

from __future__ import annotations

import enum

from damka.controller import words
from damka.controller.app.menus import Menu, Row, retold
from damka.controller.app.views import ResultView


class AppState(enum.Enum):
    MENU = "menu"
    RESUME = "resume"
    GAME = "game"
    RESULT = "result"
    LESSON = "lesson"


class Screens:
    """The screen's state: one owner for `state`, `menu`, `overlay`, `result_view`."""

    def __init__(self, menu: Menu) -> None:
        self.state = AppState.MENU
        self.menu = menu
        self.overlay: Menu | None = None
        self.result_view: ResultView | None = None

    @property
    def shown_menu(self) -> Menu | None:
        """The menu on the screen now (None: the game or the result shows)."""
        if self.overlay is not None:
            return self.overlay
        return self.menu if self.state in (AppState.MENU, AppState.RESUME) else None

    @property
    def in_game(self) -> bool:
        """A game shows, with no menu over it: the buttons are the game's."""
        return self.state is AppState.GAME and self.overlay is None

    def open_overlay(self, menu: Menu | None) -> None:
        """Show `menu` over what is on the screen (None: close it)."""
        self.overlay = menu

    def show_menu(self, menu: Menu, state: AppState = AppState.MENU) -> None:
        """A menu of its own (the new-game menu, the resume offer)."""
        self.overlay = None
        self.menu = menu
        self.state = state

    def show_game(self) -> None:
        self.state = AppState.GAME
        self.overlay = None
        self.result_view = None

    def show_lesson(self) -> None:
        """A lesson on the board (controller/app/lesson_desk.py): no menu over it."""
        self.state = AppState.LESSON
        self.overlay = None

    def back_to_game(self) -> None:
        """From the new-game menu back to the game still on the board."""
        self.state = AppState.GAME

    def show_result(self, view: ResultView) -> None:
        self.result_view = view
        self.state = AppState.RESULT
        self.menu = Menu(words.say("result.menu_title"), [Row("start", words.say("result.next_game")),
                                                          Row("new", words.say("result.menu"))], name="result")

    def retell(self, before: str) -> None:
        """The language changed from `before`: the menu and the overlay open are told again in the new one."""
        self.menu = retold(self.menu, before) or self.menu   # (None only for no menu)
        self.overlay = retold(self.overlay, before)
