"""The follower's door: connections in, game requests out.

A board listening for a DXP peer on an open network meets more than its
peer: a port scan or a health check connects and goes, a stuck program
connects and never speaks, a broken one sends garbage. `DxpDoor` keeps the
port open (`DxpServer`) and several connections waiting at once, so none of
them can hold the door shut: the first connection to send a GAMEREQ is
handed over (`Arrival`), with its request; one that leaves, or sends no
GAMEREQ within `handshake_s`, is closed and the door stays open. This is
logged once, then at most once a minute with how many more (`LogLimit`),
never once per connection.
"""

from __future__ import annotations

import logging
import queue
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass

from damka.dxp.protocol import DxpError, GameRequest
from damka.dxp.link import Dropped, DxpLink, DxpServer
from damka.log_limit import LogLimit

log = logging.getLogger("damka.dxp")

HANDSHAKE_S = 30.0      # a connection that sends no GAMEREQ in this time is closed
WAITING_MAX = 8         # connections waiting for their GAMEREQ at once; a new one closes the oldest
POLL_S = 0.05           # how often the waiting connections are looked at
LOOK_MAX = 256          # messages taken from one connection per look (a flooder cannot starve the others)


@dataclass(frozen=True)
class Arrival:
    """A connection and the GAMEREQ it opened with (its handshake is the caller's)."""

    link: DxpLink
    request: GameRequest


class DxpDoor:
    """`next(timeout)`: the next connection that asks for a game."""

    def __init__(self, server: DxpServer, *, handshake_s: float = HANDSHAKE_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.server = server
        self.handshake_s = handshake_s
        self.clock = clock
        self.turned_away = LogLimit(log, every_s=60.0, clock=clock)   # .total: connections closed
        self._waiting: list[tuple[DxpLink, float]] = []               # (connection, its deadline)

    @property
    def where(self) -> str:
        return f"{self.server.host}:{self.server.port}"

    def next(self, timeout: float | None) -> Arrival:
        """The next connection with a GAMEREQ; socket.timeout (TimeoutError) when none in `timeout` s
        (real seconds: the wait is the socket's; `clock` times the handshakes)."""
        end = None if timeout is None else time.monotonic() + timeout
        while True:
            arrival = self._look()
            if arrival is not None:
                return arrival
            left = None if end is None else end - time.monotonic()
            if left is not None and left <= 0:
                raise socket.timeout(f"no DXP game request in {timeout:g} s")
            wait = POLL_S if self._waiting else (1.0 if left is None else left)
            try:
                link = self.server.accept(min(wait, left) if left is not None else wait)
            except socket.timeout:
                continue
            if len(self._waiting) >= WAITING_MAX:
                self._turn_away(self._waiting.pop(0)[0], f"{WAITING_MAX} newer connections came")
            self._waiting.append((link, self.clock() + self.handshake_s))

    def _look(self) -> Arrival | None:
        """Hand over the first waiting connection with a GAMEREQ; close those that left or took too long."""
        now = self.clock()
        for link, until in list(self._waiting):
            why = ""
            for _ in range(LOOK_MAX):
                try:
                    item = link.incoming.get_nowait()
                except queue.Empty:
                    break
                if isinstance(item, GameRequest):
                    self._waiting.remove((link, until))
                    log.info("DXP: game request from %s (%s)", link.peer, item.name or "no name")
                    return Arrival(link, item)
                if isinstance(item, Dropped):
                    why = f"it left ({item.reason})"
                    break
                if not isinstance(item, DxpError):      # (malformed ones are logged by the link)
                    log.debug("DXP: %s from %s before a game request ignored", type(item).__name__, link.peer)
            if not why and now > until:
                why = f"no game request in {self.handshake_s:g} s"
            if why:
                self._waiting.remove((link, until))
                self._turn_away(link, why)
        return None

    def readmit(self, link: DxpLink) -> None:
        """Let `link` (its game request refused) wait for another request, with a new deadline."""
        self._waiting.append((link, self.clock() + self.handshake_s))

    def turn_away_waiting(self, why: str) -> None:
        """Close every connection still waiting (the board has its game)."""
        while self._waiting:
            self._turn_away(self._waiting.pop(0)[0], why)

    def _turn_away(self, link: DxpLink, why: str) -> None:
        link.close()
        self.turned_away.log(logging.WARNING, "DXP: connection from %s closed without a game: %s; "
                             "still listening on %s", link.peer, why, self.where)

    def close(self) -> None:
        """Close every waiting connection and the port."""
        for link, _ in self._waiting:
            link.close()
        self._waiting.clear()
        self.server.close()
