"""The hall's settings: a board's [hall] section and hall.toml, each mistake one line naming file and key."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from damka.config import ConfigError, parse_config
from damka.hall.config import load_hall_config


def test_a_board_config_names_its_hall_and_reads_its_password_from_a_file(tmp_path: Path) -> None:
    (tmp_path / "hall.pw").write_text("s3cret\n")
    source = str(tmp_path / "board.toml")
    config = parse_config({"hall": {"name": "open", "board": "b07", "host": "10.0.0.2",
                                    "password_file": "hall.pw"}}, source)
    assert (config.hall.hall, config.hall.board) == ("open", "b07")
    assert (config.hall.broker.host, config.hall.broker.port, config.hall.broker.username) == ("10.0.0.2", 1883, "b07")
    assert config.hall.broker.password == "s3cret" and "s3cret" not in repr(config)
    assert parse_config({}, source).hall is None
    assert parse_config({"hall": {"name": "o", "board": "b", "tls": True}}, source).hall.broker.port == 8883


@pytest.mark.parametrize("table, message", [
    ({"board": "b1"}, "[hall] name: missing"),
    ({"name": "open", "board": "arbiter"}, "[hall] board: 'arbiter' is the name of an account of the hall"),
    ({"name": "a/b", "board": "b1"}, "[hall] name: 'a/b': use 1-64 letters"),
    ({"name": "open", "board": "b1", "port": 0}, "[hall] port: expected a number from 1 to 65535"),
    ({"name": "open", "board": "b1", "passwd": "x"}, "[hall]: unknown setting: passwd"),
    ({"name": "open", "board": "b1", "password_file": "nope.pw"}, "[hall] password_file: cannot read nope.pw"),
])
def test_a_wrong_hall_section_is_one_clear_line(tmp_path: Path, table: dict, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config({"hall": table}, str(tmp_path / "board.toml"))
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_hall_toml_is_read_and_its_mistakes_stop_damka_hall_with_one_line(tmp_path: Path) -> None:
    good = tmp_path / "hall.toml"
    good.write_text('[hall]\nname = "open"\n[broker]\nport = 1999\npassword = "pw"\n[web]\nport = 8099\n')
    config = load_hall_config(good)
    assert (config.hall, config.db, config.broker.port, config.broker.username, config.port) == \
        ("open", tmp_path / "open.sqlite", 1999, "hall", 8099)
    bad = tmp_path / "bad.toml"
    bad.write_text('[hall]\nname = "open"\n[broker]\nprot = 1\n')
    result = subprocess.run([sys.executable, "-m", "damka", "hall", "--config", str(bad)], capture_output=True,
                            text=True, timeout=30)
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert "[broker]: unknown setting: prot" in result.stderr


def test_configs_that_never_end_are_one_line_and_exit_2(tmp_path: Path) -> None:
    """/dev/zero or a FIFO as a config or a password file: one line, exit 2, at once (no hang, no MemoryError)."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    env = {**os.environ, "DAMKA_HOME": str(tmp_path), "HOME": str(tmp_path)}
    env.pop("DISPLAY", None)
    files = {}
    for name, password_file in (("zero", "/dev/zero"), ("fifo", str(fifo))):
        files[f"hall-{name}"] = tmp_path / f"hall-{name}.toml"
        files[f"hall-{name}"].write_text(f'[hall]\nname = "h"\n[broker]\npassword_file = "{password_file}"\n')
        files[f"board-{name}"] = tmp_path / f"board-{name}.toml"
        files[f"board-{name}"].write_text(f'[hall]\nname = "h"\nboard = "b1"\npassword_file = "{password_file}"\n')
    cases = {  # argv -> what the line names
        ("hall", "--config", "/dev/zero"): "/dev/zero: a character device, not a regular file",
        ("hall", "--config", str(fifo)): f"{fifo}: a FIFO (named pipe), not a regular file",
        ("run", "--config", str(fifo)): f"{fifo}: a FIFO (named pipe), not a regular file",
        ("hall", "--config", str(files["hall-zero"])): "[broker] password_file: cannot read /dev/zero",
        ("hall", "--config", str(files["hall-fifo"])): f"[broker] password_file: cannot read {fifo}",
        ("run", "--config", str(files["board-zero"])): "[hall] password_file: cannot read /dev/zero",
        ("run", "--config", str(files["board-fifo"])): f"[hall] password_file: cannot read {fifo}",
    }
    running = {argv: subprocess.Popen([sys.executable, "-m", "damka", *argv], stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path) for argv in cases}
    try:
        for argv, expected in cases.items():
            out, err = running[argv].communicate(timeout=60)   # a hang fails here
            assert running[argv].returncode == 2 and out == "", (argv, running[argv].returncode, err)
            assert err.count("\n") == 1 and "Traceback" not in err and expected in err, (argv, err)
    finally:
        for proc in running.values():
            if proc.poll() is None:
                proc.kill()
                proc.wait()
