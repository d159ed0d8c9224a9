"""The board's configuration file (board.toml), read once and composed from
the sections each layer parses for itself.

    hardware/config.py          [board] [scan] [leds] [buttons] and a backend's own table
    web/settings.py             [web]
    hall/config.py              [hall]
    controller/config/board_config.py  [sound] [voice] [light] [clock] [archive] [engines]
    controller/config/config_file.py   the file reader and the table checker they share

Every mistake becomes one `ConfigError` naming the file, the section and the
setting; a section or setting nobody knows is a mistake too.
docs/board.example.toml documents every setting.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from damka.controller.config.board_config import (
    ClockConfig,
    LightConfig,
    SoundConfig,
    VoiceConfig,
    parse_archive,
    parse_clock,
    parse_engines,
    parse_light,
    parse_sound,
    parse_voice,
)
from damka.controller.config.config_file import Section, read_toml
from damka.controller.store.budget import ArchiveBudget
from damka.controller.words.catalogue import LANGUAGES
from damka.hardware.config import HardwareConfig, check_across, parse_hardware
from damka.hardware.errors import ConfigError
from damka.logs import LEVELS
from damka.web.settings import WebSettings, parse_web

__all__ = ["BoardConfig", "ConfigError", "load_config", "parse_config"]


@dataclass(frozen=True)
class BoardConfig(HardwareConfig):
    """The whole board.toml: the hardware's settings and every other layer's section."""

    web: WebSettings = WebSettings()
    hall: Any = None  # [hall]: damka.hall.config.BoardHall (docs/hall.md); None: no tournament hall
    sound: SoundConfig = SoundConfig()
    voice: VoiceConfig = VoiceConfig()
    light: LightConfig = LightConfig()
    clock: ClockConfig = ClockConfig()
    archive: ArchiveBudget = ArchiveBudget()  # [archive]: how far imports may fill the game database
    engines: dict[str, dict[str, str]] = field(default_factory=dict)  # variant -> {name: Hub engine command}
    engine_dirs: dict[str, dict[str, str]] = field(default_factory=dict)  # variant -> {name: working directory}
    language: str = "en"  # [board] language: what the board's screen, page and menus speak (LANGUAGES)
    log_level: str = "info"  # [log] level: what `damka run` logs to stderr (damka/logs.py LEVELS)

    def engine_table(self) -> tuple[tuple[str, ...], ...]:
        """[engines] as `GameSetup.engines`: (variant, name, command), in the file's
        order, and the working directory after the command where one is given."""
        return tuple((variant, name, command) + ((where,) if (where := self.engine_dirs.get(variant, {}).get(name)) else ())
                     for variant, named in self.engines.items() for name, command in named.items())


def load_config(path: str | Path, *, backend: str | None = None) -> BoardConfig:
    """Read a board.toml; ConfigError (naming the file) for anything wrong."""
    return parse_config(read_toml(path), str(path), backend=backend)


def parse_config(data: dict[str, Any], source: str = "board.toml", *, backend: str | None = None) -> BoardConfig:
    """The config from parsed TOML; `backend` overrides [board] backend (a command-line choice)."""
    top = Section(source, "", data)
    language = _language(top)
    hardware = parse_hardware(top, backend)
    web = parse_web(top.table_of("web"))
    hall = None
    if "hall" in top.table:
        from damka.hall.config import parse_board_hall  # (only a board in a hall needs the hall's code)

        hall = parse_board_hall(top.get("hall", dict, {}), source)
    sound = parse_sound(top.table_of("sound"))
    voice = parse_voice(top.table_of("voice"))
    light = parse_light(top.table_of("light"))
    clock = parse_clock(top.table_of("clock"))
    archive = parse_archive(top.table_of("archive"))
    engines, engine_dirs = parse_engines(top.table_of("engines"))
    log = top.table_of("log")
    log_level = log.choice("level", LEVELS, "info") or "info"
    log.done()
    top.done()
    config = BoardConfig(**{f.name: getattr(hardware, f.name) for f in fields(HardwareConfig)},
                         web=web, hall=hall, sound=sound, voice=voice, light=light, clock=clock, engines=engines,
                         engine_dirs=engine_dirs, archive=archive,
                         language=language, log_level=log_level)
    check_across(config)
    return config


def _language(top: Section) -> str:
    """[board] language, taken out of the [board] table before the hardware reads the rest of it:
    the words are the controller's, the table is the hardware's."""
    board = top.table.get("board")
    if not isinstance(board, dict) or "language" not in board:
        return "en"
    return Section(top.source, "board", {"language": board.pop("language")}).choice("language", LANGUAGES, "en") or "en"
