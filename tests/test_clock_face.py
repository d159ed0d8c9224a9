"""Clock faces drawn headless: panels, highlight, flags, paused line; PNGs kept as documentation.

The images in docs/images/clock-*.png are written when missing, or all again
with DAMKA_UPDATE_IMAGES=1.
"""

from __future__ import annotations

import os
from pathlib import Path

import pygame
import pytest

from damka.controller.clock.clock import Clock
from damka.controller.clock.time_source import FakeTime
from damka.controller.clock.timecontrol import parse, parse_sides
from damka.display.clock_face import DEFAULT_THEME, draw_clock_face, panel_rects, status_text

IMAGES = Path(__file__).resolve().parent.parent / "docs" / "images"
SIZE = (480, 320)
THEME = DEFAULT_THEME


@pytest.fixture(scope="module", autouse=True)
def pygame_headless():
    pygame.init()
    yield
    pygame.font.quit()  # a face drawn after this starts its fonts again


def keep_image(surface: pygame.Surface, name: str) -> None:
    path = IMAGES / f"clock-{name}.png"
    if os.environ.get("DAMKA_UPDATE_IMAGES") == "1" or not path.exists():
        IMAGES.mkdir(parents=True, exist_ok=True)
        pygame.image.save(surface, str(path))


def color_at(surface: pygame.Surface, point: tuple[int, int]) -> tuple[int, int, int]:
    return tuple(surface.get_at(point))[:3]


def count_color(surface: pygame.Surface, rect: pygame.Rect, color: tuple[int, int, int]) -> int:
    return sum(1 for x in range(rect.left, rect.right) for y in range(rect.top, rect.bottom)
               if color_at(surface, (x, y)) == color)


def ink(surface: pygame.Surface, rect: pygame.Rect) -> int:
    """Pixels in `rect` that differ from its most common colour (the drawn text)."""
    background = color_at(surface, (rect.left, rect.top))
    return sum(1 for x in range(rect.left, rect.right, 2) for y in range(rect.top, rect.bottom, 2)
               if color_at(surface, (x, y)) != background)


def fill_of(surface: pygame.Surface, panel: pygame.Rect) -> tuple[int, int, int]:
    return color_at(surface, (panel.left + 4, panel.centery))


# Clock states the faces are drawn from (also the screen-size checks', tests/test_screen_sizes.py).


def tournament_clock_after_21_presses() -> Clock:
    """50/120:25/60 with 21 turns of 61 s played: Black to move, in the second stage."""
    t = FakeTime(0)
    clock = Clock(parse("50/120:25/60"), time=t)
    clock.start()
    for _ in range(21):
        t.advance(61_000)
        clock.press(clock.active)
    return clock


def three_sides_one_flagged() -> Clock:
    """Three sides, two moves a turn: the second side out on time, the third to move."""
    t = FakeTime(0)
    clock = Clock(parse_sides("5+2|0.2+2|5+2", 3), time=t, moves_per_turn=2)
    clock.start()
    clock.press(0, moves=2)
    t.advance(30_000)
    clock.update()
    clock.press(2)
    t.advance(3_000)
    return clock


def four_sides_paused_in_byoyomi() -> Clock:
    t = FakeTime(0)
    clock = Clock(parse("0.5+3x10"), sides=4, time=t, moves_per_turn=2)
    clock.start()
    t.advance(35_000)
    clock.pause()
    return clock


def test_two_sides_highlight_the_side_to_move() -> None:
    clock = tournament_clock_after_21_presses()
    surface = pygame.Surface(SIZE)
    regions = draw_clock_face(surface, clock.view(), names=["White", "Black"], message="Arbiter: +2:00 to Black")
    left, right = regions.panels
    assert left.panel.right <= right.panel.left
    assert fill_of(surface, right.panel) == THEME.active and fill_of(surface, left.panel) == THEME.panel
    for part in (left.time, right.time, left.header, left.footer, regions.message):
        assert ink(surface, part) > 20
    assert count_color(surface, left.flag, THEME.flag) == 0
    keep_image(surface, "2")


