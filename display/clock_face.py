"""Clock faces for 2, 3 and 4 sides, drawn with pygame onto a given surface.

The face draws a `ClockView` (from `Clock.view(now)`); it keeps no state and
reads no time. Sizes follow the surface, so the Pi's small screen (480x320)
and the simulator's window use the same code. Only pygame's default font is
used (`pygame.font.Font(None, size)`): no font files.

Layout: one panel per side in turn order (two sides: left and right; three:
two above, one below; four: clockwise from the top left, as they sit round the
board; on a surface too narrow for two columns, one under the other) and a
message line at the bottom. A panel tall enough is a tile (name and score
above the time, the footer below); a short one is a band (name and footer
on the left, the time on the right). No text is drawn smaller than
`widgets.READABLE` (14 px glyphs): what does not fit is left off. A panel shows the name and score
(small points), the time (big; tenths in the last 20 s), whose turn it is
(the highlight colour), a flag (flag colour marker; the time in the flag
colour once the side is out of time), and a line with the move counter, the
stage and moves to the next control, byo-yomi periods or the running delay.
The message line shows the arbiter's or the session's message, and PAUSED or
GAME OVER.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import pygame

from damka.controller.clock.view import ClockView, SideView, format_time
from damka.controller.words import say
from damka.display import widgets
from damka.display.widgets import READABLE

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
_cached_font = widgets._cached_font  # one font cache for the face and the screen (tests clear it by this name)
MESSAGE_SHARE = 0.15  # the message line's share of the height
MARGIN = 6
MIN_TILE_WIDTH = 130     # narrower than this a side's panel goes under the other's
MIN_COLUMN_WIDTH = 200   # 3-4 sides: two columns need name, score, time and moves side by side


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


def panel_rects(size: tuple[int, int], sides: int, *, message: bool = True) -> list[pygame.Rect]:
    """The panels of `sides` sides on a surface of `size`, in turn order: two
    sides left and right; three: two above, one below; four: clockwise from
    the top left. Too narrow for two columns (a portrait screen): one panel
    under the other."""
    width, height = size
    top = height - message_height(size) if message else height
    if not 2 <= sides <= 4:
        raise ValueError(f"a clock face has 2 to 4 sides, not {sides}")
    half_w, half_h = width // 2, top // 2
    if half_w < (MIN_TILE_WIDTH if sides == 2 else MIN_COLUMN_WIDTH):
        row = top // sides
        cells = [(0, i * row, width, row if i < sides - 1 else top - i * row) for i in range(sides)]
    elif sides == 2:
        cells = [(0, 0, half_w, top), (half_w, 0, width - half_w, top)]
    elif sides == 3:
        cells = [(0, 0, half_w, half_h), (half_w, 0, width - half_w, half_h), (0, half_h, width, top - half_h)]
    else:
        cells = [(0, 0, half_w, half_h), (half_w, 0, width - half_w, half_h),
                 (half_w, half_h, width - half_w, top - half_h), (0, half_h, half_w, top - half_h)]
    return [pygame.Rect(x, y, w, h).inflate(-MARGIN, -MARGIN) for x, y, w, h in cells]


def message_height(size: tuple[int, int]) -> int:
    """The message line's height: a share of the face, never less than one readable line."""
    return max(int(size[1] * MESSAGE_SHARE), widgets.line_height(READABLE) + 3 * MARGIN)


def _footer_parts(side: SideView, view: ClockView) -> list[str]:
    """The panel's last line, most important first: what does not fit is left off."""
    if side.out:
        return [say("clock.out")]
    parts = [say("clock.moves", count=side.moves)]
    if side.active and view.moves_per_turn > 1:
        parts.append(say("clock.move_of", number=view.turn_moves + 1, of=view.moves_per_turn))
    if side.stages > 1:
        stage = say("clock.stage", number=min(side.stage, side.stages - 1) + 1, of=side.stages)
        if side.turns_to_control is not None:
            stage += say("clock.to_go_after", count=side.turns_to_control)
        parts.append(stage)
    elif side.turns_to_control is not None:
        parts.append(say("clock.to_go", count=side.turns_to_control))
    if side.periods and not side.flagged:
        parts.append(say("clock.byoyomi", count=side.periods))
    if side.delay_ms:
        parts.append(say("clock.delay", time=format_time(side.delay_ms)))
    return parts


def _footer_text(side: SideView, view: ClockView, size: int = READABLE, width: int | None = None) -> str:
    parts = _footer_parts(side, view)
    while width is not None and len(parts) > 1 and widgets.width_of("  ".join(parts), size) > width:
        parts.pop()
    return "  ".join(parts)


