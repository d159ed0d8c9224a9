"""A Hub engine run as a subprocess: the client side of the Hub protocol.

`HubClient` starts an engine command (Scan's `scan hub`, `damka hub`, any
program speaking Scan's Hub protocol), does the handshake and asks it for
moves. The version is told from the engine's greeting to `hub`: version 2
(`id name=...`, Scan 3, `damka hub`) or version 1 (`name Scan 2.0`, read
through `hub_v1`; a banner before it is skipped); an engine that never greets
either way is refused naming both, with what it said instead. A
reader thread turns the engine's stdout into a queue of lines, so every wait
has a timeout: an engine that dies or hangs becomes a `HubEngineError` saying
which, never a stuck caller.

    client = HubClient("scan hub", variant="normal")
    client.open(timeout=10)
    reply = client.think(position_text, moves=("32-28",), level={"move-time": 1}, timeout=3)
    reply.move                             # the engine's move text: "19-23"

The caller checks the move against its own rules (`hub_protocol.HubBoard`).
"""

from __future__ import annotations

import collections
import logging
import os
import queue
import shlex
import subprocess
import threading
import time
from dataclasses import dataclass
from typing import Any, Iterator, Sequence

from damka.engine.safe_text import safe_text
from damka.bridges import hub_v1
from damka.bridges.hub_protocol import HubError, format_line, parse_line

_EOF = None  # what the reader queues when the engine's stdout closes
STDERR_LINES = 5  # the last lines of the engine's stderr kept for a failure message
STDERR_WAIT_S = 1.0  # how long a dead engine's last stderr lines are waited for
BANNER_LINES = 3  # lines before the greeting kept to say what a program that is no Hub engine answered
STDERR_LINE_BYTES = 4096  # a longer stderr line is taken in pieces (an engine may print anything)

log = logging.getLogger(__name__)


class HubEngineError(RuntimeError):
    """The engine died, hung, or broke the protocol (the text says which)."""


@dataclass(frozen=True)
class HubReply:
    """The engine's answer to `go think`: its move, and its `info` lines, later ones over earlier."""

    move: str
    ponder: str = ""
    info: dict[str, str] | None = None


def split_command(command: str | Sequence[str]) -> list[str]:
    """The argv of an engine command; ValueError for an empty one."""
    argv = shlex.split(command) if isinstance(command, str) else list(command)
    if not argv:
        raise ValueError("the engine command is empty")
    return argv


