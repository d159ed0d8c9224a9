"""Build the board's devices from a `BoardConfig`: one place that picks the
backend and imports its library (gpiozero, pyserial) only when chosen.

Backends:
- ``gpio``: reed matrix and buttons on the Pi's GPIO (gpiozero), LEDs as a
  WS2812 chain on SPI (``[leds] driver = "spi"``) or none;
- ``serial``: everything behind the microcontroller (firmware/), over USB;
- ``sim``: a mock matrix on gpiozero's MockFactory with recorded LEDs (no
  hardware at all; the pygame simulator in `damka.sim` is the controller's).

``mock=True`` swaps the hardware for simulations of it: a MockFactory
switch matrix for ``gpio``, the firmware on a pty for ``serial``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from damka.hardware.config import BoardConfig
from damka.hardware.interfaces import BoardSensor, Buttons, LedOutput
from damka.hardware.leds import LedStyle, RecordingLeds


class NullLeds(LedOutput):
    """No LEDs fitted."""

    def show(self, frame) -> None:
        pass


@dataclass
class HardwareBoard:
    """The opened devices. `sim` is the simulated hardware when mocked (a
    mock_matrix.SwitchMatrix or a pty_device.PtyBoard), else None."""

    backend: str
    sensor: BoardSensor
    leds: LedOutput
    buttons: Buttons
    description: str
    sim: Any = None
    closers: list[Callable[[], None]] = field(default_factory=list)

    def close(self) -> None:
        for closer in reversed(self.closers):
            closer()
        self.closers.clear()

    def __enter__(self) -> "HardwareBoard":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def open_board(config: BoardConfig, *, mock: bool = False) -> HardwareBoard:
    backend = config.backend
    layout = config.layout()
    style = LedStyle(layout, config.leds.type, config.leds.brightness, config.leds.colours)
    if backend in ("gpio", "sim"):
        return _open_gpio(config, layout, style, mock or backend == "sim")
    return _open_serial(config, layout, style, mock)


def _open_gpio(config: BoardConfig, layout, style: LedStyle, mock: bool) -> HardwareBoard:
    from damka.hardware.gpio_matrix import GpioMatrix, pin_factory

    rows = config.gpio.rows or tuple(range(4, 4 + config.rows))
    cols = config.gpio.cols or tuple(range(4 + config.rows, 4 + config.rows + config.cols))
    buttons = config.buttons if config.gpio.rows else {}
    if mock and not buttons and 4 + config.rows + config.cols + 4 <= 28:
        free = 4 + config.rows + config.cols  # the next pins after the matrix
        buttons = {"clock0": free, "clock1": free + 1, "hint": free + 2, "ok": free + 3}
    sim = None
    if mock:
        from damka.hardware.mock_matrix import mock_board

        factory, sim = mock_board(rows, cols, diodes=config.gpio.diodes)
    else:
        factory = pin_factory(config.gpio.pin_factory)
    matrix = GpioMatrix(rows, cols, layout=layout, buttons=buttons, pin_factory=factory,
                        diodes=config.gpio.diodes, debounce_scans=config.debounce_scans,
                        debounce_ms=config.debounce_ms, rate_hz=config.scan_hz,
                        settle_us=0 if mock else config.gpio.settle_us)
    board = HardwareBoard("sim" if config.backend == "sim" else "gpio", matrix, NullLeds(), matrix,
                          f"{config.backend} backend{' (mock pins)' if mock else ''}, {config.rows}x{config.cols} matrix",
                          sim=sim, closers=[matrix.close])
    try:
        if mock or config.backend == "sim":
            board.leds = RecordingLeds()
        elif config.leds.driver == "spi" and config.leds.type != "none":
            from damka.hardware.leds import SpiWs2812, open_spi

            leds = SpiWs2812(open_spi(config.leds.spi_bus, config.leds.spi_device), style,
                             serpentine=config.leds.serpentine, budget_ma=config.leds.budget_ma)
            leds.start()
            board.leds = leds
            board.closers.append(leds.close)
        matrix.scan_once()  # the first snapshot is real before anyone asks
        matrix.start()
    except BaseException:
        board.close()
        raise
    return board


def _open_serial(config: BoardConfig, layout, style: LedStyle, mock: bool) -> HardwareBoard:
    from damka.hardware.serial_link import SerialLink

    closers: list[Callable[[], None]] = []
    sim = None
    port = config.serial.port
    if mock:
        from damka.hardware.pty_device import PtyBoard

        sim = PtyBoard(config.rows, config.cols)
        closers.append(sim.close)
        port = sim.port
    link = SerialLink(port, layout=layout, style=style, buttons=config.buttons, vid=config.serial.vid,
                      pid=config.serial.pid, baudrate=config.serial.baudrate)
    link.start()
    closers.append(link.close)
    # Give the device a moment to say HELLO and send its first snapshot, so
    # the controller does not start from an empty board (it still works, and
    # re-syncs, when the board is plugged in later).
    link.wait_synced(2.0)
    pid = "*" if config.serial.pid is None else f"{config.serial.pid:04x}"
    where = port or f"the first USB device {config.serial.vid:04x}:{pid}"
    return HardwareBoard("serial", link, link, link,
                         f"serial backend on {where}{' (firmware on a pty)' if mock else ''}, "
                         f"{config.rows}x{config.cols} matrix", sim=sim, closers=closers)
