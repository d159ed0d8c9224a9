"""One DXP connection over TCP: NUL-framed messages in, parsed, on a queue.

`DxpServer(host, port)` keeps a listening socket open and accepts peers one
after another (the board as follower, as engines do: a port scan or a
health check that connects and goes is just one more accepted connection);
`DxpLink.connect(host, port)` calls one (the board as initiator). A reader
thread parses every message; a malformed one is logged on the `damka.dxp`
logger with what is wrong (at most one line every few seconds, with how
many more came: `LogLimit`) and queued as a `DxpError` (the caller refuses
it), never raised into the board. The queue holds at most INCOMING_MAX
items: when the board falls behind a flooding peer, the reader stops
reading, so TCP itself slows the peer down and memory stays bounded. When
the peer goes away a `Dropped` item is queued, once.
"""

from __future__ import annotations

import logging
import queue
import socket
import threading
from dataclasses import dataclass

from damka.controller.words import say
from damka.dxp.protocol import DEFAULT_PORT, DxpError, Framer, Message, format_message, parse
from damka.log_limit import LogLimit

log = logging.getLogger("damka.dxp")

INCOMING_MAX = 256      # messages parsed but not yet handled by the board: the reader waits beyond this
BACKLOG = 16            # connections the kernel holds while the board is busy with another


@dataclass(frozen=True)
class Dropped:
    """The connection ended (the peer closed it, or the network failed)."""

    reason: str


Incoming = Message | DxpError | Dropped


class DxpLink:
    """A connected DXP socket: `send(message)`, and `incoming` (a queue)."""

    def __init__(self, sock: socket.socket, peer: str) -> None:
        self.sock = sock
        self.peer = peer
        self.incoming: queue.Queue[Incoming] = queue.Queue(INCOMING_MAX)
        self._write = threading.Lock()
        self.closed = False
        self.bad = LogLimit(log)            # malformed messages: counted, logged at a limited rate
        self.heard = False                  # a well-formed message came (a peer, not a stray connection)
        self._reader = threading.Thread(target=self._read, name="damka-dxp-reader", daemon=True)
        self._reader.start()

    @classmethod
    def listen(cls, port: int = DEFAULT_PORT, host: str = "127.0.0.1", *, timeout: float | None = None,
               ready: threading.Event | None = None, bound: list[int] | None = None) -> DxpLink:
        """Wait for one peer to connect (`port` 0: any free port, reported in `bound`)."""
        server = DxpServer(host, port)
        try:
            if bound is not None:
                bound.append(server.port)
            if ready is not None:
                ready.set()
            return server.accept(timeout)
        finally:
            server.close()

    @classmethod
    def connect(cls, host: str, port: int = DEFAULT_PORT, *, timeout: float = 10.0) -> DxpLink:
        sock = socket.create_connection((host, port), timeout=timeout)
        sock.settimeout(None)
        return cls(sock, f"{host}:{port}")

    def _read(self) -> None:
        framer = Framer()
        reason = say("dxp.peer_closed")
        while True:
            try:
                data = self.sock.recv(4096)
            except OSError as error:
                reason = say("dxp.connection_failed", error=error)
                break
            if not data:
                break
            for item in framer.feed(data):
                if isinstance(item, DxpError):
                    self._refuse(item, "")
                    continue
                try:
                    message = parse(item)
                    self.heard = True
                    self._put(message)
                except DxpError as error:
                    self._refuse(error, item)
            if self._closing:
                break
        self.closed = True
        self.bad.flush(logging.WARNING, f"DXP messages from {self.peer} refused")
        if not self._closing:   # (one that never said a word: the door or the handshake says it, once)
            log.log(logging.WARNING if self.heard else logging.DEBUG, "DXP connection to %s dropped: %s",
                    self.peer, reason)
        self._put(Dropped(reason))

    _closing = False

    def _put(self, item: Incoming) -> None:
        """Queue `item`, waiting while the queue is full (the board is behind) unless the link is closed."""
        while not self._closing:
            try:
                self.incoming.put(item, timeout=0.2)
                return
            except queue.Full:
                continue

    def _refuse(self, error: DxpError, text: str) -> None:
        self.bad.log(logging.WARNING, "DXP message from %s refused: %s%s", self.peer, error,
                     f" (message {text[:60]!r})" if text else "")
        self._put(error)

    def send(self, message: Message) -> bool:
        """Send `message`; False (and logged) when the connection is gone."""
        data = format_message(message).encode("ascii") + b"\0"
        try:
            with self._write:
                self.sock.sendall(data)
        except OSError as error:
            log.warning("DXP message to %s not sent: %s", self.peer, error)
            return False
        return True

    def send_raw(self, data: bytes) -> None:
        """Bytes as they are (tests: malformed messages)."""
        with self._write:
            self.sock.sendall(data)

    def close(self) -> None:
        self._closing = True
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()


class DxpServer:
    """A listening socket kept open while the board waits for peers: a
    connection that comes and goes (a port scan, a health check) never
    closes it, and the next peer finds the port still open."""

    def __init__(self, host: str = "127.0.0.1", port: int = DEFAULT_PORT) -> None:
        """Bind `host`:`port` (0: any free port, then `self.port` says which)."""
        self.host = host
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            self._sock.bind((host, port))
            self._sock.listen(BACKLOG)
        except OSError:
            self._sock.close()
            raise
        self.port: int = self._sock.getsockname()[1]

    def accept(self, timeout: float | None) -> DxpLink:
        """The next peer to connect; TimeoutError (socket.timeout) when none comes in `timeout` s."""
        self._sock.settimeout(timeout)
        sock, address = self._sock.accept()
        sock.settimeout(None)
        log.debug("DXP connection from %s:%d", *address[:2])   # a port scan makes thousands: DxpDoor says
        return DxpLink(sock, f"{address[0]}:{address[1]}")

    def close(self) -> None:
        self._sock.close()
