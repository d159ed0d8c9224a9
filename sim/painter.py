"""How the simulator window is laid out and how it draws the board: squares,
each LED glowing in its role's colour under its square, the pieces (kings
turned over: a gold crown ring), the coordinates and the help lines. Pure
drawing: what stands where comes in as arguments; nothing here keeps state
but the layout of one board size."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Mapping

import pygame

from damka.controller.words import say
from damka.display.screen import SIZE as SCREEN_SIZE
from damka.display.widgets import DIM, TEXT
from damka.display.widgets import text as draw_text
from damka.hardware.interfaces import Role
from damka.hardware.palette import role_colour
from damka.sim.virtual_board import FILE_LETTERS

SQUARE = 60   # px: a square of the drawn board, as big as the window's height allows (up to this)
MARGIN = 28
GAP = 24
# The largest window that fits a 1366x768 laptop screen under a title bar (about 32 px)
# and over a desktop panel (about 36 px): a 12x12 board gets smaller squares.
FITS = (1366, 700)

LIGHT = (226, 204, 160)
DARK = (120, 82, 52)
FRAME = (52, 38, 28)
BACKGROUND = (24, 26, 30)

# Piece codes from `Variant.piece_at`, and how a piece is drawn.
PIECE_COLOURS: dict[str, tuple[int, int, int]] = {
    "w": (244, 240, 228), "W": (244, 240, 228), "b": (30, 30, 34), "B": (30, 30, 34), "o": (196, 150, 84),
}
UNKNOWN_PIECE = (150, 150, 150)
CROWN = (230, 180, 40)

# LED colours per role in the standard palette (the window draws the palette chosen in
# the board settings): the board's own palette (hardware/palette.py), so the
# window and its screenshots show what the board's RGB LEDs show.
ROLE_COLOURS: dict[Role, tuple[int, int, int]] = {role: role_colour(role) for role in Role}


@dataclass(frozen=True)
class WindowLayout:
    """Where the board and the screen are drawn for a board of `files` x `ranks`."""

    files: int
    ranks: int

    @property
    def square(self) -> int:
        return min(SQUARE, (FITS[1] - 2 * MARGIN) // self.ranks)

    @property
    def board_rect(self) -> pygame.Rect:
        return pygame.Rect(MARGIN, MARGIN, self.files * self.square, self.ranks * self.square)

    @property
    def screen_rect(self) -> pygame.Rect:
        return pygame.Rect(self.board_rect.right + GAP, MARGIN, *SCREEN_SIZE)

    @property
    def size(self) -> tuple[int, int]:
        return (self.screen_rect.right + MARGIN, max(self.board_rect.bottom, self.screen_rect.bottom + 200) + MARGIN)

    def square_rect(self, square: str) -> pygame.Rect:
        file = FILE_LETTERS.index(square[0])
        rank = int(square[1:]) - 1
        board = self.board_rect
        return pygame.Rect(board.x + file * self.square, board.bottom - (rank + 1) * self.square,
                           self.square, self.square)

    def square_at(self, pos: tuple[int, int]) -> str | None:
        board = self.board_rect
        if not board.collidepoint(pos):
            return None
        file = (pos[0] - board.x) // self.square
        rank = (board.bottom - 1 - pos[1]) // self.square
        return f"{FILE_LETTERS[file]}{rank + 1}"


@dataclass(frozen=True)
class BoardPicture:
    """What the board shows at one moment: its LEDs, the occupied squares,
    what each piece is (`code_of`), the playable squares, the palette, and a
    piece held in the hand at a point (or None)."""

    leds: Mapping[str, Role]
    occupied: Iterable[str]
    code_of: Callable[[str], str]
    playable: set[str]
    palette: str
    held: tuple[tuple[int, int], str] | None


def draw_board(surface: pygame.Surface, layout: WindowLayout, picture: BoardPicture) -> None:
    """The frame, the squares with their LEDs, the pieces, the LED rings on
    occupied squares, the coordinates and the piece in the hand."""
    pygame.draw.rect(surface, FRAME, layout.board_rect.inflate(16, 16), border_radius=6)
    frame = dict(picture.leds)
    for file in range(layout.files):
        for rank in range(layout.ranks):
            square = f"{FILE_LETTERS[file]}{rank + 1}"
            _draw_square(surface, layout, square, (file + rank) % 2 == 0, square in picture.playable,
                         frame.get(square), picture.palette)
    occupied = list(picture.occupied)
    for square in occupied:
        _draw_piece(surface, layout, layout.square_rect(square).center, picture.code_of(square))
    for square, role in frame.items():
        if square in occupied:
            pygame.draw.circle(surface, role_colour(role, picture.palette), layout.square_rect(square).center,
                               layout.square // 2 - 2, width=4)
    _draw_coordinates(surface, layout)
    if picture.held is not None:
        _draw_piece(surface, layout, picture.held[0], picture.held[1], lifted=True)


def draw_legend(surface: pygame.Surface, layout: WindowLayout) -> None:
    """The help lines under the screen."""
    lines = tuple(say(f"sim.help_{name}") for name in ("mouse", "shift", "clock", "keys", "menus", "set"))
    top = layout.screen_rect.bottom + 14
    y = top
    for line in lines:
        draw_text(surface, line, (layout.screen_rect.x, y), 20, TEXT if y == top else DIM)
        y += 20


def _draw_square(surface: pygame.Surface, layout: WindowLayout, square: str, dark: bool, playable: bool,
                 role: Role | None, palette: str) -> None:
    rect = layout.square_rect(square)
    size = layout.square
    base = DARK if dark else LIGHT
    if not playable:
        base = tuple(int(c * 0.75) for c in base)  # type: ignore[assignment]
    pygame.draw.rect(surface, base, rect)
    if role is not None:
        colour = role_colour(role, palette)
        glow = pygame.Surface(rect.size, pygame.SRCALPHA)
        pygame.draw.circle(glow, (*colour, 90), (size // 2, size // 2), size // 2 - 1)
        surface.blit(glow, rect)
        pygame.draw.circle(surface, colour, rect.center, size // 5)


def _draw_piece(surface: pygame.Surface, layout: WindowLayout, centre: tuple[int, int], code: str,
                lifted: bool = False) -> None:
    colour = PIECE_COLOURS.get(code, UNKNOWN_PIECE)
    radius = layout.square // 2 - 8
    if lifted:
        pygame.draw.circle(surface, (0, 0, 0), (centre[0] + 4, centre[1] + 5), radius)
    pygame.draw.circle(surface, colour, centre, radius)
    edge = (90, 90, 90) if colour[0] > 128 else (150, 150, 150)
    pygame.draw.circle(surface, edge, centre, radius, width=2)
    pygame.draw.circle(surface, edge, centre, radius - 7, width=1)
    if code in ("W", "B"):
        # A king is turned over: drawn with a crown ring.
        pygame.draw.circle(surface, CROWN, centre, radius - 10, width=4)


def _draw_coordinates(surface: pygame.Surface, layout: WindowLayout) -> None:
    board = layout.board_rect
    for file in range(layout.files):
        x = board.x + file * layout.square + layout.square // 2
        draw_text(surface, FILE_LETTERS[file], (x, board.bottom + 9), 20, DIM, "midtop")
    for rank in range(layout.ranks):
        y = board.bottom - rank * layout.square - layout.square // 2
        draw_text(surface, str(rank + 1), (board.x - 10, y), 20, DIM, "midright")
