"""The ``gpio`` backend: reed matrix and buttons straight on the Pi's GPIO
(gpiozero, imported only when opened), LEDs as a WS2812 chain on SPI or none.

Owns the ``[gpio]`` table and the doctor's scan-rate check; the ``sim``
backend opens the same matrix on mock pins (`open_matrix`).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from damka.controller.config.config_file import Section, config_error
from damka.hardware.backends import PRESS_S, Backend, Check, HardwareBoard, NullLeds, Out
from damka.hardware.config import BoardShape, HardwareConfig
from damka.hardware.interfaces import Button, ButtonPress
from damka.hardware.leds import LedStyle, RecordingLeds

if TYPE_CHECKING:
    from damka.config import BoardConfig  # the whole file: the LEDs follow [light] palette
    from damka.hardware.gpio_matrix import GpioMatrix, Gpiozero
    from damka.hardware.mock_matrix import SwitchMatrix
    from damka.hardware.sound import Notes

PIN_FACTORIES = ("lgpio", "rpigpio", "pigpio", "native", "mock")
SPI_PINS = (9, 10, 11)  # SPI0 with dtoverlay=spi0-0cs: MISO, MOSI (LED data), SCLK
FIRST_PIN = 4           # mock pins without a [gpio] table: rows, then cols, then buttons from here


@dataclass(frozen=True)
class GpioConfig:
    rows: tuple[int, ...] = ()
    cols: tuple[int, ...] = ()
    diodes: bool = True
    pin_factory: str | None = None  # None: gpiozero's own choice (GPIOZERO_PIN_FACTORY)
    settle_us: int = 5
    key_row: int | None = None      # the buttons' matrix row: [buttons] are then column numbers
    encoder: tuple[int, ...] | None = None  # rotary encoder A, B (its push is a button: ok)
    buzzer: int | None = None
    buzzer_tonal: bool = True       # a passive buzzer (TonalBuzzer, notes) or an active one (Buzzer, beeps)

    def extra_pins(self) -> dict[int, str]:
        """Pins other than the matrix's, by what uses them."""
        pins = {self.key_row: "[gpio] key_row"} if self.key_row is not None else {}
        for pin in self.encoder or ():
            pins[pin] = "[gpio] encoder"
        if self.buzzer is not None:
            pins[self.buzzer] = "[gpio] buzzer"
        return pins


def parse(g: Section | None, shape: BoardShape) -> GpioConfig:
    """[gpio]: required when chosen; checked whenever present."""
    if g is None:
        if shape.backend == "gpio":
            raise config_error(shape.source, "gpio", None, "missing: the gpio backend needs [gpio] rows and cols")
        return GpioConfig()
    gpio = GpioConfig(
        rows=g.pins("rows", shape.rows),
        cols=g.pins("cols", shape.cols),
        diodes=g.get("diodes", bool, True),
        pin_factory=g.choice("pin_factory", PIN_FACTORIES, None),
        settle_us=g.int_in("settle_us", 5, 0, 1000),
        key_row=g.int_in("key_row", -1, 0, 27) if "key_row" in g.table else None,
        encoder=g.pins("encoder", 2) if "encoder" in g.table else None,
        buzzer=g.int_in("buzzer", -1, 0, 27) if "buzzer" in g.table else None,
        buzzer_tonal=g.choice("buzzer_type", ("tonal", "plain"), "tonal") == "tonal",
    )
    for key, pins in (("rows", gpio.rows), ("cols", gpio.cols), ("encoder", gpio.encoder or ())):
        for pin in pins:
            if not 0 <= pin <= 27:
                raise g.error(key, f"GPIO{pin} is not a BCM pin on the 40-pin header (0-27)")
    g.done()
    both = gpio.rows + gpio.cols + tuple(gpio.encoder or ()) + tuple(
        p for p in (gpio.key_row, gpio.buzzer) if p is not None)
    twice = sorted(p for p in set(both) if both.count(p) > 1)
    if twice:
        raise g.error(None, f"GPIO{twice[0]} is used twice in rows/cols/key_row/encoder/buzzer")
    return gpio