def test_three_players_with_one_flagged_out() -> None:
    clock = three_sides_one_flagged()
    surface = pygame.Surface(SIZE)
    regions = draw_clock_face(surface, clock.view(), names=["Ala", "Bartek", "Celina"], scores=[3, 1, 0])
    first, out, third = regions.panels
    assert third.panel.width > first.panel.width  # the third side has the whole lower row
    assert fill_of(surface, third.panel) == THEME.active
    assert fill_of(surface, out.panel) == THEME.out
    assert count_color(surface, out.flag, THEME.flag) > 20  # the flag marker
    assert count_color(surface, out.time, THEME.flag) > 100  # 0.0 in the flag colour
    assert count_color(surface, first.flag, THEME.flag) == 0
    assert ink(surface, first.header) > 10  # name and score
    keep_image(surface, "3")


def test_four_sides_paused_in_byoyomi() -> None:
    clock = four_sides_paused_in_byoyomi()
    surface = pygame.Surface(SIZE)
    view = clock.view()
    regions = draw_clock_face(surface, view, names=["A", "B", "C", "D"], scores=[3, 1, 0, 7],
                              message="call the arbiter")
    panels = [p.panel for p in regions.panels]
    # clockwise round the board: top left, top right, bottom right, bottom left
    assert panels[0].top == panels[1].top < panels[2].top == panels[3].top
    assert panels[0].left == panels[3].left < panels[1].left == panels[2].left
    assert color_at(surface, (regions.message.left + 4, regions.message.centery)) == THEME.paused
    assert count_color(surface, regions.panels[0].time, THEME.low_time) > 100  # byo-yomi period, 5.0
    assert status_text(view, "call the arbiter") == "PAUSED  call the arbiter"
    keep_image(surface, "4")


def test_flag_in_an_earlier_stage_shows_the_marker_while_play_goes_on() -> None:
    t = FakeTime(0)
    clock = Clock(parse("2/0.5:1+2"), time=t)
    clock.start()
    t.advance(31_000)
    clock.update()
    surface = pygame.Surface((320, 240))
    regions = draw_clock_face(surface, clock.view(), names=["White", "Black"], scores=[0, 0])
    mover = regions.panels[0]
    assert fill_of(surface, mover.panel) == THEME.active  # still playing
    assert count_color(surface, mover.flag, THEME.flag) > 10
    assert count_color(surface, mover.time, THEME.flag) == 0  # time left: shown normally
    keep_image(surface, "flag")


def test_game_over_and_untimed() -> None:
    t = FakeTime(0)
    clock = Clock(parse("-"), time=t)
    clock.start()
    t.advance(754_000)
    clock.stop()
    surface = pygame.Surface(SIZE)
    view = clock.view()
    assert view.sides[0].text == "12:34"
    regions = draw_clock_face(surface, view)
    assert status_text(view) == "GAME OVER"
    assert all(fill_of(surface, p.panel) == THEME.panel for p in regions.panels)
    assert ink(surface, regions.message) > 20


def test_layout_and_argument_checks() -> None:
    for sides in (2, 3, 4):
        rects = panel_rects(SIZE, sides)
        assert len(rects) == sides
        assert all(pygame.Rect((0, 0), SIZE).contains(r) for r in rects)
        assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1:])
    with pytest.raises(ValueError):
        panel_rects(SIZE, 5)
    clock = Clock(parse("5"), time=FakeTime())
    with pytest.raises(ValueError, match="names"):
        draw_clock_face(pygame.Surface(SIZE), clock.view(), names=["only one"])
    assert status_text(clock.view()) == "READY"


def test_panels_stack_on_a_narrow_surface_and_sit_side_by_side_on_a_wide_one() -> None:
    narrow = panel_rects((308, 230), 4, message=False)          # a 320x480 panel, upright
    assert len({r.left for r in narrow}) == 1 and len({r.top for r in narrow}) == 4
    wide = panel_rects((468, 140), 4, message=False)            # the game screen's clock strip at 480x320
    assert len({r.left for r in wide}) == 2 and len({r.top for r in wide}) == 2
    two = panel_rects((308, 230), 2, message=False)             # two sides stay side by side upright
    assert two[0].top == two[1].top and two[0].right <= two[1].left


def test_fonts_come_back_after_pygame_font_quit() -> None:
    clock = Clock(parse("5"), time=FakeTime())
    draw_clock_face(pygame.Surface(SIZE), clock.view())
    pygame.font.quit()
    surface = pygame.Surface(SIZE)
    regions = draw_clock_face(surface, clock.view())
    assert ink(surface, regions.panels[0].time) > 20


def test_tiny_surface_still_draws() -> None:
    clock = Clock(parse("80+60"), sides=4, time=FakeTime())
    draw_clock_face(pygame.Surface((96, 64)), clock.view(), names=["a long name indeed"] * 4)
