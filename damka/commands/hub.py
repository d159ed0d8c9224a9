"""`damka hub`: Damka's computer player speaking the Hub protocol on stdin/stdout.

The protocol of Scan's `hub` mode (see `damka.bridges.hub_protocol` for the
syntax and notation, docs/computer.md for the commands and variants), so
draughts GUIs and pydraughts' `HubEngine` can play against Damka's engine.

The main thread reads commands; a search runs in a worker thread, so `stop`,
`ping` and `ponder-hit` are answered while it thinks. A bad line never ends
the engine: it gets one `error message="..."` line and the engine reads on.
An unknown command or parameter is not an error: the Hub protocol asks an
engine to ignore them (a newer GUI may send what this engine does not know);
each new one is noted once on stderr for whoever reads the engine's log.
"""

from __future__ import annotations

import argparse
import random
import sys
import threading
import time
from typing import Any, BinaryIO, Callable, TextIO

from damka import __version__
from damka.bridges.hub_protocol import (
    DIALECTS,
    HubBoard,
    HubError,
    SearchLimit,
    find_dialect,
    format_line,
    parse_line,
    read_level,
)
from damka.engine.levels import choose_move, find_level, level_names, make_searcher
from damka.engine.search import WIN, WIN_BOUND, SearchResult

MAX_LINE = 1 << 16  # bytes; a longer line is read in pieces, each an error
DURING_SEARCH = ("ping", "stop", "ponder-hit")  # the commands a search keeps running through
NOTED_MAX = 32  # distinct unknown commands and parameters noted on stderr (each once), then silence


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "hub",
        description="Speak the Hub protocol (Scan's hub mode) on stdin/stdout: "
        "variants normal, brazilian, russian, english, canadian.",
    )
    parser.add_argument("--level", default="master", choices=level_names(), help="playing strength (default: master)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the learner levels' random choices")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    server = HubServer(sys.stdout, level=args.level, rng=random.Random(args.seed))
    return server.serve(sys.stdin.buffer)


