"""The computer opponent, thinking off the controller's loop.

`ComputerOpponent.start(game)` hands the position to a worker thread and
returns at once; the controller's loop keeps scanning the board and calls
`poll()` (never blocks) until the move is there. `stop()` asks for the best
move found so far now (the player pressed "move now"); `cancel()` abandons
the search and discards its move (a take-back, a new game, a mode change).

Why a thread and not a process: the search is cooperative. It polls a
`stop` callable and the deadline every few dozen nodes, so a stop or a
cancel takes effect within milliseconds and still yields the best move so
far, which a killed process cannot give. A thread needs no pickling of the
variant, the position or the transposition table (which stays warm from
move to move for the whole game), and starts instantly on the Pi. The cost
is the GIL: a CPU-bound thread makes the others wait up to a switch
interval (5 ms) for it, longer on a loaded machine. So the search's stop
check, run every few milliseconds, also sleeps for zero seconds, which hands
the GIL to the loop whenever it is waiting; the loop then answers the board
at once and, doing little work, leaves the search most of one core. Tests
check that polls return at once while the search runs and that stop and
cancel end it promptly.
"""

from __future__ import annotations

import random
import threading
import time
from concurrent.futures import Future
from typing import Any, Callable

from damka.engine.game import Game
from damka.engine.levels import DEFAULT_LEVEL, Level, choose_move, find_level, make_searcher
from damka.engine.move import Move
from damka.engine.search import SearchResult
from damka.engine.variant import Position, Variant
from damka.controller.players.base import Opponent, Thinking


def _yielded() -> bool:
    """Let a waiting thread (the controller's loop) take the GIL now.

    The search calls its stop check every few milliseconds; sleeping for zero
    seconds there releases the GIL, so the loop never waits a whole switch
    interval behind the search, even on a loaded machine. True, so it reads
    as the first term of the stop check."""
    time.sleep(0)
    return True


