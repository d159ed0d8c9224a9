"""The recorder when the store cannot be written: a whole game on the virtual
board while the store's disk fills, the game going on in memory, the screen
saying so, and every move stored, in order and once, when space is back."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import pytest

from disk_faults import FailingConnection, SmallDisk, small_disk  # noqa: F401 (a fixture)
from damka.controller.app import App, AppState
from damka.controller.app.recorder import RETRY_MAX_MS
from damka.controller.game.setup import GameSetup
from damka.controller.store.store import Store
from damka.controller.store.pdn import export_pdn
from damka.display.screen import GameView
from damka.engine import Game
from damka.engine.variants import find_variant
from damka.sim.virtual_board import VirtualBoard, carry_out
from app_rig import on_board


class Disk:
    """A disk the test fills and frees: a real small tmpfs, or the injected failing connection."""

    def __init__(self, folder: Path, fill: Callable[[], None], free: Callable[[], None], kind: str) -> None:
        self.folder, self.fill, self.free, self.kind = folder, fill, free, kind

    def attach(self, store: Store) -> None:
        if self.kind == "injected":
            failing = FailingConnection(store._conn)
            store._conn = failing  # type: ignore[assignment]
            self.fill = lambda: setattr(failing, "full", True)
            self.free = lambda: setattr(failing, "full", False)


@pytest.fixture(params=["tmpfs", "injected"])
def disk(request: pytest.FixtureRequest, tmp_path: Path) -> Disk:
    """Both, always: the real full file system (skipped, with its reason, only
    where mounting is impossible) and the injected failure, so the scenario
    never silently does nothing."""
    if request.param == "tmpfs":
        real: SmallDisk = request.getfixturevalue("small_disk")
        return Disk(real.path, real.fill, real.free, "tmpfs")
    return Disk(tmp_path, lambda: None, lambda: None, "injected")



def play(app: App, board: VirtualBoard, plies: int) -> list[str]:
    """Up to `plies` moves (the first legal one each time), each confirmed by
    the clock press; what the screen said about saving after each."""
    said = []
    name = app.session.variant.geometry.name
    for _ in range(plies):
        if app.state is not AppState.GAME:
            return
        move = app.session.game.legal_moves()[0]
        side = app.session.game.turn
        ply = app.session.game.ply
        carry_out(board, name(move.start), [name(s) for s in move.path], [name(s) for s in move.captures])
        board.advance(300)
        board.press(side)
        board.advance(300)
        assert app.session.game.ply == ply + 1 or app.state is AppState.RESULT
        view = app.view()
        if isinstance(view, GameView):
            said += [f"{'alert: ' if view.alert else ''}{m}" for m in view.messages if "saved" in m]
    return said


def until_saved(app: App, board: VirtualBoard) -> int:
    """Let time pass, no input, until the waiting writes are stored; how long it took (ms)."""
    waited = 0
    while app.writes.pending:
        assert waited <= RETRY_MAX_MS + 1000, "the board did not retry"
        board.advance(250)
        waited += 250
    return waited


def screen_text(app: App) -> str:
    view = app.view()
    assert isinstance(view, GameView)
    return " ".join(view.messages)


def earlier_game(store: Store) -> tuple[int, str]:
    """A game stored before: it must come through the outage byte for byte."""
    variant = find_variant("classic")
    game = Game(variant)
    for _ in range(6):
        game.push(game.legal_moves()[0])
    game_id = store.add_record(game, players=["Ala", "Ola"])
    return game_id, export_pdn(store.load_game(game_id))


def test_a_game_goes_on_while_the_disk_is_full_and_every_move_is_stored_after(disk: Disk) -> None:
    with Store(disk.folder / "games.db") as store:
        disk.attach(store)
        before_id, before_pdn = earlier_game(store)
        app = App(store=store, setup=GameSetup("classic", mode="tournament", time_control="5+3"),
                  start_game=True, offer_resume=False)
        board = on_board(app)
        play(app, board, 4)
        assert store.load_game(app.game_id).game.ply == 4

        disk.fill()
        said = play(app, board, 12)               # moves and clock checkpoints fail to be written ...
        board.advance(3000)
        assert app.state is AppState.GAME and app.session.game.ply == 16  # ... and the game goes on
        assert app.writes.failures > 0
        assert any(line.startswith("alert: The game cannot be saved") for line in said), said
        # (SQLite may fit a small write into WAL space a failed one had taken: a prefix is stored)
        assert store.load_game(app.game_id).game.moves == app.session.game.moves[:len(store.load_game(app.game_id).game.moves)]
        assert app.writes.pending

        disk.free()
        until_saved(app, board)                    # no input: the board retries on its own
        assert not app.writes.failing
        assert "saved again" in screen_text(app)
        assert store.load_game(app.game_id).game.moves == app.session.game.moves
        board.advance(10_000)
        assert "saved" not in screen_text(app)

        play(app, board, 6)
        app.menu_action("resign", "the board's menu")       # a whole game: it ends with a result
        assert app.state is AppState.RESULT
        stored = store.load_game(app.game_id)      # (load_game checks each ply is there once, in order)
        assert stored.game.moves == app.session.game.moves and stored.result is not None
        assert [m.ply for m in stored.moves] == list(range(1, 23))
        assert [g.id for g in store.list_games()] == [before_id, app.game_id]  # one record, not two
        assert export_pdn(store.load_game(before_id)) == before_pdn
        assert store.integrity_check() == "ok"


def test_a_game_begun_on_a_full_disk_is_stored_whole_once_space_is_back(disk: Disk) -> None:
    with Store(disk.folder / "games.db") as store:
        disk.attach(store)
        disk.fill()
        app = App(store=store, setup=GameSetup("russian"), start_game=True, offer_resume=False)
        board = on_board(app)
        said = play(app, board, 5)
        assert app.session.game.ply == 5 and app.writes.failures > 0 and app.writes.pending
        assert any(line.startswith("alert: The game cannot be saved") for line in said), said
        disk.free()
        until_saved(app, board)
        assert app.game_id is not None and not app.writes.pending
        assert store.load_game(app.game_id).game.moves == app.session.game.moves
        assert len(store.list_games()) == 1