class HubServer:
    """One engine session: the state the commands build up, and the search thread."""

    def __init__(self, out: TextIO, *, level: str = "master", rng: random.Random | None = None,
                 now: Callable[[], float] = time.monotonic, log: TextIO | None = None) -> None:
        self._out = out
        self._log = log if log is not None else sys.stderr
        self._noted: set[str] = set()
        self._write_lock = threading.Lock()
        self._now = now
        self._rng = rng or random.Random()
        self.level = find_level(level)
        self.limit = SearchLimit(move_time=1.0)
        self._set_variant(DIALECTS[0].hub_name)
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._deadline: float | None = None  # set by ponder-hit
        self._endless = False  # the running search ends only on stop (ponder, infinite)
        self._commands: dict[str, Callable[[dict[str, str]], bool | None]] = {
            "hub": self._hub, "init": self._init, "set-param": self._set_param, "new-game": self._new_game,
            "pos": self._pos, "level": self._level, "go": self._go, "stop": self._stop_search,
            "ponder-hit": self._ponder_hit, "ping": self._ping, "quit": self._quit,
        }

    # -- the loop ---------------------------------------------------------------

    def serve(self, stdin: BinaryIO) -> int:
        """Answer lines until `quit` or the end of input; 0 always (bad input is answered, not fatal)."""
        try:
            for raw in iter(lambda: stdin.readline(MAX_LINE), b""):
                if not self.handle(raw.decode("utf-8", "replace")):
                    break
        except KeyboardInterrupt:
            pass
        finally:
            self._finish_search()
        return 0

    def handle(self, line: str) -> bool:
        """Act on one line; False when the session should end."""
        try:
            command, args = parse_line(line)
        except HubError as exc:
            self.error(str(exc))
            return True
        if not command:
            return True
        if self._thread is not None and command not in DURING_SEARCH:
            # A command that belongs after the search: a limited search is let
            # finish (scripts may pipe a whole session), an endless one is stopped;
            # either way `done` comes first.
            self._finish_search(wait=command != "quit" and not self._endless)
        action = self._commands.get(command)
        if action is None:
            self._ignore(f"command {command[:40]!r}")
            return True
        try:
            return action(args) is not False
        except HubError as exc:
            self.error(str(exc))
        except Exception as exc:  # noqa: BLE001 - the engine must outlive any bad input
            self.error(f"{command}: internal error: {type(exc).__name__}: {exc}")
        return True

    def send(self, command: str, args: dict[str, Any] | None = None, *flags: str) -> None:
        with self._write_lock:
            try:
                self._out.write(format_line(command, args, *flags) + "\n")
                self._out.flush()
            except (BrokenPipeError, ValueError):
                pass  # the GUI left; the end of input follows

    def error(self, message: str) -> None:
        self.send("error", {"message": " ".join(message.split())})

    def _ignore(self, what: str) -> None:
        """An unknown command or parameter: ignored as the protocol asks, noted once on stderr."""
        if what in self._noted or len(self._noted) >= NOTED_MAX:
            return
        self._noted.add(what)
        try:
            print(f"damka hub: ignored the unknown {what} (the Hub protocol says to ignore it)",
                  file=self._log, flush=True)
        except (BrokenPipeError, ValueError):
            pass

    # -- set-up commands ------------------------------------------------------------

    def _hub(self, args: dict[str, str]) -> None:
        self.send("id", {"name": "Damka", "version": __version__, "author": "Damka"})
        variants = " ".join(dialect.hub_name for dialect in DIALECTS)
        self.send("param", {"name": "variant", "value": self.dialect.hub_name, "type": "enum", "values": variants})
        self.send("param", {"name": "level", "value": self.level.name, "type": "enum",
                            "values": " ".join(level_names())})
        self.send("wait")

    def _init(self, args: dict[str, str]) -> None:
        self.send("ready")

    def _set_param(self, args: dict[str, str]) -> None:
        name, value = args.get("name"), args.get("value")
        if name is None or value is None:
            raise HubError("set-param needs name= and value=")
        if name == "variant":
            self._set_variant(value)
        elif name == "level":
            try:
                self.level = find_level(value)
            except ValueError as exc:
                raise HubError(str(exc)) from None
        else:
            self._ignore(f"parameter {name[:40]!r}")

    def _set_variant(self, name: str) -> None:
        self.dialect = find_dialect(name)
        self.board = HubBoard(self.dialect)
        self._new_game({})

    def _new_game(self, args: dict[str, str]) -> None:
        self.searcher = make_searcher(self.board.variant)  # a fresh transposition table
        self.game: tuple[Any, list[Any]] | None = None

    def _pos(self, args: dict[str, str]) -> None:
        self.game = None
        if "pos" not in args:
            raise HubError("pos needs pos=<position>")
        position = self.board.parse_position(args["pos"])
        history: list[Any] = []
        for ply, text in enumerate(args.get("moves", "").split(), 1):
            if not self.board.variant.legal_moves(position):
                raise HubError(f"move {ply} ({text}) comes after the end of the game")
            try:
                move = self.board.parse_move(position, text)
            except HubError as exc:
                raise HubError(f"move {ply}: {exc}") from None
            history.append(position)
            position = self.board.variant.play(position, move)
        self.game = (position, history)

    def _level(self, args: dict[str, str]) -> None:
        self.limit = read_level(args)

    def _ping(self, args: dict[str, str]) -> None:
        self.send("pong")

    def _quit(self, args: dict[str, str]) -> bool:
        return False

    # -- searching ------------------------------------------------------------------

    def _go(self, args: dict[str, str]) -> None:
        if self.game is None:
            raise HubError("go needs a position: send pos first")
        position, history = self.game
        if not self.board.variant.legal_moves(position):
            raise HubError("go: the position has no legal move (the game is over)")
        pondering = "ponder" in args
        limit = self.limit
        self._endless = pondering or (limit.seconds() is None and limit.depth is None and limit.nodes is None)
        self._stop.clear()
        self._deadline = None
        self._thread = threading.Thread(target=self._think, args=(position, history, pondering),
                                        name="hub-search", daemon=True)
        self._thread.start()

    def _stop_search(self, args: dict[str, str]) -> None:
        self._stop.set()  # the search answers `done` with its best move so far

    def _ponder_hit(self, args: dict[str, str]) -> None:
        seconds = self.limit.seconds()
        if seconds is not None:
            self._deadline = self._now() + seconds
        self._endless = self._endless and seconds is None

    def _finish_search(self, wait: bool = False) -> None:
        thread = self._thread
        if thread is not None:
            if not wait:
                self._stop.set()
            thread.join()
            self._thread = None

    def _should_stop(self) -> bool:
        time.sleep(0)  # hand the GIL to the reader thread, so `stop` is read at once
        deadline = self._deadline
        return self._stop.is_set() or (deadline is not None and self._now() >= deadline)

    def _think(self, position: Any, history: list[Any], pondering: bool) -> None:
        started = self._now()
        seconds = None if pondering else self.limit.seconds()
        try:
            result = choose_move(
                self.board.variant, position, self.level,
                time_limit=seconds, now=self._now if seconds is not None else None,
                stop=self._should_stop, history=history, rng=self._rng, searcher=self.searcher,
                max_depth=self.limit.depth, max_nodes=self.limit.nodes,
            )
        except Exception as exc:  # noqa: BLE001 - a search failure still owes the GUI a move
            self.error(f"search failed: {type(exc).__name__}: {exc}")
            self.send("done", {"move": self.board.format_move(self.board.variant.legal_moves(position)[0])})
            return
        self._report(result, self._now() - started)

    def _report(self, result: SearchResult, elapsed: float) -> None:
        pv = " ".join(self.board.format_move(move) for move in result.pv) or self.board.format_move(result.move)
        self.send("info", {"depth": result.depth, "score": _men(result.score), "nodes": result.nodes,
                           "time": f"{elapsed:.3f}", "nps": f"{result.nodes / max(elapsed, 1e-6) / 1e6:.3f}",
                           "pv": pv})
        done = {"move": self.board.format_move(result.move)}
        if len(result.pv) >= 2 and result.pv[0] == result.move:
            done["ponder"] = self.board.format_move(result.pv[1])
        self.send("done", done)


def _men(score: int) -> str:
    """A score in men as Scan writes it: a win in n plies is 100 - n/100 (pydraughts reads that)."""
    if score > WIN_BOUND:
        return f"{(10_000 - (WIN - score)) / 100:.2f}"
    if score < -WIN_BOUND:
        return f"{-(10_000 - (WIN + score)) / 100:.2f}"
    return f"{score / 100:.2f}"
