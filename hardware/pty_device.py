"""The firmware running in a thread at the far end of a real pty: a stand-in
for a Pico on USB, for tests, the benchmarks and `damka doctor --mock serial`.
POSIX only (os.openpty).

The host opens `port`, a symlink to the pty's slave side, the way udev's
/dev/serial/by-id links point at a ttyACM device: `unplug()` closes the pty
(the host's reads fail, the link disappears) and `replug()` makes a fresh pty
and points the link at it, with the firmware restarted as after a reset.
`reset()` restarts the firmware on the same open pty (a watchdog reset behind
a UART bridge: the port stays, the device starts over). `FrameFaults` drops,
repeats or delays whole frames from the device, as a flaky bridge or relay
would, and keeps the truth of what it did for the tests.
"""

from __future__ import annotations

import errno
import os
import random
import tempfile
import threading
import time
import tty
from collections.abc import Callable, Iterable

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


class SimEncoder:
    """The encoder's two contacts (value() 1 when open), turned a detent at a
    time. Each change calls `on_change` at once (the Pico's pin interrupt:
    the firmware's decoder sees every edge, however fast the turn)."""

    CYCLE = {1: ((0, 1), (0, 0), (1, 0), (1, 1)), -1: ((1, 0), (0, 0), (0, 1), (1, 1))}

    class _Pin:
        def __init__(self) -> None:
            self.level = 1

        def value(self) -> int:
            return self.level

    def __init__(self) -> None:
        self.a, self.b = self._Pin(), self._Pin()
        self.on_change: Callable[[], object] | None = None

    def turn(self, steps: int, dwell_s: float = 0.004) -> None:
        """`steps` detents (+ A leading, - B leading), each state held `dwell_s`
        (0: a spin faster than the firmware's loop)."""
        for _ in range(abs(steps)):
            for a, b in self.CYCLE[1 if steps > 0 else -1]:
                self.a.level, self.b.level = a, b
                if self.on_change is not None:
                    self.on_change()
                if dwell_s:
                    time.sleep(dwell_s)


