"""The one bounded reader (`damka.base.files`): what it refuses, in which words, and that
it reads what it should. The commands that use it are run in test_bounded_readers.py."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from damka.base.files import (FileRefusedError, load_json, load_toml, nesting_depth, open_regular, read_bytes,
                              read_text, read_toml, too_large)
from damka.hardware.errors import ConfigError


def test_a_regular_file_is_read(tmp_path: Path) -> None:
    path = tmp_path / "board.toml"
    path.write_text('[board]\nbackend = "sim"\n[engines.classic]\nScan = "scan hub"\n', encoding="utf-8")
    assert read_toml(path, "configuration file", 1024) == {"board": {"backend": "sim"},
                                                           "engines": {"classic": {"Scan": "scan hub"}}}


@pytest.mark.parametrize(("make", "says"), [
    (lambda tmp: "/dev/zero", "/dev/zero: a character device, not a regular file; a lesson file must be one"),
    (lambda tmp: str(tmp), "a directory, not a regular file; a lesson file must be one"),
    (lambda tmp: str(tmp / "none.toml"), "none.toml: no such lesson file"),
])
def test_what_is_not_a_regular_file_is_refused_in_one_line(tmp_path: Path, make, says: str) -> None:
    with pytest.raises(FileRefusedError) as caught:
        read_bytes(make(tmp_path), "lesson file", 1024)
    assert says in str(caught.value) and "\n" not in str(caught.value)


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    with pytest.raises(ConfigError, match="pipe.toml: a FIFO \\(named pipe\\), not a regular file"):
        open_regular(fifo, "configuration file", ConfigError)   # the caller's error class


def test_a_file_over_its_cap_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_bytes(b"[" + b"1," * 1024 + b"1]")
    with pytest.raises(FileRefusedError) as caught:
        open_regular(path, "puzzle set", limit=1024)
    assert str(caught.value) == f"{path}: larger than 1 kB; not a puzzle set"
    assert read_bytes(path, "puzzle set", 4096).startswith(b"[1,")


def test_the_cap_is_said_in_the_unit_it_was_given_in() -> None:
    assert too_large("f", "sensor log", 8 << 20).endswith("larger than 8 MB; not a sensor log")
    assert too_large("f", "configuration file", 256 << 10).endswith("larger than 256 kB; not a configuration file")
    assert too_large("f", "game file", 1000).endswith("larger than 1,000 bytes; not a game file")


def test_text_that_is_not_utf8_is_said(tmp_path: Path) -> None:
    path = tmp_path / "latin.toml"
    path.write_bytes("name = \"d\u00e9j\u00e0\"\n".encode("latin-1"))
    with pytest.raises(FileRefusedError, match="latin.toml: cannot read: not UTF-8 text"):
        read_text(path, "configuration file", 1024)


@pytest.mark.parametrize("depth", [33, 300, 5000])   # past the cap; deep enough for tomllib to recurse out
def test_toml_nested_past_the_cap_is_refused_not_a_traceback(depth: int) -> None:
    text = "a = " + "{b = " * depth + "1" + "}" * depth + "\n"
    with pytest.raises(FileRefusedError, match="x.toml: nested more than 32 levels deep"):
        load_toml(text, "x.toml")


def test_toml_as_deep_as_the_cap_is_read() -> None:
    text = "a = " + "[" * 31 + "]" * 31 + "\n"   # the top table and 31 lists: 32 levels
    assert nesting_depth(load_toml(text, "x.toml"), 32) == 32


@pytest.mark.parametrize("depth", [33, 200_000])
def test_json_nested_past_the_cap_is_refused_not_a_traceback(depth: int) -> None:
    with pytest.raises(FileRefusedError, match="set.json: nested more than 32 levels deep"):
        load_json("[" * depth + "]" * depth, "set.json")


def test_bad_json_and_bad_toml_name_the_file() -> None:
    with pytest.raises(ConfigError, match="b.toml: not valid TOML: "):
        load_toml("a = \n", "b.toml", ConfigError)
    with pytest.raises(FileRefusedError, match=r"s.json: not JSON \(Expecting value at line 1\)"):
        load_json("{\"a\": }", "s.json")


def test_nesting_is_counted_without_recursion_and_stops_past_the_cap() -> None:
    value: object = 1
    for _ in range(100_000):   # deeper than Python could recurse
        value = [value]
    assert nesting_depth(value, 32) == 33
    assert nesting_depth({"a": [{"b": []}], "c": 1}, 32) == 4
    assert nesting_depth("text", 32) == 0
