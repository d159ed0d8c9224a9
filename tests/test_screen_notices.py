"""Every notice the board's screen shows beside the game is shown whole, at
every panel size: wrapped inside the screen, not run off its edge, not cut
short with "...", even a device path with no space to break at (the board's
by-id name). The notices are the real ones: the app's own line when player
names do not fit the game, the board-unplugged warning, the store's, and the
longest of the session's wording (controller/words/wording.py)."""

from __future__ import annotations

import pygame
import pytest

from damka.controller.app import App
from damka.controller.game.setup import GameSetup
from damka.controller.app.view_builder import with_notice, with_warning
from damka.controller.words import wording
from damka.display import widgets
from damka.display.screen import PANEL_SIZES, GameView, MenuView, Screen, View
from test_screen_sizes import game_clock, game_four, game_no_clock, menu_view, result_two, result_view, resume_view

BY_ID = "/dev/serial/by-id/usb-Raspberry_Pi_Pico_E6614103E7432F2F-if00"


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()
    widgets._cached_font.cache_clear()
    yield


def names_notice() -> str:
    app = App(setup=GameSetup("classic"), players=["Ala", "Ola", "Ela", "Ula"])
    app.new_game(GameSetup("classic"))
    assert app.notice
    return app.notice


def notices() -> dict[str, str]:
    class Warning:
        men = 3

    return {
        "names": names_notice(),
        "unplugged": wording.board_missing_text(BY_ID),
        "unplugged-short": wording.board_missing_text("/dev/ttyACM0"),
        "store": "The game cannot be saved: database or disk is full. Play on: the board keeps trying "
                 "(12 records waiting).",
        "warning": wording.warning_text(Warning()),
        "lift": wording.lift_advice("e3", ["a1", "c3", "e5", "g7"], False),
        "second": wording.second_move_text(False),
    }


def shown(view: View, size: tuple[int, int]) -> tuple[str, list[widgets.DrawnText], pygame.Rect]:
    with widgets.recording() as texts:
        surface = Screen(size).render(view)
    return "".join(t.words for t in texts).replace(" ", ""), texts, surface.get_rect()


VIEWS = {"game-no-clock": game_no_clock, "game-clock": game_clock, "game-four": game_four, "menu": menu_view,
         "resume": resume_view, "result-four": result_view, "result-two": result_two}


@pytest.mark.parametrize("size", PANEL_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("view_name", list(VIEWS))
def test_every_notice_is_shown_whole_inside_the_screen(view_name: str, size: tuple[int, int]) -> None:
    for name, notice in notices().items():
        view = VIEWS[view_name]()
        for decorated in ([with_warning(view, notice)] if not isinstance(view, GameView) else
                          [with_warning(view, notice), with_notice(GameView(view.title, view.sides, view.clock,
                                                                            view.status), notice, alert=False)]):
            words, texts, whole = shown(decorated, size)
            assert notice.replace(" ", "") in words, f"{name} in {view_name} at {size}: not shown whole"
            cut = [(t.words, t.rect) for t in texts if not whole.contains(t.rect)]
            assert not cut, f"{name} in {view_name} at {size}: text cut at the edge: {cut}"
            overlaps = [(a.words, b.words) for i, a in enumerate(texts) for b in texts[i + 1:]
                        if a.rect.colliderect(b.rect)]
            assert not overlaps, f"{name} in {view_name} at {size}: texts over each other: {overlaps}"


def test_the_apps_notice_is_on_the_boards_screen() -> None:
    """It was drawn only under the simulator's window legend, one line running off it."""
    app = App(setup=GameSetup("classic"), players=["Ala", "Ola", "Ela", "Ula"])
    app.new_game(GameSetup("classic"))
    assert app.notice == "4 player names for a game of 2 sides: the sides' own names are used"
    view = app.view()
    assert isinstance(view, GameView) and app.notice in view.messages
    for size in PANEL_SIZES:
        words, _, _ = shown(view, size)
        assert app.notice.replace(" ", "") in words, size


def test_one_name_is_one_name() -> None:
    app = App(setup=GameSetup("classic"), players=["Ala"])
    app.new_game(GameSetup("classic"))
    assert app.notice.startswith("1 player name for a game of 2 sides")
