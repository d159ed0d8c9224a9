"""The hall's settings: a board's `[hall]` section and the hall's own `hall.toml` (docs/hall.md).

A password is given as `password_file` (a file readable only by the board's
user, first line) or `password`; it is kept out of every repr and log line.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from damka.hall.accounts import RESERVED
from damka.hall.broker import BrokerSettings
from damka.hall.topics import NAME
from damka.controller.config.config_file import Section, read_config_text, read_toml
from damka.hardware.errors import ConfigError


@dataclass(frozen=True)
class BoardHall:
    """[hall] of a board's config: where to publish, as whom."""

    hall: str
    board: str
    broker: BrokerSettings


@dataclass(frozen=True)
class HallConfig:
    """hall.toml: the hall's name, its database, the broker and the page."""

    hall: str
    db: Path
    broker: BrokerSettings
    bind: str = "0.0.0.0"
    port: int = 8090


def _name(section: Section, key: str, *, board: bool = False) -> str:
    value = section.get(key, str, None)
    if value is None:
        raise section.error(key, "missing")
    if not NAME.match(value):
        raise section.error(key, f"{value!r}: use 1-64 letters, digits, '-' or '_'")
    if board and value in RESERVED:
        raise section.error(key, f"{value!r} is the name of an account of the hall, not of a board")
    return value


def _broker(section: Section, base: Path, default_user: str) -> BrokerSettings:
    host = section.get("host", str, "127.0.0.1")
    tls = section.get("tls", bool, False)
    port = section.int_in("port", 8883 if tls else 1883, 1, 65535)
    files = {key: section.get(key, str, "") for key in ("ca_file", "cert_file", "key_file")}
    files = {key: str(base / value) if value else "" for key, value in files.items()}
    username = section.get("username", str, default_user)
    password = section.get("password", str, "")
    password_file = section.get("password_file", str, "")
    if password_file:
        try:
            lines = read_config_text(base / password_file, "password file").splitlines()
        except ConfigError as exc:
            raise section.error("password_file", f"cannot read {password_file}: {exc}") from None
        if not lines:
            raise section.error("password_file", f"{password_file} is empty; its first line is the password")
        password = lines[0].strip()
    return BrokerSettings(host, port, tls, files["ca_file"], files["cert_file"], files["key_file"], username, password)


def parse_board_hall(table: Any, source: str) -> BoardHall:
    section = Section(source, "hall", table)
    hall, board = _name(section, "name"), _name(section, "board", board=True)
    broker = _broker(section, Path(source).parent, board)
    section.done()
    return BoardHall(hall, board, broker)


def load_hall_config(path: Path) -> HallConfig:
    source = str(path)
    top = Section(source, "", read_toml(path, "hall configuration file"))
    hall_section = Section(source, "hall", top.get("hall", dict, {}))
    name = _name(hall_section, "name")
    db = Path(path).parent / hall_section.get("db", str, f"{name}.sqlite")
    hall_section.done()
    broker_section = Section(source, "broker", top.get("broker", dict, {}))
    broker = _broker(broker_section, Path(path).parent, "hall")
    broker_section.done()
    web = Section(source, "web", top.get("web", dict, {}))
    bind, port = web.get("bind", str, "0.0.0.0"), web.int_in("port", 8090, 0, 65535)
    web.done()
    top.done()
    return HallConfig(name, db, broker, bind, port)