class ComputerOpponent(Opponent):
    """Plays one side of one game at a level, thinking in a worker thread."""

    label = "computer"

    def __init__(
        self,
        variant: Variant,
        level: Level | str = DEFAULT_LEVEL,
        *,
        time_per_move: float | None = None,
        clock: Callable[[], float] = time.monotonic,
        seed: int | None = None,
    ) -> None:
        self.variant = variant
        self.level = find_level(level) if isinstance(level, str) else level
        self.time_per_move = time_per_move
        self.clock = clock
        self._random = random.Random(seed)
        self._searcher = make_searcher(variant)
        self._lock = threading.Lock()
        self._future: Future | None = None
        self._stop = threading.Event()
        self._cancel = threading.Event()
        self._thread: threading.Thread | None = None
        self._started = 0.0
        self.last_result: SearchResult | None = None

    # -- settings -------------------------------------------------------------

    def set_level(self, level: Level | str) -> None:
        self.level = find_level(level) if isinstance(level, str) else level

    @property
    def seconds(self) -> float:
        return self.level.time if self.time_per_move is None else self.time_per_move

    # -- thinking ---------------------------------------------------------------

    @property
    def thinking(self) -> bool:
        future = self._future
        return future is not None and not future.done()

    def start(self, game: Game | None = None, *, position: Position | None = None,
              history: tuple[Position, ...] = (), whole_turn: bool = False) -> None:
        """Start thinking about `game`'s position (or `position`); returns at once.

        `whole_turn`: plan every move left in the side's turn (multiwarcaby:
        both moves, the time split between them); `poll()` then gives a
        tuple of moves. A search still running is cancelled first."""
        if game is not None:
            position = game.position
            history = game.positions[:-1]
        if position is None:
            raise ValueError("start() needs a game or a position")
        self.cancel()
        if self._thread is not None and self._thread.is_alive():
            # The cancelled search is still unwinding: never share its tables.
            self._searcher = make_searcher(self.variant)
        future: Future = Future()
        stop, cancel = threading.Event(), threading.Event()
        with self._lock:
            self._future, self._stop, self._cancel = future, stop, cancel
            self._started = self.clock()
        thread = threading.Thread(
            target=self._run, args=(future, self._searcher, position, tuple(history), stop, cancel, whole_turn),
            name="damka-search", daemon=True,
        )
        self._thread = thread
        thread.start()

    def _run(self, future: Future, searcher: Any, position: Position, history: tuple,
             stop: threading.Event, cancel: threading.Event, whole_turn: bool) -> None:
        if not future.set_running_or_notify_cancel():
            return
        variant = self.variant
        try:
            results: list[SearchResult] = []
            moves_left = variant.moves_per_turn - variant.move_in_turn(position) if whole_turn else 1
            for index in range(moves_left):
                if index and (cancel.is_set() or not variant.turn_goes_on(position)):
                    break
                result = choose_move(
                    variant, position, self.level,
                    time_limit=self.seconds / moves_left, now=self.clock,
                    stop=lambda: _yielded() and (stop.is_set() or cancel.is_set()),
                    history=history, rng=self._random, searcher=searcher,
                )
                results.append(result)
                history = (*history, position)
                position = variant.play(position, result.move)
        except BaseException as error:  # handed to the caller through the future
            future.set_exception(error)
        else:
            future.set_result((results, whole_turn))

    def poll(self) -> Move | tuple[Move, ...] | Thinking | None:
        """Never blocks. The move when it is ready (once; a tuple of moves after
        `start(..., whole_turn=True)`), `Thinking` while the
        search runs, None when nothing was asked or the search was cancelled.
        An error in the search is raised here, on the caller's thread."""
        with self._lock:
            future = self._future
            cancelled = self._cancel.is_set()
        if future is None or cancelled:
            return None
        if not future.done():
            return Thinking(self.clock() - self._started)
        with self._lock:
            self._future = None
        results, whole_turn = future.result()
        self.last_result = results[0]
        if whole_turn:
            return tuple(result.move for result in results)
        return results[0].move

    def stop(self) -> None:
        """Move now: the search ends at its next check and the move it has is delivered."""
        self._stop.set()

    def cancel(self) -> None:
        """Abandon the search; its move is never delivered."""
        with self._lock:
            self._cancel.set()
            self._future = None

    def wait(self, timeout: float | None = None) -> Move | tuple[Move, ...] | None:
        """Block until the move is ready (tools and tests; not for the controller loop)."""
        with self._lock:
            future = self._future
        if future is None:
            return None
        try:
            future.result(timeout)
        except TimeoutError:
            return None
        polled = self.poll()
        return None if polled is None or isinstance(polled, Thinking) else polled

    def join(self, timeout: float | None = None) -> bool:
        """Wait for the worker thread to end (after a cancel); True when it has."""
        thread = self._thread
        if thread is None:
            return True
        thread.join(timeout)
        return not thread.is_alive()

    def close(self) -> None:
        self.cancel()
        self.join(5.0)


class SearchChooser:
    """The `controller.players.chooser.Chooser` interface backed by the search (blocking).

    For places that want a move synchronously (tools, the simulator's quick
    play); the board's own loop uses `ComputerOpponent` instead.
    """

    def __init__(self, level: Level | str = DEFAULT_LEVEL, *, time_per_move: float | None = None,
                 clock: Callable[[], float] = time.monotonic, seed: int | None = None) -> None:
        self.level = find_level(level) if isinstance(level, str) else level
        self.time_per_move = time_per_move
        self.clock = clock
        self._random = random.Random(seed)
        self._searchers: dict[int, Any] = {}

    def choose(self, variant: Variant, position: Position) -> Move:
        searcher = self._searchers.get(id(variant))
        if searcher is None:
            searcher = self._searchers[id(variant)] = make_searcher(variant)
        seconds = self.level.time if self.time_per_move is None else self.time_per_move
        return choose_move(variant, position, self.level, time_limit=seconds, now=self.clock,
                           rng=self._random, searcher=searcher).move
