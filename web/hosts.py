"""The Host header must name this board: a shield against DNS rebinding.

A page on another site can make its own name point at the board's address
(DNS rebinding); the browser then sends that site's name as the Host, and
the page could read the board's answers as if they were its own. So a
request is answered only when its Host is one of the board's names: those in
the config (`[web] hosts`), "localhost", the machine's host name (and
NAME.local, as mDNS gives it), or an address written as numbers (a rebinding
needs a name). `hosts = ["*"]` switches the check off.
"""

from __future__ import annotations

import ipaddress
import socket
from typing import TYPE_CHECKING, Any, Iterable

if TYPE_CHECKING:
    from starlette.types import ASGIApp


def board_names(configured: Iterable[str] = ()) -> frozenset[str]:
    """The names this board answers to (lower case)."""
    name = socket.gethostname().lower()
    names = {"localhost", name, f"{name}.local"}   # (no getfqdn: a DNS look-up may take seconds)
    return frozenset(n.strip().lower().rstrip(".") for n in (*names, *configured) if n.strip())


def host_name(header: str) -> str:
    """The Host header without its port: 'board.local:8080' is board.local, '[::1]:80' is ::1."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].partition("]")[0]
    return header.rpartition(":")[0] if header.count(":") == 1 else header


def allowed(header: str, names: frozenset[str]) -> bool:
    if "*" in names:
        return True
    host = host_name(header).rstrip(".")
    if not host:
        return False
    try:
        ipaddress.ip_address(host)
        return True               # an address written as numbers: no name to rebind
    except ValueError:
        return host in names


class HostCheck:
    """ASGI middleware: 400 for a request whose Host is not one of the board's names."""

    def __init__(self, app: ASGIApp, names: frozenset[str]) -> None:
        self.app = app
        self.names = names

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            host = next((v.decode("latin-1") for k, v in scope["headers"] if k == b"host"), "")
            if not allowed(host, self.names):
                body = b'{"ok":false,"error":"this board does not answer to that name (Host header)"}'
                await send({"type": "http.response.start", "status": 400,
                            "headers": [(b"content-type", b"application/json"),
                                        (b"content-length", str(len(body)).encode())]})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)
