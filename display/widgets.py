"""Small drawing pieces for the board's screen: text, panels, score rows,
menus and standings. pygame only, default font (`Font(None, size)`: no font
files to install on the Pi).

Every text on the screen and the clock face goes through `text()`, which
never draws smaller than `READABLE` (glyphs 14 px high, readable at arm's
length): a text too long for its place is shortened with "..." instead of
shrunk. `recording()` collects where each text went, so tests can check the
real rendered sizes, overlaps and edges at every panel size.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterator, Sequence

import pygame

from damka.controller.app.views import PLAYER_COLOURS, SIDE_COLOURS, Colour, side_colour  # noqa: F401 (re-exported)

BACKGROUND: Colour = (18, 22, 28)
PANEL: Colour = (34, 40, 50)
PANEL_ACTIVE: Colour = (52, 92, 60)
TEXT: Colour = (232, 232, 224)
DIM: Colour = (150, 156, 164)
ACCENT: Colour = (250, 200, 70)
ALERT: Colour = (235, 70, 60)
SELECTED: Colour = (60, 90, 150)

READABLE = 22       # the smallest font size drawn: pygame's default font draws "Hg" 14 px high at 22
ELLIPSIS = "..."    # the default font has no single-character ellipsis


@dataclass(frozen=True)
class DrawnText:
    """One text as drawn: its words, where on the whole surface, its glyph height in px."""

    words: str
    rect: pygame.Rect
    glyph_height: int


_drawn: ContextVar[list[DrawnText] | None] = ContextVar("damka_drawn_texts", default=None)


@contextmanager
def recording() -> Iterator[list[DrawnText]]:
    """Collect every text drawn inside the block (a test and debug hook; off otherwise)."""
    log: list[DrawnText] = []
    token = _drawn.set(log)
    try:
        yield log
    finally:
        _drawn.reset(token)


def font(size: int) -> pygame.font.Font:
    """pygame's default font at `size` px, cached (the screen redraws ten times a second)."""
    if not pygame.font.get_init():
        pygame.font.init()
        _cached_font.cache_clear()  # fonts made before a pygame.font.quit() are dead
        _rendered.cache_clear()
        _glyph_height.cache_clear()
    return _cached_font(max(8, size))


@lru_cache(maxsize=96)
def _cached_font(size: int) -> pygame.font.Font:
    return pygame.font.Font(None, size)


def glyph_height(size: int) -> int:
    """The real height in pixels of "Hg" drawn at `size`: cap top to descender bottom."""
    font(size)
    return _glyph_height(max(8, size))


@lru_cache(maxsize=96)
def _glyph_height(size: int) -> int:
    return _cached_font(size).render("Hg", True, (255, 255, 255)).get_bounding_rect().height


def line_height(size: int) -> int:
    """The height of a rendered line at `size` (`Font.size()` reports a pixel or three less)."""
    return font(size).get_linesize()


def width_of(words: str, size: int) -> int:
    return sum(_advances(words, size))


def _advances(words: str, size: int) -> list[int]:
    """Each letter's own width at `size`, with no kerning: pygame's default font (FreeSansBold) kerns
    at the panel's sizes by whole pixels the wrong way ("draught s", "r ules", issue 38), so a line is
    drawn letter by letter, each at its advance (`render`)."""
    face = font(size)
    return [m[4] if m is not None else face.size(letter)[0] for letter, m in zip(words, face.metrics(words))]


def render(words: str, size: int, colour: Colour) -> pygame.Surface:
    """`words` drawn at `size` without kerning (see `_advances`), as `Font.render` would otherwise;
    the lines of the last frames kept (a screen redraws the same words ten times a second)."""
    font(size)  # fonts made again after a pygame.font.quit() (tests): their lines drawn again too
    return _rendered(words, max(8, size), colour)


@lru_cache(maxsize=512)
def _rendered(words: str, size: int, colour: Colour) -> pygame.Surface:
    face = _cached_font(size)
    advances = _advances(words, size)
    image = pygame.Surface((max(1, sum(advances)), face.get_height()), pygame.SRCALPHA)
    x = 0
    for letter, advance in zip(words, advances):
        if not letter.isspace():
            image.blit(face.render(letter, True, colour), (x, 0))
        x += advance
    return image


