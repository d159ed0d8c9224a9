"""What the board's small screen (480x320) shows: drawn with pygame onto any
surface, so the Pi's screen and the simulator window show the same picture.

The app builds a *view* (plain data: `MenuView`, `GameView`, `ResultView`)
from the session and the clock; `Screen.draw(surface, view)` draws it. Views
carry no behaviour and draw nothing themselves, so they are easy to build in
tests and to compare.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

import pygame

from damka.controller.clock_view import ClockView, SideView
from damka.display import widgets
from damka.display.clock_face import draw_clock_face
from damka.controller.views import GameView, MenuView, ResultView, SideLine, Standing, View  # noqa: F401 (re-exported)
from damka.display.widgets import ACCENT, ALERT, BACKGROUND, DIM, PANEL, PANEL_ACTIVE, TEXT, Colour

SIZE = (480, 320)




@dataclass
class Screen:
    """Draws views onto a 480x320 surface (or any size: the layout scales from it)."""

    size: tuple[int, int] = SIZE
    _draw: dict[type, Callable[[pygame.Surface, object], None]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        # A table, not an isinstance chain: one drawing method per kind of view.
        self._draw = {GameView: self._game, MenuView: self._menu, ResultView: self._result}

    def render(self, view: View) -> pygame.Surface:
        surface = pygame.Surface(self.size)
        self.draw(surface, view)
        return surface

    def draw(self, surface: pygame.Surface, view: View) -> None:
        surface.fill(BACKGROUND)
        self._draw[type(view)](surface, view)

    # -- the running game -------------------------------------------------------

    def _game(self, surface: pygame.Surface, view: GameView) -> None:  # type: ignore[override]
        width, height = surface.get_size()
        widgets.text(surface, view.title, (8, 6), 24, DIM, max_width=width - 90)
        widgets.text(surface, f"move {view.move_number}", (width - 8, 6), 24, DIM, "topright")
        clock_rect = pygame.Rect(6, 30, width - 12, 140)
        self._clocks(surface, clock_rect, view)
        y = clock_rect.bottom + 6
        if view.status:
            widgets.text(surface, view.status, (width // 2, y), 30, ACCENT, "midtop", max_width=width - 16)
        y += 26
        if view.last_move:
            widgets.text(surface, f"last move: {view.last_move}", (width // 2, y), 24, TEXT, "midtop")
        if view.hints_left is not None:
            hints = f"hints left: {view.hints_left}" if view.hints_left else "no hints left"
            widgets.text(surface, hints, (width - 8, y), 20, DIM, "topright")
        y += 22
        lines = list(view.messages)
        if view.hint:
            lines.insert(0, view.hint)
        if lines:
            widgets.message_box(surface, pygame.Rect(6, y, width - 12, height - y - 6), lines, alert=view.alert)

    def _clocks(self, surface: pygame.Surface, rect: pygame.Rect, view: GameView) -> None:
        sides = list(view.sides)
        if view.clock is not None and len(view.clock.sides) == len(sides):
            # The clock engineer's face (display/clock_face.py): the same on the Pi and in the window.
            scores = [side.score or 0 for side in sides] if any(s.score is not None for s in sides) else None
            draw_clock_face(surface.subsurface(rect), view.clock, names=[side.name for side in sides], scores=scores)
            return
        clock_sides: list[SideView | None] = list(view.clock.sides) if view.clock else [None] * len(sides)
        count = len(sides)
        columns = 2
        rows = 1 if count <= 2 else 2
        box_w = (rect.width - 6 * (columns - 1)) // columns
        box_h = (rect.height - 6 * (rows - 1)) // rows
        for index, side in enumerate(sides):
            row, column = divmod(index, columns)
            box = pygame.Rect(rect.x + column * (box_w + 6), rect.y + row * (box_h + 6), box_w, box_h)
            clock = clock_sides[index] if index < len(clock_sides) else None
            self._clock_box(surface, box, side, clock, big=rows == 1,
                            paused=bool(view.clock and view.clock.paused))

    def _clock_box(self, surface: pygame.Surface, box: pygame.Rect, side: SideLine, clock: SideView | None,
                   *, big: bool, paused: bool) -> None:
        flagged = bool(clock and clock.flagged)
        active = side.to_move if clock is None else clock.active
        widgets.panel(surface, box, PANEL_ACTIVE if active and not flagged else PANEL,
                      ALERT if flagged else (ACCENT if active else None))
        widgets.swatch(surface, (box.x + 14, box.y + 14), side.colour)
        widgets.text(surface, side.name, (box.x + 28, box.y + 5), 24, DIM if side.out else TEXT,
                     max_width=box.width - 80)
        if side.score is not None:
            widgets.text(surface, f"{side.score} pt", (box.right - 8, box.y + 5), 24, ACCENT, "topright")
        if clock is not None:
            time_text = clock.text
            size = 72 if big else 40
            centre = (box.centerx, box.y + (box.height + 18) // 2)
            widgets.text(surface, time_text, centre, size, ALERT if flagged else TEXT, "center")
            notes = []
            if flagged:
                notes.append("FLAG")
            elif paused:
                notes.append("paused")
            if clock.turns_to_control is not None and big:
                notes.append(f"{clock.turns_to_control} to control")
            if clock.periods and big:
                notes.append(f"{clock.periods} periods")
            if notes:
                widgets.text(surface, "  ".join(notes), (box.centerx, box.bottom - 4), 22,
                             ALERT if flagged else DIM, "midbottom")
        elif side.to_move:
            widgets.text(surface, "to move", (box.centerx, box.centery + 10), 30, ACCENT, "center")

    # -- menus -------------------------------------------------------------------

    def _menu(self, surface: pygame.Surface, view: MenuView) -> None:  # type: ignore[override]
        width, height = surface.get_size()
        menu = view.menu
        widgets.text(surface, menu.title, (width // 2, 6), 32, ACCENT, "midtop")
        if view.subtitle:
            widgets.text(surface, view.subtitle, (width // 2, 38), 22, DIM, "midtop", max_width=width - 16)
        rows = [(row.label, row.value_label) for row in menu.visible_rows()]
        widgets.menu_list(surface, self._menu_rect((width, height), view), rows, menu.cursor)
        widgets.text(surface, menu.footer, (width // 2, height - 4), 20, DIM, "midbottom", max_width=width - 16)

    @staticmethod
    def _menu_rect(size: tuple[int, int], view: MenuView) -> pygame.Rect:
        top = 58 if view.subtitle else 38
        return pygame.Rect(8, top, size[0] - 16, size[1] - top - 26)

    def menu_row_at(self, view: View, pos: tuple[int, int]) -> int | None:
        """The menu row (index among the rows shown) drawn at `pos` on a screen
        of this size: what a tap there chooses (None: no row there)."""
        if not isinstance(view, MenuView):
            return None
        rect = self._menu_rect(self.size, view)
        for index, row in widgets.menu_slots(rect, len(view.menu.visible_rows()), view.menu.cursor):
            if row.collidepoint(pos):
                return index
        return None

    # -- result and match standings ----------------------------------------------

    def _result(self, surface: pygame.Surface, view: ResultView) -> None:  # type: ignore[override]
        width, height = surface.get_size()
        widgets.text(surface, view.title, (width // 2, 8), 44, ACCENT, "midtop", max_width=width - 16)
        widgets.text(surface, view.reason, (width // 2, 48), 26, TEXT, "midtop", max_width=width - 16)
        if view.standings:
            widgets.panel(surface, pygame.Rect(6, 76, width - 12, 190), PANEL)
            widgets.text(surface, "Match", (14, 82), 24, DIM)
            ranked = sorted(view.standings, key=(lambda s: (-s.small_points, -s.points)) if view.by_small_points
                            else (lambda s: (-s.points, -s.small_points)))
            header = ("", "small pts", "points", "games") if view.by_small_points else ("", "points", "small pts",
                                                                                       "games")
            rows = []
            for standing in ranked:
                first, second = ((standing.small_points, _points(standing.points)) if view.by_small_points
                                 else (_points(standing.points), standing.small_points))
                rows.append((standing.name, first, second, standing.games))
            widgets.standings_table(surface, pygame.Rect(14, 104, width - 28, 158), header, rows, highlight=0)
        if view.next_first:
            widgets.text(surface, view.next_first, (width // 2, height - 30), 24, TEXT, "midbottom")
        widgets.text(surface, view.footer, (width // 2, height - 4), 20, DIM, "midbottom")


def _points(points: float) -> str:
    whole = int(points)
    if points - whole == 0.5:
        return f"{whole}½" if whole else "½"
    return f"{points:g}"


__all__ = ["GameView", "MenuView", "ResultView", "Screen", "SideLine", "Standing", "SIZE", "View"]
