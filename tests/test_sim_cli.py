"""`damka sim` and `damka run` options: the computer's level."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from damka.cli import build_parser, main
from damka.commands.sim import setup_from
from damka.controller.app import App

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("command", ["sim", "run"])
def test_level_sets_the_computers_strength(command: str) -> None:
    args = build_parser().parse_args([command, "--variant", "classic", "--mode", "computer", "--level", "Beginner"])
    setup = setup_from(args)
    assert setup.level == "beginner"
    app = App(setup=setup, start_game=True, offer_resume=False)
    assert app.session.opponent.level.name == "beginner"
    app.session.close()


def test_a_bad_level_is_one_line_naming_the_levels(capsys) -> None:
    assert main(["sim", "--headless", "--mode", "computer", "--level", "grandmaster"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'grandmaster'" in err and "beginner" in err and "master" in err
    assert main(["sim", "--level", "club"]) == 2               # casual mode: no computer to set
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--mode computer" in err


def test_headless_game_against_a_beginner(tmp_path: Path) -> None:
    log = tmp_path / "game.log"
    log.write_text("0 up c3\n150 down d4\n")
    shot = tmp_path / "shot.png"
    result = subprocess.run([sys.executable, "-m", "damka", "sim", "--headless", "--script", str(log),
                             "--screenshot", str(shot), "--variant", "classic", "--mode", "computer",
                             "--colours", "first", "--level", "beginner", "--no-store"],
                            capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "1 move committed" in result.stderr and shot.exists()
