"""Small drawing pieces for the board's screen: text, panels, score rows,
menus and standings. pygame only, default font (`Font(None, size)`: no font
files to install on the Pi).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Sequence

import pygame

from damka.controller.views import PLAYER_COLOURS, SIDE_COLOURS, Colour, side_colour  # noqa: F401 (re-exported)

BACKGROUND: Colour = (18, 22, 28)
PANEL: Colour = (34, 40, 50)
PANEL_ACTIVE: Colour = (52, 92, 60)
TEXT: Colour = (232, 232, 224)
DIM: Colour = (150, 156, 164)
ACCENT: Colour = (250, 200, 70)
ALERT: Colour = (235, 70, 60)
SELECTED: Colour = (60, 90, 150)

def font(size: int) -> pygame.font.Font:
    """pygame's default font at `size` px, cached (the screen redraws ten times a second)."""
    if not pygame.font.get_init():
        pygame.font.init()
        _cached_font.cache_clear()  # fonts made before a pygame.font.quit() are dead
    return _cached_font(size)


@lru_cache(maxsize=32)
def _cached_font(size: int) -> pygame.font.Font:
    return pygame.font.Font(None, size)


def text(surface: pygame.Surface, words: str, pos: tuple[int, int], size: int = 24, colour: Colour = TEXT,
         align: str = "topleft", max_width: int | None = None) -> pygame.Rect:
    """Draw one line; `align` is a pygame.Rect attribute (`topleft`, `center`,
    `midtop`, `topright`, ...). Too long for `max_width`: shrunk to fit."""
    face = font(size)
    image = face.render(words, True, colour)
    if max_width is not None and image.get_width() > max_width and size > 10:
        return text(surface, words, pos, size - 2, colour, align, max_width)
    rect = image.get_rect(**{align: pos})
    surface.blit(image, rect)
    return rect


def wrap(words: str, size: int, width: int) -> list[str]:
    """Split `words` into lines that fit `width` pixels."""
    face = font(size)
    lines: list[str] = []
    line = ""
    for word in words.split():
        candidate = f"{line} {word}".strip()
        if line and face.size(candidate)[0] > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    if line:
        lines.append(line)
    return lines


def panel(surface: pygame.Surface, rect: pygame.Rect, colour: Colour = PANEL, border: Colour | None = None) -> None:
    pygame.draw.rect(surface, colour, rect, border_radius=6)
    if border is not None:
        pygame.draw.rect(surface, border, rect, width=2, border_radius=6)


def swatch(surface: pygame.Surface, centre: tuple[int, int], colour: Colour, radius: int = 7) -> None:
    """A small disc in a side's colour, outlined so white and black both show."""
    pygame.draw.circle(surface, colour, centre, radius)
    pygame.draw.circle(surface, DIM, centre, radius, width=1)


def message_box(surface: pygame.Surface, rect: pygame.Rect, lines: Sequence[str], *, alert: bool = False) -> None:
    """Prompts such as 'put a piece back on d4', wrapped to the box."""
    panel(surface, rect, (70, 30, 30) if alert else PANEL, ALERT if alert else None)
    y = rect.y + 6
    for line in lines:
        for part in wrap(line, 22, rect.width - 16):
            if y + 18 > rect.bottom:
                return
            text(surface, part, (rect.x + 8, y), 22, TEXT)
            y += 19


MENU_ROW_HEIGHT = 30


def menu_slots(rect: pygame.Rect, count: int, cursor: int) -> list[tuple[int, pygame.Rect]]:
    """(row index, rectangle) of each menu row drawn in `rect`: the one layout
    for drawing the rows and for finding the row a tap hits."""
    visible = max(1, rect.height // MENU_ROW_HEIGHT)
    first = min(max(0, cursor - visible + 1), max(0, count - visible))
    return [(index, pygame.Rect(rect.x, rect.y + slot * MENU_ROW_HEIGHT, rect.width, MENU_ROW_HEIGHT - 3))
            for slot, index in enumerate(range(first, min(count, first + visible)))]


def menu_list(surface: pygame.Surface, rect: pygame.Rect, rows: Sequence[tuple[str, str]], cursor: int) -> None:
    """Rows of (label, value), the cursor's row highlighted; scrolls to keep it visible."""
    slots = menu_slots(rect, len(rows), cursor)
    first = slots[0][0] if slots else 0
    visible = max(1, rect.height // MENU_ROW_HEIGHT)
    for index, row in slots:
        label, value = rows[index]
        panel(surface, row, SELECTED if index == cursor else PANEL)
        text(surface, label, (row.x + 10, row.centery), 24, TEXT, "midleft", max_width=row.width // 2 - 10)
        if value:
            text(surface, value, (row.right - 10, row.centery), 24, ACCENT, "midright", max_width=row.width // 2)
    if first > 0:
        text(surface, "^", (rect.right - 6, rect.y - 2), 18, DIM, "topright")
    if first + visible < len(rows):
        text(surface, "v", (rect.right - 6, rect.bottom), 18, DIM, "bottomright")


def standings_table(surface: pygame.Surface, rect: pygame.Rect, header: Sequence[str],
                    rows: Sequence[Sequence[str]], highlight: int | None = None) -> None:
    """A small table: first column left, the others right-aligned."""
    columns = len(header)
    first_width = rect.width - (columns - 1) * 70
    xs = [rect.x + 8] + [rect.x + first_width + 70 * (i + 1) - 8 for i in range(columns - 1)]
    y = rect.y
    for index, row in enumerate([header, *rows]):
        colour = DIM if index == 0 else (ACCENT if highlight is not None and index - 1 == highlight else TEXT)
        for column, cell in enumerate(row):
            align = "topleft" if column == 0 else "topright"
            text(surface, str(cell), (xs[column], y), 22, colour, align,
                 max_width=first_width - 12 if column == 0 else 66)
        y += 22
        if y > rect.bottom - 18:
            break
