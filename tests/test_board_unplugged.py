"""`damka run` on a serial board whose device is not there: the board's screen
says which device is missing and what to do, the loop keeps trying, and the
game goes on when the device appears, without a restart. The same when the
cable is pulled in the middle of a game: the game is kept.

Real things: the board config names a port that does not exist; the firmware
runs on a pty (`PtyBoard`) that is made to appear at that port by a symlink,
the way udev's /dev/serial/by-id links appear when a board is plugged in. The
loop runs on its own thread at real (monotonic) time; every check waits for a
condition with a generous deadline.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable

import pytest

pytest.importorskip("serial")
if sys.platform == "win32":
    pytest.skip("ptys are POSIX only", allow_module_level=True)

from damka.commands.run import board_loop  # noqa: E402
from damka.controller.app import App  # noqa: E402
from damka.controller.game.setup import GameSetup  # noqa: E402
from damka.controller.board.board_map import BoardMap  # noqa: E402
from damka.controller.app.views import GameView, MenuView  # noqa: E402
from damka.hardware.backends import open_board  # noqa: E402
from damka.config import load_config  # noqa: E402
from damka.hardware.pty_device import PtyBoard  # noqa: E402

WAIT_S = 20.0  # a loaded 2-core CI machine makes this slow, never red


def wait_for(what: str, predicate: Callable[[], bool], timeout: float = WAIT_S) -> None:
    end = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > end:
            raise AssertionError(f"timed out after {timeout} s waiting until {what}")
        time.sleep(0.005)


class Running:
    """`damka run`'s board loop on its own thread; the last view it drew, and what it printed."""

    def __init__(self, app: App, board, config) -> None:
        self.app = app
        self.lock = threading.Lock()
        self.view = None
        self.stop = threading.Event()
        self.error: BaseException | None = None
        self.loop = board_loop(app, board, config, now_ms=lambda: time.monotonic_ns() // 1_000_000,
                               draw=self._drawn)
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _drawn(self, view) -> None:
        with self.lock:
            self.view = view

    def _run(self) -> None:
        try:
            self.loop.run(time.sleep, should_stop=self.stop.is_set)
        except BaseException as error:  # the test says so instead of hanging
            self.error = error

    def screen_words(self) -> str:
        assert self.error is None, self.error
        with self.lock:
            view = self.view
        if isinstance(view, GameView):
            return " | ".join([view.status, *view.messages])
        if isinstance(view, MenuView):
            return f"{view.menu.title} | {view.subtitle}"
        return ""

    def ply(self) -> int:
        session = self.app.session
        return session.game.ply if session is not None else -1


@pytest.fixture
def port(tmp_path):
    return tmp_path / "ttyACM0"


@pytest.fixture
def config(tmp_path, port):
    path = tmp_path / "board.toml"
    path.write_text(f'[board]\nbackend = "serial"\n[serial]\nport = "{port}"\n')
    return load_config(path)


def test_a_board_not_plugged_in_says_so_and_plays_once_it_is(config, port, capfd):
    app = App(setup=GameSetup("classic"), start_game=True, offer_resume=False)
    layout = config.layout()
    game = app.board_game
    start = BoardMap(game.variant).names(game.variant.occupancy(game.position))
    missing = f"Board not connected: {port} \u2014 plug in the board's USB cable"
    device = None
    with open_board(config) as board:
        running = Running(app, board, config)
        running.thread.start()
        try:
            wait_for("the screen says the board is not connected", lambda: missing in running.screen_words())
            assert app.session is not None and app.session.game.ply == 0
            assert "Set up the pieces" in running.screen_words()  # no reading yet: not an empty board

            device = PtyBoard()
            device.matrix.set(layout.cell(square) for square in start)
            os.symlink(device.port, port)  # plugged in: the port appears
            wait_for("the game sees the pieces, and the warning is gone",
                     lambda: missing not in running.screen_words() and "White to move" in running.screen_words())

            device.matrix.set(layout.cell(square) for square in (set(start) - {"c3"}) | {"d4"})
            wait_for("c3-d4 is played", lambda: running.ply() == 1)

            device.unplug()  # the cable pulled in the middle of the game
            wait_for("the screen says the board is not connected again", lambda: missing in running.screen_words())
            assert running.ply() == 1 and "Black to move" in running.screen_words()  # the game is kept

            device.replug()  # the same port comes back (the firmware restarted)
            wait_for("the warning is gone again", lambda: missing not in running.screen_words())
            device.matrix.set(layout.cell(square) for square in (set(start) - {"c3", "f6"}) | {"d4", "e5"})
            wait_for("black's f6-e5 is played after the replug", lambda: running.ply() == 2)
            assert [move.text for move in app.session.committed] == ["c3-d4", "f6-e5"]
        finally:
            running.stop.set()
            running.thread.join(10)
            if device is not None:
                device.close()
    err = capfd.readouterr().err
    assert err.count(missing) == 2 and err.count("board connected") == 2, err


def test_a_port_that_is_not_there_is_not_waited_for(config, port, monkeypatch):
    """Issue 38: `damka run` said nothing while it waited for the first snapshot of a board whose port
    does not exist. The start waits for a board that is plugged in (here: as long as 10 minutes), not
    for a port that is not there: it opens at once, and its first word is that the board is missing."""
    from damka.hardware import backend_serial
    from damka.hardware.serial_link import SerialLink

    monkeypatch.setattr(backend_serial, "SYNC_WAIT_S", 600.0, raising=False)
    waits = SerialLink.wait_synced   # (the start before the fix waited here, 2 s: as long as 10 minutes now)
    monkeypatch.setattr(SerialLink, "wait_synced", lambda link, timeout: waits(link, 600.0))
    opened: list = []
    thread = threading.Thread(target=lambda: opened.append(open_board(config)), daemon=True)
    thread.start()
    wait_for("the board to open without waiting for the missing port", lambda: bool(opened))
    with opened[0] as board:
        assert board.missing() == str(port)
