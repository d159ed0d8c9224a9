"""The firmware on a pty and the host's serial link to it, shared by the serial tests.
It holds no tests itself; test modules import the fixtures they use."""

from __future__ import annotations

import time

import pytest

from damka.hardware.layout import Layout
from damka.hardware.pty_device import PtyBoard
from damka.hardware.serial_link import SerialLink

BUTTONS = {"clock0": 0, "clock1": 1, "hint": 2}
LAYOUT = Layout()


def wait_for(predicate, timeout: float = 2.0) -> bool:
    """Poll `predicate` until it holds or `timeout` s pass; its last value."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.002)
    return predicate()


def squares(cells) -> frozenset[str]:
    return frozenset(LAYOUT.square(r, c) for r, c in cells)


@pytest.fixture
def board():
    b = PtyBoard()
    yield b
    b.close()


@pytest.fixture
def link(board):
    received = []
    lk = SerialLink(board.port, buttons=BUTTONS, on_snapshot=received.append)
    lk.received = received
    lk.start()
    assert lk.wait_synced(2.0)
    yield lk
    lk.close()
