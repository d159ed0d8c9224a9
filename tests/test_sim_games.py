"""The simulator window across games: driven as a user drives it (keys and
mouse events into the real window, headless), every change of game, whatever
the board's size, ends on a set-up board where a legal first move is taken."""

from __future__ import annotations

import itertools

import pygame
import pytest

from damka.controller.app import App, AppState
from damka.controller.session import Phase
from damka.controller.game.setup import GameSetup
from damka.engine.move import Move
from damka.sim.window import SimWindow, build

# One game per size of board: 8x8 (on the 9x9 board), 9x9 with four players, 10x10, 12x12.
GAMES = (("classic", "2"), ("multiwarcaby", "4"), ("international", "2"), ("canadian", "2"))


@pytest.fixture(autouse=True)
def pygame_display():
    pygame.display.init()
    yield


def key(window: SimWindow, name: int) -> None:
    assert window.on_event(pygame.event.Event(pygame.KEYDOWN, key=name, mod=0))


def click(window: SimWindow, pos: tuple[int, int]) -> None:
    window.on_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=pos))
    window.on_event(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=pos))


def to_row(window: SimWindow, row: str) -> None:
    menu = window.app.menu
    for _ in range(20):
        keys = [r.key for r in menu.visible_rows()]
        if menu.current.key == row:
            return
        key(window, pygame.K_DOWN if keys.index(row) > menu.cursor else pygame.K_UP)
    raise AssertionError(f"no way to row {row}")


def choose(window: SimWindow, row: str, value: str) -> None:
    to_row(window, row)
    for _ in range(20):
        if window.app.menu.row(row).value == value:
            return
        key(window, pygame.K_RIGHT)
    raise AssertionError(f"{row}: no {value}")


def new_game_from_menu(window: SimWindow, variant: str, sides: str) -> None:
    """The in-game menu (m), New game, the game and its sides, Start: by keys only."""
    app = window.app
    if app.state is AppState.GAME:
        key(window, pygame.K_m)
        while app.overlay.current.key != "new":
            key(window, pygame.K_DOWN)
        key(window, pygame.K_RETURN)
    assert app.state is AppState.MENU
    choose(window, "variant", variant)
    if sides != "2":
        choose(window, "sides", sides)
    to_row(window, "start")
    key(window, pygame.K_RETURN)


def play_first_turn(window: SimWindow) -> list[str]:
    """Carry out a legal first turn with the mouse (click-lift, click-drop,
    shift-click off the captured pieces), press the clock when the turn needs it."""
    session = window.app.session
    variant = session.variant
    position = session.game.position
    landed = None
    for _ in range(variant.moves_per_turn):
        move: Move = next(m for m in variant.legal_moves(position) if m.start != landed)
        name = variant.geometry.name
        click(window, window.square_rect(name(move.start)).center)
        window.update(100)
        click(window, window.square_rect(name(move.end)).center)
        for square in sorted(move.captures):
            window.update(100)
            window.on_mouse_down(window.square_rect(name(square)).center, shift=True)
        window.update(100)
        position = variant.play(position, move)
        landed = move.end
    if variant.moves_per_turn > 1:
        window.board.press(session.game.turn)
    window.update(1500)
    return [c.text for c in session.committed]


def test_every_change_of_board_size_leaves_a_set_up_board_that_plays() -> None:
    app = App(offer_resume=False, inline_thinking=True)
    window = build(app)
    # From each game to each other one (a game after itself too, where two pairs meet).
    order = [game for pair in itertools.permutations(GAMES, 2) for game in pair]
    for variant, sides in order:
        new_game_from_menu(window, variant, sides)
        session = app.session
        assert session.variant.name == variant and len(session.variant.sides) == int(sides)
        width, height = session.variant.board_size
        assert (window.board.files, window.board.ranks) == (max(9, width), max(9, height))
        window.update(500)
        view = app.view()
        assert session.phase is Phase.PLAYING, (variant, view.messages)
        assert view.messages == [] or "put a piece" not in view.messages[0], (variant, view.messages)
        played = play_first_turn(window)
        assert len(played) == session.variant.moves_per_turn, (variant, played, app.view().messages)


