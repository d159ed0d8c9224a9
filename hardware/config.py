"""The board's configuration file (TOML), read once into frozen dataclasses.

Every mistake becomes one `ConfigError` naming the file, the section and the
setting, e.g. ``board.toml: [gpio] rows: expected 9 pin numbers, got 8``.
Unknown settings are mistakes too (a typo must not silently fall back to a
default). docs/board.example.toml documents every setting.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from damka.hardware.errors import ConfigError
from damka.hardware.interfaces import Button, Role
from damka.hardware.layout import Layout

BACKENDS = ("sim", "gpio", "serial")
LED_TYPES = ("ws2812", "mono", "none")
LED_DRIVERS = ("serial", "spi", "none")
PIN_FACTORIES = ("lgpio", "rpigpio", "pigpio", "native", "mock")
PICO_VID = 0x2E8A
SPI_PINS = (9, 10, 11)  # SPI0 with dtoverlay=spi0-0cs: MISO, MOSI (LED data), SCLK
# Button names in the [buttons] table: clock0..clock3 are the sides' clocks.
CLOCK_KEYS = ("clock0", "clock1", "clock2", "clock3")
BUTTON_KEYS = CLOCK_KEYS + tuple(b.value for b in Button)
# The firmware's button order (firmware/main.py BUTTON_PINS).
DEFAULT_SERIAL_BUTTONS = {"clock0": 0, "clock1": 1, "hint": 2, "takeback": 3, "menu": 4, "ok": 5}


@dataclass(frozen=True)
class GpioConfig:
    rows: tuple[int, ...] = ()
    cols: tuple[int, ...] = ()
    diodes: bool = True
    pin_factory: str | None = None  # None: gpiozero's own choice (GPIOZERO_PIN_FACTORY)
    settle_us: int = 5


@dataclass(frozen=True)
class SerialConfig:
    port: str | None = None         # None: find the board by USB vid/pid
    vid: int = PICO_VID
    pid: int | None = None
    baudrate: int = 115200


@dataclass(frozen=True)
class LedConfig:
    type: str = "ws2812"
    driver: str = "serial"
    brightness: int = 64
    budget_ma: int = 1500
    serpentine: bool = True
    spi_bus: int = 0
    spi_device: int = 0
    colours: dict[Role, tuple[int, int, int]] = field(default_factory=dict)


@dataclass(frozen=True)
class BoardConfig:
    source: str = "<defaults>"
    backend: str = "sim"
    rows: int = 9
    cols: int = 9
    sub_board: str | None = None
    rotation: int = 0
    mirror: bool = False
    debounce_scans: int = 3
    debounce_ms: int = 20
    scan_hz: int = 200
    gpio: GpioConfig = GpioConfig()
    serial: SerialConfig = SerialConfig()
    leds: LedConfig = LedConfig()
    buttons: dict[str, int] = field(default_factory=dict)

    def layout(self) -> Layout:
        return Layout(self.rows, self.cols, self.rotation, self.mirror, self.sub_board)


class _Section:
    """Takes settings out of one TOML table, type-checked, then rejects leftovers."""

    def __init__(self, source: str, name: str, table: Any) -> None:
        self.source, self.name = source, name
        if not isinstance(table, dict):
            raise self.error(None, f"expected a table, got {table!r}")
        self.table = dict(table)

    def error(self, key: str | None, message: str) -> ConfigError:
        if self.name == "":  # the file's top level holds sections
            return ConfigError(f"{self.source}: " + (f"[{key}]: " if key else "") + message)
        where = f"[{self.name}]" + (f" {key}" if key else "")
        return ConfigError(f"{self.source}: {where}: {message}")

    def get(self, key: str, kind: type | tuple[type, ...], default: Any) -> Any:
        if key not in self.table:
            return default
        value = self.table.pop(key)
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if isinstance(value, bool) and bool not in kinds:
            raise self.error(key, f"expected {_kind_name(kinds)}, got {value!r}")
        if not isinstance(value, kinds):
            raise self.error(key, f"expected {_kind_name(kinds)}, got {value!r}")
        return value

    def int_in(self, key: str, default: int, lo: int, hi: int) -> int:
        value = self.get(key, int, default)
        if not lo <= value <= hi:
            raise self.error(key, f"expected a number from {lo} to {hi}, got {value}")
        return value

    def choice(self, key: str, choices: tuple[str, ...], default: str | None) -> str | None:
        value = self.get(key, str, default)
        if value is not None and value not in choices:
            raise self.error(key, f"expected one of {', '.join(choices)}, got {value!r}")
        return value

    def pins(self, key: str, count: int) -> tuple[int, ...]:
        if key not in self.table:
            raise self.error(key, f"missing: give {count} BCM pin numbers")
        value = self.table.pop(key)
        if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            raise self.error(key, f"expected a list of {count} pin numbers, got {value!r}")
        if len(value) != count:
            raise self.error(key, f"expected {count} pin numbers, got {len(value)}")
        return tuple(value)

    def done(self) -> None:
        if self.table:
            names = ", ".join(sorted(self.table))
            kind = "section" if self.name == "" else "setting"
            raise self.error(None, f"unknown {kind}{'s' if len(self.table) > 1 else ''}: {names}")


def _kind_name(kinds: tuple[type, ...]) -> str:
    names = {int: "a number", str: "a string", bool: "true or false", float: "a number",
             list: "a list", dict: "a table"}
    return " or ".join(names.get(k, k.__name__) for k in kinds)


_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")


def load_config(path: str | Path, *, backend: str | None = None) -> BoardConfig:
    """Read a board.toml; ConfigError (naming the file) for anything wrong."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such configuration file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    return parse_config(data, str(path), backend=backend)


