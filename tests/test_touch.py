"""The board's touch screen: synthetic touch events (as the Pi's panel sends
them) drive the menus and the game exactly as the buttons do."""

from __future__ import annotations

import pygame

from damka.controller.app import App, AppState
from damka.controller.game.setup import GameSetup
from damka.controller.app.views import MenuView
from damka.display.screen import Screen
from damka.display.touch import tap, tap_point
from app_rig import on_board

PANELS = [(480, 320), (800, 480), (320, 480)]


def touch_on_row(screen: Screen, app: App, key: str) -> pygame.event.Event:
    """A FINGERDOWN (x, y as fractions of the panel) on the menu row `key`, found by looking."""
    view = app.view()
    assert isinstance(view, MenuView)
    index = [row.key for row in view.menu.visible_rows()].index(key)
    width, height = screen.size
    for y in range(height):
        if screen.menu_row_at(view, (width // 2, y)) == index:
            return pygame.event.Event(pygame.FINGERDOWN, x=0.5, y=(y + 6) / height, touch_id=0, finger_id=0,
                                      dx=0, dy=0, pressure=1)
    raise AssertionError(f"row {key} is not on the screen")


def touch(screen: Screen, app: App, event: pygame.event.Event, now: int = 0) -> bool:
    point = tap_point(event, screen.size)
    assert point is not None
    return tap(screen, app, point, now)


def test_a_game_is_chosen_started_and_its_menu_used_by_touch_alone() -> None:
    for size in PANELS:
        screen = Screen(size)
        app = App(setup=GameSetup("classic"), offer_resume=False)
        assert touch(screen, app, touch_on_row(screen, app, "variant"))      # a setting steps on
        assert app.menu.row("variant").value == "classic81"
        assert touch(screen, app, touch_on_row(screen, app, "start"))        # an action is chosen
        assert app.state is AppState.GAME and app.session.variant.name == "classic81", size
        on_board(app)
        assert touch(screen, app, pygame.event.Event(pygame.FINGERDOWN, x=0.5, y=0.5, touch_id=0, finger_id=0,
                                                     dx=0, dy=0, pressure=1))
        assert app.overlay is not None                                        # the game's menu, by a touch
        assert touch(screen, app, touch_on_row(screen, app, "resign"))
        assert app.state is AppState.RESULT and app.session.result.reason == "resignation", size


def test_the_mouse_event_a_touch_makes_does_not_tap_twice() -> None:
    emulated = pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(10, 10), touch=True)
    assert tap_point(emulated, (480, 320)) is None
    assert tap_point(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(10, 10), touch=False),
                     (480, 320)) == (10, 10)
    assert tap_point(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_a), (480, 320)) is None
