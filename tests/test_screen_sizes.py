"""Every view of the board's screen at every panel size Damka supports,
checked the way a person would: each text at least 14 px high (the glyphs as
really rendered, cap top to descender bottom), no text over another, none cut
at an edge. The images are kept for docs/screens.md (docs/images/screens/):
written when missing, or all again with DAMKA_UPDATE_IMAGES=1.
"""

from __future__ import annotations

import os
from pathlib import Path

import pygame
import pytest

from damka.controller.clock.clock import Clock
from damka.controller.clock.time_source import FakeTime
from damka.controller.app.board_settings import BoardSettings, settings_menu
from damka.controller.app.menus import game_actions_menu, game_menu, resume_menu
from damka.controller.game.setup import GameSetup
from damka.controller.clock.presets import control
from damka.display import clock_face, widgets
from damka.display.screen import PANEL_SIZES, GameView, MenuView, ResultView, Screen, SideLine, Standing, View
from damka.display.widgets import PLAYER_COLOURS, SIDE_COLOURS
from test_clock_face import four_sides_paused_in_byoyomi, three_sides_one_flagged, tournament_clock_after_21_presses

IMAGES = Path(__file__).resolve().parent.parent / "docs" / "images" / "screens"
MIN_GLYPH = 14          # px: secondary text read at arm's length


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()
    widgets._cached_font.cache_clear()
    yield


def white_black(to_move: int = 0) -> list[SideLine]:
    return [SideLine("White", SIDE_COLOURS["white"], to_move=to_move == 0),
            SideLine("Black", SIDE_COLOURS["black"], to_move=to_move == 1)]


def players(count: int, scores: list[int], out: int | None = None, to_move: int = 0) -> list[SideLine]:
    return [SideLine(f"Player {i + 1}", PLAYER_COLOURS[i], score=scores[i], to_move=i == to_move, out=i == out)
            for i in range(count)]


def menu_view() -> MenuView:
    menu = game_menu(GameSetup("international", mode="tournament", time_control="fmjd-classical"))
    return MenuView(menu)


def game_no_clock() -> GameView:
    return GameView("Classic draughts (Brazilian rules) - learning", white_black(), status="White to move",
                    last_move="c3-d4", move_number=12, hint="hint: g7xe5, then you can take two",
                    hints_left=2, messages=["put a piece back on b6 and take the piece off b4"], alert=True)


def game_clock() -> GameView:
    clock = tournament_clock_after_21_presses()
    return GameView("Classic draughts (Brazilian rules) - tournament", white_black(1), clock=clock.view(),
                    status="Black to move", last_move="23x14x5", move_number=11)


def game_three() -> GameView:
    """Three players: one out on time (a flag), scores, the second of two moves."""
    clock = three_sides_one_flagged()
    return GameView("Multiwarcaby (3 players) - tournament", players(3, [3, 1, 12], out=1, to_move=2),
                    clock=clock.view(), status="Player 3: second move", last_move="d2xb2 a2xc2", move_number=4,
                    messages=["Player 2 is out on time"])


def game_four() -> GameView:
    t = FakeTime(0)
    clock = Clock(control("4+1"), sides=4, time=t, moves_per_turn=2)
    clock.start()
    t.advance(12_000)
    clock.press(0, moves=2)
    t.advance(20_000)
    return GameView("Multiwarcaby (4 players) - casual", players(4, [2, 10, 0, 5], to_move=1),
                    clock=clock.view(), status="Player 2 to move: two moves, then press",
                    last_move="d2xb2 a2xc2", move_number=2)


def game_four_no_clock() -> GameView:
    return GameView("Multiwarcaby (4 players) - casual", players(4, [2, 10, 0, 5], out=3, to_move=1),
                    status="Player 2 to move", last_move="e5-e4", move_number=7)


def result_view() -> ResultView:
    standings = [Standing("Bartek", PLAYER_COLOURS[1], 1.5, 21, 3), Standing("Ala", PLAYER_COLOURS[0], 1, 14, 3),
                 Standing("Celina", PLAYER_COLOURS[2], 0.5, 9, 3), Standing("Dominika Wiśniewska",
                                                                            PLAYER_COLOURS[3], 0, 3, 3)]
    return ResultView("1st: Bartek", "no capture for a whole round", standings, by_small_points=True,
                      next_first="Next game: Celina starts")


def result_two() -> ResultView:
    standings = [Standing("Ala", SIDE_COLOURS["white"], 2.5, 0, 3), Standing("Ola", SIDE_COLOURS["black"], 0.5, 0, 3)]
    return ResultView("Ala wins", "Ola's flag fell (on time)", standings, next_first="Next game: Ola starts")


