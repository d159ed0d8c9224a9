"""The App on a virtual board set up with the game's start position, shared by
the app tests. It holds no tests itself."""

from __future__ import annotations

from damka.controller.app import App, AppState
from damka.controller.board.board_map import BoardMap
from damka.hardware.interfaces import Button
from damka.sim.virtual_board import VirtualBoard


def start_squares(variant) -> list[str]:
    return BoardMap(variant).names(variant.occupancy(variant.start_position()))


def on_board(app: App, settle_ms: int = 1000) -> VirtualBoard:
    """A virtual board holding the game's start position, driving `app`, after `settle_ms`."""
    board = VirtualBoard(start_squares(app.session.variant))
    board.connect(app)
    board.advance(settle_ms)
    return board


def resumed_at_board(store, pieces: set[str]) -> tuple[App, VirtualBoard]:
    """After a power cut: a new App on `store` offers the resume, the board
    holds `pieces` as they stood, OK resumes, and the board settles."""
    app = App(store=store)
    assert app.state is AppState.RESUME
    board = VirtualBoard(pieces)
    board.connect(app)
    board.button(Button.OK)
    board.advance(1500)
    return app, board
