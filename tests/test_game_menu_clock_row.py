"""The in-game menu (the menu button) offers the clock only when there is
something to do with it: "Pause the clock" while it runs, "Start the clock"
while it is paused; nothing in a game without a clock, before the clock's
first press, or after it stopped. Driven through the real App on a virtual board."""

from __future__ import annotations

from damka.controller.app import App
from damka.controller.clock.records import State
from damka.controller.game.setup import GameSetup
from damka.controller.board.board_map import BoardMap
from damka.display.screen import MenuView
from damka.hardware.interfaces import Button
from damka.sim.virtual_board import VirtualBoard


def board_for(app: App) -> VirtualBoard:
    variant = app.session.variant
    board = VirtualBoard(BoardMap(variant).names(variant.occupancy(variant.start_position())))
    board.connect(app)
    board.advance(1000)
    return board


def menu_labels(app: App, board: VirtualBoard) -> list[str]:
    board.button(Button.MENU)
    view = app.view()
    assert isinstance(view, MenuView) and view.menu.title == "Game"
    labels = [row.label for row in view.menu.visible_rows()]
    board.button(Button.MENU)  # back to the game
    return labels


def test_a_game_without_a_clock_offers_no_clock() -> None:
    app = App(setup=GameSetup("classic"), start_game=True, offer_resume=False)
    board = board_for(app)
    assert app.clock is None
    labels = menu_labels(app, board)
    assert "Continue the game" in labels
    assert not [label for label in labels if "clock" in label], labels


def test_a_clock_is_offered_to_pause_while_it_runs_and_to_start_while_paused() -> None:
    app = App(setup=GameSetup("classic", time_control="5+3"), start_game=True, offer_resume=False)
    board = board_for(app)
    assert app.clock.state is State.READY
    assert not [label for label in menu_labels(app, board) if "clock" in label]  # it starts with the first press
    board.press(1)
    assert app.clock.state is State.RUNNING
    assert [label for label in menu_labels(app, board) if "clock" in label] == ["Pause the clock"]
    app.pause_clock("board")
    assert [label for label in menu_labels(app, board) if "clock" in label] == ["Start the clock"]
