"""The simulator window: the board as in life, beside the board's screen.

The window is only hands and eyes. Pieces sit on a `VirtualBoard` (the same
virtual board the tests drive); the board feeds the very same `App` (session,
clock, store, menus) that runs on the Pi, and shows its LED frame. The window
draws the squares, each LED glowing in its role's colour under its square,
the pieces (kings turned over: a gold crown ring), and the app's screen.

Mouse: drag a piece and drop it, or click to lift and click to drop;
shift-click takes a piece off the board (a captured piece) or puts one back.
A click or a touch on a menu row of the screen does what ok does there (a
setting steps on, an action is chosen). Keys: 1-4 the clock buttons of sides
1-4, space the clock of the side to move; h hint, t take back (in a menu: a
setting one step back), m (or Esc) menu, Enter ok, arrows up/down (and
left/right to step a menu setting back or on); F12 saves a screenshot; q quits.

A new game is set up at once (the start position, on a board of the game's
size: 10x10 and 12x12 games get a larger board); `r` sets the pieces as the
LEDs ask whenever the board differs.

Reed switches cannot see colours: what colour a piece is drawn in comes from
the engine's position whenever the board matches it, and otherwise from where
the window's hands carried each piece.

Parts: `pieces.py` (what each piece is), `painter.py` (the layout and the
drawing), `interactive.py` (the desktop window's loop and sound); this
module is the window's hands and eyes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable, Sequence

import pygame

from damka.controller.app import App
from damka.controller.board.eventlog import LogEvent, parse_side
from damka.controller.config.user_files import replace_file
from damka.controller.session import Phase
from damka.display.screen import Screen
from damka.display.touch import tap
from damka.display.widgets import DIM
from damka.engine.errors import DamkaError
from damka.hardware.interfaces import Button, Role
from damka.sim.painter import BACKGROUND, BoardPicture, WindowLayout, draw_board, draw_legend
from damka.sim.pieces import Pieces, board_size, fallback_code, start_squares
from damka.sim.virtual_board import FILE_LETTERS, VirtualBoard

class WindowError(DamkaError):
    """The window cannot be opened (no display)."""


KEY_BUTTONS = {
    pygame.K_h: Button.HINT, pygame.K_t: Button.TAKE_BACK, pygame.K_m: Button.MENU, pygame.K_ESCAPE: Button.MENU,
    pygame.K_RETURN: Button.OK, pygame.K_KP_ENTER: Button.OK, pygame.K_UP: Button.UP, pygame.K_DOWN: Button.DOWN,
}
KEY_SIDES = {pygame.K_1: 0, pygame.K_2: 1, pygame.K_3: 2, pygame.K_4: 3}


class SimWindow:
    """The window's picture and its hands. `draw()` works without a display
    (headless tests draw onto an off-screen surface and save it)."""

    def __init__(self, app: App, board: VirtualBoard) -> None:
        self.app = app
        self.board = board
        self.pieces = Pieces()
        self.pieces.sync(app, board.pieces)
        self.screen = Screen()
        self._layout()
        self.dragging: str | None = None      # square a piece was lifted from with the mouse
        self.drag_moved = False
        self.mouse = (0, 0)
        self.set_for = app.built              # the game whose start the board was set up for

    def _layout(self) -> None:
        """Where the board and the screen are drawn: follows the board's size."""
        self.layout = WindowLayout(self.board.files, self.board.ranks)
        self.files, self.ranks = self.layout.files, self.layout.ranks
        self.square = self.layout.square
        self.board_rect = self.layout.board_rect
        self.screen_rect = self.layout.screen_rect
        self.size = self.layout.size

    # -- a new game ---------------------------------------------------------------

    def follow_app(self) -> bool:
        """A new game (the menu's Start, the next game, a resumed one) is set up
        at once, as a helping hand would: a virtual board of the game's size,
        its pieces in the game's position, at the same virtual time (the app's
        clock and the session's timers never see time go back). Whether the
        window's size changed."""
        built = self.app.built
        if built is self.set_for:
            return False
        self.set_for = built
        size = self.size
        old = self.board
        files, ranks = board_size(self.app)
        self.board = VirtualBoard(start_squares(self.app), files=files, ranks=ranks,
                                  now_ms=max(old.now, self.app.now))
        self.pieces = Pieces()
        self.dragging, self.drag_moved = None, False
        self._layout()
        self.board.connect(self.app)
        self._synced()
        return self.size != size

    def update(self, elapsed_ms: int) -> None:
        """One frame of the interactive loop: virtual time follows the wall
        clock, and the app's clock (on the screen) with it. The app is ticked
        through the board, which shows its LED frame after every tick."""
        self.board.advance(elapsed_ms)
        self.board.step()
        self.follow_app()
        self._synced()

    # -- geometry -------------------------------------------------------------

    def square_rect(self, square: str) -> pygame.Rect:
        return self.layout.square_rect(square)

    def square_at(self, pos: tuple[int, int]) -> str | None:
        return self.layout.square_at(pos)

    # -- hands ----------------------------------------------------------------

    def lift(self, square: str) -> None:
        self.pieces.lift(square)
        self.board.lift(square)
        self._synced()

    def drop(self, square: str) -> None:
        self.pieces.drop(square, self._fallback_code())
        self.board.drop(square)
        self._synced()

    def remove(self, square: str) -> None:
        """Shift-click on a piece: off the board (into the box)."""
        self.pieces.remove(square)
        self.board.lift(square)
        self._synced()

    def put_back(self, square: str) -> None:
        """Shift-click on an empty square: a piece from the box."""
        self.pieces.codes[square] = self._fallback_code(square)
        self.board.put(square)
        self._synced()

    def _fallback_code(self, square: str | None = None) -> str:
        return fallback_code(self.app, square)

    def arrange(self) -> None:
        """A helping hand (key r): fix every square the LEDs point at
        (PUT_HERE: put a piece there; TAKE_AWAY: take it off), at once."""
        for square, role in sorted(self.board.leds.items()):
            if role is Role.PUT_HERE and square not in self.board.pieces:
                self.put_back(square)
            elif role is Role.TAKE_AWAY and square in self.board.pieces:
                self.remove(square)

    def _synced(self) -> None:
        self.pieces.sync(self.app, self.board.pieces)

    def apply(self, event: LogEvent) -> None:
        """One sensor-log event as a hand on the board (headless scripts)."""
        if event.kind == "up":
            centre = self.square_rect(event.arg).center  # no mouse: the hand holds it just above its square
            self.mouse = (centre[0], centre[1] - self.square // 3)
            self.lift(event.arg)
        elif event.kind == "down":
            self.drop(event.arg)
        elif event.kind == "press":
            sides = self.app.session.variant.sides if self.app.session is not None else ("white", "black")
            side = parse_side(event.arg, sides)
            if side is None:
                raise ValueError(f"{event}: no side {event.arg!r} in this game")
            self.board.press(side)
        elif event.kind == "button":
            self.board.button(event.arg)
        self._synced()

    def press_side_to_move(self) -> None:
        session = self.app.session
        if session is not None and session.phase is Phase.PLAYING:
            self.board.press(session.game.turn)

    # -- pygame events --------------------------------------------------------

    def on_event(self, event: pygame.event.Event) -> bool:
        """Handle one pygame event; False when the window should close."""
        if event.type == pygame.QUIT:
            return False
        if event.type == pygame.KEYDOWN:
            return self.on_key(event.key, event.mod)
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.on_mouse_down(event.pos, bool(pygame.key.get_mods() & pygame.KMOD_SHIFT),
                               touch=bool(getattr(event, "touch", False)))
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self.on_mouse_up(event.pos)
        elif event.type == pygame.FINGERDOWN:
            # A touch: x and y are fractions of the window. Only the screen takes
            # touches (pygame also sends the mouse events that a touch emulates).
            self.tap_screen((int(event.x * self.size[0]), int(event.y * self.size[1])))
        elif event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
            if self.dragging is not None:
                self.drag_moved = True
        self.follow_app()
        self._synced()
        return True

    def tap_screen(self, pos: tuple[int, int]) -> bool:
        """A click or touch at window point `pos`: on a menu row of the
        screen it does what ok on that row does. Whether it hit a row."""
        if not self.screen_rect.collidepoint(pos):
            return False
        local = (pos[0] - self.screen_rect.x, pos[1] - self.screen_rect.y)
        if not tap(self.screen, self.app, local, self.board.now):
            return False
        self.follow_app()
        return True

    def on_key(self, key: int, mod: int = 0) -> bool:
        if key == pygame.K_q:
            return False
        if key in KEY_SIDES:
            self.board.press(KEY_SIDES[key])
        elif key == pygame.K_SPACE:
            self.press_side_to_move()
        elif key in KEY_BUTTONS:
            self.board.button(KEY_BUTTONS[key])
        elif key in (pygame.K_LEFT, pygame.K_RIGHT):
            self.app.step_menu(-1 if key == pygame.K_LEFT else 1)
        elif key == pygame.K_r:
            self.arrange()
        self.follow_app()
        self._synced()
        return True

    def on_mouse_down(self, pos: tuple[int, int], shift: bool = False, touch: bool = False) -> None:
        """`touch`: a mouse event SDL made from a touch (the FINGERDOWN already tapped the screen)."""
        self.mouse = pos
        if not touch and self.tap_screen(pos):
            return
        square = self.square_at(pos)
        if square is None:
            return
        occupied = square in self.board.pieces
        if shift:
            self.remove(square) if occupied else self.put_back(square)
            return
        if self.pieces.in_hand:
            if not occupied:
                self.drop(square)
            return
        if occupied:
            self.lift(square)
            self.dragging = square
            self.drag_moved = False

    def on_mouse_up(self, pos: tuple[int, int]) -> None:
        square = self.square_at(pos)
        lifted_from, self.dragging = self.dragging, None
        if lifted_from is None or square is None:
            return
        if square == lifted_from and not self.drag_moved:
            return  # a click: the piece stays in the hand until the next click
        if square not in self.board.pieces and self.pieces.in_hand:
            self.drop(square)

    # -- drawing ----------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(BACKGROUND)
        held = (self.mouse, self.pieces.in_hand[-1]) if self.pieces.in_hand else None
        draw_board(surface, self.layout, BoardPicture(
            self.board.leds, self.board.pieces, self._code_of, self._playable_squares(),
            self.app.board_settings.palette, held))
        screen_surface = surface.subsurface(self.screen_rect)
        self.screen.draw(screen_surface, self.app.read_model().view)
        pygame.draw.rect(surface, DIM, self.screen_rect.inflate(4, 4), width=2)
        draw_legend(surface, self.layout)

    def _code_of(self, square: str) -> str:
        code = self.pieces.codes.get(square, "?")
        if code == "?":
            code = self._fallback_code(square)  # best guess: what stood there last in the game
        return code

    def _playable_squares(self) -> set[str]:
        game = self.app.board_game
        if game is None:
            return {f"{FILE_LETTERS[f]}{r + 1}" for f in range(self.files) for r in range(self.ranks)}
        geometry = game.variant.geometry
        return set(geometry.names_of(geometry.playable))

    def render(self) -> pygame.Surface:
        surface = pygame.Surface(self.size)
        self.draw(surface)
        return surface


def build(app: App, occupied: Iterable[str] | None = None) -> SimWindow:
    """A window on a virtual board whose pieces stand at the app's start position
    (or on `occupied`), connected to the app."""
    files, ranks = board_size(app)
    board = VirtualBoard(start_squares(app) if occupied is None else occupied, files=files, ranks=ranks,
                         now_ms=app.now)
    window = SimWindow(app, board)
    board.connect(app)
    window._synced()
    return window


def play_script(window: SimWindow, events: Sequence[LogEvent], *, settle_ms: int = 3000) -> None:
    """Play a sensor log in virtual time, then let `settle_ms` pass. The
    computer and the coach take no virtual time (`App.inline_thinking`)."""
    window.app.inline_thinking = True
    board = window.board
    start = board.now
    for event in events:
        target = start + event.time_ms
        if target > board.now:
            board.advance(target - board.now)
        window.apply(event)
    board.advance(settle_ms)
    window._synced()


def save_screenshot(window: SimWindow, path: str | Path) -> Path:
    """Save what the window shows, in the format the name's extension says;
    no missing folder is made (a typing error would leave one behind)."""
    path = Path(path)
    surface = window.render()
    try:
        replace_file(path, lambda temp: pygame.image.save(surface, str(temp)), suffix=path.suffix)
    except pygame.error as exc:
        raise WindowError(f"{path}: cannot save the screenshot: {exc}") from None
    return path
