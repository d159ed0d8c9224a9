"""The firmware running in a thread at the far end of a real pty: a stand-in
for a Pico on USB, for tests, the benchmarks and `damka doctor --mock serial`.
POSIX only (os.openpty).

The host opens `port`, a symlink to the pty's slave side, the way udev's
/dev/serial/by-id links point at a ttyACM device: `unplug()` closes the pty
(the host's reads fail, the link disappears) and `replug()` makes a fresh pty
and points the link at it, with the firmware restarted as after a reset.
"""

from __future__ import annotations

import errno
import os
import random
import tempfile
import threading
import time
import tty
from collections.abc import Iterable

from damka.firmware.device import Device


class SimMatrix:
    """Switch states the firmware scans; the test sets `closed` cells."""

    def __init__(self, rows: int = 9, cols: int = 9) -> None:
        self.rows, self.cols = rows, cols
        self.masks = [0] * rows
        self.changed_at = 0.0  # perf_counter() of the last set()

    def set(self, cells: Iterable[tuple[int, int]]) -> None:
        masks = [0] * self.rows
        for r, c in cells:
            masks[r] |= 1 << c
        self.changed_at = time.perf_counter()
        self.masks = masks

    def scan(self) -> list[int]:
        return list(self.masks)


class SimButtons:
    """Button pins for the firmware's ButtonBank (value() 0 when pressed)."""

    class _Pin:
        def __init__(self) -> None:
            self.down = False

        def value(self) -> int:
            return 0 if self.down else 1

    def __init__(self, count: int) -> None:
        self.pins = [self._Pin() for _ in range(count)]


class RecordingPixels:
    """A NeoPixel stand-in that keeps what was written."""

    def __init__(self, n: int) -> None:
        self.buf = [(0, 0, 0)] * n
        self.shown: list[tuple[int, int, int]] = list(self.buf)
        self.writes = 0

    def __setitem__(self, i: int, colour) -> None:
        self.buf[i] = tuple(colour)

    def write(self) -> None:
        self.shown = list(self.buf)
        self.writes += 1


class _PtyTransport:
    """The master side, non-blocking; `corrupt` is the chance per byte (both
    ways) of the byte being replaced by a random one."""

    def __init__(self, fd: int, corrupt: float, rng: random.Random) -> None:
        self.fd, self.corrupt, self.rng = fd, corrupt, rng
        self.dropped = 0

    def _mangle(self, data: bytes) -> bytes:
        if not self.corrupt or not data:
            return data
        out = bytearray(data)
        for i in range(len(out)):
            if self.rng.random() < self.corrupt:
                out[i] = self.rng.randrange(256)
        return bytes(out)

    def read(self) -> bytes:
        try:
            return self._mangle(os.read(self.fd, 4096))
        except BlockingIOError:
            return b""
        except OSError as exc:
            if exc.errno == errno.EIO:  # no host has the slave open
                return b""
            raise

    def write(self, data: bytes) -> None:
        data = self._mangle(data)
        try:
            os.write(self.fd, data)
        except BlockingIOError:
            self.dropped += len(data)  # the host is not reading: like USB CDC, drop it
        except OSError as exc:
            if exc.errno != errno.EIO:
                raise


class PtyBoard:
    """A simulated board (matrix, buttons, LED chain, firmware) on a pty."""

    def __init__(self, rows: int = 9, cols: int = 9, buttons: int = 6, corrupt: float = 0.0,
                 poll_s: float = 0.001, seed: int = 1) -> None:
        self.rows, self.cols = rows, cols
        self.matrix = SimMatrix(rows, cols)
        self.buttons = SimButtons(buttons)
        self.pixels = RecordingPixels(rows * cols)
        self.corrupt, self.poll_s = corrupt, poll_s
        self.rng = random.Random(seed)
        self._dir = tempfile.mkdtemp(prefix="damka-pty-")
        self.port = os.path.join(self._dir, "ttyDAMKA")
        self.device: Device | None = None
        self.truth: list[tuple[int, ...]] = []  # every debounced state the firmware reached
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._fds: tuple[int, int] | None = None
        self.replug()

    def replug(self) -> None:
        """Plug in (again): a fresh pty, the link pointed at it, firmware started."""
        from damka.firmware import scan

        master, slave = os.openpty()
        tty.setraw(slave)  # until the host opens it: no echo, no line editing
        os.set_blocking(master, False)
        self._fds = (master, slave)
        tmp = self.port + ".new"
        os.symlink(os.ttyname(slave), tmp)
        os.replace(tmp, self.port)
        transport = _PtyTransport(master, self.corrupt, self.rng)
        self.device = Device(self.matrix, transport, self.pixels,
                             lambda: time.monotonic_ns() // 1_000_000,
                             buttons=scan.ButtonBank(self.buttons.pins),
                             rows=self.rows, cols=self.cols)
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="damka-fake-pico", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        device = self.device
        device.start()
        last = None
        while not self._stop.is_set():
            device.poll()
            state = tuple(device.debouncer.stable)
            if state != last:
                self.truth.append(state)
                last = state
            if self.poll_s:
                time.sleep(self.poll_s)

    def unplug(self) -> None:
        """Pull the cable: the firmware stops, the link goes away, the pty closes."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(2)
            self._thread = None
        # The link first: the host reconnects as soon as its read fails, and must not
        # find the link still pointing at a closed pts (whose number another pty may get).
        try:
            os.unlink(self.port)
        except FileNotFoundError:
            pass
        if self._fds is not None:
            for fd in self._fds:
                os.close(fd)
            self._fds = None

    def close(self) -> None:
        self.unplug()
        try:
            os.rmdir(self._dir)
        except OSError:
            pass

    def __enter__(self) -> "PtyBoard":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
