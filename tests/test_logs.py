"""`damka run` keeps a log on stderr (which the board's service journal keeps):
an engine's last words on stderr and why the board gave it up reach it; the
level comes from the board config's [log] level or `-v`."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from damka.config import parse_config
from damka.hardware.errors import ConfigError
from damka.logs import level_of

DEADLINE_S = 120.0


def damka(*args: str, home: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "HOME": str(home), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "XDG_CONFIG_HOME": str(home / ".config")}
    return subprocess.run([sys.executable, "-m", "damka", *args], capture_output=True, text=True,
                          timeout=DEADLINE_S, env=env, cwd=home)


def board_with_a_dying_engine(tmp_path: Path, log: str = "") -> Path:
    engine = tmp_path / "dying_engine.py"
    engine.write_text('import sys\nprint(\'unable to open file "scan.ini"\', file=sys.stderr, flush=True)\n'
                      'sys.exit(1)\n', encoding="utf-8")
    config = tmp_path / "board.toml"
    config.write_text(f'[board]\nbackend = "sim"\n[web]\nenabled = false\n[sound]\nenabled = false\n{log}'
                      f'[engines.international]\nDying = "{sys.executable} {engine}"\n', encoding="utf-8")
    return config


def run_a_computer_game(config: Path, tmp_path: Path, *extra: str) -> subprocess.CompletedProcess:
    """The computer (the engine) moves first, on the simulator's board (the stand-in device);
    a new game database each time (an unfinished game would be offered for resuming)."""
    db = tmp_path / f"games-{len(list(tmp_path.glob('games-*.db')))}.db"
    return damka("run", "--config", str(config), "--seconds", "15", "--variant", "international", "--mode",
                 "computer", "--colours", "second", "--db", str(db), *extra, home=tmp_path)


def test_an_engines_stderr_and_its_giving_up_reach_damka_runs_stderr(tmp_path: Path) -> None:
    pytest.importorskip("pygame")
    done = run_a_computer_game(board_with_a_dying_engine(tmp_path), tmp_path)
    assert done.returncode == 0, done.stderr
    said = [line for line in done.stderr.splitlines() if 'unable to open file "scan.ini"' in line]
    assert any("INFO" in line and "engine Dying (stderr)" in line for line in said), done.stderr
    assert any("WARNING" in line and "Damka's own engine plays on" in line for line in said), done.stderr


def test_the_configs_log_level_quietens_the_log_and_v_opens_it(tmp_path: Path) -> None:
    pytest.importorskip("pygame")
    config = board_with_a_dying_engine(tmp_path, '[log]\nlevel = "warning"\n')
    quiet = run_a_computer_game(config, tmp_path)
    assert quiet.returncode == 0, quiet.stderr
    assert "(stderr)" not in quiet.stderr and "Damka's own engine plays on" in quiet.stderr, quiet.stderr
    verbose = run_a_computer_game(config, tmp_path, "-v")
    assert "(stderr): unable to open file" in verbose.stderr, verbose.stderr


def test_log_level_in_the_config() -> None:
    assert parse_config({"log": {"level": "debug"}}).log_level == "debug"
    assert parse_config({}).log_level == "info"
    with pytest.raises(ConfigError, match="level"):
        parse_config({"log": {"level": "loud"}})
    assert (level_of("warning"), level_of("warning", verbose=1), level_of()) == (
        logging.WARNING, logging.DEBUG, logging.INFO)