def parse_config(data: dict[str, Any], source: str = "board.toml", *, backend: str | None = None) -> BoardConfig:
    """The config from parsed TOML; `backend` overrides [board] backend (a command-line choice)."""
    top = _Section(source, "", data)
    board = _Section(source, "board", top.get("board", dict, {}))
    in_file = board.choice("backend", BACKENDS, "sim")
    backend = in_file if backend is None else backend
    if backend not in BACKENDS:
        raise ConfigError(f"{source}: backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
    rows = board.int_in("rows", 9, 2, 16)
    cols = board.int_in("cols", 9, 2, 16)
    sub_board = board.get("sub_board", str, None)
    rotation = board.get("rotation", int, 0)
    if rotation not in (0, 90, 180, 270):
        raise board.error("rotation", f"expected 0, 90, 180 or 270, got {rotation}")
    mirror = board.get("mirror", bool, False)
    try:
        Layout(rows, cols, rotation, mirror, sub_board)
    except ValueError as exc:
        key = "sub_board" if sub_board and "sub_board" in str(exc) else "rotation"
        raise board.error(key, str(exc)) from None
    board.done()

    scan = _Section(source, "scan", top.get("scan", dict, {}))
    debounce_scans = scan.int_in("debounce_scans", 3, 1, 50)
    debounce_ms = scan.int_in("debounce_ms", 20, 0, 1000)
    scan_hz = scan.int_in("rate_hz", 200, 10, 5000)
    scan.done()

    gpio_table = top.get("gpio", dict, None)
    if gpio_table is None:
        if backend == "gpio":
            raise ConfigError(f"{source}: [gpio]: missing: the gpio backend needs [gpio] rows and cols")
        gpio = GpioConfig()
    else:
        g = _Section(source, "gpio", gpio_table)
        gpio = GpioConfig(
            rows=g.pins("rows", rows),
            cols=g.pins("cols", cols),
            diodes=g.get("diodes", bool, True),
            pin_factory=g.choice("pin_factory", PIN_FACTORIES, None),
            settle_us=g.int_in("settle_us", 5, 0, 1000),
        )
        for key, pins in (("rows", gpio.rows), ("cols", gpio.cols)):
            for pin in pins:
                if not 0 <= pin <= 27:
                    raise g.error(key, f"GPIO{pin} is not a BCM pin on the 40-pin header (0-27)")
        g.done()

    s = _Section(source, "serial", top.get("serial", dict, {}))
    port = s.get("port", str, None) or None
    serial = SerialConfig(
        port=port,
        vid=s.int_in("vid", PICO_VID, 0, 0xFFFF),
        pid=s.get("pid", int, None),
        baudrate=s.int_in("baudrate", 115200, 1200, 12_000_000),
    )
    s.done()

    led = _Section(source, "leds", top.get("leds", dict, {}))
    led_type = led.choice("type", LED_TYPES, "ws2812")
    driver = led.choice("driver", LED_DRIVERS, "serial" if backend == "serial" else "none")
    colours: dict[Role, tuple[int, int, int]] = {}
    col_section = _Section(source, "leds.colours", led.get("colours", dict, {}))
    for role in Role:
        value = col_section.get(role.value, str, None)
        if value is None:
            continue
        if not _COLOUR.match(value):
            raise col_section.error(role.value, f"expected a colour like \"#00ff00\", got {value!r}")
        colours[role] = (int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16))
    col_section.done()
    leds = LedConfig(
        type=led_type,
        driver=driver,
        brightness=led.int_in("brightness", 64, 0, 255),
        budget_ma=led.int_in("budget_ma", 1500, 0, 10_000),
        serpentine=led.get("serpentine", bool, True),
        spi_bus=led.int_in("spi_bus", 0, 0, 6),
        spi_device=led.int_in("spi_device", 0, 0, 3),
        colours=colours,
    )
    if driver == "serial" and backend != "serial":
        raise led.error("driver", "the serial LED driver needs [board] backend = \"serial\"")
    led.done()

    b = _Section(source, "buttons", top.get("buttons", dict, {}))
    default_buttons = DEFAULT_SERIAL_BUTTONS if backend == "serial" else {}
    buttons: dict[str, int] = {}
    for key in BUTTON_KEYS:
        value = b.get(key, int, None)
        if value is not None:
            buttons[key] = value
    if not buttons:
        buttons = dict(default_buttons)
    b.done()
    seen: dict[int, str] = {}
    for key, value in buttons.items():
        if value in seen:
            raise b.error(key, f"{value} is already used by {seen[value]}")
        seen[value] = key
    if backend == "gpio" or gpio_table is not None:
        used = {p: f"[gpio] rows" for p in gpio.rows}
        used.update({p: f"[gpio] cols" for p in gpio.cols})
        if len(used) != len(gpio.rows) + len(gpio.cols):
            twice = sorted(set(gpio.rows) & set(gpio.cols)) or sorted(p for p in gpio.rows if gpio.rows.count(p) > 1) \
                or sorted(p for p in gpio.cols if gpio.cols.count(p) > 1)
            raise ConfigError(f"{source}: [gpio]: GPIO{twice[0]} is used twice in rows/cols")
        if backend == "gpio":
            for key, pin in buttons.items():
                if pin in used:
                    raise b.error(key, f"GPIO{pin} is already one of {used[pin]}")
            if leds.driver == "spi":
                for pin in SPI_PINS:
                    if pin in used or pin in seen:
                        what = used.get(pin) or f"[buttons] {seen[pin]}"
                        raise led.error("driver", f"SPI needs GPIO9-11 (MISO, MOSI, SCLK); GPIO{pin} is in {what}")
    top.done()
    return BoardConfig(
        source=source, backend=backend, rows=rows, cols=cols, sub_board=sub_board,
        rotation=rotation, mirror=mirror, debounce_scans=debounce_scans, debounce_ms=debounce_ms,
        scan_hz=scan_hz, gpio=gpio, serial=serial, leds=leds, buttons=buttons,
    )