def test_the_first_game_opens_on_a_set_up_board() -> None:
    app = App(offer_resume=False, inline_thinking=True)
    window = build(app)
    assert window.board.pieces == frozenset()        # the menu: nothing to set up yet
    key(window, pygame.K_RETURN)                      # Start: classic
    pieces = window.board.pieces                      # the hands set the start position up
    assert len(pieces) == 24 and {"a1", "c3", "h8", "b6"} <= pieces and "b4" not in pieces
    window.update(400)
    view = app.view()
    assert app.session.phase is Phase.PLAYING and view.status == "White to move" and view.messages == []
    assert play_first_turn(window) == ["c3-b4"]


def test_setting_up_says_put_a_piece_on_not_back_on() -> None:
    app = App(setup=GameSetup("classic"), start_game=True, offer_resume=False)
    board = build(app, occupied=["a1", "c1"]).board
    board.advance(3000)
    assert app.view().messages == ["put a piece on e1 (21 more squares to fix)"]
    # A piece lifted in play and not put back: back on.
    window = build(App(setup=GameSetup("classic"), start_game=True, offer_resume=False))
    window.update(400)
    window.remove("a1")
    window.update(3000)
    assert window.app.view().messages[0].startswith("put a piece back on a1")


def row_point(window: SimWindow, row: str) -> tuple[int, int]:
    """A window point on the menu row `row` as the screen draws it (found by looking, not by layout)."""
    view = window.app.view()
    index = [r.key for r in view.menu.visible_rows()].index(row)
    rect = window.screen_rect
    for y in range(rect.top, rect.bottom):
        if window.screen.menu_row_at(view, (rect.width // 2, y - rect.top)) == index:
            return rect.centerx, y + 10
    raise AssertionError(f"row {row} not drawn")


def test_menus_work_by_mouse_and_touch() -> None:
    app = App(offer_resume=False, inline_thinking=True)
    window = build(app)
    click(window, row_point(window, "variant"))           # a click on a setting steps it on
    assert app.menu.row("variant").value == "classic81" and app.menu.current.key == "variant"
    click(window, row_point(window, "mode"))
    assert app.menu.row("mode").value == "learning"
    key(window, pygame.K_t)                               # the take-back key steps it back
    assert app.menu.row("mode").value == "casual"
    x, y = row_point(window, "start")                     # a touch on Start (x, y: fractions of the window)
    window.on_event(pygame.event.Event(pygame.FINGERDOWN, x=x / window.size[0], y=y / window.size[1],
                                       touch_id=0, finger_id=0, dx=0, dy=0, pressure=1))
    # The mouse event SDL makes of that touch does not press again.
    window.on_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(x, y), touch=True))
    assert app.state is AppState.GAME and app.session.variant.name == "classic81"
    assert len(window.board.pieces) == 2 * 12 and (window.board.files, window.board.ranks) == (9, 9)
    window.update(400)
    assert app.session.phase is Phase.PLAYING
    click(window, window.screen_rect.center)              # a click (a touch) on the game's screen opens its menu
    assert app.state is AppState.GAME and app.overlay is not None
    click(window, row_point(window, "new"))               # in-game menu: an action by a click
    assert app.state is AppState.MENU


def test_a_new_game_gets_a_clock_that_fits_it() -> None:
    app = App(setup=GameSetup("multiwarcaby", sides=4, time_control="multiwarcaby-4"), start_game=True,
              offer_resume=False, inline_thinking=True)
    window = build(app)
    new_game_from_menu(window, "classic", "2")
    assert app.setup.time_control == "casual" and app.clock is not None
    assert app.clock.view(app.now).sides[0].remaining_ms // 60_000 == 10   # rapid-64 (10+3), not 4+1


def test_the_interactive_loop_draws_the_larger_board(tmp_path) -> None:
    """The real loop (`run_window`): menu keys to a 12x12 game, a screenshot, quit."""
    from damka.sim.interactive import run_window

    app = App(offer_resume=False, inline_thinking=True)
    pygame.display.set_mode((10, 10))
    # Up to the first row (Game), three steps back from Classic (round to Canadian), down to Start.
    presses = [pygame.K_UP] * 12 + [pygame.K_LEFT] * 3 + [pygame.K_DOWN] * 12 + [pygame.K_RETURN, pygame.K_F12,
                                                                                  pygame.K_q]
    for name in presses:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=name, mod=0))
    assert run_window(app, screenshot_dir=tmp_path) == 0
    assert app.session.variant.board_size == (12, 12)
    shot = pygame.image.load(str(tmp_path / "damka-001.png"))
    nine = build(App(setup=GameSetup("classic"), start_game=True, offer_resume=False)).size
    assert shot.get_height() > nine[1] and shot.get_width() > nine[0]  # bigger than the 9x9 board's window
