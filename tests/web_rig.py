"""A board for the web tests and the benchmark: the App on the virtual board, in real time, in a thread.

The thread plays the board loop's part (as `BoardLoop` does with a real
board): every few milliseconds it lets the virtual board's time catch up with
the wall clock, ticks the app (its pumps run the page's commands) and shows
its LED frame. The test's hands act through `do`, on that same thread, so the
App is only ever touched by one thread, as on the board.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import Future
from typing import Any, Callable

from damka.controller.app import App
from damka.controller.board.board_map import BoardMap
from damka.sim.virtual_board import VirtualBoard, carry_out
from waiting import DEADLINE_S, wait_until


class BoardRig:
    def __init__(self, app: App, occupied: list[str] | None = None, step_ms: int = 5) -> None:
        self.app = app
        self.board = VirtualBoard(occupied or [])
        self.step_ms = step_ms
        self._jobs: list[tuple[Callable[[], Any], Future]] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._t0 = time.monotonic()
        self.board.connect(app)
        self.thread = threading.Thread(target=self._run, name="board-rig", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                jobs, self._jobs = self._jobs, []
            for fn, future in jobs:
                try:
                    future.set_result(fn())
                except BaseException as error:  # noqa: BLE001 - handed to the waiting test
                    future.set_exception(error)
            real = int((time.monotonic() - self._t0) * 1000)
            if real > self.board.now:
                self.board.advance(real - self.board.now)
            self.app.tick(self.board.now)
            self.board.show(self.app.frame)
            time.sleep(self.step_ms / 1000)

    def do(self, fn: Callable[[], Any], timeout: float = DEADLINE_S) -> Any:
        """Run `fn` on the board's thread and return what it returns."""
        future: Future = Future()
        with self._lock:
            self._jobs.append((fn, future))
        return future.result(timeout)

    def stop(self) -> None:
        self._stop.set()
        self.thread.join(5)

    # -- hands -----------------------------------------------------------------------

    def set_up(self) -> None:
        """Put the pieces of the game on the board where the game wants them."""
        def run() -> None:
            game = self.app.board_game
            variant = game.variant
            wanted = set(BoardMap(variant).names(variant.occupancy(game.position)))
            for square in sorted(self.board.pieces - wanted):
                self.board.remove(square)
            for square in sorted(wanted - self.board.pieces):
                self.board.put(square)
        self.do(run)
        wait_until(lambda: self.do(lambda: self.app.session.phase.value) == "playing",
                   "the game to start after the pieces were set up")

    def play(self, move: Any, press: bool = True, settle_ms: int = 0) -> None:
        """Carry out `move` (an engine Move of the game now) and press the clock."""
        def run() -> None:
            session = self.app.session
            name = session.variant.geometry.name
            side = session.game.turn
            carry_out(self.board, name(move.start), [name(s) for s in move.path], [name(s) for s in move.captures],
                      step_ms=20)
            if press:
                self.board.press(side)
            if settle_ms:
                self.board.advance(settle_ms)
        self.do(run)

    def committed(self) -> int:
        return self.do(lambda: len(self.app.session.committed) if self.app.session else 0)