class HubClient:
    """One engine process and the protocol dialogue with it."""

    def __init__(self, command: str | Sequence[str], *, variant: str = "normal",
                 params: dict[str, Any] | None = None, env: dict[str, str] | None = None,
                 cwd: str | None = None, name: str = "") -> None:
        """`cwd`: the engine's working directory (Scan reads scan.ini and data/ there);
        `name`: the engine in messages and the log (the board config's name; default: its program)."""
        self.argv = split_command(command)
        self.cwd = cwd or None
        self.variant = variant
        self.params = dict(params or {})
        self.env = env
        self.name = name or os.path.basename(self.argv[0])
        self.engine_id: dict[str, str] = {}
        self.version = 0   # the Hub version the engine speaks (1 or 2); 0 before its greeting
        self._before_greeting: list[str] = []   # what it said before (a banner; a program speaking no Hub)
        self._process: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._write_lock = threading.Lock()
        self._stderr: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)
        self._stderr_done = threading.Event()

    # -- the process -------------------------------------------------------------

    @property
    def alive(self) -> bool:
        return self._process is not None and self._process.poll() is None

    @property
    def pid(self) -> int | None:
        return None if self._process is None else self._process.pid

    def open(self, timeout: float = 10.0) -> None:
        """Start the engine and do the handshake (`hub` ... `wait`, the
        variant, `init` ... `ready`); HubEngineError if it fails."""
        try:
            self._process = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                             stderr=subprocess.PIPE, env=self.env, cwd=self.cwd)
        except OSError as error:
            where = f" in {self.cwd}" if self.cwd else ""
            raise HubEngineError(f"cannot start engine {self.name!r}{where}: {error}") from None
        threading.Thread(target=self._read, args=(self._process, self._lines), name="damka-hub-reader",
                         daemon=True).start()
        self._stderr.clear()
        self._stderr_done.clear()
        threading.Thread(target=self._read_stderr, args=(self._process,), name="damka-hub-stderr",
                         daemon=True).start()
        self.version, self._before_greeting = 0, []
        self.send("hub")
        for command, args in self._until("wait", timeout):
            if command == "id":
                self.engine_id = {**self.engine_id, **args}
        if self.version == 1:
            if self.variant != "normal":
                raise HubEngineError(f"engine {self.name!r} speaks Hub 1 (Scan 2.0's), which plays "
                                     f"international draughts only, not {self.variant}")
            for name, value in self.params.items():
                self.send("set", None, name, str(value))
        else:
            self.send("set-param", {"name": "variant", "value": self.variant})
            for name, value in self.params.items():
                self.send("set-param", {"name": name, "value": value})
        self.send("init")
        for _ in self._until("ready", timeout):
            pass

    @staticmethod
    def _read(process: subprocess.Popen[bytes], lines: queue.Queue[str | None]) -> None:
        assert process.stdout is not None
        for raw in process.stdout:
            lines.put(raw.decode("utf-8", "replace").rstrip("\r\n"))
        lines.put(_EOF)

    def _read_stderr(self, process: subprocess.Popen[bytes]) -> None:
        """Every stderr line goes to the log; the last few are kept for a failure message.
        Both made safe first: an engine's escapes (a clear-screen, a set-title) are shown, not obeyed."""
        assert process.stderr is not None
        stream = process.stderr
        rest_of_a_long_line = False
        try:
            for raw in iter(lambda: stream.readline(STDERR_LINE_BYTES), b""):
                skip, rest_of_a_long_line = rest_of_a_long_line, not raw.endswith(b"\n")
                if skip:
                    continue   # a line longer than STDERR_LINE_BYTES: its start was said (cut), not its rest
                line = safe_text(raw.decode("utf-8", "replace").rstrip("\r\n").strip())
                if line:
                    log.info("engine %s (stderr): %s", self.name, line)
                    self._stderr.append(line)
        finally:
            self._stderr_done.set()

    def stderr_tail(self) -> str:
        """The last lines the engine wrote to stderr, on one line ("" if none)."""
        return " / ".join(self._stderr)

    def _died(self, how: str) -> HubEngineError:
        """The error for an engine that died (`how`), with what it last said on stderr."""
        self._stderr_done.wait(STDERR_WAIT_S)   # its last words may still be in the pipe
        tail = self.stderr_tail()
        return HubEngineError(f"engine {self.name!r} died {how}" + (f"; it said: {tail}" if tail else ""))

    def close(self) -> None:
        """Ask the engine to quit; kill it if it does not within a second."""
        process, self._process = self._process, None
        if process is None:
            return
        try:
            if process.poll() is None:
                with self._write_lock:
                    assert process.stdin is not None
                    process.stdin.write(b"quit\n")
                    process.stdin.flush()
            process.wait(1.0)
        except (OSError, ValueError, subprocess.TimeoutExpired):
            process.kill()
            process.wait(5.0)
        for stream in (process.stdin, process.stdout, process.stderr):
            try:
                stream.close()  # type: ignore[union-attr]
            except OSError:
                pass

    # -- lines ---------------------------------------------------------------------

    def send(self, command: str, args: dict[str, Any] | None = None, *flags: str) -> None:
        process = self._process
        if process is None or process.stdin is None:
            raise HubEngineError(f"engine {self.name!r} is not running")
        line = format_line(command, args, *flags) + "\n"
        try:
            with self._write_lock:
                process.stdin.write(line.encode("utf-8"))
                process.stdin.flush()
        except (OSError, ValueError):
            raise self._died("(cannot write to it)") from None

    def _next(self, deadline: float, waiting_for: str) -> tuple[str, dict[str, str]]:
        left = deadline - time.monotonic()
        try:
            line = self._lines.get(timeout=max(0.0, left))
        except queue.Empty:
            if self.version == 0 and self._before_greeting:
                raise self._no_hub() from None
            raise HubEngineError(f"engine {self.name!r} hangs: no {waiting_for!r} in time") from None
        if line is _EOF:
            code = self._process.wait(5.0) if self._process is not None else None
            raise self._died(f"(exit code {code}) while Damka waited for {waiting_for!r}")
        if self.version == 0:
            self.version = hub_v1.version_of(line)
            if self.version == 0:   # a banner before the greeting (Scan 2.0: "Scan 2.0 by Fabien Letouzey")
                if line.strip() and len(self._before_greeting) < BANNER_LINES:
                    self._before_greeting.append(safe_text(line.strip()[:60]))
                return "", {}
        if self.version == 1:
            return hub_v1.read_line(line)
        try:
            return parse_line(line)
        except HubError as error:
            raise HubEngineError(f"engine {self.name!r} sent a broken line {line[:60]!r}: {error}") from None

    def _no_hub(self) -> HubEngineError:
        """The error for an engine that never greeted as a Hub engine, with what it said instead."""
        said = " / ".join(self._before_greeting)
        return HubEngineError(f"engine {self.name!r} does not speak the Hub protocol: to 'hub' it answered "
                              f"{said!r}; Damka speaks {hub_v1.PROTOCOLS}")

    def _refusal(self, what: str, args: dict[str, str]) -> HubEngineError:
        """An `error` line as an error whose reason is never empty."""
        reason = safe_text(args.get("message", "").strip()) or "it said only 'error', with no reason"
        return HubEngineError(f"engine {self.name!r} {what}: {reason}")

    def _until(self, wanted: str, timeout: float) -> Iterator[tuple[str, dict[str, str]]]:
        """The lines up to `wanted` (yielded, `wanted` not included); `error` lines are raised."""
        deadline = time.monotonic() + timeout
        while True:
            command, args = self._next(deadline, wanted)
            if command == wanted:
                return
            if command == "error":
                raise self._refusal("refused", args)
            yield command, args

    # -- thinking --------------------------------------------------------------------

    def think(self, position: str, *, moves: Sequence[str] = (), level: dict[str, Any],
              timeout: float) -> HubReply:
        """Set the position (and the moves played from it), the level, `go think`
        and wait for `done` within `timeout` seconds; HubEngineError otherwise."""
        if self.version == 1:   # the moves one by one after the position, then the time (`pos` resets it)
            self.send("pos", None, hub_v1.position(position))
            for move in moves:
                self.send("move", None, move)
            command, *words = hub_v1.level_words(level)
            self.send(command, None, *words)
            self.send("go")
            return self._done(timeout)
        args: dict[str, Any] = {"pos": position}
        if moves:
            args["moves"] = " ".join(moves)
        self.send("pos", args)
        self.send("level", level)
        self.send("go", None, "think")
        return self._done(timeout)

    def _done(self, timeout: float) -> HubReply:
        info: dict[str, str] | None = None
        deadline = time.monotonic() + timeout
        while True:
            command, args = self._next(deadline, "done")
            if command == "info":
                info = {**(info or {}), **args}   # a later line without a score keeps the score said before
            elif command == "error":
                raise self._refusal("refused the position", args)
            elif command == "done":
                move = args.get("move", "")
                if not move:
                    raise HubEngineError(f"engine {self.name!r} answered no move")
                return HubReply(move, args.get("ponder", ""), info)

    def stop(self, timeout: float = 2.0) -> HubReply | None:
        """`stop` the running search and read its `done` (None if it never comes)."""
        try:
            self.send("stop")
            return self._done(timeout)
        except HubEngineError:
            return None
