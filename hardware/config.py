"""The board's configuration file (TOML), read once into frozen dataclasses.

Every mistake becomes one `ConfigError` naming the file, the section and the
setting, e.g. ``board.toml: [gpio] rows: expected 9 pin numbers, got 8``.
Unknown settings are mistakes too (a typo must not silently fall back to a
default). docs/board.example.toml documents every setting.
"""

from __future__ import annotations

import os
import re
import stat
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from damka.controller.user_files import file_kind
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


# Cue names of [sound] off (controller/cues.py Cue values; a test keeps them equal).
CUE_NAMES = ("byoyomi", "last_seconds", "flag", "refused", "illegal", "computer_moved", "game_over")
VOICE_LANGUAGES = ("en", "pl")
PALETTES = ("standard", "colour-blind")


@dataclass(frozen=True)
class SoundConfig:
    """[sound]: the buzzer's cues (docs/board.example.toml)."""

    enabled: bool = True
    off: tuple[str, ...] = ()          # cues switched off
    tournament_quiet: bool = True      # tournament games sound only the flag


@dataclass(frozen=True)
class VoiceConfig:
    """[voice]: spoken announcements through espeak-ng (off by default)."""

    enabled: bool = False
    language: str = "en"
    moves: bool = True                 # announce every move (else refusals, clock and results only)


@dataclass(frozen=True)
class LightConfig:
    """[light]: the LEDs as the players like them; the menu changes them while playing."""

    night: bool = False
    night_brightness: int = 8          # 0-255, used instead of [leds] brightness at night
    last_move: bool = True             # light the last move
    palette: str = "standard"          # or "colour-blind": the Okabe-Ito colours


@dataclass(frozen=True)
class WebSettings:
    """[web]: the board's web page (docs/web.md)."""

    enabled: bool = True
    port: int = 8080
    bind: str = "0.0.0.0"
    arbiter_pin: str = ""   # "": one is made up at each start, shown on the board's screen and logged
    proxies: tuple[str, ...] = ()   # addresses of a reverse proxy in front: only they may set X-Forwarded-For
    hosts: tuple[str, ...] = ()     # more names the page answers to (Host header); ["*"]: any


@dataclass(frozen=True)
class BoardConfig:
    source: str = "<defaults>"
    backend: str = "sim"
    rows: int = 9
    cols: int = 9
    sub_board: str | None = None
    rotation: int = 0
    mirror: bool = False
    language: str = "en"  # [board] language: what the board's screen, page and menus speak ("en", "pl")
    debounce_scans: int = 3
    debounce_ms: int = 20
    scan_hz: int = 200
    leds: LedConfig = LedConfig()
    buttons: dict[str, int] = field(default_factory=dict)
    sections: dict[str, Any] = field(default_factory=dict)  # backend name -> its parsed table
    web: WebSettings = WebSettings()
    hall: Any = None  # [hall]: damka.hall.config.BoardHall (docs/hall.md); None: no tournament hall
    sound: SoundConfig = SoundConfig()
    voice: VoiceConfig = VoiceConfig()
    light: LightConfig = LightConfig()
    engines: dict[str, dict[str, str]] = field(default_factory=dict)  # variant -> {name: Hub engine command}

    def layout(self) -> Layout:
        return Layout(self.rows, self.cols, self.rotation, self.mirror, self.sub_board)

    def engine_table(self) -> tuple[tuple[str, str, str], ...]:
        """[engines] as `GameSetup.engines`: (variant, name, command), in the file's order."""
        return tuple((variant, name, command) for variant, named in self.engines.items()
                     for name, command in named.items())

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


def config_error(source: str, section: str, key: str | None, message: str) -> ConfigError:
    """``board.toml: [gpio] rows: message`` (or ``[gpio]: message`` without a key)."""
    return ConfigError(f"{source}: [{section}]" + (f" {key}" if key else "") + f": {message}")


class Section:
    """Takes settings out of one TOML table, type-checked, then rejects leftovers.
    Backend modules read their own table with it."""

    def __init__(self, source: str, name: str, table: Any) -> None:
        self.source, self.name = source, name
        if not isinstance(table, dict):
            raise self.error(None, f"expected a table, got {table!r}")
        self.table = dict(table)

    def error(self, key: str | None, message: str) -> ConfigError:
        if self.name == "":  # the file's top level holds sections
            return ConfigError(f"{self.source}: " + (f"[{key}]: " if key else "") + message)
        return config_error(self.source, self.name, key, message)

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


