"""`damka doctor` on the mock backends (no hardware)."""

from __future__ import annotations

import sys

import pytest

from damka.cli import main
from damka.commands.doctor import board_map
from damka.hardware.interfaces import Snapshot
from damka.hardware.layout import Layout


def test_doctor_mock_gpio(capsys):
    assert main(["doctor", "--mock", "--seconds", "1.2"]) == 0
    out = capsys.readouterr().out
    assert "backend: sim backend (mock pins), 9x9 matrix" in out
    rate = int(out.split("scan rate: ")[1].split()[0])
    assert rate >= 100
    assert "LED test: 13 roles across 81 squares" in out
    assert "   a b c d e f g h i" in out and " X" in out  # a live map with pieces on it
    assert "button: ClockPress(side=0" in out


@pytest.mark.skipif(sys.platform == "win32", reason="ptys are POSIX only")
def test_doctor_mock_serial(capsys):
    pytest.importorskip("serial")
    assert main(["doctor", "--mock", "--backend", "serial", "--seconds", "1"]) == 0
    out = capsys.readouterr().out
    assert "device: damka-fw 1.0; link synced" in out
    assert "button: ClockPress(side=0" in out
    assert "0 bad" in out


def test_doctor_with_config_file(tmp_path, capsys):
    path = tmp_path / "board.toml"
    path.write_text('[board]\nbackend = "sim"\nrotation = 180\nsub_board = "b2:h8"\n')
    assert main(["doctor", "--config", str(path), "--mock", "--seconds", "0.3"]) == 0
    assert "rotation 180, mirror no, sub-board b2:h8" in capsys.readouterr().out


def test_doctor_bad_config_is_one_line(tmp_path, capsys):
    path = tmp_path / "board.toml"
    path.write_text('[board]\nbackend = "gpio"\n[gpio]\nrows = [1, 2]\ncols = [3]\n')
    assert main(["doctor", "--config", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.strip() == f"damka doctor: error: {path}: [gpio] rows: expected 9 pin numbers, got 2"


def test_board_map():
    text = board_map(Snapshot(frozenset({"a1", "i9"}), 0), Layout(), frozenset({"e5"}))
    lines = text.splitlines()
    assert lines[0] == " 9 . . . . . . . . X"
    assert lines[4] == " 5 . . . . ? . . . ."
    assert lines[8] == " 1 X . . . . . . . ."
