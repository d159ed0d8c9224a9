"""An external Hub engine (Scan, `damka hub`, ...) as the board's computer opponent.

`HubOpponent` has `ComputerOpponent`'s interface (`start`/`poll`/`stop`/
`cancel`), so the session uses it exactly as Damka's own search. The engine
runs as a subprocess (`bridges/hub_client.py`); a worker thread sends it the
game (the start position and every move played, so it sees repetitions), the
time (the clock's remaining time and increment when the game has a clock,
else the time per move) and waits for its move.

If the engine cannot be started, dies, hangs (no move within its time plus a
grace period) or answers a move the rules do not allow, the opponent says so
once (`take_notices()`, which the session shows and publishes as
`EngineFellBack`), closes the engine and hands the same position to Damka's
own `ComputerOpponent` for the rest of the game: no move is lost, the board
only waits a little longer.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import Future
from typing import Any, Callable

from damka.bridges.hub_client import HubClient, HubEngineError
from damka.bridges.hub_protocol import HubBoard, HubError, find_dialect
from damka.controller.players.computer import ComputerOpponent
from damka.controller.players import Opponent, Thinking
from damka.controller.words import say
from damka.engine.game import Game
from damka.engine.move import Move
from damka.engine.variant import Variant

GRACE_S = 3.0         # beyond its own time, before an engine counts as hung
OPEN_TIMEOUT_S = 15.0  # starting the engine and the handshake
MIN_MOVE_TIME_S = 0.05

# (seconds left, increment in seconds) for a side, from the game's clock; None: no clock.
TimeLeft = Callable[[int], "tuple[float, float] | None"]


def hub_variant(variant: Variant) -> str | None:
    """The Hub name of `variant` (None: the protocol cannot name it)."""
    try:
        return find_dialect(variant.name).hub_name
    except HubError:
        return None


class HubOpponent(Opponent):
    """The computer's moves from an external Hub engine, Damka's own search as the fallback."""

    def __init__(self, variant: Variant, command: str, *, fallback: ComputerOpponent,
                 time_per_move: float | None = None, time_left: TimeLeft | None = None,
                 grace: float = GRACE_S, clock: Callable[[], float] = time.monotonic,
                 name: str = "", unavailable: str = "", cwd: str = "") -> None:
        """`name`: the engine's name in the board config (default: its program);
        `unavailable`: why it cannot play at all (e.g. no longer configured):
        the board says so once and Damka's own engine plays from the start;
        `cwd`: the engine's working directory ("": the board's own)."""
        self.variant = variant
        self.command = command
        self.cwd = cwd
        self._name = name
        self.fallback = fallback
        self.time_per_move = time_per_move if time_per_move is not None else fallback.seconds
        self.time_left = time_left
        self.grace = grace
        self.clock = clock
        dialect = hub_variant(variant)
        self._board = HubBoard(find_dialect(dialect)) if dialect else None
        self._client: HubClient | None = None
        self._failed = "" if dialect else say("engine.cannot_name", variant=variant.name)
        self._unavailable = unavailable
        if unavailable:
            self._failed = unavailable
        self._notices: list[str] = []
        self._noticed = False
        self._lock = threading.Lock()   # the dialogue with the engine: one exchange at a time
        self._future: Future | None = None
        self._game: Game | None = None
        self._whole_turn = False
        self._started = 0.0
        self._using_fallback = False
        self.engine_moves = 0           # moves the engine supplied (tests, the report)

    # -- what the session reads -------------------------------------------------

    @property
    def name(self) -> str:
        """The engine's name on the screen and in messages."""
        return self._name or (self.command.split()[0] if self.command.split() else "engine")

    @property
    def label(self) -> str:
        """Who plays the computer's side (the screen, the turn prompt): the engine while it plays."""
        return "computer" if self._failed else say("engine.label", name=self.name)

    @property
    def engine_name(self) -> str:
        """The external engine's name while it plays ("" once Damka's own engine took over)."""
        return "" if self._failed else self.name

    def keeps_own_clock_for(self, seat: int) -> bool:
        """The engine's move was timed by the engine: carrying it out counts as the
        config says, nobody's time by default (Damka's own engine, once it took
        over, is timed as the board's computer)."""
        return not self._using_fallback and not self._failed

    @property
    def failed(self) -> str:
        """Why the engine was given up ("" while it plays)."""
        return self._failed

    @property
    def level(self) -> Any:
        return self.fallback.level

    @property
    def seconds(self) -> float:
        return self.time_per_move

    def set_level(self, level: Any) -> None:
        self.fallback.set_level(level)

    def take_notices(self) -> list[str]:
        """What the board must say (the engine given up), once each."""
        if self._failed and not self._noticed:
            self._noticed = True
            why = self._unavailable if self._unavailable else say("engine.failed", error=self._failed)
            self._notices.append(say("engine.given_up", name=self.name, why=why))
        notices, self._notices = self._notices, []
        return notices

    # -- thinking -------------------------------------------------------------------

    @property
    def thinking(self) -> bool:
        if self._using_fallback:
            return self.fallback.thinking
        future = self._future
        return future is not None and not future.done()

    def start(self, game: Game, *, whole_turn: bool = False) -> None:
        """Ask the engine for `game`'s move; returns at once."""
        self.cancel()
        self._game, self._whole_turn = game.copy(), whole_turn
        self._started = self.clock()
        if self._failed:
            self._start_fallback()
            return
        self._using_fallback = False
        future: Future = Future()
        self._future = future
        level = self._level(game)  # read on the caller's (the loop's) thread, as the clock is its
        threading.Thread(target=self._run, args=(future, self._game, level), name="damka-hub-engine",
                         daemon=True).start()

    def _start_fallback(self) -> None:
        self._using_fallback = True
        assert self._game is not None
        self.fallback.start(self._game, whole_turn=self._whole_turn)

    def _run(self, future: Future, game: Game, level: tuple[dict[str, Any], float]) -> None:
        if not future.set_running_or_notify_cancel():
            return
        try:
            with self._lock:
                move = self._ask(game, *level)
        except (HubEngineError, HubError, OSError, ValueError) as error:
            future.set_exception(error)
        else:
            future.set_result(move)

    def _ask(self, game: Game, level: dict[str, Any], seconds: float) -> Move:
        assert self._board is not None
        if self._client is not None and not self._client.alive:
            raise HubEngineError(f"engine {self._client.name!r} died between moves")
        if self._client is None:
            self._client = HubClient(self.command, variant=self._board.dialect.hub_name, cwd=self.cwd, name=self.name)
            self._client.open(OPEN_TIMEOUT_S)
        board = self._board
        start = game.positions[0]
        moves, position = [], start
        for move in game.moves:
            moves.append(board.format_move(move))
            position = self.variant.play(position, move)
        reply = self._client.think(board.format_position(start), moves=moves, level=level,
                                   timeout=seconds + self.grace)
        move = board.parse_move(game.position, reply.move)
        if move not in self.variant.legal_moves(game.position):
            raise HubError(f"move {reply.move!r} is not legal in this game")
        return move

    def _level(self, game: Game) -> tuple[dict[str, Any], float]:
        """The `level` arguments and the seconds the engine may take."""
        left = self.time_left(game.turn) if self.time_left is not None else None
        if left is None:
            seconds = max(MIN_MOVE_TIME_S, self.time_per_move)
            return {"move-time": f"{seconds:.3f}"}, seconds
        remaining, increment = left
        return {"time": f"{max(0.0, remaining):.3f}", "inc": f"{increment:.3f}"}, max(0.0, remaining) + increment

    def poll(self) -> Move | tuple[Move, ...] | Thinking | None:
        """As `ComputerOpponent.poll`: never blocks; a failed engine hands over to the fallback here."""
        if self._using_fallback:
            return self.fallback.poll()
        future = self._future
        if future is None:
            return None
        if not future.done():
            return Thinking(self.clock() - self._started)
        self._future = None
        error = future.exception()
        if error is not None:
            self._give_up(str(error))
            self._start_fallback()
            return Thinking(self.clock() - self._started)
        self.engine_moves += 1
        move = future.result()
        return (move,) if self._whole_turn else move

    def _give_up(self, reason: str) -> None:
        self._failed = reason or say("engine.no_answer")
        client, self._client = self._client, None
        if client is not None:
            threading.Thread(target=client.close, name="damka-hub-close", daemon=True).start()

    def stop(self) -> None:
        """Move now: the engine is told to stop and its best move so far is delivered."""
        if self._using_fallback:
            self.fallback.stop()
        elif self._client is not None and self.thinking:
            try:
                self._client.send("stop")
            except HubEngineError:
                pass

    def cancel(self) -> None:
        """Abandon the move being worked out; it is never delivered."""
        self.fallback.cancel()
        future, self._future = self._future, None
        if future is not None and not future.done():
            self.stop_engine()
        self._using_fallback = False

    def stop_engine(self) -> None:
        client = self._client
        if client is not None:
            try:
                client.send("stop")  # the worker reads the `done` and drops it
            except HubEngineError:
                pass

    def wait(self, timeout: float | None = None) -> Move | tuple[Move, ...] | None:
        """Block until the move is ready (tools and tests)."""
        end = None if timeout is None else time.monotonic() + timeout
        while True:
            answer = self.poll()
            if not isinstance(answer, Thinking):
                return answer
            if end is not None and time.monotonic() > end:
                return None
            time.sleep(0.01)

    def close(self) -> None:
        """Cancel, stop the fallback's thread and end the engine process."""
        self.cancel()
        self.fallback.close()
        with self._lock:
            client, self._client = self._client, None
        if client is not None:
            client.close()

    close_engine = close