def _arbiter_pin(table: Section) -> str:
    """[web] arbiter_pin: "" (made up at start) or at least PIN_DIGITS characters (it opens everything)."""
    from damka.web.security import PIN_DIGITS  # (stdlib only: the web extra is not needed to read it)

    pin = str(table.get("arbiter_pin", (str, int), "")).strip()
    if pin and len(pin) < PIN_DIGITS:
        raise table.error("arbiter_pin", f"too short: give at least {PIN_DIGITS} characters, "
                                         "or leave it out and the board makes one up and shows it")
    return pin


def _strings(table: Section, key: str) -> tuple[str, ...]:
    value = table.get(key, list, [])
    if not all(isinstance(v, str) and v.strip() for v in value):
        raise table.error(key, f"expected a list of names or addresses (strings), got {value!r}")
    return tuple(v.strip() for v in value)


def _kind_name(kinds: tuple[type, ...]) -> str:
    names = {int: "a number", str: "a string", bool: "true or false", float: "a number",
             list: "a list", dict: "a table"}
    return " or ".join(names.get(k, k.__name__) for k in kinds)


_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")


MAX_CONFIG_BYTES = 256 * 1024  # a board.toml is a few hundred bytes


def read_config_text(path: str | Path, what: str = "configuration file", limit: int = MAX_CONFIG_BYTES) -> str:
    """A small settings file's UTF-8 text (a config, a password file); ConfigError in one line naming it.

    Only a regular file is read, and at most `limit` bytes of it: a FIFO would
    wait forever for a writer (it is opened without waiting, then refused),
    /dev/zero never ends, a huge file would fill the memory."""
    path = Path(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)   # a FIFO opens at once instead of waiting for a writer
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such {what}") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise ConfigError(f"{path}: {file_kind(mode)}, not a regular file; a {what} must be one")
        with os.fdopen(fd, "rb") as handle:
            fd = -1
            raw = handle.read(limit + 1)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from None
    finally:
        if fd >= 0:
            os.close(fd)
    if len(raw) > limit:
        raise ConfigError(f"{path}: larger than {limit // 1024} kB; not a {what}")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: cannot read: not UTF-8 text ({exc.reason})") from None


