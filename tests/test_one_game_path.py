"""One way to build a game: `damka replay` and the board loop give the same game.

The same sensor log is run through `damka replay --time-control TC` and
through the board's own loop (`BoardLoop` polling a virtual board, the App
building the game from a `GameSetup`), with time controls in every form the
parser knows. Both must commit the same moves at the same milliseconds, with
the same clock times after every turn, and end with the same result.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from damka.cli import main
from damka.controller.app import App
from damka.controller.board_loop import BoardLoop
from damka.controller.board.eventlog import read_log
from damka.controller.game.setup import GameSetup
from damka.controller.board.board_map import BoardMap
from damka.sim.virtual_board import VirtualBoard

SCENARIOS = Path(__file__).parent / "scenarios"
LOG = SCENARIOS / "classic_tournament_clock.log"


def replayed(capsys, control: str) -> tuple[list[tuple], dict]:
    assert main(["replay", "classic", str(LOG), "--mode", "tournament", "--time-control", control]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    moves = [(line["move"], line["time_ms"], tuple(line["clock"].values()) if "clock" in line else None)
             for line in lines if "ply" in line]
    return moves, lines[-1]


def on_the_board(control: str) -> App:
    """The log played on a virtual board polled by the board loop, as on the Pi."""
    app = App(setup=GameSetup("classic", mode="tournament", time_control=control), start_game=True,
              offer_resume=False)
    variant = app.session.variant
    board = VirtualBoard(BoardMap(variant).names(variant.occupancy(variant.start_position())))
    loop = BoardLoop(app, board, board, board, now_ms=lambda: board.now)
    loop.step()
    for event in read_log(str(LOG)):
        run_to(loop, app, board, event.time_ms)
        if event.kind == "up":
            board.lift(event.arg)
        elif event.kind == "down":
            board.drop(event.arg)
        elif event.kind == "press":
            board.press(variant.sides.index(event.arg))
        loop.step()
    run_to(loop, app, board, board.now + 5000)
    return app


def run_to(loop: BoardLoop, app: App, board: VirtualBoard, until: int) -> None:
    """Let virtual time pass, stepping the loop at every deadline the app asks for."""
    while True:
        due = app.next_deadline()
        if due is None or due > until:
            break
        board.now = max(board.now, due)
        loop.step()
    board.now = until


@pytest.mark.parametrize("control", ["5+3|3+3", "pdn:300+3", "50/120:25/60"])
def test_replay_and_the_board_loop_build_the_same_game(capsys, control: str) -> None:
    moves, final = replayed(capsys, control)
    app = on_the_board(control)
    session = app.session
    board_moves = [(c.text, c.time_ms, c.clock_ms) for c in session.committed]
    assert len(moves) == 26
    assert board_moves == moves
    assert final["result"] is None and session.result is None
    assert final["final"] == session.variant.format_position(session.game.position)


def test_both_paths_accept_every_form_the_board_accepts(capsys) -> None:
    # The board refused `5+3|3+3` and `pdn:300+3` while replay took them: now both build through one factory.
    for control in ("5+3|3+3", "pdn:300+3"):
        app = App(setup=GameSetup("classic", mode="tournament", time_control=control), start_game=True,
                  offer_resume=False)
        assert app.clock is not None
    handicap = App(setup=GameSetup("classic", mode="tournament", time_control="5+3|3+3"), start_game=True,
                   offer_resume=False)
    assert [side.remaining_ms for side in handicap.clock.view(0).sides] == [303000, 183000]
