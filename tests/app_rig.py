"""The App on a virtual board set up with the game's start position, shared by
the app tests. It holds no tests itself."""

from __future__ import annotations

from damka.controller.app import App, AppState
from damka.controller.board.board_map import BoardMap
from damka.hardware.interfaces import Button
from damka.sim.virtual_board import VirtualBoard, carry_out


def start_squares(variant) -> list[str]:
    return BoardMap(variant).names(variant.occupancy(variant.start_position()))


def on_board(app: App, settle_ms: int = 1000) -> VirtualBoard:
    """A virtual board holding the game's start position, driving `app`, after `settle_ms`: the
    Damka board's 9x9, or as large as the game's board (10x10, 12x12) as the simulator draws it."""
    geometry = app.session.variant.geometry
    board = VirtualBoard(start_squares(app.session.variant), files=max(9, geometry.width),
                         ranks=max(9, geometry.height))
    board.connect(app)
    board.advance(settle_ms)
    return board


def make_move(board: VirtualBoard, app: App, move, step_ms: int = 150, settle_ms: int = 2500) -> None:
    """`move` (an engine Move of the game on `app`) carried out by hand, then `settle_ms` of quiet."""
    name = app.session.variant.geometry.name
    carry_out(board, name(move.start), [name(s) for s in move.path], [name(s) for s in sorted(move.captures)],
              step_ms=step_ms)
    board.advance(settle_ms)


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
