"""Every file a person names is read here: with bounds, or refused in one line.

A command line that reads a file is handed whatever the path names: a FIFO
(opening it waits for a writer forever), /dev/zero or /dev/urandom (they
never end), a directory, a 20 MB file where a lesson of 2 KB belongs, a TOML
or JSON file nested 5,000 deep (Python's parsers recurse, and fail with a
traceback). So a file is opened without waiting (O_NONBLOCK), only a regular
file is read (checked on the opened descriptor, so nothing can be swapped in
between), at most the cap of its kind is read, and TOML and JSON are refused
past `MAX_NESTING` levels. Each refusal is one error (the caller's class, so
its command reports it as it reports its other errors) naming the file.

The caps of the files read whole are here, by kind; the files read a block
or a line at a time (sensor logs, PDN) keep theirs beside their readers
(`controller/board/eventlog.py`, `controller/config/user_files.py`) and open
the file with `open_regular`. docs/files.md lists them all.
"""

from __future__ import annotations

import json
import os
import stat
import tomllib
from collections.abc import Callable
from typing import Any, BinaryIO

from damka.engine.errors import DamkaError

MAX_CONFIG_BYTES = 256 * 1024      # board.toml, hall.toml, a password file: a few hundred bytes
MAX_LESSON_BYTES = 1 << 20         # a lesson of 200 steps in two languages is ~200 kB
MAX_PUZZLE_SET_BYTES = 1 << 20     # the sets that ship are ~80 kB (300 puzzles, ~260 bytes each)
MAX_NESTING = 32                   # tables and lists in tables and lists: Damka's own files go 3 deep

ErrorClass = Callable[[str], Exception]


class FileRefusedError(DamkaError, ValueError):
    """A named file that cannot be read as what it should be (one line, naming it)."""


def file_kind(mode: int) -> str:
    """What a file that is not a regular one is, in words ("a FIFO (named pipe)", "a directory", ...)."""
    kinds = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
             (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))
    return next((name for test, name in kinds if test(mode)), "a special file")


def open_regular(path: str | os.PathLike[str], what: str, error: ErrorClass = FileRefusedError,
                 limit: int | None = None) -> BinaryIO:
    """`path` opened for reading in binary, when it is a regular file; `error` (one line) when it is
    missing, unreadable, anything else (a FIFO, a device, a directory, a socket) or, with `limit`,
    larger than `limit` bytes already (refused before a byte is read; a reader that reads it
    in pieces still counts, as a file may grow)."""
    shown = os.fsdecode(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)   # a FIFO opens at once instead of waiting for a writer
    except FileNotFoundError:
        raise error(f"{shown}: no such {what}") from None
    except IsADirectoryError:
        raise error(f"{shown}: a directory, not a regular file; a {what} must be one") from None
    except OSError as exc:
        raise error(f"{shown}: cannot read: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise error(f"{shown}: {file_kind(info.st_mode)}, not a regular file; a {what} must be one")
        if limit is not None and info.st_size > limit:
            raise error(too_large(shown, what, limit))
        return os.fdopen(fd, "rb")   # (O_NONBLOCK changes nothing for a regular file)
    except BaseException:
        os.close(fd)
        raise


def read_bytes(path: str | os.PathLike[str], what: str, limit: int, error: ErrorClass = FileRefusedError) -> bytes:
    """The bytes of the regular file `path`, at most `limit` of them; `error` when there are more."""
    with open_regular(path, what, error, limit) as handle:
        try:
            raw = handle.read(limit + 1)
        except OSError as exc:
            raise error(f"{os.fsdecode(path)}: cannot read: {exc.strerror or exc}") from None
    if len(raw) > limit:
        raise error(too_large(os.fsdecode(path), what, limit))
    return raw


def read_text(path: str | os.PathLike[str], what: str, limit: int, error: ErrorClass = FileRefusedError,
              encoding: str = "utf-8") -> str:
    """`read_bytes` as text; `error` naming the file when it is not in `encoding`."""
    raw = read_bytes(path, what, limit, error)
    try:
        return raw.decode(encoding)
    except UnicodeDecodeError as exc:
        raise error(f"{os.fsdecode(path)}: cannot read: not UTF-8 text ({exc.reason})") from None


def load_toml(text: str, where: str, error: ErrorClass = FileRefusedError, *, max_depth: int = MAX_NESTING,
              invalid: str = "not valid TOML", too_deep: ErrorClass | None = None) -> dict[str, Any]:
    """`text` parsed as TOML; `error` for bad TOML (`where: invalid: ...`), `too_deep`
    (default `error`) for nesting past `max_depth`."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{where}: {invalid}: {exc}") from None
    except RecursionError:   # tomllib recurses once or more per level
        raise (too_deep or error)(_too_deep(where, max_depth)) from None
    if nesting_depth(data, max_depth) > max_depth:
        raise (too_deep or error)(_too_deep(where, max_depth))
    return data


def load_json(text: str, where: str, error: ErrorClass = FileRefusedError, *, max_depth: int = MAX_NESTING) -> Any:
    """`text` parsed as JSON; `error` for bad JSON and for nesting past `max_depth`."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(f"{where}: not JSON ({exc.msg} at line {exc.lineno})") from None
    except RecursionError:   # the C decoder counts its depth against the recursion limit
        raise error(_too_deep(where, max_depth)) from None
    if nesting_depth(data, max_depth) > max_depth:
        raise error(_too_deep(where, max_depth))
    return data


def read_toml(path: str | os.PathLike[str], what: str, limit: int, error: ErrorClass = FileRefusedError,
              max_depth: int = MAX_NESTING) -> dict[str, Any]:
    """A TOML file read with `read_text` and `load_toml`."""
    return load_toml(read_text(path, what, limit, error), os.fsdecode(path), error, max_depth=max_depth)


def nesting_depth(value: Any, stop: int) -> int:
    """How deep tables (dicts) and lists go in `value` (a scalar: 0), counted without
    recursion and given up past `stop` (then `stop + 1`)."""
    deepest = 0
    pending: list[tuple[Any, int]] = [(value, 0)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, dict):
            item = list(item.values())
        elif not isinstance(item, list):
            continue
        depth += 1
        if depth > stop:
            return depth
        deepest = max(deepest, depth)
        pending.extend((child, depth) for child in item if isinstance(child, (dict, list)))
    return deepest


def _too_deep(where: str, max_depth: int) -> str:
    return f"{where}: nested more than {max_depth} levels deep (tables or lists in tables or lists); not read"


def too_large(shown: str, what: str, limit: int) -> str:
    """`FILE: larger than 8 MB; not a sensor log`: the one wording of a size cap."""
    size = (f"{limit >> 20} MB" if limit >= 1 << 20 and limit % (1 << 20) == 0
            else f"{limit >> 10} kB" if limit >= 1 << 10 and limit % (1 << 10) == 0 else f"{limit:,} bytes")
    return f"{shown}: larger than {size}; not a {what}"

