"""A new DXP connection after a drop, found off the board's loop.

The follower listens again on the same port (at a `DxpDoor`: connections
that bring no GAMEREQ are closed there, the port stays open, and what comes
out is an `Arrival`, the connection with its GAMEREQ); the initiator calls the peer
again, waiting longer after each failed try (0.5 s, 1 s, 2 s ... 10 s). A
thread does the waiting; the board's loop thread polls `poll()` for what
happened: a line of progress to show, or a new `DxpLink` (the handshake, a
GAMEREQ with the game's position, is the loop's: only it knows the game).
After `give_up_s` seconds without a connection it stops trying and says so
once; `want()` starts it again.
"""

from __future__ import annotations

import logging
import queue
import socket
import threading
import time
from typing import Callable

from damka.controller.words import say
from damka.dxp.door import Arrival, DxpDoor
from damka.dxp.link import DxpLink, DxpServer

log = logging.getLogger("damka.dxp")

DELAYS = (0.5, 1.0, 2.0, 4.0, 8.0, 10.0)  # seconds between the initiator's tries
ACCEPT_SLICE = 1.0                        # the follower's accept wakes this often to check for close()
GIVE_UP_S = 600.0                         # default: ten minutes without the peer, then the menu decides


class Redialer:
    """Finds a new link when `want()` is called; `poll()` gives notices and links."""

    def __init__(self, dial: Callable[[float], DxpLink | Arrival], describe: str, *, backoff: bool,
                 give_up_s: float = GIVE_UP_S, delays: tuple[float, ...] = DELAYS,
                 on_close: Callable[[], None] | None = None) -> None:
        """`dial(timeout)`: one try (accept or connect) raising OSError when it fails.
        `backoff`: wait between tries (the initiator); the follower just listens again.
        `on_close`: run on the redial thread when it ends (the follower's door is closed)."""
        self._dial = dial
        self._on_close = on_close
        self.describe = describe
        self._backoff = backoff
        self.give_up_s = give_up_s
        self._delays = delays
        self._wanted = threading.Event()
        self._closed = threading.Event()
        self._out: queue.Queue[str | DxpLink | Arrival] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="damka-dxp-redial", daemon=True)
        self._thread.start()

    @classmethod
    def listening(cls, host: str, port: int, *, door: DxpDoor | None = None, give_up_s: float = GIVE_UP_S,
                  delays: tuple[float, ...] = DELAYS) -> Redialer:
        """The follower's: listen at `door` (made on the first try when None; closed with the Redialer)."""
        doors = [door] if door is not None else []

        def dial(timeout: float) -> Arrival:
            if not doors:
                doors.append(DxpDoor(DxpServer(host, port)))
            return doors[0].next(timeout)

        return cls(dial, say("dxp.listening_again", address=f"{host}:{port}"), backoff=False,
                   on_close=lambda: doors[0].close() if doors else None, give_up_s=give_up_s, delays=delays)

    @classmethod
    def calling(cls, host: str, port: int, *, give_up_s: float = GIVE_UP_S,
                delays: tuple[float, ...] = DELAYS) -> Redialer:
        return cls(lambda timeout: DxpLink.connect(host, port, timeout=timeout),
                   say("dxp.calling_again", address=f"{host}:{port}"), backoff=True, give_up_s=give_up_s, delays=delays)

    def want(self) -> None:
        """Start looking for the peer (again); harmless while already looking."""
        self._wanted.set()

    def poll(self) -> list[str | DxpLink | Arrival]:
        out: list[str | DxpLink | Arrival] = []
        while True:
            try:
                out.append(self._out.get_nowait())
            except queue.Empty:
                return out

    def close(self) -> None:
        self._closed.set()
        self._wanted.set()

    def _run(self) -> None:
        try:
            while not self._closed.is_set():
                self._wanted.wait()
                if self._closed.is_set():
                    return
                link = self._search()
                self._wanted.clear()
                if link is not None:
                    self._out.put(link)
        finally:
            if self._on_close is not None:
                self._on_close()

    def _search(self) -> DxpLink | Arrival | None:
        """Try until a link comes, `close()`, or `give_up_s` passes (then say so)."""
        start = time.monotonic()
        tries = 0
        self._say(f"{self.describe}...")
        while not self._closed.is_set():
            left = self.give_up_s - (time.monotonic() - start)
            if left <= 0:
                self._say(say("dxp.gave_up", seconds=f"{self.give_up_s:.0f}"))
                return None
            tries += 1
            try:
                return self._dial(min(ACCEPT_SLICE if not self._backoff else 2.0, left))
            except (OSError, socket.timeout) as error:
                if not self._backoff:
                    continue  # the accept timed out: listen on
                delay = self._delays[min(tries - 1, len(self._delays) - 1)]
                self._say(say("dxp.try_failed", what=self.describe, tries=tries, error=error, delay=f"{delay:g}"))
                if self._closed.wait(min(delay, max(0.0, left))):
                    return None
        return None

    def _say(self, text: str) -> None:
        """Progress on stderr (the log) and on the board's screen."""
        log.info("DXP: %s", text)
        self._out.put(text)
