"""Clock faces for 2, 3 and 4 sides, drawn with pygame onto a given surface.

The face draws a `ClockView` (from `Clock.view(now)`); it keeps no state and
reads no time. Sizes follow the surface, so the Pi's small screen (480x320)
and the simulator's window use the same code. Only pygame's default font is
used (`pygame.font.Font(None, size)`): no font files.

Layout: one panel per side in turn order (two sides: left and right; three:
two above, one below; four: clockwise from the top left, as they sit round the
board) and a message line at the bottom. A panel shows the name and score
(small points), the time (big; tenths in the last 20 s), whose turn it is
(the highlight colour), a flag (flag colour marker; the time in the flag
colour once the side is out of time), and a line with the move counter, the
stage and moves to the next control, byo-yomi periods or the running delay.
The message line shows the arbiter's or the session's message, and PAUSED or
GAME OVER.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

import pygame

from damka.controller.clock_view import ClockView, SideView, format_time

Color = tuple[int, int, int]


@dataclass(frozen=True)
class ClockTheme:
    """Colours of the clock face (dark, for a small bright screen)."""

    background: Color = (16, 16, 22)
    panel: Color = (46, 48, 60)
    active: Color = (28, 122, 72)
    text: Color = (242, 242, 242)
    dim: Color = (160, 162, 176)
    low_time: Color = (255, 208, 80)
    flag: Color = (226, 38, 38)
    out: Color = (30, 30, 34)
    paused: Color = (214, 150, 20)
    message: Color = (34, 34, 44)


DEFAULT_THEME = ClockTheme()
MESSAGE_SHARE = 0.15  # the message line's share of the height
MARGIN = 6


@dataclass(frozen=True)
class PanelRegions:
    """Where one side's panel and its parts were drawn (for tests and touch input)."""

    panel: pygame.Rect
    time: pygame.Rect
    header: pygame.Rect
    footer: pygame.Rect
    flag: pygame.Rect


@dataclass(frozen=True)
class FaceRegions:
    panels: tuple[PanelRegions, ...]
    message: pygame.Rect


def _font(size: int) -> pygame.font.Font:
    if not pygame.font.get_init():
        pygame.font.init()
        _cached_font.cache_clear()  # fonts made before a pygame.font.quit() are dead
    return _cached_font(max(8, size))


@lru_cache(maxsize=64)
def _cached_font(size: int) -> pygame.font.Font:
    # Fonts are costly to build and a face is drawn ten times a second: one per size.
    return pygame.font.Font(None, size)


def _fit(text: str, box: pygame.Rect, start: int) -> pygame.font.Font:
    """The largest default font (from `start` down) whose `text` fits in `box`."""
    size = start
    while size > 8:
        font = _font(size)
        width, height = font.size(text)
        if width <= box.width and height <= box.height:
            return font
        size = int(size * 0.9)
    return _font(8)


def panel_rects(size: tuple[int, int], sides: int) -> list[pygame.Rect]:
    """The panels of `sides` sides on a surface of `size`, in turn order."""
    width, height = size
    top = height - int(height * MESSAGE_SHARE)
    half_w, half_h = width // 2, top // 2
    if sides == 2:
        cells = [(0, 0, half_w, top), (half_w, 0, width - half_w, top)]
    elif sides == 3:
        cells = [(0, 0, half_w, half_h), (half_w, 0, width - half_w, half_h), (0, half_h, width, top - half_h)]
    elif sides == 4:
        cells = [(0, 0, half_w, half_h), (half_w, 0, width - half_w, half_h),
                 (half_w, half_h, width - half_w, top - half_h), (0, half_h, half_w, top - half_h)]
    else:
        raise ValueError(f"a clock face has 2 to 4 sides, not {sides}")
    return [pygame.Rect(x, y, w, h).inflate(-MARGIN, -MARGIN) for x, y, w, h in cells]


def _footer_text(side: SideView, view: ClockView) -> str:
    parts = [f"moves {side.moves}"]
    if side.active and view.moves_per_turn > 1:
        parts.append(f"move {view.turn_moves + 1}/{view.moves_per_turn}")
    if side.stages > 1:
        stage = f"stage {min(side.stage, side.stages - 1) + 1}/{side.stages}"
        if side.turns_to_control is not None:
            stage += f" ({side.turns_to_control} to go)"
        parts.append(stage)
    elif side.turns_to_control is not None:
        parts.append(f"{side.turns_to_control} to go")
    if side.periods and not side.flagged:
        parts.append(f"{side.periods}x byo-yomi")
    if side.delay_ms:
        parts.append(f"delay {format_time(side.delay_ms)}")
    if side.out:
        parts = ["OUT"]
    return "  ".join(parts)