def resume_view() -> MenuView:
    description = "game 12, Classic draughts (Brazilian rules), move 23, Ala - Ola"
    return MenuView(resume_menu(description), subtitle=description)


def game_menu_view() -> MenuView:
    return MenuView(game_actions_menu(clock_running=True), subtitle="Multiwarcaby (4 players) - casual")


def long_menu_view() -> MenuView:
    """The longest new-game menu: multiwarcaby against the computer shows every row."""
    return MenuView(game_menu(GameSetup("multiwarcaby", sides=4, mode="computer", computers=3)))


def settings_view() -> MenuView:
    return MenuView(settings_menu(BoardSettings(brightness=16, night=True, palette="colour-blind")))


VIEWS = {
    "menu": menu_view, "game-menu": game_menu_view, "resume": resume_view, "settings": settings_view,
    "menu-long": long_menu_view,
    "game-2-no-clock": game_no_clock, "game-2-clock": game_clock,
    "game-3-clock": game_three, "game-4-clock": game_four, "game-4-no-clock": game_four_no_clock,
    "result-4": result_view, "result-2": result_two,
}


def drawn(view: View, size: tuple[int, int]) -> tuple[pygame.Surface, list[widgets.DrawnText]]:
    with widgets.recording() as texts:
        surface = Screen(size).render(view)
    return surface, texts


def keep_image(surface: pygame.Surface, name: str) -> None:
    path = IMAGES / f"{name}.png"
    if os.environ.get("DAMKA_UPDATE_IMAGES") == "1" or not path.exists():
        IMAGES.mkdir(parents=True, exist_ok=True)
        pygame.image.save(surface, str(path))


@pytest.mark.parametrize("size", PANEL_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", list(VIEWS))
def test_every_view_is_readable_at_every_panel_size(name: str, size: tuple[int, int]) -> None:
    surface, texts = drawn(VIEWS[name](), size)
    assert len(texts) >= 3, f"{name}: almost nothing drawn"
    small = [(t.words, t.glyph_height) for t in texts if t.glyph_height < MIN_GLYPH]
    assert not small, f"{name} at {size}: text below {MIN_GLYPH} px: {small}"
    whole = surface.get_rect()
    cut = [(t.words, t.rect) for t in texts if not whole.contains(t.rect)]
    assert not cut, f"{name} at {size}: text cut at the edge: {cut}"
    overlaps = [(a.words, b.words) for i, a in enumerate(texts) for b in texts[i + 1:] if a.rect.colliderect(b.rect)]
    assert not overlaps, f"{name} at {size}: texts over each other: {overlaps}"
    keep_image(surface, f"{name}-{size[0]}x{size[1]}")


@pytest.mark.parametrize("size", PANEL_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_clock_tiles_show_name_score_and_moves_of_every_player(size: tuple[int, int]) -> None:
    """Issue 12 item 13: the 3-4 player tiles' names, move counts and scores were 7 px high."""
    for view in (game_three(), game_four()):
        _, texts = drawn(view, size)
        words = [t.words for t in texts]
        for side in view.sides:
            assert side.name in words and ({str(side.score), f"{side.score} pt"} & set(words))
        shown = [w for w in words if w.startswith("moves ") or w == "OUT"]
        assert len(shown) == len(view.sides)
        assert min(t.glyph_height for t in texts) >= MIN_GLYPH


def test_a_long_text_is_shortened_not_shrunk() -> None:
    surface = pygame.Surface((200, 40))
    with widgets.recording() as texts:
        widgets.text(surface, "a name far too long for its little box", (0, 0), 24, max_width=120)
    (drawn_text,) = texts
    assert drawn_text.words.endswith("...") and drawn_text.rect.width <= 120
    assert drawn_text.glyph_height >= MIN_GLYPH


def test_the_clock_face_alone_keeps_readable_text() -> None:
    """The face drawn on its own (the clock's documentation images, a clock-only screen)."""
    clock = four_sides_paused_in_byoyomi()
    for size in PANEL_SIZES:
        with widgets.recording() as texts:
            clock_face.draw_clock_face(pygame.Surface(size), clock.view(), names=["Ala", "Bartek", "Celina", "Dorota"],
                                       scores=[3, 1, 0, 7], message="call the arbiter")
        assert min(t.glyph_height for t in texts) >= MIN_GLYPH, size
        assert not [(a.words, b.words) for i, a in enumerate(texts) for b in texts[i + 1:]
                    if a.rect.colliderect(b.rect)]
