"""The reed matrix (and buttons) wired straight to the Pi's GPIO, through gpiozero.

Rows are outputs, idle high; a scan pulls one row low at a time and reads the
columns (inputs with pull-ups), which read low through a closed switch and its
diode. Any gpiozero pin factory works: lgpio (Pi 5 and older), RPi.GPIO
(`rpigpio`, or rpi-lgpio on a Pi 5), or `MockFactory` in tests. gpiozero is
imported only when a matrix is built, so `import damka.hardware` works anywhere.

Debouncing and ghost detection are the firmware's own code
(`damka.firmware.scan`), so both designs behave the same.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from damka.firmware import scan as fwscan
from damka.hardware.errors import BackendUnavailableError, MatrixError
from damka.hardware.interfaces import BoardSensor, Button, ButtonPress, Buttons, ClockPress, Snapshot
from damka.hardware.layout import Layout

log = logging.getLogger(__name__)

# gpiozero's devices, pins and pin factories: gpiozero ships no types.
Gpiozero = Any


def monotonic_ms() -> int:
    return time.monotonic_ns() // 1_000_000


def make_press(name: str, time_ms: int) -> ClockPress | ButtonPress:
    """`clock0`..`clock3` -> ClockPress(side); a Button value -> ButtonPress."""
    if name.startswith("clock"):
        return ClockPress(int(name[5:]), time_ms)
    return ButtonPress(Button(name), time_ms)


class _ActiveLow:
    """A gpiozero input device seen as a MicroPython-style pin (value() 0 when pressed)."""

    def __init__(self, device: Gpiozero) -> None:
        self.device = device

    def value(self) -> int:
        return 0 if self.device.is_active else 1


class _PinLevel:
    """A gpiozero pin seen as a MicroPython-style pin: value() reads, value(v) drives."""

    def __init__(self, pin: Gpiozero) -> None:
        self.pin = pin

    def value(self, v: int | None = None) -> int | None:
        if v is None:
            return self.pin.state
        self.pin.state = v
        return None


def pin_factory(name: str | None) -> Gpiozero:
    """A gpiozero pin factory by name (None: gpiozero's default choice)."""
    if name is None:
        return None
    try:
        if name == "mock":
            from gpiozero.pins.mock import MockFactory

            return MockFactory()
        if name == "lgpio":
            from gpiozero.pins.lgpio import LGPIOFactory

            return LGPIOFactory()
        if name == "rpigpio":
            from gpiozero.pins.rpigpio import RPiGPIOFactory

            return RPiGPIOFactory()
        if name == "pigpio":
            from gpiozero.pins.pigpio import PiGPIOFactory

            return PiGPIOFactory()
        if name == "native":
            from gpiozero.pins.native import NativeFactory

            return NativeFactory()
    except (ImportError, RuntimeError, OSError) as exc:
        # RPi.GPIO raises RuntimeError off a Pi; lgpio an OSError without a gpiochip.
        raise BackendUnavailableError(f"GPIO pin factory {name!r} is not usable here: {exc}") from exc
    raise ValueError(f"unknown pin factory {name!r}")


class GpioMatrix(BoardSensor, Buttons):
    """A `rows` x `cols` reed matrix and push buttons on GPIO pins (BCM numbers).

    Call `start()` to scan in a thread at `rate_hz`; without it, every
    `snapshot()` / `presses()` call scans once (tests drive `scan_once()`
    with a fake clock). `ghosts` holds the squares of the last scan that may
    be ghosts when `diodes` is false (corners of closed rectangles).
    """

    def __init__(self, row_pins: Sequence[int], col_pins: Sequence[int], *,
                 layout: Layout | None = None, buttons: Mapping[str, int] | None = None,
                 pin_factory: Gpiozero = None, diodes: bool = True, debounce_scans: int = 3,
                 debounce_ms: int = 20, rate_hz: int = 200, settle_us: int = 0,
                 clock: Callable[[], int] = monotonic_ms, key_row: int | None = None) -> None:
        """`buttons`: name -> BCM pin, or with `key_row` (the pin of one more
        matrix row that the buttons sit on) name -> column index."""
        try:
            from gpiozero import DigitalInputDevice, DigitalOutputDevice
            from gpiozero.exc import BadPinFactory, GPIOZeroError
        except ImportError as exc:
            raise BackendUnavailableError("the gpio backend needs gpiozero (pip install damka[gpio])") from exc
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self.layout = layout or Layout(len(row_pins), len(col_pins))
        if (self.layout.rows, self.layout.cols) != (len(row_pins), len(col_pins)):
            raise ValueError(f"layout is {self.layout.rows}x{self.layout.cols} but "
                             f"{len(row_pins)} row and {len(col_pins)} column pins were given")
        self.clock, self.diodes, self.rate_hz, self.settle_us = clock, diodes, rate_hz, settle_us
        self._rows: list = []
        self._cols: list = []
        self._buttons: list = []
        self._button_names = list(buttons or {})
        current = "?"
        try:
            # CompositeDevice style: on any failure close what was opened, so
            # the pins are free for a corrected retry.
            for pin in row_pins:
                current = f"row pin GPIO{pin}"
                self._rows.append(DigitalOutputDevice(pin, active_high=False, initial_value=False,
                                                      pin_factory=pin_factory))
            for pin in col_pins:
                current = f"column pin GPIO{pin}"
                self._cols.append(DigitalInputDevice(pin, pull_up=True, pin_factory=pin_factory))
            if key_row is not None:
                current = f"key row pin GPIO{key_row}"
                self._buttons.append(DigitalOutputDevice(key_row, active_high=False, initial_value=False,
                                                         pin_factory=pin_factory))
            else:
                for name, pin in (buttons or {}).items():
                    current = f"button {name} GPIO{pin}"
                    self._buttons.append(DigitalInputDevice(pin, pull_up=True, pin_factory=pin_factory))
        except BadPinFactory as exc:
            self.close()
            raise BackendUnavailableError(
                f"no GPIO pin factory works here ({exc}); on a Pi install lgpio "
                "(pip install damka[pi]) or set [gpio] pin_factory") from exc
        except GPIOZeroError as exc:
            self.close()
            raise MatrixError(f"cannot set up {current}: {exc}") from exc
        except BaseException:
            self.close()
            raise
        self._row_pins = [d.pin for d in self._rows]
        self._col_pins = [d.pin for d in self._cols]
        self.debouncer = fwscan.Debouncer(len(row_pins), len(col_pins), debounce_scans, debounce_ms)
        if key_row is not None:
            keys = fwscan.KeyRow(_PinLevel(self._buttons[0].pin), [_PinLevel(p) for p in self._col_pins],
                                 len(col_pins))
            self.button_bank = fwscan.ButtonBank([keys.pins[c] for c in (buttons or {}).values()],
                                                 debounce_scans, source=keys)
        else:
            self.button_bank = fwscan.ButtonBank([_ActiveLow(d) for d in self._buttons], debounce_scans)
        self._lock = threading.Lock()
        self._snapshot = Snapshot(frozenset(), clock())
        self._presses: list[ClockPress | ButtonPress] = []
        self.scans = 0
        self.ghost_scans = 0
        self.ghosts: frozenset[str] = frozenset()
        self.raw: list[int] = [0] * len(row_pins)

    # -- scanning ----------------------------------------------------------
    def scan_raw(self) -> list[int]:
        """One pass over the matrix: row masks of closed switches (not debounced)."""
        masks = []
        settle = self.settle_us / 1e6
        cols = self._col_pins
        for row in self._row_pins:
            row.state = 0  # select: pull the row low
            if settle:
                end = time.perf_counter() + settle
                while time.perf_counter() < end:
                    pass  # microseconds: sleeping would take far longer
            mask = 0
            for c, col in enumerate(cols):
                if not col.state:
                    mask |= 1 << c
            row.state = 1
            masks.append(mask)
        return masks

    def scan_once(self) -> bool:
        """Scan, debounce, read the buttons; True when the snapshot changed."""
        raw = self.scan_raw()
        now = self.clock()
        with self._lock:
            self.raw = raw
            self.scans += 1
            if not self.diodes:
                suspects = fwscan.find_ghosts(raw)
                if suspects:
                    self.ghost_scans += 1
                    if not self.ghosts:
                        log.warning("matrix without diodes: ghost-prone rectangle at %s",
                                    " ".join(sorted(filter(None, (self.layout.square(r, c) for r, c in suspects)))))
                self.ghosts = frozenset(filter(None, (self.layout.square(r, c) for r, c in suspects)))
            changed = self.debouncer.update(raw, now)
            if changed:
                self._snapshot = Snapshot(self.layout.occupied(self.debouncer.stable), now)
            for i in self.button_bank.update():
                self._presses.append(make_press(self._button_names[i], now))
        return changed

    def start(self) -> None:
        """Scan in a background thread at `rate_hz`."""
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="damka-matrix", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        period = 1.0 / self.rate_hz
        next_at = time.monotonic()
        while not self._stop.is_set():
            try:
                self.scan_once()
            except Exception:  # a pin error must not kill the scanner silently
                log.exception("matrix scan failed")
                self._stop.wait(0.5)
            next_at += period
            delay = next_at - time.monotonic()
            if delay > 0:
                self._stop.wait(delay)
            else:
                next_at = time.monotonic()  # fell behind: do not try to catch up

    # -- interfaces ----------------------------------------------------------
    def snapshot(self) -> Snapshot:
        if self._thread is None:
            self.scan_once()
        with self._lock:
            return self._snapshot

    @property
    def latest(self) -> Snapshot:
        """The latest debounced snapshot, without scanning."""
        with self._lock:
            return self._snapshot

    def add_press(self, press: ClockPress | ButtonPress) -> None:
        """A press from another input (the rotary encoder's callbacks, on gpiozero's thread)."""
        with self._lock:
            self._presses.append(press)

    def presses(self) -> list[ClockPress | ButtonPress]:
        if self._thread is None:
            self.scan_once()
        with self._lock:
            out, self._presses = self._presses, []
        return out

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(1)
            self._thread = None
        for device in (*getattr(self, "_buttons", ()), *getattr(self, "_cols", ()), *getattr(self, "_rows", ())):
            try:
                device.close()
            except Exception:  # closing is best effort; the next close must still run
                log.debug("closing %r failed", device, exc_info=True)

    def __enter__(self) -> "GpioMatrix":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
