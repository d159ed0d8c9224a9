"""A real Mosquitto for the hall tests: the project's ACL, generated accounts, a free 127.0.0.1 port."""

from __future__ import annotations

import pytest

from damka.hall.local_broker import Broker as _Broker, free_port, mosquitto_binary  # noqa: F401
from waiting import DEADLINE_S, wait_until


def need_mosquitto() -> str:
    binary = mosquitto_binary()
    if binary is None:
        pytest.skip("mosquitto is not installed and could not be (bootstrap.py installs it as root: apt install mosquitto)")
    return binary


class Broker(_Broker):
    def __init__(self, folder, boards) -> None:
        need_mosquitto()
        super().__init__(folder, boards)


def wait_for(condition, what: str = "", timeout: float = DEADLINE_S):
    """The shared wait (tests/waiting.py), looking every 50 ms: a page or a broker answers slower than a thread."""
    return wait_until(condition, what, timeout, every=0.05)
