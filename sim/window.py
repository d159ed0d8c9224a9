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

Size: the simulator window's event handling, drawing of the board and its
layout share the window's geometry.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Sequence

import pygame

from damka.controller.app import App
from damka.controller.cue_sinks import ThreadedSink
from damka.controller.cues import CueListener, CueSettings
from damka.controller.eventlog import LogEvent, parse_side
from damka.controller.session import Phase
from damka.controller.tracker import BoardMap
from damka.controller.user_files import replace_file
from damka.controller.words import say
from damka.display.screen import SIZE as SCREEN_SIZE
from damka.display.screen import Screen
from damka.display.sdl_env import choose_drivers, has_desktop, no_sound
from damka.display.touch import tap
from damka.display.widgets import DIM, TEXT
from damka.engine.errors import DamkaError
from damka.display.widgets import text as draw_text
from damka.hardware.interfaces import Button, Role
from damka.hardware.palette import role_colour
from damka.sim.virtual_board import FILE_LETTERS, VirtualBoard

class WindowError(DamkaError):
    """The window cannot be opened (no display)."""


SQUARE = 60   # px: a square of the drawn board, as big as the window's height allows (up to this)
MARGIN = 28
GAP = 24
# The largest window that fits a 1366x768 laptop screen under a title bar (about 32 px)
# and over a desktop panel (about 36 px): a 12x12 board gets smaller squares.
FITS = (1366, 700)

LIGHT = (226, 204, 160)
DARK = (120, 82, 52)
OUTSIDE = (84, 64, 48)      # squares of the 9x9 board outside the game's area
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

KEY_BUTTONS = {
    pygame.K_h: Button.HINT, pygame.K_t: Button.TAKE_BACK, pygame.K_m: Button.MENU, pygame.K_ESCAPE: Button.MENU,
    pygame.K_RETURN: Button.OK, pygame.K_KP_ENTER: Button.OK, pygame.K_UP: Button.UP, pygame.K_DOWN: Button.DOWN,
}
KEY_SIDES = {pygame.K_1: 0, pygame.K_2: 1, pygame.K_3: 2, pygame.K_4: 3}


@dataclass
class Pieces:
    """What each piece on the virtual board is (a reed switch cannot tell)."""

    codes: dict[str, str] = field(default_factory=dict)
    in_hand: list[str] = field(default_factory=list)

    def lift(self, square: str) -> None:
        self.in_hand.append(self.codes.pop(square, "?"))

    def drop(self, square: str, fallback: str = "?") -> None:
        self.codes[square] = self.in_hand.pop() if self.in_hand else fallback

    def remove(self, square: str) -> None:
        self.codes.pop(square, None)

    def sync(self, app: App, occupied: frozenset[str]) -> None:
        """Take the engine's word whenever the board shows the game's position."""
        game = app.board_game
        if game is None:
            return
        variant = game.variant
        board = BoardMap(variant)
        position = game.position
        if frozenset(board.names(variant.occupancy(position))) != occupied:
            return
        self.codes = {}
        for square in occupied:
            index = variant.geometry.index(FILE_LETTERS.index(square[0]), int(square[1:]) - 1)
            self.codes[square] = variant.piece_at(position, index) or "?"
        self.in_hand.clear()


def board_size(app: App) -> tuple[int, int]:
    """Files and ranks of the physical board: 9x9, larger for 10x10 and 12x12 games."""
    game = app.board_game
    if game is None:
        return 9, 9
    geometry = game.variant.geometry
    return max(9, geometry.width), max(9, geometry.height)


