"""The simulator window, headless: each kind of game drawn, checked pixel by
pixel at square centres, and saved as documentation (docs/images/screen-*.png)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from damka.display import clock_face, widgets


def fresh_fonts() -> None:
    """Other test modules quit pygame's fonts; whichever cache starts them again
    would leave the other's fonts dead, so both caches start afresh."""
    pygame.font.init()
    widgets._cached_font.cache_clear()
    clock_face._cached_font.cache_clear()

from damka.controller.app import App, AppState
from damka.controller.board.eventlog import parse_log
from damka.controller.store.store import Store
from damka.controller.game.setup import GameSetup
from damka.display.screen import ResultView
from damka.hardware.interfaces import Button, Role
from damka.hardware.layout import Layout
from damka.hardware.leds import LedStyle
from damka.sim.painter import CROWN, PIECE_COLOURS, ROLE_COLOURS, SQUARE
from damka.sim.window import SimWindow, build, play_script, save_screenshot

ROOT = Path(__file__).resolve().parent.parent
IMAGES = ROOT / "docs" / "images"


def document(window: SimWindow, name: str) -> None:
    """Keep the screenshot as a documentation image: written when missing, or
    all again with DAMKA_UPDATE_IMAGES=1, so a test run leaves the tree clean."""
    path = IMAGES / name
    if os.environ.get("DAMKA_UPDATE_IMAGES") == "1" or not path.exists():
        save_screenshot(window, path)


@pytest.fixture(autouse=True)
def pygame_display():
    pygame.display.init()
    fresh_fonts()
    yield


def started(setup: GameSetup, **kwargs) -> SimWindow:
    app = App(setup=setup, start_game=True, offer_resume=False, **{"inline_thinking": True, **kwargs})
    window = build(app)
    window.board.advance(1500)
    return window


def centre(window: SimWindow, square: str) -> tuple[int, int]:
    return window.square_rect(square).center


def ring(window: SimWindow, square: str) -> tuple[int, int]:
    """A point on the LED ring drawn round a piece standing on `square`."""
    x, y = window.square_rect(square).center
    return x + SQUARE // 2 - 4, y


def pixel(surface: pygame.Surface, point: tuple[int, int]) -> tuple[int, int, int]:
    return tuple(surface.get_at(point))[:3]


def screen_colours(window: SimWindow, surface: pygame.Surface) -> int:
    area = surface.subsurface(window.screen_rect)
    return len({tuple(area.get_at((x, y)))[:3] for x in range(0, area.get_width(), 3)
                for y in range(0, area.get_height(), 3)})


def carry(window: SimWindow, move) -> None:
    name = window.app.session.variant.geometry.name
    window.lift(name(move.start))
    window.board.advance(100)
    window.drop(name(move.end))
    for square in sorted(move.captures):
        window.board.advance(100)
        window.remove(name(square))
    window.board.advance(100)


def test_classic_two_sides(tmp_path: Path) -> None:
    window = started(GameSetup("classic", time_control="blitz-64"))
    log = parse_log(["0 up c3", "150 down d4", "2000 up f6", "2150 down e5", "4000 up d4", "4150 down f6",
                     "4300 up e5"])
    play_script(window, log)
    surface = window.render()
    assert [c.text for c in window.app.session.committed] == ["c3-d4", "f6-e5", "d4xf6"]
    assert pixel(surface, centre(window, "f6")) == PIECE_COLOURS["w"]
    assert pixel(surface, centre(window, "a1")) == PIECE_COLOURS["w"]
    assert pixel(surface, centre(window, "h8")) == PIECE_COLOURS["b"]
    # The last move lit: its empty start square glows, a ring round the piece that landed.
    assert window.board.leds["d4"] is Role.LAST_MOVE and window.board.leds["f6"] is Role.LAST_MOVE
    assert pixel(surface, centre(window, "d4")) == ROLE_COLOURS[Role.LAST_MOVE]
    assert pixel(surface, ring(window, "f6")) == ROLE_COLOURS[Role.LAST_MOVE]
    assert pixel(surface, centre(window, "e5")) != ROLE_COLOURS[Role.LAST_MOVE]
    assert screen_colours(window, surface) > 20
    document(window, "screen-classic.png")