def load_config(path: str | Path, *, backend: str | None = None) -> BoardConfig:
    """Read a board.toml; ConfigError (naming the file) for anything wrong."""
    text = read_config_text(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    return parse_config(data, str(path), backend=backend)


def parse_config(data: dict[str, Any], source: str = "board.toml", *, backend: str | None = None) -> BoardConfig:
    """The config from parsed TOML; `backend` overrides [board] backend (a command-line choice)."""
    top = Section(source, "", data)
    board = Section(source, "board", top.get("board", dict, {}))
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
    language = board.choice("language", VOICE_LANGUAGES, "en") or "en"
    try:
        Layout(rows, cols, rotation, mirror, sub_board)
    except ValueError as exc:
        key = "sub_board" if sub_board and "sub_board" in str(exc) else "rotation"
        raise board.error(key, str(exc)) from None
    board.done()

    scan = Section(source, "scan", top.get("scan", dict, {}))
    debounce_scans = scan.int_in("debounce_scans", 3, 1, 50)
    debounce_ms = scan.int_in("debounce_ms", 20, 0, 1000)
    scan_hz = scan.int_in("rate_hz", 200, 10, 5000)
    scan.done()

    chosen = load_backend(backend)
    shape = BoardShape(source, backend, rows, cols)
    sections = _backend_sections(top, shape)
    leds = _leds(Section(source, "leds", top.get("leds", dict, {})), chosen)
    buttons = _buttons(Section(source, "buttons", top.get("buttons", dict, {})), chosen)
    web_table = Section(source, "web", top.get("web", dict, {}))
    web = WebSettings(web_table.get("enabled", bool, True), web_table.int_in("port", 8080, 0, 65535),
                      web_table.get("bind", str, "0.0.0.0"), _arbiter_pin(web_table),
                      _strings(web_table, "trusted_proxies"), _strings(web_table, "hosts"))
    web_table.done()
    hall = None
    if "hall" in top.table:
        from damka.hall.config import parse_board_hall  # (only a board in a hall reads it)

        hall = parse_board_hall(top.get("hall", dict, {}), source)
    sound = _sound(Section(source, "sound", top.get("sound", dict, {})))
    voice = _voice(Section(source, "voice", top.get("voice", dict, {})))
    light = _light(Section(source, "light", top.get("light", dict, {})))
    engines = _engines(Section(source, "engines", top.get("engines", dict, {})))
    top.done()
    config = BoardConfig(
        source=source, backend=backend, rows=rows, cols=cols, sub_board=sub_board,
        rotation=rotation, mirror=mirror, debounce_scans=debounce_scans, debounce_ms=debounce_ms,
        scan_hz=scan_hz, leds=leds, buttons=buttons, sections=sections, web=web, sound=sound, voice=voice,
        light=light, engines=engines, hall=hall, language=language,
    )
    if chosen.validate is not None:
        chosen.validate(config)
    return config


def _engines(section: Section) -> dict[str, dict[str, str]]:
    """[engines]: per variant, the Hub engines that may play it, by name:
    `international = "scan hub"` (one engine, named by its command) or
    `[engines.international]` with `Scan = "scan hub"` lines (the first is the variant's default)."""
    from damka.engine.variants import variant_names

    known = variant_names()
    engines: dict[str, dict[str, str]] = {}
    for variant in list(section.table):
        if variant not in known:
            raise section.error(variant, f"unknown variant; expected one of {', '.join(known)}")
        value = section.get(variant, (str, dict), "")
        if isinstance(value, str):
            engines[variant] = {engine_default_name(value): _engine_command(section, variant, value)}
            continue
        table = Section(section.source, f"engines.{variant}", value)
        named: dict[str, str] = {}
        for name in list(table.table):
            problem = _engine_name_problem(name, named)
            if problem:
                raise table.error(name, problem)
            named[name] = _engine_command(table, name, table.get(name, str, ""))
        if not named:
            raise section.error(variant, "expected at least one engine: Name = \"command\"")
        engines[variant] = named
    return engines


ENGINE_NAME_MAX = 30


def engine_default_name(command: str) -> str:
    """The name of an engine given only by its command: the command, its program without its folder."""
    words = command.split()
    return " ".join([words[0].rsplit("/", 1)[-1], *words[1:]]) if words else ""


def _engine_command(section: Section, key: str, command: str) -> str:
    if not command.strip():
        raise section.error(key, "expected an engine command, got an empty string")
    return command.strip()


def _engine_name_problem(name: str, named: dict[str, str]) -> str:
    """Why `name` cannot name an engine ("" if it can)."""
    from damka.controller.setup import OWN_ENGINE

    if not 0 < len(name) <= ENGINE_NAME_MAX or not name.isprintable() or name != name.strip():
        return f"an engine's name is 1 to {ENGINE_NAME_MAX} printable characters"
    if name.casefold() == OWN_ENGINE.casefold():
        return f"{OWN_ENGINE} is the board's own engine; give the external one another name"
    if any(name.casefold() == other.casefold() for other in named):
        return "named twice (names differ in more than case)"
    return ""


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
        type=led_type,
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


def _sound(s: Section) -> SoundConfig:
    off = s.get("off", list, [])
    for name in off:
        if name not in CUE_NAMES:
            raise s.error("off", f"expected cue names ({', '.join(CUE_NAMES)}), got {name!r}")
    sound = SoundConfig(enabled=s.get("enabled", bool, True), off=tuple(off),
                        tournament_quiet=s.get("tournament_quiet", bool, True))
    s.done()
    return sound


def _voice(v: Section) -> VoiceConfig:
    voice = VoiceConfig(enabled=v.get("enabled", bool, False),
                        language=v.choice("language", VOICE_LANGUAGES, "en") or "en",
                        moves=v.get("moves", bool, True))
    v.done()
    return voice


def _light(lt: Section) -> LightConfig:
    light = LightConfig(night=lt.get("night", bool, False),
                        night_brightness=lt.int_in("night_brightness", 8, 0, 255),
                        last_move=lt.get("last_move", bool, True),
                        palette=lt.choice("palette", PALETTES, "standard") or "standard")
    lt.done()
    return light
