"""From LED frames (roles) to colours, and the direct-GPIO LED backends.

A frame maps squares to `Role`s. `LedStyle` turns it into what both LED
designs take: a small palette of (r, g, b, pattern) entries and one palette
index per matrix cell (0 = off), row-major. The microcontroller receives
exactly that (protocol LEDS frame) and blinks locally; the direct-GPIO
backend (`SpiWs2812`) renders it on the Pi and refreshes for the blinking.

The colours and patterns themselves are the one palette in `palette`
(re-exported here), which the simulator window draws from too.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from damka.firmware import lights
from damka.hardware.interfaces import LedFrame, LedOutput, Role
from damka.hardware.layout import Layout
from damka.hardware.palette import (BLINK_ALT, BLINK_FAST, BLINK_SLOW, DOUBLE, MONO_STYLE, PALETTES,  # noqa: F401
                                    RGB, RGB_STYLE, STEADY, WHITE)

PaletteEntry = tuple[int, int, int, int]


class LedStyle:
    """Encodes frames for one board: LED type, colour overrides, brightness."""

    def __init__(self, layout: Layout, led_type: str = "ws2812", brightness: int = 64,
                 colours: Mapping[Role, RGB] | None = None, palette: str = "standard") -> None:
        if led_type not in ("ws2812", "mono", "none"):
            raise ValueError(f"unknown LED type {led_type!r}")
        self.layout, self.led_type = layout, led_type
        self.colours = dict(colours or {})
        self.brightness, self.palette = 0, "standard"
        self.set_light(brightness, palette)

    def set_light(self, brightness: int, palette: str = "standard") -> None:
        """Brightness (0-255: night mode is a low one) and palette, from the menu while playing;
        the next frame sent carries them."""
        if not 0 <= brightness <= 255:
            raise ValueError(f"brightness must be 0-255, not {brightness}")
        if palette not in PALETTES:
            raise ValueError(f"palette must be one of {', '.join(PALETTES)}, not {palette!r}")
        self.brightness, self.palette = brightness, palette

    def entry(self, role: Role) -> PaletteEntry:
        if self.led_type == "mono":
            return (*WHITE, MONO_STYLE[role])
        colour, pattern = PALETTES[self.palette][role]
        return (*self.colours.get(role, colour), pattern)

    def encode(self, frame: LedFrame) -> tuple[list[PaletteEntry], bytes]:
        """(palette without the implicit "off" entry 0, one index per cell).
        Squares that are not on this board (outside the sub-board) are skipped."""
        palette: list[PaletteEntry] = []
        index: dict[PaletteEntry, int] = {}
        cells = bytearray(self.layout.rows * self.layout.cols)
        if self.led_type == "none":
            return palette, bytes(cells)
        for square, role in frame.items():
            try:
                r, c = self.layout.cell(square)
            except KeyError:
                continue
            entry = self.entry(Role(role))
            if entry not in index:
                palette.append(entry)
                index[entry] = len(palette)
            cells[r * self.layout.cols + c] = index[entry]
        return palette, bytes(cells)


def spi_encode(colours: list[RGB]) -> bytes:
    """WS2812 bit stream for an SPI bus clocked at 2.4 MHz: each LED bit
    becomes three SPI bits (0 -> 100, 1 -> 110), in the chain's GRB order,
    followed by >300 us of low as the latch."""
    out = bytearray()
    for r, g, b in colours:
        out += _SPI_BYTE[g] + _SPI_BYTE[r] + _SPI_BYTE[b]
    return bytes(out) + bytes(SPI_LATCH_BYTES)


def _spi_byte(value: int) -> bytes:
    bits = 0
    for i in range(7, -1, -1):
        bits = (bits << 3) | (0b110 if value >> i & 1 else 0b100)
    return bits.to_bytes(3, "big")


# Precomputed: one look-up per colour byte (81 LEDs x 3 bytes per refresh).
_SPI_BYTE = [_spi_byte(v) for v in range(256)]
SPI_HZ = 2_400_000
SPI_LATCH_BYTES = 96  # 96 * 8 / 2.4 MHz = 320 us


def spi_decode(data: bytes) -> list[RGB]:
    """Inverse of `spi_encode` (for tests and the doctor)."""
    body = data.rstrip(b"\x00")
    bits = int.from_bytes(body, "big") if body else 0
    nbits = len(body) * 8
    values = []
    for at in range(0, nbits - 2, 3):
        triple = (bits >> (nbits - at - 3)) & 0b111
        values.append(1 if triple == 0b110 else 0)
    leds = []
    for i in range(0, len(values) - 23, 24):
        g, r, b = (int("".join(map(str, values[i + 8 * k:i + 8 * k + 8])), 2) for k in range(3))
        leds.append((r, g, b))
    return leds


class SpiWs2812(LedOutput):
    """A WS2812 chain on the Pi's SPI MOSI (GPIO10), driven directly.

    `spi` is any object with ``writebytes2(bytes)`` (a `spidev.SpiDev`, opened
    and set to 2.4 MHz by `open_spi`, or a recording fake in tests). Blinking
    runs on the Pi: `refresh()` redraws when a blink phase changes; `start()`
    runs it in a thread at 50 Hz.
    """

    def __init__(self, spi: Any, style: LedStyle, *, serpentine: bool = True,  # spidev.SpiDev: no types
                 budget_ma: int = lights.DEFAULT_BUDGET_MA,
                 clock: Callable[[], int] | None = None) -> None:
        self.spi, self.style, self.serpentine, self.budget_ma = spi, style, serpentine, budget_ma
        self.clock = clock or (lambda: time.monotonic_ns() // 1_000_000)
        self._lock = threading.Lock()
        self._palette: list[PaletteEntry] = [(0, 0, 0, STEADY)]
        self._cells = bytes(style.layout.rows * style.layout.cols)
        self._shown: list[RGB] | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.writes = 0

    def show(self, frame: LedFrame) -> None:
        palette, cells = self.style.encode(frame)
        with self._lock:
            self._palette, self._cells = [(0, 0, 0, STEADY), *palette], cells
        self.refresh()

    def refresh(self) -> None:
        with self._lock:
            colours = lights.frame_colours(self._palette, self._cells, self.style.brightness,
                                           self.clock(), self.budget_ma)
            if colours == self._shown:
                return
            layout = self.style.layout
            chain = lights.chain_order(colours, layout.rows, layout.cols, self.serpentine)
            self.spi.writebytes2(spi_encode(chain))
            self._shown = colours
            self.writes += 1

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="damka-leds", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(0.02):
            self.refresh()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(1)
            self._thread = None
        with self._lock:
            self._palette, self._cells = [(0, 0, 0, STEADY)], bytes(len(self._cells))
        self.refresh()
        closer = getattr(self.spi, "close", None)
        if closer:
            closer()


def open_spi(bus: int = 0, device: int = 0) -> Any:
    """A spidev.SpiDev set up for `spi_encode` (imported here: Pi only; Any:
    spidev ships no types)."""
    try:
        import spidev  # type: ignore[import-not-found]
    except ImportError as exc:
        from damka.hardware.errors import BackendUnavailableError

        raise BackendUnavailableError(
            "the SPI LED driver needs the spidev package (pip install spidev) and SPI enabled "
            "(raspi-config: Interface Options, SPI)") from exc
    spi = spidev.SpiDev()
    spi.open(bus, device)
    spi.max_speed_hz = SPI_HZ
    spi.mode = 0
    return spi


class RecordingLeds(LedOutput):
    """Keeps every frame shown (tests, the doctor's mock board)."""

    def __init__(self) -> None:
        self.frames: list[dict[str, Role]] = []

    def show(self, frame: LedFrame) -> None:
        self.frames.append(dict(frame))

    @property
    def last(self) -> dict[str, Role]:
        return self.frames[-1] if self.frames else {}