def test_multiwarcaby_four_players_with_scores() -> None:
    window = started(GameSetup("multiwarcaby", sides=4, time_control="casual"))
    app = window.app
    variant = app.session.variant
    for side in range(4):
        position = app.session.game.position
        landed = None
        for _ in range(2):  # two moves a turn (by two different pieces), then the side's button
            capture = next(m for m in variant.legal_moves(position) if m.captures and m.start != landed)
            carry(window, capture)
            position = variant.play(position, capture)
            landed = capture.end
        window.board.press(side)
        window.board.advance(500)
    assert app.session.game.ply == 8
    assert app.session.scores == (2, 2, 2, 2)
    surface = window.render()
    occupied = sorted(window.board.pieces)
    assert pixel(surface, centre(window, occupied[0])) == PIECE_COLOURS["o"]
    empty = sorted(window.board.squares - window.board.pieces)
    assert len(empty) == 5 + 8  # the corners and the centre, and the eight captured pieces' squares
    assert all(pixel(surface, centre(window, square)) != PIECE_COLOURS["o"] for square in empty)
    view = app.view()
    assert [side.score for side in view.sides] == [2, 2, 2, 2]
    assert screen_colours(window, surface) > 20
    document(window, "screen-multiwarcaby-4.png")


def test_learning_mode_hint() -> None:
    window = started(GameSetup("classic", mode="learning"))
    window.board.button(Button.HINT)
    leds = window.board.leds
    start = next(sq for sq, role in leds.items() if role is Role.HINT_FROM)
    end = next(sq for sq, role in leds.items() if role is Role.HINT_TO)
    surface = window.render()
    assert pixel(surface, centre(window, end)) == ROLE_COLOURS[Role.HINT_TO]   # empty square: the LED shows
    assert pixel(surface, ring(window, start)) == ROLE_COLOURS[Role.HINT_FROM]
    assert pixel(surface, centre(window, start)) == PIECE_COLOURS["w"]
    assert "hint" in window.app.session.message
    # Lifting the piece lights where it may go.
    window.lift(start)
    window.board.advance(50)
    assert Role.LEGAL_TARGET in window.board.leds.values()
    window.drop(start)
    window.board.advance(50)
    window.board.button(Button.HINT)
    document(window, "screen-learning-hint.png")