class SimBuzzer:
    """A PWM pin that records what the firmware plays: (ms since start, frequency or 0)."""

    def __init__(self) -> None:
        self.hz = 0
        self.played: list[tuple[int, int]] = []

    def freq(self, hz: int) -> None:
        self.hz = hz

    def duty_u16(self, duty: int) -> None:
        self.played.append((time.monotonic_ns() // 1_000_000, self.hz if duty else 0))


class RecordingPixels:
    """The LED chain (firmware/chain.py's `write(words)`, GRB words in chain
    order): keeps what was last shown, as (r, g, b) per LED."""

    def __init__(self, n: int) -> None:
        self.shown: list[tuple[int, int, int]] = [(0, 0, 0)] * n
        self.writes = 0

    def write(self, words: Iterable[int]) -> None:
        self.shown = [(w >> 8 & 0xFF, w >> 16 & 0xFF, w & 0xFF) for w in words]
        self.writes += 1


class FrameFaults:
    """Whole-frame faults on the device -> host direction. Each frame the device
    writes is, by chance, dropped, repeated later (sent now and again after 1 to
    `late_by` later frames) or delayed (sent only after them); `flush()` turns
    the faults off and gives what is still held. The counts are the truth a
    test compares the host's statistics with: `dropped` frames never go out,
    `late` ones go out after a newer frame did (a copy, or a delayed frame)."""

    def __init__(self, rng: random.Random, drop: float = 0.0, repeat: float = 0.0,
                 delay: float = 0.0, late_by: int = 6) -> None:
        self.rng, self.drop, self.repeat, self.delay, self.late_by = rng, drop, repeat, delay, late_by
        self.active = True
        self.frames = self.dropped = self.repeated = self.delayed = self.late = 0
        self._newest = -1                  # the index of the newest frame sent
        self._held: list[list] = []        # [frames still to wait, index, frame]
        self._lock = threading.Lock()

    def apply(self, data: bytes) -> list[bytes]:
        """What goes on the wire now, in order, for one write of the device."""
        with self._lock:
            if not data.strip(b"\x00"):  # a lone delimiter is not a frame
                return self._release(self._due()) + [data]
            index, self.frames = self.frames, self.frames + 1
            roll = self.rng.random() if self.active else 1.0
            held = [self.rng.randint(1, self.late_by), index, data]
            now = [(index, data)]
            if roll < self.drop:
                self.dropped += 1
                now = []
            elif roll < self.drop + self.repeat:
                self.repeated += 1
                self._held.append(held)
            elif roll < self.drop + self.repeat + self.delay:
                self.delayed += 1
                self._held.append(held)
                now = []
            return self._release(now + self._due())

    def _due(self) -> list[tuple[int, bytes]]:
        for held in self._held:
            held[0] -= 1
        due = [(index, frame) for wait, index, frame in self._held if wait < 0]
        self._held = [held for held in self._held if held[0] >= 0]
        return due

    def _release(self, frames: list[tuple[int, bytes]]) -> list[bytes]:
        for index, _ in frames:
            if index <= self._newest:  # a copy, or a frame older than one already sent
                self.late += 1
            self._newest = max(self._newest, index)
        return [frame for _, frame in frames]

    def flush(self) -> list[bytes]:
        """Faults off; the frames still held, to send now."""
        with self._lock:
            self.active = False
            held, self._held = [(index, frame) for _, index, frame in self._held], []
            return self._release(held)


class _PtyTransport:
    """The master side, non-blocking; `corrupt` is the chance per byte (both
    ways) of the byte being replaced by a random one; `faults` (FrameFaults or
    None) acts on whole frames the device writes."""

    def __init__(self, fd: int, corrupt: float, rng: random.Random) -> None:
        self.fd, self.corrupt, self.rng = fd, corrupt, rng
        self.dropped = 0
        self.faults: FrameFaults | None = None
        self._lock = threading.Lock()  # the firmware's thread and flush_faults() write whole frames

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
        with self._lock:
            faults = self.faults
            for chunk in faults.apply(data) if faults is not None else (data,):
                self._write(chunk)

    def flush_faults(self) -> None:
        """Turn the frame faults off and send the frames they still hold."""
        with self._lock:
            faults = self.faults
            for chunk in faults.flush() if faults is not None else ():
                self._write(chunk)

    def _write(self, data: bytes) -> None:
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

    def __init__(self, rows: int = 9, cols: int = 9, buttons: int = 8, corrupt: float = 0.0,
                 poll_s: float = 0.001, seed: int = 1, firmware_name: str | None = None) -> None:
        self.rows, self.cols = rows, cols
        self.matrix = SimMatrix(rows, cols)
        self.buttons = SimButtons(buttons)
        self.encoder = SimEncoder()
        self.buzzer = SimBuzzer()
        self.pixels = RecordingPixels(rows * cols)
        self.corrupt, self.poll_s = corrupt, poll_s
        self.firmware_name = firmware_name  # what HELLO says (None: the firmware's own name)
        self.rng = random.Random(seed)
        self._dir = tempfile.mkdtemp(prefix="damka-pty-")
        self.port = os.path.join(self._dir, "ttyDAMKA")
        self.device: Device | None = None
        self.truth: list[tuple[int, ...]] = []  # every debounced state the firmware reached
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._fds: tuple[int, int] | None = None
        self.transport: _PtyTransport | None = None
        self.replug()

    def replug(self) -> None:
        """Plug in (again): a fresh pty, the link pointed at it, firmware started."""
        master, slave = os.openpty()
        tty.setraw(slave)  # until the host opens it: no echo, no line editing
        os.set_blocking(master, False)
        self._fds = (master, slave)
        tmp = self.port + ".new"
        os.symlink(os.ttyname(slave), tmp)
        os.replace(tmp, self.port)
        self.transport = _PtyTransport(master, self.corrupt, self.rng)
        self._boot()

    def _boot(self) -> None:
        """A fresh firmware (sequence numbers, press counters, clock from zero) on the transport."""
        from damka.firmware import encoder, scan

        knob = encoder.Encoder(self.encoder.a, self.encoder.b)
        knob.by_irq = True  # fed on every edge, as main.py's pin interrupts do
        self.encoder.on_change = knob.poll
        named = {"name": self.firmware_name} if self.firmware_name is not None else {}
        self.device = Device(self.matrix, self.transport, self.pixels,
                             lambda: time.monotonic_ns() // 1_000_000,
                             buttons=scan.ButtonBank(self.buttons.pins),
                             rows=self.rows, cols=self.cols,
                             encoder=knob, buzzer=self.buzzer, **named)
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="damka-fake-pico", daemon=True)
        self._thread.start()

    def reset(self) -> None:
        """Restart the firmware on the same open pty (the host keeps its port)."""
        self._halt()
        self._boot()

    def _run(self) -> None:
        device = self.device
        if device is None:
            return  # never booted
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

    def _halt(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(2)
            self._thread = None

    def unplug(self) -> None:
        """Pull the cable: the firmware stops, the link goes away, the pty closes."""
        self._halt()
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

    def __exit__(self, *exc: object) -> None:
        self.close()
