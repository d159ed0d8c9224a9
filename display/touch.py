"""Touch and clicks on the board's screen (the Pi's touch panel, any screen SDL
sees, the simulator's mouse): one place that turns a tap into what the board's
buttons would do.

A tap on a menu row does what ok does on that row; a tap on the running game
opens the game's menu (the menu button); a tap on the result shows the next
game's choices (ok). A mouse event that SDL makes from a touch is ignored:
the touch itself has already tapped.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from damka.controller.app.views import GameView, MenuView, ResultView
from damka.display.screen import Screen
from damka.hardware.interfaces import Button, ButtonPress

if TYPE_CHECKING:
    from damka.controller.app import App


def tap_point(event: pygame.event.Event, size: tuple[int, int]) -> tuple[int, int] | None:
    """The point on a surface of `size` that a touch or a left click hits; None for other events."""
    if event.type == pygame.FINGERDOWN:
        return int(event.x * size[0]), int(event.y * size[1])  # a touch: fractions of the surface
    if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and not getattr(event, "touch", False):
        return event.pos
    return None


def tap(screen: Screen, app: App, pos: tuple[int, int], now: int) -> bool:
    """Act on a tap at `pos` on the screen showing the App's view (its read model's); whether it did anything."""
    view = app.read_model().view
    if isinstance(view, MenuView):
        index = screen.menu_row_at(view, pos)
        if index is None:
            return False
        app.tap_menu(index)
        return True
    if isinstance(view, GameView):
        app.handle(ButtonPress(Button.MENU, now))
        return True
    if isinstance(view, ResultView):
        app.handle(ButtonPress(Button.OK, now))
        return True
    return False
