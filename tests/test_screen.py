"""The board's screen (480x320): each kind of view draws something sensible.
Every size and the readability checks: tests/test_screen_sizes.py."""

from __future__ import annotations

import pygame
import pytest

from damka.display import clock_face, widgets


def fresh_fonts() -> None:
    """Other test modules quit pygame's fonts; whichever cache starts them again
    would leave the other's fonts dead, so both caches start afresh."""
    pygame.font.init()
    widgets._cached_font.cache_clear()
    clock_face._cached_font.cache_clear()

from damka.controller.clock import presets
from damka.controller.clock.clock import Clock
from damka.controller.app.menus import game_menu
from damka.display.screen import SIZE, GameView, MenuView, ResultView, Screen, SideLine, Standing
from damka.display.widgets import ACCENT, ALERT, BACKGROUND, SELECTED


@pytest.fixture(autouse=True)
def fonts():
    fresh_fonts()
    yield


def colours(surface: pygame.Surface, rect: pygame.Rect | None = None) -> set[tuple[int, int, int]]:
    area = surface.subsurface(rect) if rect else surface
    return {tuple(area.get_at((x, y)))[:3] for x in range(0, area.get_width(), 2) for y in range(0, area.get_height(), 2)}


def test_menu_view_highlights_the_cursor() -> None:
    surface = Screen().render(MenuView(game_menu()))
    assert surface.get_size() == SIZE
    assert SELECTED in colours(surface)
    assert ACCENT in colours(surface, pygame.Rect(0, 0, 480, 40))  # the title


def test_game_view_without_clock_shows_whose_turn() -> None:
    view = GameView("Classic", [SideLine("Ala", (240, 236, 222), to_move=True), SideLine("Ola", (40, 40, 44))],
                    status="Ala to move", messages=["put a piece back on d4"], alert=True)
    surface = Screen().render(view)
    assert ALERT in colours(surface, pygame.Rect(0, 220, 480, 100))  # the warning box
    assert len(colours(surface)) > 10


def test_game_view_with_a_four_side_clock_and_scores() -> None:
    clock = Clock(presets.control("4+1"), sides=4, moves_per_turn=2)
    clock.start(0)
    sides = [SideLine(f"Player {i + 1}", (200, 60, 60), score=i) for i in range(4)]
    surface = Screen().render(GameView("Multiwarcaby", sides, clock=clock.view(1000), status="Player 1 to move"))
    assert len(colours(surface, pygame.Rect(0, 30, 480, 140))) > 10


def test_result_view_ranks_by_small_points_for_many_players() -> None:
    standings = [Standing("A", (1, 2, 3), 0, 3, 1), Standing("B", (1, 2, 3), 0, 9, 1), Standing("C", (1, 2, 3), 0, 5, 1)]
    view = ResultView("1st: B", "no capture for a round", standings, by_small_points=True, next_first="Next game: B starts")
    surface = Screen().render(view)
    assert surface.get_at((5, 5))[:3] == BACKGROUND
    assert ACCENT in colours(surface, pygame.Rect(0, 0, 480, 60))


def test_scales_to_another_size() -> None:
    surface = Screen((800, 480)).render(MenuView(game_menu()))
    assert surface.get_size() == (800, 480)


def test_game_view_shows_the_hints_left_and_the_computer_thinking() -> None:
    sides = [SideLine("White", (240, 240, 240)), SideLine("Black (computer)", (40, 40, 40), to_move=True)]
    with_hints = Screen().render(GameView("Classic - learning", sides, status="White to move", hints_left=2))
    without = Screen().render(GameView("Classic - learning", sides, status="White to move"))
    strip = pygame.Rect(300, 196, 180, 24)                          # right of the last-move line

    def pixels(surface: pygame.Surface) -> bytes:
        return pygame.image.tobytes(surface.subsurface(strip), "RGB")

    assert pixels(with_hints) != pixels(without)                    # "hints left: 2"
    none_left = Screen().render(GameView("Classic - learning", sides, status="White to move", hints_left=0))
    assert pixels(none_left) not in (pixels(without), pixels(with_hints))   # "no hints left"
    Screen().render(GameView("Classic - computer", sides, status="The computer is thinking...", thinking=True))


@pytest.mark.parametrize("language", ["en", "pl"])
def test_a_long_menu_s_scroll_arrows_are_drawn_over_no_row_s_words(language: str) -> None:
    """Issue 38: the arrow saying the list scrolls on was drawn over a row ("Against the compute↑").
    The arrows are the only shapes drawn in DIM over a row: no pixel of it inside a label or a value."""
    from damka.controller import words
    from damka.controller.game.setup import GameSetup
    from damka.display.screen import PANEL_SIZES
    from damka.display.widgets import DIM
    words.set_language(language)
    try:
        checked = 0
        for size in PANEL_SIZES:
            menu = game_menu(GameSetup("multiwarcaby", sides=4, mode="computer", computers=3))
            cells = {words_ for row in menu.visible_rows() for words_ in (row.label, row.value_label) if words_}
            for cursor in range(len(menu.visible_rows())):
                menu.cursor = cursor
                with widgets.recording() as texts:
                    surface = Screen(size).render(MenuView(menu))
                for drawn in (t for t in texts if t.words in cells):
                    area = drawn.rect.clip(surface.get_rect())
                    over = [(x, y) for x in range(area.left, area.right) for y in range(area.top, area.bottom)
                            if tuple(surface.get_at((x, y)))[:3] == DIM]
                    assert not over, f"{size} cursor {cursor}: an arrow over {drawn.words!r} at {over[:3]}"
                    checked += 1
        assert checked > 100
    finally:
        words.set_language("en")


def letter_gaps(image: pygame.Surface) -> list[int]:
    """The blank columns between the ink of one letter and the next in a drawn word."""
    width, height = image.get_size()
    ink = [any(image.get_at((x, y))[3] > 60 for y in range(height)) for x in range(width)]
    inked = [x for x in range(width) if ink[x]]
    gaps, run = [], 0
    for x in range(inked[0], inked[-1] + 1):
        if ink[x] and run:
            gaps.append(run)
        run = 0 if ink[x] else run + 1
    return gaps


def test_the_letters_of_a_word_are_evenly_spaced_at_the_panel_s_sizes() -> None:
    """Issue 38: "draught s", "r ules", "mor e": the default font's kerning added a pixel or two between
    some letters at the panel's text sizes. Drawn as the font spaces its letters, the gaps inside a word
    differ by a pixel at most."""
    uneven = []
    for size in range(widgets.READABLE, 29):
        for word in ("draughts", "rules", "more", "Brazilian", "Classic", "settings", "Against", "planszy",
                     "Ustawienia"):
            image = pygame.Surface(widgets.render(word, size, (255, 255, 255)).get_size(), pygame.SRCALPHA)
            image.blit(widgets.render(word, size, (255, 255, 255)), (0, 0))
            gaps = letter_gaps(image)
            assert len(gaps) >= 2, (word, size)
            if max(gaps) - min(gaps) > 1:
                uneven.append((word, size, gaps))
            assert widgets.width_of(word, size) == image.get_width()  # what is measured is what is drawn
    assert uneven == []