def start_squares(app: App) -> list[str]:
    game = app.board_game
    if game is None:
        return []
    return BoardMap(game.variant).names(game.variant.occupancy(game.position))


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
        self.files, self.ranks = self.board.files, self.board.ranks
        self.square = min(SQUARE, (FITS[1] - 2 * MARGIN) // self.ranks)
        self.board_px = (self.files * self.square, self.ranks * self.square)
        self.board_rect = pygame.Rect(MARGIN, MARGIN, *self.board_px)
        self.screen_rect = pygame.Rect(self.board_rect.right + GAP, MARGIN, *SCREEN_SIZE)
        self.size = (self.screen_rect.right + MARGIN,
                     max(self.board_rect.bottom, self.screen_rect.bottom + 200) + MARGIN)

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
        file = FILE_LETTERS.index(square[0])
        rank = int(square[1:]) - 1
        return pygame.Rect(self.board_rect.x + file * self.square, self.board_rect.bottom - (rank + 1) * self.square,
                           self.square, self.square)

    def square_at(self, pos: tuple[int, int]) -> str | None:
        if not self.board_rect.collidepoint(pos):
            return None
        file = (pos[0] - self.board_rect.x) // self.square
        rank = (self.board_rect.bottom - 1 - pos[1]) // self.square
        return f"{FILE_LETTERS[file]}{rank + 1}"

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
        game = self.app.board_game
        if game is None:
            return "?"
        variant = game.variant
        if variant.uniform_piece is not None:
            return variant.uniform_piece
        if square is not None:
            try:
                index = variant.geometry.parse(square)
            except ValueError:
                return "?"
            for position in reversed(game.positions):
                code = variant.piece_at(position, index)
                if code:
                    return code
        return "?"

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
        pygame.draw.rect(surface, FRAME, self.board_rect.inflate(16, 16), border_radius=6)
        playable = self._playable_squares()
        frame = dict(self.board.leds)
        for file in range(self.files):
            for rank in range(self.ranks):
                square = f"{FILE_LETTERS[file]}{rank + 1}"
                self._draw_square(surface, square, (file + rank) % 2 == 0, square in playable, frame.get(square))
        for square in self.board.pieces:
            code = self.pieces.codes.get(square, "?")
            if code == "?":
                code = self._fallback_code(square)  # best guess: what stood there last in the game
            self._draw_piece(surface, self.square_rect(square).center, code)
        for square, role in frame.items():
            if square in self.board.pieces:
                pygame.draw.circle(surface, self._role_colour(role), self.square_rect(square).center, self.square // 2 - 2,
                                   width=4)
        self._draw_coordinates(surface)
        if self.pieces.in_hand:
            self._draw_piece(surface, self.mouse, self.pieces.in_hand[-1], lifted=True)
        screen_surface = surface.subsurface(self.screen_rect)
        self.screen.draw(screen_surface, self.app.read_model().view)
        pygame.draw.rect(surface, DIM, self.screen_rect.inflate(4, 4), width=2)
        self._draw_legend(surface)

    def _role_colour(self, role: Role) -> tuple[int, int, int]:
        """The LED colour in the palette chosen in the board settings, as the board shows it."""
        return role_colour(role, self.app.board_settings.palette)

    def _playable_squares(self) -> set[str]:
        game = self.app.board_game
        if game is None:
            return {f"{FILE_LETTERS[f]}{r + 1}" for f in range(self.files) for r in range(self.ranks)}
        geometry = game.variant.geometry
        return set(geometry.names_of(geometry.playable))

    def _draw_square(self, surface: pygame.Surface, square: str, dark: bool, playable: bool,
                     role: Role | None) -> None:
        rect = self.square_rect(square)
        base = DARK if dark else LIGHT
        if not playable:
            base = tuple(int(c * 0.75) for c in base)  # type: ignore[assignment]
        pygame.draw.rect(surface, base, rect)
        if role is not None:
            colour = self._role_colour(role)
            glow = pygame.Surface(rect.size, pygame.SRCALPHA)
            pygame.draw.circle(glow, (*colour, 90), (self.square // 2, self.square // 2), self.square // 2 - 1)
            surface.blit(glow, rect)
            pygame.draw.circle(surface, colour, rect.center, self.square // 5)

    def _draw_piece(self, surface: pygame.Surface, centre: tuple[int, int], code: str, lifted: bool = False) -> None:
        colour = PIECE_COLOURS.get(code, UNKNOWN_PIECE)
        radius = self.square // 2 - 8
        if lifted:
            pygame.draw.circle(surface, (0, 0, 0), (centre[0] + 4, centre[1] + 5), radius)
        pygame.draw.circle(surface, colour, centre, radius)
        edge = (90, 90, 90) if colour[0] > 128 else (150, 150, 150)
        pygame.draw.circle(surface, edge, centre, radius, width=2)
        pygame.draw.circle(surface, edge, centre, radius - 7, width=1)
        if code in ("W", "B"):
            # A king is turned over: drawn with a crown ring.
            pygame.draw.circle(surface, CROWN, centre, radius - 10, width=4)

    def _draw_coordinates(self, surface: pygame.Surface) -> None:
        for file in range(self.files):
            x = self.board_rect.x + file * self.square + self.square // 2
            draw_text(surface, FILE_LETTERS[file], (x, self.board_rect.bottom + 9), 20, DIM, "midtop")
        for rank in range(self.ranks):
            y = self.board_rect.bottom - rank * self.square - self.square // 2
            draw_text(surface, str(rank + 1), (self.board_rect.x - 10, y), 20, DIM, "midright")

    def _draw_legend(self, surface: pygame.Surface) -> None:
        lines = tuple(say(f"sim.help_{name}") for name in ("mouse", "shift", "clock", "keys", "menus", "set"))
        y = self.screen_rect.bottom + 14
        for line in lines:
            draw_text(surface, line, (self.screen_rect.x, y), 20, TEXT if y == self.screen_rect.bottom + 14 else DIM)
            y += 20

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


INVISIBLE_DRIVERS = ("offscreen", "dummy")


def attach_sound(app: App, *, wav: Path | None = None, speakers: bool = True,
                 settings: CueSettings | None = None) -> tuple[CueListener, list[ThreadedSink]]:
    """The board's cues in the simulator: through the speakers (pygame's mixer,
    when the machine has sound) and/or into a WAV file, each off the loop."""
    from damka.sim.sound import MixerPlayer, WavRecorder

    sinks: list[ThreadedSink] = []
    silent = no_sound() if speakers else None
    if silent is not None:  # not opened at all: SDL would print eight lines of ALSA's failure
        print(f"sound off: {silent}", file=sys.stderr)
    elif speakers:
        try:
            sinks.append(ThreadedSink(MixerPlayer(), name="sim-sound"))
        except pygame.error as error:
            print(f"sound off: {error}", file=sys.stderr)  # the board stays silent, as one without a buzzer
    if wav is not None:
        sinks.append(ThreadedSink(WavRecorder(wav), name="sim-wav"))
    return CueListener.attach(app, list(sinks), settings), sinks


def run_window(app: App, *, fps: int = 30, screenshot_dir: Path | None = None,
               should_stop: Callable[[], bool] = lambda: False) -> int:
    """The interactive window (needs a display) until it is closed or `should_stop()`
    (`--seconds`). Returns an exit code."""
    if not has_desktop():  # said before SDL probes for one (and prints what it lacks)
        raise WindowError(say("sim.no_desktop"))
    choose_drivers()
    try:
        pygame.display.init()
        window = build(app)
        attach_sound(app)
        display = pygame.display.set_mode(window.size)
    except pygame.error as exc:
        raise WindowError(f"cannot open the simulator window ({exc}); no display? "
                          f"try `damka sim --headless ...`") from None
    if pygame.display.get_driver() in INVISIBLE_DRIVERS and not os.environ.get("SDL_VIDEODRIVER"):
        # With no desktop SDL falls back to drawing into memory: a window
        # nobody can see would run forever, so say what is wrong instead.
        pygame.display.quit()
        raise WindowError(say("sim.no_desktop"))
    pygame.display.set_caption(say("sim.caption"))
    timer = pygame.time.Clock()
    last = pygame.time.get_ticks()
    shots = 0
    running = True
    while running and not should_stop():
        size = window.size
        for event in pygame.event.get():
            if event.type == pygame.KEYDOWN and event.key == pygame.K_F12:
                shots += 1
                target = (screenshot_dir or Path.cwd()) / f"damka-{shots:03d}.png"
                try:
                    save_screenshot(window, target)
                    app.notice = say("sim.saved", path=target)
                except WindowError as exc:
                    app.notice = str(exc)
                continue
            running = window.on_event(event) and running
        now = pygame.time.get_ticks()
        window.update(now - last)
        last = now
        if window.size != size:
            display = pygame.display.set_mode(window.size)  # a game on a larger (or smaller) board
        window.draw(display)
        pygame.display.flip()
        timer.tick(fps)
    # Only the display: fonts stay initialised (the screen's font caches keep them).
    pygame.display.quit()
    return 0