def _draw_flag(surface: pygame.Surface, box: pygame.Rect, color: Color) -> None:
    pole = pygame.Rect(box.left, box.top, max(2, box.width // 8), box.height)
    pygame.draw.rect(surface, color, pole)
    pygame.draw.polygon(surface, color, [(pole.right, box.top), (box.right, box.top + box.height // 4),
                                         (pole.right, box.top + box.height // 2)])


def _draw_panel(surface: pygame.Surface, rect: pygame.Rect, side: SideView, view: ClockView, name: str,
                score: int | None, theme: ClockTheme) -> PanelRegions:
    fill = theme.out if side.out else theme.active if side.active else theme.panel
    pygame.draw.rect(surface, fill, rect, border_radius=8)
    if side.flagged:
        pygame.draw.rect(surface, theme.flag, rect, width=3, border_radius=8)
    pad = max(6, rect.height // 20)
    inner = rect.inflate(-2 * pad, -2 * pad)
    header = pygame.Rect(inner.left, inner.top, inner.width, max(10, inner.height // 6))
    footer = pygame.Rect(inner.left, inner.bottom - header.height, inner.width, header.height)
    time_box = pygame.Rect(inner.left, header.bottom, inner.width, footer.top - header.bottom)
    flag_box = pygame.Rect(inner.right - header.height, header.top, header.height, header.height)

    text_color = theme.dim if side.out else theme.text
    name_box = pygame.Rect(header.left, header.top, header.width * 6 // 10, header.height)
    label_font = _fit(name or "W", name_box, header.height)
    surface.blit(label_font.render(name, True, text_color), header.topleft)
    if score is not None:
        score_text = label_font.render(str(score), True, text_color)
        right = flag_box.left - pad if side.flagged else header.right
        surface.blit(score_text, score_text.get_rect(topright=(right, header.top)))
    if side.flagged:
        _draw_flag(surface, flag_box, theme.flag)

    time_text = side.text
    if side.flagged and side.remaining_ms == 0 and side.period_ms is None:
        time_color = theme.flag
    elif side.tenths or side.period_ms is not None:
        time_color = theme.low_time
    else:
        time_color = text_color
    # Sized for the widest text of its kind, so the digits do not jump as the time runs.
    widest = "8:88:88" if time_text.count(":") == 2 else "88:88"
    time_font = _fit(widest, time_box, time_box.height * 3 // 2)
    rendered = time_font.render(time_text, True, time_color)
    surface.blit(rendered, rendered.get_rect(center=time_box.center))

    footer_text = _footer_text(side, view)
    footer_font = _fit(footer_text, footer, footer.height)
    surface.blit(footer_font.render(footer_text, True, text_color if side.active else theme.dim), footer.topleft)
    return PanelRegions(rect, time_box, header, footer, flag_box)


def status_text(view: ClockView, message: str = "") -> str:
    """The message line: the message, after PAUSED / GAME OVER / READY when the clock is not running."""
    state = {"paused": "PAUSED", "finished": "GAME OVER", "ready": "READY"}.get(view.state, "")
    return "  ".join(part for part in (state, message) if part)


def draw_clock_face(surface: pygame.Surface, view: ClockView, *, names: Sequence[str] | None = None,
                    scores: Sequence[int] | None = None, message: str = "",
                    theme: ClockTheme = DEFAULT_THEME) -> FaceRegions:
    """Draw the whole face onto `surface`; returns where each part went."""
    count = len(view.sides)
    names = list(names) if names is not None else [f"Side {i + 1}" for i in range(count)]
    if len(names) != count or (scores is not None and len(scores) != count):
        raise ValueError(f"{count} sides need {count} names and scores")
    surface.fill(theme.background)
    panels = tuple(
        _draw_panel(surface, rect, side, view, names[i], None if scores is None else scores[i], theme)
        for i, (rect, side) in enumerate(zip(panel_rects(surface.get_size(), count), view.sides)))

    width, height = surface.get_size()
    line = pygame.Rect(0, height - int(height * MESSAGE_SHARE), width, int(height * MESSAGE_SHARE))
    line = line.inflate(-MARGIN, -MARGIN)
    pygame.draw.rect(surface, theme.paused if view.paused else theme.message, line, border_radius=6)
    text = status_text(view, message)
    if text:
        box = line.inflate(-2 * MARGIN, -MARGIN)
        font = _fit(text, box, box.height)
        rendered = font.render(text, True, theme.background if view.paused else theme.text)
        surface.blit(rendered, rendered.get_rect(midleft=box.midleft))
    return FaceRegions(panels, line)
