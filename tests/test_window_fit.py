"""The simulator's window as a person sees it: every variant's window fits a
1366x768 laptop screen with its title bar and desktop panel (the Canadian
12x12 board was 776 px tall), and a headless screenshot of a piece in the hand
shows it above the square it was lifted from (it was drawn at the window's
top-left corner, where the mouse never was)."""

from __future__ import annotations

import pygame
import pytest

from damka.controller.app import App
from damka.controller.board.eventlog import parse_log
from damka.controller.game.setup import GameSetup
from damka.engine.variants import variant_classes
from damka.sim.painter import BACKGROUND, FITS, PIECE_COLOURS
from damka.sim.window import build, play_script

LAPTOP = (1366, 768)
TITLE_BAR_AND_PANEL = 68   # px: a window's title bar and a desktop panel, on the usual desktops


@pytest.fixture(autouse=True)
def display():
    pygame.display.init()
    yield


def variants() -> list[str]:
    names = [cls.name for cls in variant_classes()]
    assert len(names) >= 5 and "canadian" in names
    return names


@pytest.mark.parametrize("name", variants())
def test_every_variants_window_fits_a_laptop_screen(name: str) -> None:
    app = App(setup=GameSetup(name), start_game=True, offer_resume=False)
    window = build(app)
    width, height = window.size
    assert FITS[0] <= LAPTOP[0] and FITS[1] <= LAPTOP[1] - TITLE_BAR_AND_PANEL
    assert width <= FITS[0] and height <= FITS[1], f"{name}: {window.size}"
    whole = pygame.Rect((0, 0), window.size)
    assert whole.contains(window.board_rect.inflate(16, 16)) and whole.contains(window.screen_rect)
    assert window.square >= 48, f"{name}: squares too small to drag ({window.square} px)"


def test_a_headless_screenshot_shows_the_lifted_piece_above_its_square() -> None:
    app = App(setup=GameSetup("classic"), start_game=True, offer_resume=False)
    window = build(app)
    window.board.advance(1500)
    play_script(window, parse_log(["1000 up c3"]), settle_ms=500)
    assert window.pieces.in_hand
    surface = window.render()
    assert tuple(surface.get_at((4, 4)))[:3] == BACKGROUND  # nothing at the top-left corner
    x, y = window.square_rect("c3").center
    held = (x, y - window.square // 3)
    assert tuple(surface.get_at(held))[:3] == PIECE_COLOURS["w"]
