"""What the board's screen shows: drawn with pygame onto any surface, so the
Pi's screen and the simulator window show the same picture.

The app builds a *view* (plain data: `MenuView`, `GameView`, `ResultView`)
from the session and the clock; `Screen.draw(surface, view)` draws it. Views
carry no behaviour and draw nothing themselves, so they are easy to build in
tests and to compare.

Layouts follow the surface: fonts grow with the panel (landscape sizes are
measured against 480x320, portrait ones against 320x480), nothing is drawn
below `widgets.READABLE`, and a narrow panel stacks what a wide one puts side
by side. `PANEL_SIZES` lists the sizes the tests render and check.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import pygame

from damka.display import widgets
from damka.display.clock_face import draw_clock_face, panel_rects, status_text
from damka.controller.words import say
from damka.controller.app.views import GameView, MenuView, ResultView, SideLine, Standing, View  # noqa: F401 (re-exported)
from damka.display.widgets import ACCENT, BACKGROUND, DIM, PANEL, PANEL_ACTIVE, READABLE, TEXT

SIZE = (480, 320)
# Panels the board is built with: 3.5" and 5"/7" landscape, and the same turned to portrait.
PANEL_SIZES: tuple[tuple[int, int], ...] = ((480, 320), (800, 480), (320, 480), (480, 800))


def scale_of(size: tuple[int, int]) -> float:
    """How much bigger than the smallest panel (480x320, or 320x480 upright) `size` is."""
    width, height = size
    return min(width / 320, height / 480) if height > width else min(width / 480, height / 320)


@dataclass
class Screen:
    """Draws views onto a surface of any size (the board's panel is 480x320)."""

    size: tuple[int, int] = SIZE
    # Any: each method takes the kind of view its key names (a dict cannot say so per key).
    _draw: dict[type, Callable[[pygame.Surface, Any], None]] = field(init=False, repr=False)
    _menu_slots: list[tuple[int, pygame.Rect]] = field(init=False, repr=False, default_factory=list)

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

    def _game(self, surface: pygame.Surface, view: GameView) -> None:
        width, height = surface.get_size()
        k = scale_of((width, height))
        small, info, big = _size(READABLE, k), _size(24, k), _size(30, k)
        pad = round(8 * k)
        move = say("screen.move_number", number=view.move_number) if view.move_number is not None else ""
        # The title and the move number share the top line when they fit; else the
        # title gets up to two lines and the move number goes to the last-move line.
        move_on_top = widgets.width_of(view.title, info) + widgets.width_of(move, info) + 3 * pad <= width
        if move_on_top or not move:
            if move:
                widgets.text(surface, move, (width - pad, pad // 2), info, DIM, "topright")
            widgets.text(surface, view.title, (pad, pad // 2), info, DIM)
            top = pad // 2 + widgets.line_height(info)
        else:
            top = pad // 2 + widgets.paragraph(surface, view.title, pygame.Rect(pad, pad // 2, width - 2 * pad, height),
                                               info, DIM, "center", max_lines=2)
        top += pad // 2
        # A lesson or a puzzle has neither sides nor a clock: its words get the room.
        clock_height = round(height * (0.48 if height > width else 0.44)) if view.sides or view.clock else 0
        if clock_height:
            self._clocks(surface, pygame.Rect(pad // 2, top, width - pad, clock_height), view, k)
        y = top + clock_height + pad // 2
        status = "  ".join(part for part in (status_text(view.clock) if view.clock else "", view.status) if part)
        lines = 1 if height <= width else 2
        used = widgets.paragraph(surface, status, pygame.Rect(pad, y, width - 2 * pad, height), big, ACCENT,
                                 "center", max_lines=lines) if status else 0
        y += max(used, widgets.line_height(big)) + pad // 4
        right_words = [] if move_on_top or not move else [move]
        short = list(right_words)
        if view.hints_left is not None:
            right_words.append(say("screen.hints_left", count=view.hints_left) if view.hints_left
                               else say("screen.no_hints"))
            short.append(say("screen.hints_short", count=view.hints_left) if view.hints_left
                         else say("screen.no_hints_short"))
        right = pygame.Rect(width - pad, y, 0, 0)
        if right_words:
            words = widgets.first_fitting(["   ".join(right_words), "   ".join(short)], small, width // 2)
            right = widgets.text(surface, words, (width - pad, y), small, DIM, "topright")
        if view.last_move:
            room = right.left - 3 * pad
            words = widgets.first_fitting([say("screen.last_move", move=view.last_move),
                                           say("screen.last_short", move=view.last_move)], info, room)
            widgets.text(surface, words, (pad, y), info, TEXT, max_width=room)
        y += widgets.line_height(info) + pad // 2
        said = ([view.hint] if view.hint else []) + list(view.messages)
        if said and height - y - pad // 2 >= widgets.line_height(small) + 10:
            widgets.message_box(surface, pygame.Rect(pad // 2, y, width - pad, height - y - pad // 2), said,
                                small, alert=view.alert)

    def _clocks(self, surface: pygame.Surface, rect: pygame.Rect, view: GameView, k: float) -> None:
        sides = list(view.sides)
        if view.clock is not None and len(view.clock.sides) == len(sides):
            # The clock engineer's face (display/clock_face.py): the same on the Pi and in the window.
            scores = [side.score or 0 for side in sides] if any(s.score is not None for s in sides) else None
            draw_clock_face(surface.subsurface(rect), view.clock, names=[side.labels() for side in sides],
                            scores=scores, message_line=False, text_size=_size(READABLE, k))
            return
        for side, box in zip(sides, panel_rects(rect.size, max(2, min(4, len(sides))), message=False)):
            self._side_box(surface, box.move(rect.topleft), side, k)

    def _side_box(self, surface: pygame.Surface, box: pygame.Rect, side: SideLine, k: float) -> None:
        """A side's panel when the game has no clock: colour, name, score, whose turn."""
        widgets.panel(surface, box, PANEL_ACTIVE if side.to_move else PANEL, ACCENT if side.to_move else None)
        size = _size(24, k)
        line = widgets.line_height(size)
        pad = round(8 * k)
        radius = max(7, line // 3)
        widgets.swatch(surface, (box.x + pad + radius, box.y + pad + line // 2), side.colour, radius)
        right = box.right - pad
        if side.score is not None:
            right = widgets.text(surface, say("screen.points", score=side.score), (right, box.y + pad), size, ACCENT, "topright").left - pad
        name_x = box.x + 2 * (pad + radius)
        widgets.text(surface, widgets.first_fitting(side.labels(), size, right - name_x), (name_x, box.y + pad), size,
                     DIM if side.out else TEXT, max_width=right - name_x)
        note = say("screen.out") if side.out else say("screen.to_move") if side.to_move else ""
        if note and box.height >= 2 * line + 3 * pad:
            widgets.text(surface, note, (box.centerx, box.bottom - pad), _size(30, k), ACCENT, "midbottom",
                         max_width=box.width - 2 * pad)

    # -- menus -------------------------------------------------------------------

    def _menu(self, surface: pygame.Surface, view: MenuView) -> None:
        width, height = surface.get_size()
        k = scale_of((width, height))
        pad = round(8 * k)
        menu = view.menu
        title = _size(32, k)
        widgets.text(surface, menu.title, (width // 2, pad // 2), title, ACCENT, "midtop", max_width=width - 2 * pad)
        top = pad // 2 + widgets.line_height(title) + pad // 2
        small = _size(READABLE, k)
        top += _warning_box(surface, view.warning, top, small, pad)
        if view.subtitle:
            top += widgets.paragraph(surface, view.subtitle, pygame.Rect(pad, top, width - 2 * pad, height // 4),
                                     small, DIM, "center", max_lines=2) + pad
        footer = widgets.paragraph(surface, menu.footer, pygame.Rect(pad, 0, width - 2 * pad, height - pad // 2),
                                   small, DIM, "center", max_lines=2, bottom=True)
        rows = [(row.label, row.value_label) for row in menu.visible_rows()]
        self._menu_slots = widgets.menu_list(
            surface, pygame.Rect(pad, top, width - 2 * pad, height - top - footer - pad), rows, menu.cursor,
            _size(24, k))

    def menu_row_at(self, view: View, pos: tuple[int, int]) -> int | None:
        """The menu row (index among the rows shown) drawn at `pos` on a screen
        of this size: what a tap there chooses (None: no row there)."""
        if not isinstance(view, MenuView):
            return None
        self.draw(pygame.Surface(self.size), view)  # the layout as it is drawn (it depends on the words)
        for index, row in self._menu_slots:
            if row.collidepoint(pos):
                return index
        return None

    # -- result and match standings ----------------------------------------------

    def _result(self, surface: pygame.Surface, view: ResultView) -> None:
        width, height = surface.get_size()
        k = scale_of((width, height))
        pad = round(8 * k)
        body = pygame.Rect(pad, pad, width - 2 * pad, height - 2 * pad)
        title = _size(44, k)
        widgets.text(surface, view.title, (width // 2, body.top), title, ACCENT, "midtop", max_width=body.width)
        y = body.top + widgets.line_height(title) + pad // 2
        y += _warning_box(surface, view.warning, y, _size(READABLE, k), pad)
        y += widgets.paragraph(surface, view.reason, pygame.Rect(body.left, y, body.width, height // 5),
                               _size(26, k), TEXT, "center", max_lines=2) + pad
        small = _size(READABLE, k)
        bottom = body.bottom - widgets.paragraph(surface, view.footer, body, small, DIM, "center", max_lines=2,
                                                 bottom=True) - pad // 2
        if view.next_first:
            next_size = _size(24, k)
            bottom -= widgets.line_height(next_size)
            widgets.text(surface, view.next_first, (width // 2, bottom), next_size, TEXT, "midtop",
                         max_width=body.width)
            bottom -= pad // 2
        if view.standings and bottom - y > 3 * widgets.line_height(small):
            self._standings(surface, pygame.Rect(body.left - pad // 2, y, body.width + pad, bottom - y), view, k)

    def _standings(self, surface: pygame.Surface, box: pygame.Rect, view: ResultView, k: float) -> None:
        ranked = sorted(view.standings, key=(lambda s: (-s.small_points, -s.points)) if view.by_small_points
                        else (lambda s: (-s.points, -s.small_points)))
        points = (say("standings.points"), say("standings.points_short"))
        small_points = (say("standings.small_points"), say("standings.small_short"))
        match, games = (say("standings.match"),), (say("standings.games"),)
        header = [match, small_points, points, games] if view.by_small_points \
            else [match, points, small_points, games]
        rows = []
        for standing in ranked:
            first, second = ((standing.small_points, _points(standing.points)) if view.by_small_points
                             else (_points(standing.points), standing.small_points))
            rows.append((standing.name, first, second, standing.games))
        size = _size(READABLE, k)
        inner = box.inflate(-2 * round(8 * k), -round(8 * k))
        table = pygame.Rect(inner.left, inner.top, inner.width, inner.height)
        needed = (widgets.line_height(size) + 4) * (len(rows) + 1) + round(8 * k)
        widgets.panel(surface, pygame.Rect(box.left, box.top, box.width, min(box.height, needed)), PANEL)
        widgets.standings_table(surface, table, header, rows, highlight=0, size=size)


def _warning_box(surface: pygame.Surface, warning: str, top: int, size: int, pad: int) -> int:
    """`warning` in full in an alert box across the screen from `top` (the
    board unplugged); the height it took, 0 without one."""
    if not warning:
        return 0
    width = surface.get_width()
    lines = widgets.wrap(warning, size, width - 3 * pad - 16)
    box = len(lines) * (widgets.line_height(size) + 2) + 4 + 10
    widgets.message_box(surface, pygame.Rect(pad // 2, top, width - pad, box), [warning], size, alert=True)
    return box + pad // 2


def _size(base: int, k: float) -> int:
    """A font size designed for 480x320, grown for a bigger panel; never below readable."""
    return max(READABLE, round(base * k))


def _points(points: float) -> str:
    whole = int(points)
    if points - whole == 0.5:
        return f"{whole}½" if whole else "½"
    return f"{points:g}"


__all__ = ["GameView", "MenuView", "PANEL_SIZES", "ResultView", "Screen", "SideLine", "Standing", "SIZE", "View",
           "scale_of"]
