"""The hardware's sections of the board's config (TOML): [board], [scan],
[leds], [buttons] and each backend's own table, read into a frozen
`HardwareConfig`.

`damka.config` reads the file once and composes the whole `BoardConfig`
from each layer's sections; this module parses only what the hardware needs.
Every mistake is one `ConfigError` naming the file, the section and the
setting (`damka.controller.config.config_file`). docs/board.example.toml documents
every setting.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from damka.controller.config.config_file import Section, config_error
from damka.hardware.backends import Backend, backend_names, load_backend
from damka.hardware.errors import ConfigError
from damka.hardware.interfaces import Button, Role
from damka.hardware.layout import Layout


LED_TYPES = ("ws2812", "mono", "none")
# Button names in the [buttons] table: clock0..clock3 are the sides' clocks.
CLOCK_KEYS = ("clock0", "clock1", "clock2", "clock3")
BUTTON_KEYS = CLOCK_KEYS + tuple(b.value for b in Button)


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
class HardwareConfig:
    """What the hardware sections say: the matrix, its scan, LEDs, buttons and backend tables."""

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
    leds: LedConfig = LedConfig()
    buttons: dict[str, int] = field(default_factory=dict)
    sections: dict[str, Any] = field(default_factory=dict)  # backend name -> its parsed table

    def layout(self) -> Layout:
        return Layout(self.rows, self.cols, self.rotation, self.mirror, self.sub_board)

    def section(self, backend: str) -> Any:
        """The settings of `backend`'s table (its defaults when the file has none)."""
        if backend in self.sections:
            return self.sections[backend]
        return load_backend(backend).defaults

    @property
    def gpio(self):  # -> backend_gpio.GpioConfig
        return self.section("gpio")

    @property
    def serial(self):  # -> backend_serial.SerialConfig
        return self.section("serial")


@dataclass(frozen=True)
class BoardShape:
    """What a backend's table parser may need from the rest of the file."""

    source: str
    backend: str   # the chosen backend
    rows: int
    cols: int


_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")


def parse_hardware(top: Section, backend: str | None = None) -> HardwareConfig:
    """The hardware sections taken out of the file's top level `top`; `backend`
    overrides [board] backend (a command-line choice)."""
    source = top.source
    board = top.table_of("board")
    names = backend_names()
    in_file = board.choice("backend", names, "sim")
    backend = in_file if backend is None else backend
    if backend not in names:
        raise ConfigError(f"{source}: backend must be one of {', '.join(names)}, not {backend!r}")
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

    scan = top.table_of("scan")
    debounce_scans = scan.int_in("debounce_scans", 3, 1, 50)
    debounce_ms = scan.int_in("debounce_ms", 20, 0, 1000)
    scan_hz = scan.int_in("rate_hz", 200, 10, 5000)
    scan.done()

    chosen = load_backend(backend)
    sections = _backend_sections(top, BoardShape(source, backend, rows, cols))
    leds = _leds(top.table_of("leds"), chosen)
    buttons = _buttons(top.table_of("buttons"), chosen)
    return HardwareConfig(
        source=source, backend=backend, rows=rows, cols=cols, sub_board=sub_board, rotation=rotation,
        mirror=mirror, debounce_scans=debounce_scans, debounce_ms=debounce_ms, scan_hz=scan_hz, leds=leds,
        buttons=buttons, sections=sections,
    )


def check_across(config: HardwareConfig) -> None:
    """The chosen backend's checks across tables (pins used twice, ...), once the whole file is read."""
    validate = load_backend(config.backend).validate
    if validate is not None:
        validate(config)


def _backend_sections(top: Section, shape: BoardShape) -> dict[str, Any]:
    """Each backend's own table, read by its module: the chosen backend's (it
    may require one) and any other the file has (a typo there is caught too)."""
    sections: dict[str, Any] = {}
    for name in backend_names():
        if name != shape.backend and name not in top.table:
            continue
        owner = load_backend(name)
        if owner.parse is None:
            continue  # no table of its own: a [name] table stays unknown
        table = top.get(name, dict, None)
        sections[name] = owner.parse(None if table is None else Section(shape.source, name, table), shape)
    return sections


def _leds(led: Section, chosen: Backend) -> LedConfig:
    led_type = led.choice("type", LED_TYPES, "ws2812")
    driver = led.get("driver", str, chosen.default_led_driver)
    if driver != "none" and driver not in chosen.led_drivers:
        owners = [name for name in backend_names() if driver in load_backend(name).led_drivers]
        if not owners:
            known = sorted({d for name in backend_names() for d in load_backend(name).led_drivers})
            raise led.error("driver", f"expected one of {', '.join(known + ['none'])}, got {driver!r}")
        raise led.error("driver", f"the {driver} LED driver needs [board] backend = "
                        + " or ".join(f'"{name}"' for name in owners))
    colours: dict[Role, tuple[int, int, int]] = {}
    col_section = Section(led.source, "leds.colours", led.get("colours", dict, {}))
    for role in Role:
        value = col_section.get(role.value, str, None)
        if value is None:
            continue
        if not _COLOUR.match(value):
            raise col_section.error(role.value, f"expected a colour like \"#00ff00\", got {value!r}")
        colours[role] = (int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16))
    col_section.done()
    leds = LedConfig(
        type=led_type or "ws2812",
        driver=driver,
        brightness=led.int_in("brightness", 64, 0, 255),
        budget_ma=led.int_in("budget_ma", 1500, 0, 10_000),
        serpentine=led.get("serpentine", bool, True),
        spi_bus=led.int_in("spi_bus", 0, 0, 6),
        spi_device=led.int_in("spi_device", 0, 0, 3),
        colours=colours,
    )
    led.done()
    return leds


def _buttons(b: Section, chosen: Backend) -> dict[str, int]:
    """[buttons]: pins or button indexes, each used once; the backend's defaults if none."""
    buttons: dict[str, int] = {}
    for key in BUTTON_KEYS:
        value = b.get(key, int, None)
        if value is not None:
            buttons[key] = value
    if not buttons:
        buttons = dict(chosen.default_buttons)
    b.done()
    seen: dict[int, str] = {}
    for key, value in buttons.items():
        if value in seen:
            raise b.error(key, f"{value} is already used by {seen[value]}")
        seen[value] = key
    return buttons
