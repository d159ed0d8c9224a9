"""The App's read model (controller/app/read_model.py): one frozen snapshot of
what the App shows, whose `version` moves exactly when something shown
changes; and the readers outside the controller (the screen, the page, the
hall, DXP) take what they need from it, never from the App's session or clock.

Driven through the real App on a virtual board, with virtual time.
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from damka.controller.app import App, AppReadModel, AppState
from damka.controller.clock.records import State
from damka.controller.game.setup import GameSetup
from damka.hardware.interfaces import Button, ButtonPress
from damka.sim.virtual_board import VirtualBoard, carry_out
from test_app_clock import on_board

ROOT = Path(__file__).resolve().parent.parent
READERS = ("web", "hall", "dxp", "display")


def tournament() -> App:
    return App(setup=GameSetup("classic", mode="tournament", time_control="5"), start_game=True)


def wait(board: VirtualBoard, ms: int) -> None:
    """Let `ms` pass, then one pass of the board's loop (which ticks the App, due or not)."""
    board.advance(ms)
    board.step()


def test_the_read_model_is_frozen_and_a_copy() -> None:
    app = App()
    model = app.read_model()
    assert isinstance(model, AppReadModel) and model.state is AppState.MENU
    with pytest.raises(dataclasses.FrozenInstanceError):
        model.version = 7  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        model.state = AppState.GAME  # type: ignore[misc]
    cursor = model.view.menu.cursor  # type: ignore[union-attr]
    app.handle(ButtonPress(Button.UP, 10))                       # the cursor moves up a row
    assert model.view.menu.cursor == cursor                      # type: ignore[union-attr]
    after = app.read_model()
    assert after.view.menu.cursor == cursor - 1                  # type: ignore[union-attr]
    assert after.version == model.version + 1


def test_the_version_moves_with_a_move_a_clock_press_and_a_menu_not_an_idle_tick() -> None:
    app = tournament()
    board = on_board(app)                 # set up; the clock started by the second player's press
    assert app.read_model().game.clock_state is State.RUNNING  # type: ignore[union-attr]
    wait(board, 5000)                     # ("clock started" has been on the message line long enough)
    start = app.read_model().version

    for _ in range(5):                    # the clock runs, nothing else happens
        wait(board, 37)
    idle = app.read_model()
    assert idle.version == start
    assert idle.game is not None and idle.game.clock is not None
    assert idle.game.clock.sides[0].remaining_ms < 5 * 60_000  # (its time does run)

    carry_out(board, "c3", ["d4"])        # a move on the board, then the clock press commits it
    wait(board, 300)
    board.press(0)
    wait(board, 100)
    pressed = app.read_model()
    assert pressed.version > start
    assert [m.text for m in pressed.game.moves] == ["c3-d4"]  # type: ignore[union-attr]
    assert pressed.game.turn == 1  # type: ignore[union-attr]

    wait(board, 5)
    assert app.read_model().version == pressed.version

    app.handle(ButtonPress(Button.MENU, app.now + 10))   # the game's menu opens
    opened = app.read_model()
    assert opened.menu_open and opened.version == pressed.version + 1
    assert app.read_model().version == opened.version    # read again: the same


def test_a_casual_move_moves_the_version_once_it_is_committed() -> None:
    app = App(setup=GameSetup("classic", mode="casual"), start_game=True)
    board = on_board(app, start_clock=False)
    wait(board, 5000)
    start = app.read_model()
    assert start.game is not None and start.game.moves == ()
    carry_out(board, "c3", ["d4"])
    wait(board, 400)                      # quiet for longer than the settle time: committed
    moved = app.read_model()
    assert [m.text for m in moved.game.moves] == ["c3-d4"]  # type: ignore[union-attr]
    assert moved.version > start.version and moved.frame != start.frame
    wait(board, 50)
    assert app.read_model().version == moved.version


def test_the_arbiter_adjusting_a_running_clock_moves_the_version() -> None:
    app = tournament()
    on_board(app)
    before = app.read_model().version
    app.adjust_clock(0, 30_000, "page")
    assert app.read_model().version == before + 1


def _reads_of_session_or_clock(path: Path) -> list[str]:
    """`app.session`, `app.clock`, `self.app.session`, ...: the App's innards read from outside."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not (isinstance(node, ast.Attribute) and node.attr in ("session", "clock", "built", "games")):
            continue
        owner = node.value
        name = owner.id if isinstance(owner, ast.Name) else owner.attr if isinstance(owner, ast.Attribute) else ""
        if name == "app":
            found.append(f"{path.relative_to(ROOT)}:{node.lineno} app.{node.attr}")
    return found


def test_the_readers_take_the_app_from_its_read_model() -> None:
    files = [path for folder in READERS for path in sorted((ROOT / folder).rglob("*.py"))]
    assert len(files) >= 40, f"found {len(files)} reader modules: moved?"
    for folder in READERS:
        assert any(path.is_relative_to(ROOT / folder) for path in files), folder
    assert [hit for path in files for hit in _reads_of_session_or_clock(path)] == []
    readers = [path for path in files if "read_model()" in path.read_text(encoding="utf-8")]
    assert {path.parent.name for path in readers} >= {"web", "dxp", "display"}


def test_a_line_set_from_outside_moves_the_version_and_reading_twice_does_not() -> None:
    app = App()
    first = app.read_model().version
    app.banner = "pairing code 1234"          # (the page's driver sets it)
    seen = app.read_model()
    assert seen.version == first + 1 and "1234" in seen.view.subtitle  # type: ignore[union-attr]
    app.notice = "names did not fit"
    assert app.read_model().version == first + 2
    assert app.read_model().version == first + 2
