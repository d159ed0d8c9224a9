"""A real Mosquitto for the hall tests: the project's ACL, generated accounts, a free 127.0.0.1 port;
and the hall's page served by a real uvicorn."""

from __future__ import annotations

import socket
import threading
from typing import Any

import pytest

from damka.hall.local_broker import Broker as _Broker, free_port, mosquitto_binary  # noqa: F401
from waiting import DEADLINE_S, wait_until


def need_mosquitto() -> str:
    binary = mosquitto_binary()
    if binary is None:
        pytest.skip("mosquitto is not installed and could not be (bootstrap.py installs it as root: apt install mosquitto)")
    return binary


class Broker(_Broker):
    def __init__(self, folder, boards, hall: str = "h") -> None:
        need_mosquitto()
        super().__init__(folder, boards, hall)


def wait_for(condition, what: str = "", timeout: float = DEADLINE_S):
    """The shared wait (tests/waiting.py), looking every 50 ms: a page or a broker answers slower than a thread."""
    return wait_until(condition, what, timeout, every=0.05)


class Served:
    """The hall's page (hall/page.py) served by uvicorn on a free 127.0.0.1 port."""

    def __init__(self, service: Any) -> None:
        import uvicorn

        from damka.hall.page import hall_app

        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        sock.listen(64)
        self.url = f"http://127.0.0.1:{sock.getsockname()[1]}"
        self.server = uvicorn.Server(uvicorn.Config(hall_app(service), log_level="warning", lifespan="off"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [sock]}, daemon=True)
        self.thread.start()
        assert wait_for(lambda: self.server.started), "the hall page did not start"

    def close(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)
