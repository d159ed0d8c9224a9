"""The host's serial link against a device that misbehaves fast, over a real
pty: the test writes well-formed frames (the firmware's own codec) on the
master side as a broken or forged device would. A HELLO of another protocol
version sent 20,000 times is logged a few times, not 20,000, and the error
clears when a right HELLO comes; valid BUTTON frames at any rate are acted on
at a bounded rate, with a log line saying how many were dropped."""

from __future__ import annotations

import logging
import os
import sys
import threading
import time

import pytest

pytest.importorskip("serial")
if sys.platform == "win32":
    pytest.skip("ptys are POSIX only", allow_module_level=True)

import tty  # noqa: E402

from damka.firmware import protocol as P  # noqa: E402
from damka.hardware.interfaces import ClockPress  # noqa: E402
from damka.hardware.serial_link import SerialLink  # noqa: E402

from serial_rig import wait_for  # noqa: E402

BUTTONS = {"clock0": 0, "clock1": 1, "hint": 2}


class ForgedDevice:
    """The master side of a pty: frames written as the test says, the host's bytes read and thrown away."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.port = os.ttyname(self.slave)
        self.seq = 0
        self.ms = 1000
        self._stop = threading.Event()
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        os.set_blocking(self.master, False)
        while not self._stop.is_set():
            try:
                os.read(self.master, 4096)
            except BlockingIOError:
                self._stop.wait(0.01)
            except OSError:
                return

    def frame(self, msg_type: int, body: bytes) -> bytes:
        data = P.encode_frame(msg_type, self.seq, body)
        self.seq = (self.seq + 1) & 0xFF
        return data

    def write(self, data: bytes, timeout: float = 60.0) -> None:
        """Everything, as fast as the host reads it."""
        end = time.monotonic() + timeout
        view = memoryview(data)
        while view:
            assert time.monotonic() < end, "the host stopped reading"
            try:
                view = view[os.write(self.master, view):]
            except BlockingIOError:
                time.sleep(0.001)

    def hello(self, version: int = P.PROTOCOL_VERSION) -> bytes:
        return self.frame(P.HELLO, P.pack_hello(9, 9, 3, "forged", version=version))

    def snapshot(self, counts: list[int]) -> bytes:
        self.ms += 1
        return self.frame(P.SNAPSHOT, P.pack_snapshot(self.ms, [0] * 9, 9, 0, counts))

    def button(self, index: int, count: int) -> bytes:
        self.ms += 1
        return self.frame(P.BUTTON, P.pack_button(index, count & 0xFF, self.ms))

    def close(self) -> None:
        self._stop.set()
        os.close(self.slave)
        os.close(self.master)


def test_a_hello_of_another_version_flooding_is_logged_a_few_times_and_a_right_hello_clears_it(caplog):
    caplog.set_level(logging.INFO, logger="damka.hardware")
    device = ForgedDevice()
    link = SerialLink(device.port, buttons=BUTTONS, stale_ms=120_000).start()
    try:
        assert wait_for(lambda: link.connected, 10.0)
        device.write(b"".join(device.hello(version=2) for _ in range(20_000)))
        assert wait_for(lambda: link.stats.frames_ok >= 20_000, 60.0), link.stats
        assert link.error is not None and "protocol 2" in str(link.error)
        problems = [r for r in caplog.records if "protocol 2" in r.getMessage()]
        assert 1 <= len(problems) <= 20, f"{len(problems)} log lines for one problem"
        restarts = [r for r in caplog.records if "restarted" in r.getMessage()]
        assert len(restarts) <= 20, f"{len(restarts)} log lines about restarts"       # every 256th has seq 0
        device.write(device.hello())                           # the right firmware now
        assert wait_for(lambda: link.error is None, 10.0), link.error
        assert any("problem is over" in r.getMessage() for r in caplog.records)
    finally:
        link.close()
        device.close()


def test_valid_button_frames_at_any_rate_are_acted_on_at_a_bounded_rate(caplog):
    caplog.set_level(logging.INFO, logger="damka.hardware")
    device = ForgedDevice()
    link = SerialLink(device.port, buttons=BUTTONS, stale_ms=120_000).start()
    try:
        assert wait_for(lambda: link.connected, 10.0)
        device.write(device.hello() + device.snapshot([0, 0, 0]))
        assert link.wait_synced(10.0)
        started = time.monotonic()
        device.write(b"".join(device.button(0, n) for n in range(1, 10_001)))   # 10,000 clock presses at once
        assert wait_for(lambda: link.stats.frames_ok >= 10_002, 60.0), link.stats
        took = time.monotonic() - started
        presses = link.presses()
        assert presses and all(isinstance(p, ClockPress) for p in presses)
        # A burst, then the rate: never thousands in the few seconds it took.
        assert len(presses) <= 200 + 100 * (took + 1), f"{len(presses)} presses acted on in {took:.1f} s"
        assert link.stats.presses_dropped == 10_000 - len(presses)
        dropped = [r for r in caplog.records if "dropped" in r.getMessage()]
        assert 1 <= len(dropped) <= 20, f"{len(dropped)} log lines about dropped presses"
        # A person's presses afterwards still count (the counters go on from where the device is).
        end = time.monotonic() + 10
        count = 10_000
        got: list = []
        while len(got) < 1:
            assert time.monotonic() < end, "a normal press after the flood was not counted"
            count += 1
            device.write(device.button(1, count))
            got += [p for p in link.presses() if p.side == 1]
            time.sleep(0.05)
    finally:
        link.close()
        device.close()
