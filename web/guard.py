"""Fair shares of the page's server: no one client, and no crowd of them, can hold every socket.

uvicorn's `limit_concurrency` is one limit for everyone (503 beyond it, to
a paired phone as to anyone), and it closes no socket that never finishes
its request (it arms its keep-alive timer only after a response). So the
server is given small pieces here. Addresses that have paired (given the
pairing code or the PIN: `Limits.paired`, the `Access`'s) are served from
a reserve: the unpaired addresses together hold at most `unpaired_sockets`
sockets and `unpaired_streams` event streams (503 beyond), below uvicorn's
`limit_concurrency`, so many addresses (90 x 24 event streams, 20 x 64
slow sockets) cannot take the sockets a paired phone needs. Within their
share, an address below its even part takes the oldest socket of the
address holding the most: a phone that has not paired yet gets in to pair.

* `guarded_protocol(limits)`: uvicorn's own h11 protocol with, per socket,
  a cap on the sockets one address may hold open (more are answered 429
  and closed at once), a deadline for the whole request to arrive (idle
  and slowloris sockets are closed), and a deadline for a paused write (a
  reader that takes nothing is closed: its data is not buffered without end).
* `StreamCap`: ASGI middleware capping the event streams (`/api/events`)
  one address may hold at once (429 beyond it), and those of all unpaired
  addresses together (503 beyond).
* `GuardedListener`: the listening socket itself answers 429 and closes a
  connection from an address at its cap as it accepts it, before asyncio
  makes a transport, a task and a protocol for it. The server shares the
  board's process and interpreter lock: an address reconnecting a thousand
  times a second cost the server's thread 16% of a core refused the
  protocol's way (0.24 ms each), and the board's moves waited for it.

Both run on the server's loop only: their counters need no lock.
"""

from __future__ import annotations

import asyncio
import os
import socket
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Protocol

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

if TYPE_CHECKING:
    from starlette.types import ASGIApp

TOO_MANY = (b"HTTP/1.1 429 Too Many Requests\r\ncontent-type: text/plain\r\nconnection: close\r\n"
            b"content-length: 44\r\n\r\ntoo many connections from your address: wait")
FULL = b"the board's page is full: try again soon, or pair with the code on the board's screen"
BUSY = (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain\r\nconnection: close\r\nretry-after: 5\r\n"
        b"content-length: %d\r\n\r\n%s" % (len(FULL), FULL))


class Holder(Protocol):
    """A socket counted in `Limits`, which it may be told to give up."""

    def evict(self) -> None: ...


@dataclass
class Limits:
    """The caps and deadlines of one server (WebConfig's), and who holds what now."""

    per_address: int = 64          # open sockets from one address
    streams_per_address: int = 24  # open event streams from one address
    request_s: float = 10.0        # a request's headers and body must all arrive within this
    write_s: float = 20.0          # a write the client does not take for this long ends the socket
    unpaired_sockets: int = 512    # open sockets of every unpaired address together (the rest is the paired's)
    unpaired_streams: int = 128    # open event streams of every unpaired address together
    paired: Callable[[str], bool] = lambda host: False   # has this address paired? (Access.paired)
    sockets: Counter = field(default_factory=Counter)
    streams: Counter = field(default_factory=Counter)
    unpaired_open: int = 0         # sockets of unpaired addresses open now
    unpaired_held: dict[str, list[Holder]] = field(default_factory=dict)   # those sockets by address, oldest first
    unpaired_watching: int = 0     # event streams of unpaired addresses open now
    refused: int = 0               # sockets and streams turned away (for the benchmark and the log)
    timed_out: int = 0             # sockets closed for slowness
    evicted: int = 0               # sockets closed to make room for an address holding fewer

    def refusal(self, host: str) -> bytes | None:
        """What a new socket from `host` is answered and closed with (None: it is let in)."""
        if self.sockets[host] >= self.per_address:
            return TOO_MANY
        if self.unpaired_open >= self.unpaired_sockets and not self.paired(host) and not self._make_room(host):
            return BUSY
        return None

    def _make_room(self, host: str) -> bool:
        """The unpaired share is full: an address below its even part of it takes the oldest socket of
        the address holding the most (at least 2 more than it), so a crowd shares the share evenly and a
        newcomer (a phone that is about to pair, or watches) gets in. An address at its part is refused
        at once, without looking at the others: that is what a crowd reconnecting asks most."""
        held = self.unpaired_held
        mine = len(held.get(host, ()))
        if (mine + 1) * (len(held) + (mine == 0)) > self.unpaired_sockets:
            return False
        largest = max(held, key=lambda other: len(held[other]))
        if len(held[largest]) <= mine + 1 or self.paired(largest):
            return False
        held[largest][0].evict()
        self.evicted += 1
        return True

    def hold(self, host: str, holder: Holder, unpaired: bool) -> None:
        self.sockets[host] += 1
        if unpaired:
            self.unpaired_open += 1
            self.unpaired_held.setdefault(host, []).append(holder)

    def release(self, host: str, holder: Holder, unpaired: bool) -> None:
        self.sockets[host] -= 1
        if self.sockets[host] <= 0:
            del self.sockets[host]
        if unpaired:
            self.unpaired_open -= 1
            held = self.unpaired_held[host]
            held.remove(holder)
            if not held:
                del self.unpaired_held[host]



