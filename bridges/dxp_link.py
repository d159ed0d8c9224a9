"""One DXP connection over TCP: NUL-framed messages in, parsed, on a queue.

`DxpLink.listen(port)` waits for a peer (the board as follower, as engines
do); `DxpLink.connect(host, port)` calls one (the board as initiator). A
reader thread parses every message; a malformed one is logged on the
`damka.dxp` logger with what is wrong and queued as a `DxpError` (the caller
refuses it), never raised into the board. When the peer goes away a
`Dropped` item is queued, once.
"""

from __future__ import annotations

import logging
import queue
import socket
import threading
from dataclasses import dataclass

from damka.bridges.dxp import DEFAULT_PORT, DxpError, Framer, Message, format_message, parse

log = logging.getLogger("damka.dxp")


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
        self.incoming: queue.Queue[Incoming] = queue.Queue()
        self._write = threading.Lock()
        self.closed = False
        self._reader = threading.Thread(target=self._read, name="damka-dxp-reader", daemon=True)
        self._reader.start()

    @classmethod
    def listen(cls, port: int = DEFAULT_PORT, host: str = "127.0.0.1", *, timeout: float | None = None,
               ready: threading.Event | None = None, bound: list[int] | None = None) -> DxpLink:
        """Wait for one peer to connect (`port` 0: any free port, reported in `bound`)."""
        server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            server.bind((host, port))
            server.listen(1)
            if bound is not None:
                bound.append(server.getsockname()[1])
            if ready is not None:
                ready.set()
            server.settimeout(timeout)
            sock, address = server.accept()
        finally:
            server.close()
        sock.settimeout(None)
        log.info("DXP peer connected from %s:%d", *address[:2])
        return cls(sock, f"{address[0]}:{address[1]}")

    @classmethod
    def connect(cls, host: str, port: int = DEFAULT_PORT, *, timeout: float = 10.0) -> DxpLink:
        sock = socket.create_connection((host, port), timeout=timeout)
        sock.settimeout(None)
        return cls(sock, f"{host}:{port}")

    def _read(self) -> None:
        framer = Framer()
        reason = "the peer closed the connection"
        while True:
            try:
                data = self.sock.recv(4096)
            except OSError as error:
                reason = f"connection failed: {error}"
                break
            if not data:
                break
            for item in framer.feed(data):
                if isinstance(item, DxpError):
                    self._refuse(item, "")
                    continue
                try:
                    self.incoming.put(parse(item))
                except DxpError as error:
                    self._refuse(error, item)
        self.closed = True
        if not self._closing:
            log.warning("DXP connection to %s dropped: %s", self.peer, reason)
        self.incoming.put(Dropped(reason))

    _closing = False

    def _refuse(self, error: DxpError, text: str) -> None:
        log.warning("DXP message from %s refused: %s%s", self.peer, error, f" (message {text[:60]!r})" if text else "")
        self.incoming.put(error)

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