def test_tournament_clock_with_a_flag() -> None:
    # 10 turns in 3 s, then 5 min: white's flag falls in the first stage and is shown; play goes on.
    window = started(GameSetup("classic", mode="tournament", time_control="10/0.05:5"))
    app = window.app
    log = parse_log(["0 up c3", "150 down d4", "300 press white", "1000 up f6", "1150 down e5", "1300 press black"])
    play_script(window, log, settle_ms=4000)
    view = app.clock.view(app.now)
    assert view.sides[0].flagged and not view.sides[1].flagged
    assert app.state is AppState.GAME
    surface = window.render()
    # The flagged side's time is drawn in the flag colour.
    area = surface.subsurface(window.screen_rect)
    reds = sum(1 for x in range(0, area.get_width(), 2) for y in range(0, area.get_height() // 2, 2)
               if tuple(area.get_at((x, y)))[:3] == (226, 38, 38))
    assert reds > 20
    document(window, "screen-tournament-flag.png")
    # A press before any move is refused, with a message on the screen.
    window.board.press(0)
    assert "make your move" in app.session.message


def test_result_and_match_standings(tmp_path: Path) -> None:
    with Store(tmp_path / "games.db") as store:
        window = started(GameSetup("classic", colours="first"), store=store, players=["Ala", "Ola"])
        app = window.app
        for button in (Button.MENU, Button.DOWN, Button.DOWN, Button.OK):  # menu: resign
            window.board.button(button)
        assert app.state is AppState.RESULT
        view = app.view()
        assert isinstance(view, ResultView) and view.title == "Ola wins"
        assert [(s.name, s.points) for s in view.standings] == [("Ala", 0.0), ("Ola", 1.0)]
        assert view.next_first == "Next game: Ola starts"
        document(window, "screen-result.png")
        window.board.button(Button.OK)  # next game: colours swap
        assert app.state is AppState.GAME and app.game_players == ["Ola", "Ala"]
        assert store.list_games()[0].result == "0-2"


def test_each_led_role_is_drawn_in_the_boards_colour() -> None:
    """The window shows what the board's RGB LEDs show: for every role, the
    colour the board's LED output sends for it (one palette for both)."""
    board_style = LedStyle(Layout())
    roles = list(Role)
    empty = [f"{f}{r}" for r in (4, 5) for f in "abcdefghi"][:len(roles)]
    occupied = [f"{f}{r}" for r in (1, 2) for f in "abcdefghi"][:len(roles)]
    window = build(App(offer_resume=False), occupied=occupied)
    frame = {**dict(zip(empty, roles)), **dict(zip(occupied, roles))}
    window.board.show(frame)
    surface = window.render()
    for role, lit_empty, lit_piece in zip(roles, empty, occupied):
        board_colour = board_style.entry(role)[:3]
        assert pixel(surface, centre(window, lit_empty)) == board_colour, role    # the LED under an empty square
        assert pixel(surface, ring(window, lit_piece)) == board_colour, role      # the glow round a piece on it


def test_king_is_drawn_turned_over() -> None:
    window = started(GameSetup("classic"), )
    window.pieces.codes["c3"] = "W"
    surface = window.render()
    x, y = centre(window, "c3")
    radius = SQUARE // 2 - 8
    assert pixel(surface, (x + radius - 11, y)) == CROWN


def test_mouse_drag_click_and_shift_click() -> None:
    window = started(GameSetup("classic"))
    board = window.board
    window.on_mouse_down(centre(window, "c3"))
    window.mouse = centre(window, "d4")
    window.drag_moved = True
    window.on_mouse_up(centre(window, "d4"))
    board.advance(2000)
    assert "d4" in board.pieces and "c3" not in board.pieces
    assert [c.text for c in window.app.session.committed] == ["c3-d4"]
    # Click-lift, click-drop.
    window.on_mouse_down(centre(window, "f6"))
    window.on_mouse_up(centre(window, "f6"))
    assert window.pieces.in_hand and "f6" not in board.pieces
    window.on_mouse_down(centre(window, "e5"))
    window.on_mouse_up(centre(window, "e5"))
    board.advance(2000)
    assert [c.text for c in window.app.session.committed] == ["c3-d4", "f6-e5"]
    # Shift-click takes a piece off, and puts it back.
    window.on_mouse_down(centre(window, "a1"), shift=True)
    assert "a1" not in board.pieces
    window.on_mouse_down(centre(window, "a1"), shift=True)
    assert "a1" in board.pieces and window.pieces.codes["a1"] == "w"


def test_keys_drive_the_buttons_and_menus() -> None:
    app = App(offer_resume=False)
    window = build(app)
    assert app.state is AppState.MENU
    window.on_key(pygame.K_UP)        # from "Start" up to "Board settings"
    window.on_key(pygame.K_UP)        # "Colours"
    window.on_key(pygame.K_UP)        # "Clock"
    window.on_key(pygame.K_RIGHT)     # the next time control
    assert app.menu.setup().time_control == "casual"
    for _ in range(3):
        window.on_key(pygame.K_DOWN)
    window.on_key(pygame.K_RETURN)    # start
    assert app.state is AppState.GAME and app.clock is not None
    assert window.on_key(pygame.K_q) is False


def test_sim_headless_command(tmp_path: Path) -> None:
    log = tmp_path / "game.log"
    log.write_text("0 up c3\n150 down d4\n2000 up f6\n2150 down e5\n")
    shot = tmp_path / "shot.png"
    result = subprocess.run([sys.executable, "-m", "damka", "sim", "--headless", "--script", str(log),
                             "--screenshot", str(shot), "--variant", "classic", "--mode", "learning"],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert "2 moves committed" in result.stderr
    image = pygame.image.load(str(shot))
    assert image.get_width() > 900 and image.get_height() > 500


def test_sim_headless_bad_script_is_one_clear_error(tmp_path: Path) -> None:
    log = tmp_path / "bad.log"
    log.write_text("0 up c3\nabc down d4\n")
    shot = tmp_path / "shot.png"
    result = subprocess.run([sys.executable, "-m", "damka", "sim", "--headless", "--script", str(log),
                             "--screenshot", str(shot)], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "line 2" in result.stderr
    assert not shot.exists()


def test_the_interactive_loop_runs_and_quits(tmp_path: Path) -> None:
    from damka.sim.interactive import run_window

    app = App(setup=GameSetup("classic"), start_game=True, offer_resume=False)
    pygame.display.init()
    pygame.display.set_mode((10, 10))
    for key in (pygame.K_F12, pygame.K_h, pygame.K_q):
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0))
    assert run_window(app, screenshot_dir=tmp_path) == 0
    assert (tmp_path / "damka-001.png").exists()


def test_new_game_menu_and_resume_offer(tmp_path: Path) -> None:
    window = build(App(offer_resume=False))
    surface = window.render()
    assert screen_colours(window, surface) > 10
    document(window, "screen-menu.png")
    # An interrupted game: the offer, and the LEDs guiding the pieces back onto an emptied board.
    with Store(tmp_path / "games.db") as store:
        played = started(GameSetup("classic", time_control="rapid-64"), store=store)
        play_script(played, parse_log(["0 up c3", "150 down d4", "2000 up f6", "2150 down e5"]))
        saved = set(played.board.pieces)
        app = App(store=store)
        assert app.state is AppState.RESUME
        window = build(app, occupied=sorted(saved - {"d4", "e5", "a1"}) + ["c3"])
        surface = window.render()
        assert window.board.leds == {"d4": Role.PUT_HERE, "e5": Role.PUT_HERE, "a1": Role.PUT_HERE,
                                     "c3": Role.TAKE_AWAY}
        assert pixel(surface, centre(window, "d4")) == ROLE_COLOURS[Role.PUT_HERE]
        assert pixel(surface, ring(window, "c3")) == ROLE_COLOURS[Role.TAKE_AWAY]
        document(window, "screen-resume.png")


def test_sim_without_a_display_says_so_instead_of_running_invisibly(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    env["DAMKA_HOME"] = str(tmp_path)
    result = subprocess.run([sys.executable, "-m", "damka", "sim"], capture_output=True, text=True,
                            env=env, timeout=120)
    assert result.returncode == 2
    assert "no display" in result.stderr
    assert "--headless" in result.stderr


def test_the_window_draws_the_palette_chosen_in_the_board_settings() -> None:
    from dataclasses import replace

    from damka.hardware.palette import role_colour
    window = started(GameSetup("classic", time_control="casual"))
    play_script(window, parse_log(["0 up c3", "150 down d4"]))
    assert window.board.leds["c3"] is Role.LAST_MOVE
    assert pixel(window.render(), centre(window, "c3")) == role_colour(Role.LAST_MOVE, "standard")
    window.app.set_board_settings(replace(window.app.board_settings, palette="colour-blind"))
    assert pixel(window.render(), centre(window, "c3")) == role_colour(Role.LAST_MOVE, "colour-blind")
