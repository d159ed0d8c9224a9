"""The board as a maker builds it, driven only by its buttons.

A complete 4-player multiwarcaby game on the virtual board: the game, the
players and the clock chosen in the menus, every turn played by moving the
pieces and ended by that side's own button, the standings read at the end:

- on the full board: four side buttons and the rotary encoder (turn: up and
  down, push: ok);
- on the minimal six-button board (two clocks, hint, take back, menu, ok):
  the clock buttons move between menu rows; the two sides without a button of
  their own end their turns with ok.

Nothing but `VirtualBoard.press(side)` / `.button(name)` and hands on the
pieces reaches the real App and its real menus; the screen (`App.view()`) is
read as a player reads it. The game is a fixed sequence of legal turns drawn
with a seed, the way tests/test_session_multiwarcaby.py plays.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable

from damka.controller.app import App, AppState
from damka.controller.session import Phase
from damka.controller.board.board_map import BoardMap
from damka.controller.app.views import MenuView, ResultView
from damka.sim.virtual_board import VirtualBoard, carry_out
from test_session_rig import two_move_turn


@dataclass
class Board:
    """Which buttons a board has, and what a player does with them in a menu."""

    name: str
    side_buttons: int
    up: Callable[[VirtualBoard], None]
    down: Callable[[VirtualBoard], None]
    ok: Callable[[VirtualBoard], None]


FULL = Board("four side buttons and an encoder", 4, up=lambda b: b.button("up"),
             down=lambda b: b.button("down"), ok=lambda b: b.button("ok"))
MINIMAL = Board("six buttons", 2, up=lambda b: b.press(0), down=lambda b: b.press(1), ok=lambda b: b.button("ok"))


def shown_menu(app: App) -> MenuView:
    view = app.view()
    assert isinstance(view, MenuView), f"a menu should show, not {type(view).__name__}"
    return view


def go_to_row(app: App, board: VirtualBoard, kit: Board, key: str) -> None:
    """Move the cursor (the highlighted row on the screen) to the row `key`."""
    for _ in range(30):
        menu = shown_menu(app).menu
        rows = [row.key for row in menu.visible_rows()]
        assert key in rows, f"no row {key!r} in {rows}"
        if rows[menu.cursor] == key:
            return
        (kit.down if rows.index(key) > menu.cursor else kit.up)(board)
        board.advance(100)
    raise AssertionError(f"the cursor never reached {key!r}")


def set_row(app: App, board: VirtualBoard, kit: Board, key: str, value: str) -> None:
    """ok on a setting steps its value on: press until the screen shows `value`."""
    go_to_row(app, board, kit, key)
    for _ in range(40):
        if shown_menu(app).menu.current.value == value:
            return
        kit.ok(board)
        board.advance(100)
    raise AssertionError(f"{key} never showed {value!r}")


def set_up_pieces(app: App, board: VirtualBoard) -> None:
    """The board lights the start position: a player puts each piece on it."""
    game = app.session.game
    for square in BoardMap(game.variant).names(game.variant.occupancy(game.position)):
        if square not in board.pieces:
            board.put(square)
            board.advance(20)
    board.advance(1000)


def next_turn(app: App, rng: random.Random):
    """Two legal moves whose board is not also one single move (that would read as half a turn)."""
    return two_move_turn(app.session, rng)


def end_turn(app: App, board: VirtualBoard, kit: Board, side: int) -> None:
    """The side's own button; on the minimal board a side without one presses ok."""
    if side < kit.side_buttons:
        board.press(side)
    else:
        kit.ok(board)


def play_to_the_end(app: App, board: VirtualBoard, kit: Board, seed: int) -> tuple[int, set[int]]:
    rng = random.Random(seed)
    name = app.session.variant.geometry.name
    turns, enders = 0, set()
    while app.state is AppState.GAME:
        assert turns < 400, "the game should end"
        first, second = next_turn(app, rng)
        side = app.session.game.turn
        for move in (first, second):
            carry_out(board, name(move.start), [name(s) for s in move.path], [name(s) for s in move.captures])
            board.advance(300)
        before = app.session.game.ply
        end_turn(app, board, kit, side)
        board.advance(200)
        assert app.state is AppState.RESULT or app.session.game.ply == before + 2, app.session.message
        turns += 1
        enders.add(side)
    return turns, enders


def play_a_four_player_game(kit: Board) -> tuple[App, ResultView, int]:
    app = App(seed=3, side_buttons=kit.side_buttons)
    board = VirtualBoard()  # an empty board: the menu shows
    board.connect(app)
    assert shown_menu(app).menu.title == "New game"
    set_row(app, board, kit, "variant", "multiwarcaby")
    set_row(app, board, kit, "sides", "4")
    set_row(app, board, kit, "mode", "casual")
    set_row(app, board, kit, "time_control", "casual")  # the game's casual clock: multiwarcaby-4
    go_to_row(app, board, kit, "start")
    kit.ok(board)
    board.advance(100)
    assert app.state is AppState.GAME and len(app.session.variant.sides) == 4
    assert app.setup.time_control == "casual" and app.clock is not None
    set_up_pieces(app, board)
    assert app.session.phase is Phase.PLAYING
    turns, enders = play_to_the_end(app, board, kit, seed=11)
    assert enders == {0, 1, 2, 3}
    view = app.view()
    assert isinstance(view, ResultView)
    return app, view, turns


def read_standings(view: ResultView) -> list[tuple[str, float, int]]:
    return [(s.name, s.points, s.small_points) for s in view.standings]


def test_a_four_player_game_with_four_side_buttons_and_the_encoder() -> None:
    app, view, turns = play_a_four_player_game(FULL)
    standings = read_standings(view)
    assert len(standings) == 4 and all(games == 1 for games in (s.games for s in view.standings))
    assert view.by_small_points
    best = max(standings, key=lambda s: s[2])
    assert view.title == f"{best[0]} wins"  # the screen names the player with the most small points
    assert [s[2] for s in standings] == list(app.session.scores) and sum(app.session.scores) > 0
    assert [s[0] for s in standings] == ["Player 1", "Player 2", "Player 3", "Player 4"]
    assert turns > 20 and app.session.game.ply == 2 * turns
    # The result screen's footer: "ok: next game   menu: menu". The menu button goes back to the menus.
    assert view.footer == "ok: next game   menu: menu"
    board = VirtualBoard(app.occupied)
    board.connect(app)
    board.button("menu")
    assert shown_menu(app).menu.title == "New game"


def test_the_same_game_on_the_minimal_six_button_board() -> None:
    app, view, turns = play_a_four_player_game(MINIMAL)
    full_app, full_view, full_turns = play_a_four_player_game(FULL)
    assert read_standings(view) == read_standings(full_view) and turns == full_turns  # the same game


def test_clock_buttons_reach_resign_in_the_game_menu_on_the_minimal_board() -> None:
    app = App(seed=3, side_buttons=2)
    board = VirtualBoard()
    board.connect(app)
    set_row(app, board, MINIMAL, "variant", "classic")
    go_to_row(app, board, MINIMAL, "start")
    MINIMAL.ok(board)
    set_up_pieces(app, board)
    board.button("menu")
    assert shown_menu(app).menu.title == "Game"
    go_to_row(app, board, MINIMAL, "resign")
    MINIMAL.ok(board)
    view = app.view()
    assert isinstance(view, ResultView) and "resign" in view.reason
