"""Reading a settings file (board.toml, hall.toml, a password file) through the
one bounded reader (`damka.base.files`), and the one checker of TOML tables,
shared by every layer.

Each layer parses its own sections with `Section` (the hardware its
[board] and backend tables, the web page its [web], the hall its [hall], the
controller [sound], [voice], [light] and [engines]); `damka.config` reads the
file once and hands each section to its layer. Every mistake becomes one
`ConfigError` naming the file, the section and the setting, e.g.
``board.toml: [gpio] rows: expected 9 pin numbers, got 8``. Unknown settings
are mistakes too: a typo must not silently fall back to a default.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from damka.base.files import MAX_CONFIG_BYTES, read_text
from damka.base.files import read_toml as read_bounded_toml
from damka.hardware.errors import ConfigError


def read_config_text(path: str | Path, what: str = "configuration file", limit: int = MAX_CONFIG_BYTES) -> str:
    """A small settings file's UTF-8 text (a config, a password file); ConfigError in one line naming it.

    Read by `damka.base.files`: only a regular file (a FIFO would wait forever
    for a writer, /dev/zero never ends), at most `limit` bytes of it."""
    return read_text(path, what, limit, ConfigError)


def read_toml(path: str | Path, what: str = "configuration file") -> dict[str, Any]:
    """A settings file read as `read_config_text` reads it and parsed as TOML, nested at most
    `MAX_NESTING` deep; ConfigError naming it."""
    return read_bounded_toml(path, what, MAX_CONFIG_BYTES, ConfigError)


def config_error(source: str, section: str, key: str | None, message: str) -> ConfigError:
    """``board.toml: [gpio] rows: message`` (or ``[gpio]: message`` without a key)."""
    return ConfigError(f"{source}: [{section}]" + (f" {key}" if key else "") + f": {message}")


class Section:
    """Takes settings out of one TOML table, type-checked, then rejects leftovers.
    Each layer reads its own tables with it."""

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

    def table_of(self, key: str) -> Section:
        """The sub-table `key` (empty when the file has none) as a Section of its own."""
        return Section(self.source, key, self.get(key, dict, {}))

    def int_in(self, key: str, default: int, lo: int, hi: int) -> int:
        value = self.get(key, int, default)
        if not lo <= value <= hi:
            raise self.error(key, f"expected a number from {lo} to {hi}, got {value}")
        return value

    def choice(self, key: str, choices: tuple[str, ...], default: str | None) -> str | None:
        """One of `choices`; anything else (a number too) is one line naming them all."""
        if key not in self.table:
            return default
        value = self.table.pop(key)
        if not isinstance(value, str) or value not in choices:
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

    def strings(self, key: str) -> tuple[str, ...]:
        """A list of names or addresses, each a non-empty string."""
        value = self.get(key, list, [])
        if not all(isinstance(v, str) and v.strip() for v in value):
            raise self.error(key, f"expected a list of names or addresses (strings), got {value!r}")
        return tuple(v.strip() for v in value)

    def done(self) -> None:
        if self.table:
            names = ", ".join(sorted(self.table))
            kind = "section" if self.name == "" else "setting"
            raise self.error(None, f"unknown {kind}{'s' if len(self.table) > 1 else ''}: {names}")


def _kind_name(kinds: tuple[type, ...]) -> str:
    names = {int: "a number", str: "a string", bool: "true or false", float: "a number",
             list: "a list", dict: "a table"}
    return " or ".join(names.get(k, k.__name__) for k in kinds)
