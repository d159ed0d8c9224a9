"""No English left on a board set to Polish (issue 38): every screen the app shows, walked as a
player walks it (each menu's every row and value, a learning game with a hint, the game menu,
the board settings, a lesson, a puzzle, the progress, a resigned game's result) and the views
of tests/test_words_screens.py, rendered, their text scanned for words of the English
catalogue no Polish sentence uses (tests/english_left.py)."""

from __future__ import annotations

import pygame
import pytest

from damka.controller import words
from damka.controller.app import App
from damka.controller.app.board_settings import BoardSettings
from damka.controller.app.views import View
from damka.controller.game.setup import GameSetup
from damka.display import widgets
from damka.display.screen import Screen
from damka.hardware.interfaces import Button
from damka.sim.virtual_board import carry_out
from app_rig import on_board
from english_left import english_left, english_only
from test_words_screens import views


@pytest.fixture(autouse=True)
def english_first():
    """The board starts in English and is set to Polish, as a player does from the settings menu."""
    pygame.font.init()
    widgets._cached_font.cache_clear()
    words.set_language("en")
    yield
    words.set_language("en")


class Walk:
    """The text of every view seen, by where it was seen."""

    def __init__(self) -> None:
        self.texts: dict[str, list[str]] = {}

    def look(self, where: str, view: View) -> None:
        with widgets.recording() as texts:
            Screen((480, 320)).render(view)
        self.texts.setdefault(where, []).extend(t.words for t in texts)

    def menu(self, where: str, app: App) -> None:
        """Every row of the menu shown, each of its values in turn (the values then as they were)."""
        menu = app.shown_menu
        assert menu is not None, where
        for cursor, row in enumerate(menu.visible_rows()):
            menu.cursor = cursor
            for _ in range(max(1, len(row.choices))):
                self.look(f"{where}: {row.key}", app.view())
                row.step(1)

    def english(self) -> dict[str, tuple[str, str]]:
        found: dict[str, tuple[str, str]] = {}
        for where, texts in self.texts.items():
            for word, text in english_left(texts).items():
                found.setdefault(word, (where, text))
        return found


def polish_app(setup: GameSetup, **options: bool) -> App:
    app = App(setup=setup, offer_resume=False, **options)
    app.set_board_settings(BoardSettings(language="pl"))
    return app


def open_row(app: App, key: str) -> None:
    menu = app.shown_menu
    assert menu is not None
    app.tap_menu([row.key for row in menu.visible_rows()].index(key))


def test_the_catalogue_gives_english_words_to_look_for() -> None:
    only = english_only()
    assert len(only) > 300 and {"hint", "move", "black", "board"} <= only
    assert not {"pdn", "menu", "ok", "multiwarcaby"} & only  # kept in Polish sentences too


def test_no_english_word_on_any_screen_of_a_polish_board() -> None:
    walk = Walk()
    with words.speaking("pl"):                             # built by that module's builders
        for name, view in views().items():
            walk.look(name, view)
    for submenu in ("", "lessons", "puzzles", "settings"):
        app = polish_app(GameSetup("classic"))
        if submenu:
            open_row(app, submenu)
        walk.menu(submenu or "new game", app)
    app = polish_app(GameSetup("classic"))
    open_row(app, "puzzles")
    open_row(app, "progress")
    walk.menu("progress", app)
    app = polish_app(GameSetup("classic"))
    app.teaching.start_lesson("1-classic-01-man-moves")
    walk.look("lesson", app.view())
    app.teaching.quit()
    app.teaching.start_puzzle("classic", "3")
    walk.look("puzzle", app.view())
    for mode in ("computer", "tournament"):                   # started in English, then set to Polish
        app = polish_app(GameSetup("classic", mode=mode), start_game=True, inline_thinking=True)
        walk.look(f"a {mode} game", app.view())
    for variant, sides in (("classic", 2), ("multiwarcaby", 4)):
        app = polish_app(GameSetup(variant, sides=sides, mode="learning" if sides == 2 else "casual"),
                         start_game=True, inline_thinking=True)
        board = on_board(app, settle_ms=500)
        walk.look(f"{variant} game", app.view())
        if variant == "classic":
            carry_out(board, "c3", ["d4"], [])
            board.advance(2000)
            carry_out(board, "f6", ["e5"], [])
            board.advance(2000)
            board.button(Button.HINT)
            board.advance(300)
            walk.look("a hint", app.view())
        board.button(Button.MENU)
        board.advance(100)
        walk.menu(f"{variant} game menu", app)
        open_row(app, "resign")
        board.advance(100)
        walk.look(f"{variant} result", app.view())
    assert len(walk.texts) > 60 and sum(map(len, walk.texts.values())) > 1000
    assert walk.english() == {}