def _draw_flag(surface: pygame.Surface, box: pygame.Rect, color: Color) -> None:
    pole = pygame.Rect(box.left, box.top, max(2, box.width // 8), box.height)
    pygame.draw.rect(surface, color, pole)
    pygame.draw.polygon(surface, color, [(pole.right, box.top), (box.right, box.top + box.height // 4),
                                         (pole.right, box.top + box.height // 2)])


def _parts(inner: pygame.Rect, label: int) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect]:
    """Header, time and footer boxes of a panel: a tile (header above the time,
    footer below) when it is tall enough, else a band (name and footer on the
    left, the time on the right)."""
    line = widgets.line_height(label)
    if inner.height >= 2 * line + max(line * 3 // 2, inner.height // 3):
        header = pygame.Rect(inner.left, inner.top, inner.width, line)
        footer = pygame.Rect(inner.left, inner.bottom - line, inner.width, line)
        return header, pygame.Rect(inner.left, header.bottom, inner.width, footer.top - header.bottom), footer
    time_width = min(inner.width * 2 // 5, inner.height * 3)
    left = inner.width - time_width - MARGIN
    header = pygame.Rect(inner.left, inner.top, left, line)
    footer = pygame.Rect(inner.left, max(header.bottom, inner.bottom - line), left, line)
    return header, pygame.Rect(inner.right - time_width, inner.top, time_width, inner.height), footer


def _draw_panel(surface: pygame.Surface, rect: pygame.Rect, side: SideView, view: ClockView, name: str | Sequence[str],
                score: int | None, theme: ClockTheme, text_size: int) -> PanelRegions:
    fill = theme.out if side.out else theme.active if side.active else theme.panel
    pygame.draw.rect(surface, fill, rect, border_radius=8)
    if side.flagged:
        pygame.draw.rect(surface, theme.flag, rect, width=3, border_radius=8)
    pad = max(5, min(rect.height // 20, 12))
    inner = rect.inflate(-2 * pad, -2 * pad)
    label = max(text_size, READABLE, min(inner.height // 6, rect.width // 9))
    header, time_box, footer = _parts(inner, label)
    flag_box = pygame.Rect(header.right - header.height, header.top, header.height, header.height)

    text_color = theme.dim if side.out else theme.text
    right = flag_box.left - pad if side.flagged else header.right
    if score is not None:
        words = widgets.first_fitting([say("screen.points", score=score), str(score)], label, max(0, (right - header.left) // 3))
        right = widgets.text(surface, words, (right, header.top), label, text_color, "topright").left - pad
    wordings = [name] if isinstance(name, str) else list(name)
    widgets.text(surface, widgets.first_fitting(wordings, label, right - header.left), header.topleft, label, text_color,
                 max_width=right - header.left)
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
    time_size = widgets.fit_size(widest, time_box.height * 3 // 2, time_box.width, time_box.height)
    widgets.text(surface, time_text, time_box.center, time_size, time_color, "center")

    footer_text = _footer_text(side, view, label, footer.width)
    widgets.text(surface, footer_text, footer.topleft, label, text_color if side.active else theme.dim,
                 max_width=footer.width)
    return PanelRegions(rect, time_box, header, footer, flag_box)


def status_text(view: ClockView, message: str = "") -> str:
    """The message line: the message, after PAUSED / GAME OVER / READY when the clock is not running."""
    state = say(f"clock.{view.state}") if view.state in ("paused", "finished", "ready") else ""
    return "  ".join(part for part in (state, message) if part)


def draw_clock_face(surface: pygame.Surface, view: ClockView, *, names: Sequence[str | Sequence[str]] | None = None,
                    scores: Sequence[int] | None = None, message: str = "", message_line: bool = True,
                    text_size: int = READABLE, theme: ClockTheme = DEFAULT_THEME) -> FaceRegions:
    """Draw the whole face onto `surface`; returns where each part went.
    `message_line=False` leaves the message line out (the board's screen shows
    the clock's state in its own status line); `text_size`: the smallest font
    size of names, scores and footers (the screen's, on a big panel). A name may be its wordings,
    longest first ("Ala (White)", "Ala"): the first that fits its panel is drawn."""
    count = len(view.sides)
    names = list(names) if names is not None else [say("side.numbered", number=i + 1) for i in range(count)]
    if len(names) != count or (scores is not None and len(scores) != count):
        raise ValueError(f"{count} sides need {count} names and scores")
    surface.fill(theme.background)
    size = surface.get_size()
    panels = tuple(
        _draw_panel(surface, rect, side, view, names[i], None if scores is None else scores[i], theme,
                    text_size)
        for i, (rect, side) in enumerate(zip(panel_rects(size, count, message=message_line), view.sides)))
    if not message_line:
        return FaceRegions(panels, pygame.Rect(0, size[1], size[0], 0))
    height = message_height(size)
    line = pygame.Rect(0, size[1] - height, size[0], height).inflate(-MARGIN, -MARGIN)
    pygame.draw.rect(surface, theme.paused if view.paused else theme.message, line, border_radius=6)
    text = status_text(view, message)
    if text:
        box = line.inflate(-2 * MARGIN, 0)
        colour = theme.background if view.paused else theme.text
        text_size = widgets.fit_size(text, box.height, box.width, box.height)
        widgets.text(surface, text, box.midleft, text_size, colour, "midleft", max_width=box.width)
    return FaceRegions(panels, line)