def validate(config: HardwareConfig) -> None:
    """Buttons and the SPI LED pins must not sit on matrix pins."""
    gpio: GpioConfig = config.section("gpio")
    used = {p: "[gpio] rows" for p in gpio.rows}
    used.update({p: "[gpio] cols" for p in gpio.cols})
    used.update(gpio.extra_pins())
    for key, pin in config.buttons.items():
        if gpio.key_row is not None:
            if not 0 <= pin < config.cols:
                raise config_error(config.source, "buttons", key, f"with [gpio] key_row a button is a column "
                                   f"number from 0 to {config.cols - 1}, not {pin}")
        elif pin in used:
            raise config_error(config.source, "buttons", key, f"GPIO{pin} is already one of {used[pin]}")
    if config.leds.driver == "spi":
        buttons = {} if gpio.key_row is not None else {pin: key for key, pin in config.buttons.items()}
        for pin in SPI_PINS:
            if pin in used or pin in buttons:
                what = used.get(pin) or f"[buttons] {buttons[pin]}"
                raise config_error(config.source, "leds", "driver",
                                   f"SPI needs GPIO9-11 (MISO, MOSI, SCLK); GPIO{pin} is in {what}")


ENCODER_CYCLE = {Button.DOWN: ((0, 1), (0, 0), (1, 0), (1, 1)),  # A leads: clockwise, down a menu
                 Button.UP: ((1, 0), (0, 0), (0, 1), (1, 1))}


class MockPins:
    """Hands on a MockFactory matrix: close switches, press buttons by name
    (on their own pins, or on the key row), turn the encoder a detent."""

    def __init__(self, matrix: SwitchMatrix, factory: Gpiozero, buttons: dict[str, int], gpio: GpioConfig) -> None:
        self.matrix, self.factory, self.buttons, self.gpio = matrix, factory, buttons, gpio

    def set_closed(self, cells: Iterable[tuple[int, int]]) -> None:
        self.matrix.set_closed(cells)

    def press(self, button: str) -> None:
        if self.gpio.encoder is not None and button in ("up", "down") and button not in self.buttons:
            self.turn(Button(button))
        elif button not in self.buttons:
            return  # no such button wired
        elif self.gpio.key_row is not None:
            key = (self.matrix.rows - 1, self.buttons[button])  # the key row is the mock's last row
            self.matrix.keys.add(key)
            threading.Timer(PRESS_S, self.matrix.keys.discard, (key,)).start()
        else:
            pin = self.factory.pin(self.buttons[button])
            pin.drive_low()
            threading.Timer(PRESS_S, pin.drive_high).start()

    def turn(self, direction: Button) -> None:
        pins = self.gpio.encoder
        if pins is None:
            return  # no knob wired
        a, b = (self.factory.pin(p) for p in pins)
        for level_a, level_b in ENCODER_CYCLE[direction]:
            a.drive_low() if level_a == 0 else a.drive_high()
            b.drive_low() if level_b == 0 else b.drive_high()
            time.sleep(0.002)


def open_encoder(pins: tuple[int, ...], factory: Gpiozero, matrix: GpioMatrix) -> Callable[[], None]:
    """gpiozero's RotaryEncoder on [gpio] encoder's two pins: each detent a DOWN (clockwise) or UP press."""
    from gpiozero import RotaryEncoder

    from damka.hardware.gpio_matrix import monotonic_ms

    knob = RotaryEncoder(*pins, max_steps=0, pin_factory=factory)
    knob.when_rotated_clockwise = lambda: matrix.add_press(ButtonPress(Button.DOWN, monotonic_ms()))
    knob.when_rotated_counter_clockwise = lambda: matrix.add_press(ButtonPress(Button.UP, monotonic_ms()))
    return knob.close


