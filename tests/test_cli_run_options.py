"""What `damka run`, `damka sim` and `damka dxp` do with `--seconds`, `--web`,
`--bind` and `--listen`, as a person at the terminal sees it: the real
commands in a child process (a hang before a fix is a timeout, not a stuck
suite), every wait on a condition with a generous deadline."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from damka.cli import main

DEADLINE_S = 120.0  # a loaded 2-core CI machine makes these slow, never red


def damka(*args: str, home: Path, timeout: float = DEADLINE_S) -> subprocess.CompletedProcess:
    env = {**os.environ, "HOME": str(home), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "XDG_CONFIG_HOME": str(home / ".config")}
    return subprocess.run([sys.executable, "-m", "damka", *args], capture_output=True, text=True,
                          timeout=timeout, env=env, cwd=home)


@pytest.mark.parametrize("argv", [["dxp", "--listen", "99999"], ["sim", "--web", "70000"],
                                  ["run", "--web", "-1"], ["hall", "--config", "hall.toml", "--port", "65536"]])
def test_a_port_out_of_range_is_one_line_before_anything_waits(argv, capsys) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""  # no "waiting for a DXP peer" first
    lines = err.splitlines()
    assert len(lines) == 1 and "is not a port number" in lines[0] and "0 to 65535" in lines[0], err


def test_dxp_seconds_counts_the_wait_for_the_peer(tmp_path) -> None:
    began = time.monotonic()
    done = damka("dxp", "--listen", "0", "--seconds", "1", "--db", str(tmp_path / "games.db"), home=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "no DXP peer came in 1 s (--seconds); stopped" in done.stdout
    assert time.monotonic() - began < DEADLINE_S


def test_run_without_a_config_stops_after_seconds_and_says_its_page_once_on_this_computer(tmp_path) -> None:
    """No board config: the simulator's window stands in for the board; `--seconds`
    ends it, the page's address is printed once, and it is this computer's only."""
    done = damka("run", "--seconds", "1", "--web", "0", "--db", str(tmp_path / "games.db"), home=tmp_path)
    assert done.returncode == 0, done.stderr
    addresses = [line for line in done.stderr.splitlines() if "http://" in line]
    assert len(addresses) == 1 and addresses[0].startswith("web page: http://127.0.0.1:"), done.stderr


def test_run_with_a_board_config_says_its_page_once(tmp_path) -> None:
    pytest.importorskip("serial")
    config = tmp_path / "board.toml"
    config.write_text(f'[board]\nbackend = "serial"\n[serial]\nport = "{tmp_path / "ttyACM0"}"\n'
                      '[web]\nport = 0\n')
    done = damka("run", "--config", str(config), "--no-screen", "--seconds", "1", "--db",
                 str(tmp_path / "games.db"), home=tmp_path)
    assert done.returncode == 0, done.stderr
    addresses = [line for line in done.stderr.splitlines() if "http://" in line]
    assert len(addresses) == 1, done.stderr


@pytest.mark.parametrize("bind", [None, "0.0.0.0"])
def test_the_simulators_page_is_this_computers_unless_bind_says_otherwise(tmp_path, bind) -> None:
    env = {**os.environ, "HOME": str(tmp_path), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    argv = [sys.executable, "-m", "damka", "sim", "--web", "0", "--no-store", *(["--bind", bind] if bind else [])]
    child = subprocess.Popen(argv, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=env,
                             cwd=tmp_path)
    lines: list[str] = []
    said = threading.Event()

    def read() -> None:
        for line in child.stderr:
            lines.append(line)
            if "http://" in line:
                said.set()
        said.set()  # it ended without saying it: the assertion below says so

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        assert said.wait(DEADLINE_S), "".join(lines)
    finally:
        child.terminate()
        child.wait(DEADLINE_S)
        reader.join(DEADLINE_S)
    address = next((line for line in lines if "http://" in line), "".join(lines))
    assert address.startswith(f"web page: http://{bind or '127.0.0.1'}:"), address