def fit_size(words: str, size: int, width: int | None = None, height: int | None = None,
             minimum: int = READABLE) -> int:
    """The largest size from `size` down to `minimum` at which `words` fits the box."""
    while size > minimum:
        if (width is None or width_of(words, size) <= width) and (height is None or line_height(size) <= height):
            return size
        size = max(minimum, size - max(1, size // 10))
    return max(size, minimum)


def shorten(words: str, size: int, width: int) -> str:
    """`words` cut at the end with "..." to fit `width` at `size` (whole if it fits)."""
    if width_of(words, size) <= width:
        return words
    cut = len(words)
    while cut > 0 and width_of(words[:cut].rstrip() + ELLIPSIS, size) > width:
        cut -= 1
    return words[:cut].rstrip() + ELLIPSIS if cut else ""


def first_fitting(options: Sequence[str], size: int, width: int) -> str:
    """The first of `options` (longest wording first) that fits `width`; else the last."""
    for words in options:
        if width_of(words, size) <= width:
            return words
    return options[-1]


def text(surface: pygame.Surface, words: str, pos: tuple[int, int], size: int = 24, colour: Colour = TEXT,
         align: str = "topleft", max_width: int | None = None, min_size: int = READABLE) -> pygame.Rect:
    """Draw one line; `align` is a pygame.Rect attribute (`topleft`, `center`,
    `midtop`, `topright`, ...). Too long for `max_width`: shrunk down to
    `min_size` (never below `READABLE`), then shortened with "..."."""
    size = max(size, READABLE)
    if max_width is not None:
        size = fit_size(words, size, max_width, minimum=max(READABLE, min(min_size, size)))
        words = shorten(words, size, max_width)
    image = render(words, size, colour)
    rect = image.get_rect(**{align: pos})
    surface.blit(image, rect)
    log = _drawn.get()
    if log is not None and words:
        x, y = surface.get_abs_offset()
        log.append(DrawnText(words, rect.move(x, y), glyph_height(size)))
    return rect


def wrap(words: str, size: int, width: int) -> list[str]:
    """Split `words` into lines that fit `width` pixels, keeping the spacing
    between words (wide gaps part a footer's items) and breaking at a wide gap, or after a comma
    in the line's second half, when it can; a word too long for a line alone (a device's
    path) is broken after a '/', '-' or '_' where it can, else anywhere, never cut short."""
    lines: list[str] = []
    line: list[tuple[str, str]] = []
    parts = [(gap if k == 0 else "", piece) for gap, word in re.findall(r"(\s*)(\S+)", words)
             for k, piece in enumerate(_pieces(word, size, width))]
    for gap, word in parts:
        if line and width_of(_join(line + [(gap, word)]), size) > width:
            commas = [i for i, (_, w) in enumerate(line) if len((line + [(gap, word)])[i + 1][0]) >= 3
                      or (w[-1] in ",;" and 2 * i >= len(line) - 1)]
            cut = commas[-1] + 1 if commas and commas[-1] < len(line) - 1 else len(line)
            lines.append(_join(line[:cut]))
            line = [("", w) for _, w in line[cut:][:1]] + line[cut + 1:]
            if line and width_of(_join(line + [(gap, word)]), size) > width:
                lines.append(_join(line))
                line = []
        line.append(("" if not line else gap, word))
    if line:
        lines.append(_join(line))
    return [shorten(line, size, width) for line in lines]


def _pieces(word: str, size: int, width: int) -> list[str]:
    """`word` in pieces that each fit `width` (the word itself when it fits)."""
    pieces: list[str] = []
    while width_of(word, size) > width:
        cut = 1
        while cut < len(word) and width_of(word[:cut + 1], size) <= width:
            cut += 1
        breaks = [i + 1 for i in range(1, cut) if word[i] in "/-_"]
        cut = breaks[-1] if breaks and 2 * breaks[-1] >= cut else cut
        pieces.append(word[:cut])
        word = word[cut:]
    return [*pieces, word] if word else pieces


def _join(parts: list[tuple[str, str]]) -> str:
    return "".join(gap + word for gap, word in parts)


def paragraph(surface: pygame.Surface, words: str, rect: pygame.Rect, size: int, colour: Colour = TEXT,
              align: str = "left", max_lines: int | None = None, bottom: bool = False) -> int:
    """`words` wrapped into `rect`, whole lines only (the last kept line gets "..." when
    some are left out); `bottom` stacks them up from the rect's bottom. Returns the
    height used."""
    size = max(size, READABLE)
    step = line_height(size) + 2
    lines = wrap(words, size, rect.width)
    room = max(1, (rect.height + 2) // step)
    keep = min(len(lines), room, max_lines or len(lines))
    if keep < len(lines):
        lines = lines[:keep - 1] + [shorten(lines[keep - 1] + ELLIPSIS, size, rect.width)]
    y = rect.bottom - keep * step + 2 if bottom else rect.top
    attribute = {"left": "topleft", "center": "midtop", "right": "topright"}[align]
    x = {"left": rect.left, "center": rect.centerx, "right": rect.right}[align]
    for line in lines:
        text(surface, line, (x, y), size, colour, attribute)
        y += step
    return keep * step - 2 if keep else 0


def panel(surface: pygame.Surface, rect: pygame.Rect, colour: Colour = PANEL, border: Colour | None = None) -> None:
    pygame.draw.rect(surface, colour, rect, border_radius=6)
    if border is not None:
        pygame.draw.rect(surface, border, rect, width=2, border_radius=6)


def swatch(surface: pygame.Surface, centre: tuple[int, int], colour: Colour, radius: int = 7) -> None:
    """A small disc in a side's colour, outlined so white and black both show."""
    pygame.draw.circle(surface, colour, centre, radius)
    pygame.draw.circle(surface, DIM, centre, radius, width=1)


def message_box(surface: pygame.Surface, rect: pygame.Rect, lines: Sequence[str], size: int = READABLE,
                *, alert: bool = False) -> None:
    """Prompts such as 'put a piece back on d4', wrapped to the box."""
    panel(surface, rect, (70, 30, 30) if alert else PANEL, ALERT if alert else None)
    inner = rect.inflate(-16, -10)
    for line in lines:
        used = paragraph(surface, line, inner, size, TEXT)
        inner.height -= used + 4
        inner.top += used + 4
        if inner.height < line_height(size):
            return


def menu_list(surface: pygame.Surface, rect: pygame.Rect, rows: Sequence[tuple[str, str]], cursor: int,
              size: int = 24) -> list[tuple[int, pygame.Rect]]:
    """Rows of (label, value), the cursor's row highlighted; scrolls to keep it
    visible. A row too narrow for label and value side by side shows the value
    under the label. Returns (row index, rect) of each row drawn (for touch)."""
    size = max(size, READABLE)
    line = line_height(size)
    gap = max(20, size)
    arrow = max(10, size // 3)
    lane = rect  # the rows' width: less a lane for the scroll arrows when they do not all fit

    def layout(width: int) -> tuple[bool, int, int]:
        stacked = any(width_of(label, size) + width_of(value, size) + gap + 20 > width for label, value in rows)
        row_height = (2 * line + 14) if stacked else max(line + 12, size + 6)
        return stacked, row_height, max(1, rect.height // row_height)

    stacked, row_height, visible = layout(rect.width)
    if visible < len(rows):
        lane = pygame.Rect(rect.x, rect.y, rect.width - arrow - 6, rect.height)
        stacked, row_height, visible = layout(lane.width)
    first = min(max(0, cursor - visible + 1), max(0, len(rows) - visible))
    drawn = []
    for slot, index in enumerate(range(first, min(len(rows), first + visible))):
        label, value = rows[index]
        row = pygame.Rect(lane.x, lane.y + slot * row_height, lane.width, row_height - 3)
        panel(surface, row, SELECTED if index == cursor else PANEL)
        inner = row.inflate(-20, 0)
        if stacked:
            text(surface, label, (inner.x, row.y + 4), size, TEXT, max_width=inner.width)
            if value:
                text(surface, value, (inner.right, row.bottom - 3), size, ACCENT, "bottomright",
                     max_width=inner.width)
        else:
            label_rect = text(surface, label, (inner.x, row.centery), size, TEXT, "midleft", max_width=inner.width)
            if value:
                text(surface, value, (inner.right, row.centery), size, ACCENT, "midright",
                     max_width=inner.right - label_rect.right - gap)
        drawn.append((index, row))
    middle = rect.right - (arrow + 1) // 2 - 1   # in the lane right of the rows, over no text
    if first > 0:
        _arrow(surface, (middle, rect.y + 4), arrow, up=True)
    if first + visible < len(rows):
        _arrow(surface, (middle, rect.y + visible * row_height - 7), arrow, up=False)
    return drawn


def _arrow(surface: pygame.Surface, tip: tuple[int, int], size: int, *, up: bool) -> None:
    """A small triangle saying the list scrolls on (a shape: never in a text's way)."""
    x, y = tip
    base = y + size // 2 if up else y - size // 2
    pygame.draw.polygon(surface, DIM, [(x, y), (x - size // 2, base), (x + size // 2, base)])


def standings_table(surface: pygame.Surface, rect: pygame.Rect, header: Sequence[Sequence[str]],
                    rows: Sequence[Sequence[object]], highlight: int | None = None, size: int = READABLE) -> int:
    """A small table: first column left, the others right-aligned, each as wide
    as its widest cell. `header` gives each column's wordings, longest first:
    the first set that fits is used. Returns the height used."""
    size = max(size, READABLE)
    gap = max(12, size // 2)
    for choice in range(max(len(options) for options in header)):
        titles = [options[min(choice, len(options) - 1)] for options in header]
        widths = [max(width_of(str(row[c]), size) for row in [titles, *rows]) for c in range(1, len(titles))]
        first_width = rect.width - sum(widths) - gap * len(widths)
        if first_width >= 4 * size:
            break
    xs = [rect.x]
    right = rect.x + first_width
    for width in widths:
        right += gap + width
        xs.append(right)
    step = line_height(size) + 4
    y = rect.y
    for index, row in enumerate([titles, *rows]):
        if y + step - 4 > rect.bottom:
            break
        colour = DIM if index == 0 else (ACCENT if highlight is not None and index - 1 == highlight else TEXT)
        for column, cell in enumerate(row):
            if column == 0:
                text(surface, str(cell), (xs[0], y), size, colour, max_width=first_width - gap, min_size=size)
            else:
                text(surface, str(cell), (xs[column], y), size, colour, "topright")
        y += step
    return y - rect.y