def guarded_protocol(limits: Limits) -> type[H11Protocol]:
    """uvicorn's h11 protocol class, bound to `limits` (uvicorn.Config(http=...) takes a class)."""

    class Guarded(H11Protocol):
        _admitted = False                   # let in: uvicorn's protocol runs it
        _lost = False                       # uvicorn has been told the connection is lost
        _host: str | None = None            # counted in limits under this address (None: not, or no more)
        _unpaired = False                   # counted in limits.unpaired_open
        _request_timer: asyncio.TimerHandle | None = None
        _write_timer: asyncio.TimerHandle | None = None

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            # uvicorn's own set-up (an h11 connection, its flow control) waits until the socket is let in:
            # a refused socket costs the server (and the board, which shares its interpreter) the least.
            self._setup = (args, kwargs)

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            peer = transport.get_extra_info("peername")
            host = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
            refusal = limits.refusal(host)
            if refusal is not None:
                limits.refused += 1
                transport.write(refusal)
                transport.close()
                return
            args, kwargs = self._setup
            super().__init__(*args, **kwargs)
            super().connection_made(transport)
            self._admitted = True
            self._host = host
            self._unpaired = not limits.paired(host)
            limits.hold(host, self, self._unpaired)
            self._arm_request_timer()

        def evict(self) -> None:
            """Closed to make room (Limits._make_room): uncounted at once (the socket that takes its place
            comes in this turn of the loop), and uvicorn told at once that the connection is lost (the
            loop tells it only on its next turn, and an event stream would go on writing till then)."""
            self._uncount()
            self.transport.abort()
            self.connection_lost(None)

        def _uncount(self) -> None:
            if self._host is not None:
                limits.release(self._host, self, self._unpaired)
                self._host = None

        def connection_lost(self, exc: Exception | None) -> None:
            if not self._admitted or self._lost:
                return                      # refused: uvicorn never knew it; or evicted: it was told
            self._lost = True
            self._uncount()
            for timer in (self._request_timer, self._write_timer):
                if timer is not None:
                    timer.cancel()
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            if not self._admitted:
                return                      # refused: nothing it sends is read
            super().data_received(data)
            if self.conn.their_state is h11.DONE and self._request_timer is not None:
                self._request_timer.cancel()    # the whole request is in: the answer may take its time
                self._request_timer = None

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm_request_timer()    # the next request on this socket gets its own deadline

        def eof_received(self) -> None:
            if self._admitted:
                super().eof_received()

        def pause_writing(self) -> None:
            if not self._admitted:
                return
            super().pause_writing()
            if self._write_timer is None:
                self._write_timer = self.loop.call_later(limits.write_s, self._too_slow)

        def resume_writing(self) -> None:
            if not self._admitted:
                return
            super().resume_writing()
            if self._write_timer is not None:
                self._write_timer.cancel()
                self._write_timer = None

        def _arm_request_timer(self) -> None:
            if self._request_timer is not None:
                self._request_timer.cancel()
            self._request_timer = self.loop.call_later(limits.request_s, self._too_slow)

        def _too_slow(self) -> None:
            if not self.transport.is_closing():
                limits.timed_out += 1
                self.transport.abort()       # nothing more is written to a client that does not read
                self.connection_lost(None)   # (uvicorn would write on till the loop's next turn)

    return Guarded


class GuardedListener(socket.socket):
    """A listening socket whose accept() refuses, at once and cheaply, an address at its cap
    (and an unpaired one while the unpaired addresses hold their share).
    asyncio's server calls accept() until it raises BlockingIOError; at most REFUSE_AT_ONCE
    refusals a call, so a flood cannot keep the loop from everything else."""

    REFUSE_AT_ONCE = 64
    limits: Limits

    def accept(self) -> tuple[socket.socket, Any]:
        for _ in range(self.REFUSE_AT_ONCE):
            fd, address = self._accept()  # type: ignore[attr-defined]  # BlockingIOError: none waiting
            host = str(address[0]) if isinstance(address, tuple) and address else "?"
            refusal = self.limits.refusal(host)
            if refusal is None:
                sock = socket.socket(self.family, self.type, self.proto, fileno=fd)
                if socket.getdefaulttimeout() is None and self.gettimeout():
                    sock.setblocking(True)
                return sock, address
            self.limits.refused += 1
            try:
                os.write(fd, refusal)        # a fresh socket's empty buffer takes it whole
            except OSError:
                pass
            os.close(fd)
        raise BlockingIOError("refused enough for now: the rest on the loop's next turn")


def guarded_listener(limits: Limits, address: tuple[str, int], backlog: int = 128) -> GuardedListener:
    """The page's listening socket, bound and listening, refusing for `limits`."""
    sock = GuardedListener(socket.AF_INET, socket.SOCK_STREAM)
    sock.limits = limits
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(address)
    sock.listen(backlog)
    return sock


class StreamCap:
    """ASGI middleware: at most `limits.streams_per_address` open event streams per address, and
    `limits.unpaired_streams` for every unpaired address together (a paired phone's are not counted)."""

    def __init__(self, app: ASGIApp, limits: Limits, path: str = "/api/events") -> None:
        self.app = app
        self.limits = limits
        self.path = path

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["path"] != self.path:
            await self.app(scope, receive, send)
            return
        host = scope["client"][0] if scope.get("client") else "?"
        limits, streams = self.limits, self.limits.streams
        unpaired = not limits.paired(host)
        if streams[host] >= limits.streams_per_address:
            await self._refuse(send, 429, b"too many open pages from your address: close one")
            return
        if unpaired and limits.unpaired_watching >= limits.unpaired_streams:
            await self._refuse(send, 503, b"too many pages watch this board now: try again soon, "
                                          b"or pair with the code on the board's screen")
            return
        streams[host] += 1
        limits.unpaired_watching += unpaired
        try:
            await self.app(scope, receive, send)
        finally:
            streams[host] -= 1
            limits.unpaired_watching -= unpaired
            if streams[host] <= 0:
                del streams[host]

    async def _refuse(self, send: Any, status: int, reason: bytes) -> None:
        self.limits.refused += 1
        body = b'{"ok":false,"error":"' + reason + b'"}'
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"), (b"retry-after", b"5"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