def open_matrix(config: BoardConfig, mock: bool) -> HardwareBoard:
    """The matrix on the Pi's pins, or on mock pins (`mock`, and always for ``sim``)."""
    from damka.hardware.gpio_matrix import GpioMatrix, pin_factory

    gpio: GpioConfig = config.section("gpio")
    layout = config.layout()
    last = FIRST_PIN + config.rows + config.cols  # the first pin after the matrix
    rows = gpio.rows or tuple(range(FIRST_PIN, FIRST_PIN + config.rows))
    cols = gpio.cols or tuple(range(FIRST_PIN + config.rows, last))
    buttons = config.buttons if gpio.rows else {}
    if mock and not buttons and last + 4 <= 28:
        buttons = {"clock0": last, "clock1": last + 1, "hint": last + 2, "ok": last + 3}
    sim = hands = None
    if mock:
        from damka.hardware.mock_matrix import mock_board

        key_rows = (gpio.key_row,) if gpio.key_row is not None else ()
        factory, sim = mock_board(rows + key_rows, cols, diodes=gpio.diodes)
        hands = MockPins(sim, factory, dict(buttons), gpio)
    else:
        factory = pin_factory(gpio.pin_factory)
    matrix = GpioMatrix(rows, cols, layout=layout, buttons=buttons, pin_factory=factory,
                        diodes=gpio.diodes, debounce_scans=config.debounce_scans,
                        debounce_ms=config.debounce_ms, rate_hz=config.scan_hz,
                        settle_us=0 if mock else gpio.settle_us, key_row=gpio.key_row)
    board = HardwareBoard(config.backend, matrix, NullLeds(), matrix,
                          f"{config.backend} backend{' (mock pins)' if mock else ''}, {config.rows}x{config.cols} matrix",
                          sim=sim, closers=[matrix.close], hands=hands, ghosts=lambda: matrix.ghosts,
                          inputs=tuple(buttons) + (("up", "down") if gpio.encoder is not None else ()))
    try:
        if gpio.encoder is not None:
            board.closers.append(open_encoder(gpio.encoder, factory, matrix))
        if gpio.buzzer is not None:
            board.buzzer = open_buzzer(gpio.buzzer, gpio.buzzer_tonal, factory, mock, board)
        if mock:
            board.leds = RecordingLeds()
        elif config.leds.driver == "spi" and config.leds.type != "none":
            from damka.hardware.leds import SpiWs2812, open_spi

            style = LedStyle(layout, config.leds.type, config.leds.brightness, config.leds.colours,
                             palette=config.light.palette)
            board.led_style = style
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


def open_buzzer(pin: int, tonal: bool, factory: Gpiozero, mock: bool,
                board: HardwareBoard) -> Callable[[Notes], None]:
    """The buzzer on [gpio] buzzer's pin (a PWM-capable mock pin when simulated)."""
    from damka.hardware.sound import GpioBuzzer

    if mock and tonal:
        from gpiozero.pins.mock import MockFactory, MockPWMPin

        factory = MockFactory(pin_class=MockPWMPin)  # a passive buzzer wants a PWM pin
    buzzer = GpioBuzzer(pin, tonal=tonal, pin_factory=factory)
    board.closers.append(buzzer.close)
    return buzzer.play


def gpio_matrix(board: HardwareBoard) -> GpioMatrix:
    """The board's switch matrix on the Pi's pins: this check belongs to the gpio backend."""
    from damka.hardware.gpio_matrix import GpioMatrix

    if not isinstance(board.sensor, GpioMatrix):
        raise TypeError(f"the {board.backend} backend scans no matrix on the Pi's pins")
    return board.sensor


def check_scan_rate(board: HardwareBoard, out: Out) -> None:
    """The matrix scans on its own thread: how often it does, and could."""
    sensor = gpio_matrix(board)
    before, t0 = sensor.scans, time.perf_counter()
    time.sleep(0.5)
    rate = (sensor.scans - before) / (time.perf_counter() - t0)
    out(f"scan rate: {rate:.0f} full scans/s (target {sensor.rate_hz}/s, at least 100)")
    t0, n = time.perf_counter(), 0
    while time.perf_counter() - t0 < 0.1:
        sensor.scan_raw()
        n += 1
    out(f"scan capacity: {n / (time.perf_counter() - t0):.0f} scans/s on this machine")


SCAN_CHECKS = (Check("scan rate", check_scan_rate),)

BACKEND = Backend(
    name="gpio",
    open=open_matrix,
    checks=SCAN_CHECKS,
    parse=parse,
    defaults=GpioConfig(),
    validate=validate,
    led_drivers=("spi",),
)
