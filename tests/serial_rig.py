"""The firmware on a pty and the host's serial link to it, shared by the serial tests.
It holds no tests itself; test modules import the fixtures they use."""

from __future__ import annotations

import pytest

from damka.hardware.layout import Layout
from damka.hardware.pty_device import PtyBoard
from damka.hardware.serial_link import SerialLink
from waiting import DEADLINE_S, wait_until as wait_for  # noqa: F401  (the serial tests' name for it)

BUTTONS = {"clock0": 0, "clock1": 1, "hint": 2}
LAYOUT = Layout()


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
    assert lk.wait_synced(DEADLINE_S)
    yield lk
    lk.close()


def press(board: PtyBoard, index: int) -> None:
    """Hold the button until the firmware has counted the press, release it until
    the firmware has seen it up: a loaded test machine never loses a press."""
    bank = board.device.buttons
    count = bank.counts[index]
    board.buttons.pins[index].down = True
    wait_for(lambda: bank.counts[index] != count, f"button {index} seen pressed")
    board.buttons.pins[index].down = False
    wait_for(lambda: not bank.state >> index & 1, f"button {index} seen released")


def heartbeats(link: SerialLink, count: int = 2) -> None:
    """Wait until `count` more snapshots came in: a heartbeat repeats the state
    and the press counters, so whatever it could wrongly add has come by then."""
    seen = link.stats.snapshots
    wait_for(lambda: link.stats.snapshots >= seen + count, f"{count} heartbeats")


def collect_presses(link: SerialLink, want: int) -> list:
    """The presses the link reports until there are `want`, and any that come with two more heartbeats."""
    got: list = []

    def enough() -> bool:
        got.extend(link.presses())
        return len(got) >= want

    wait_for(enough, f"{want} presses")
    heartbeats(link)
    return got + link.presses()
