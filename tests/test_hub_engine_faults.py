"""Outside Hub engines as Scan really behaves: one that cannot start says
why on stderr and exits (the board shows and logs that text), and one that
sends `info` without a score (Scan, for a forced move) is not a dead engine.
Real subprocesses, no mocks."""

from __future__ import annotations

import logging
import sys
import textwrap
from pathlib import Path

import pytest

from damka.config import parse_config
from damka.controller.game.factory import build_game, build_variant
from damka.controller.players.hub_coach import HubCoach
from damka.controller.players.hub_opponent import HubOpponent
from damka.controller.players.computer import ComputerOpponent
from damka.controller.game.setup import GameSetup
from damka.engine import Game, find_variant
from damka.engine.notation import parse_move
from damka.hardware.errors import ConfigError
from waiting import DEADLINE_S

# Scan started away from its folder: it reads scan.ini there, says so on stderr and exits.
NO_INI = textwrap.dedent('''
    import os, sys
    if not os.path.exists("scan.ini"):
        sys.stderr.write('unable to open file "scan.ini"\\n')
        sys.exit(1)
    os.execv(sys.executable, [sys.executable, "-m", "damka", "hub"])
''')

# `damka hub` with every score taken out of its `info` lines (Scan's `info pv=35x24x30`).
NO_SCORE = textwrap.dedent('''
    import subprocess, sys, threading
    engine = subprocess.Popen([sys.executable, "-m", "damka", "hub"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True, bufsize=1)
    def forward():
        for line in sys.stdin:
            engine.stdin.write(line); engine.stdin.flush()
        engine.stdin.close()
    threading.Thread(target=forward, daemon=True).start()
    for line in engine.stdout:
        if line.startswith("info"):
            line = " ".join(w for w in line.split() if not w.startswith("score=")) + "\\n"
        sys.stdout.write(line); sys.stdout.flush()
''')


def script(tmp_path: Path, text: str) -> str:
    path = tmp_path / "engine.py"
    path.write_text(text)
    return f"{sys.executable} {path}"


def test_an_engine_that_writes_to_stderr_and_exits_shows_that_text(tmp_path: Path, caplog) -> None:
    variant = find_variant("classic")
    opponent = HubOpponent(variant, script(tmp_path, NO_INI), fallback=ComputerOpponent(variant, "casual",
                           time_per_move=0.05), time_per_move=0.05, name="Scan")
    game = Game(variant)
    caplog.set_level(logging.INFO)
    try:
        opponent.start(game)
        assert opponent.wait(DEADLINE_S) in variant.legal_moves(game.position)   # Damka's own move came
        notices = opponent.take_notices()
        assert len(notices) == 1 and "exit code 1" in notices[0], notices
        assert 'unable to open file "scan.ini"' in notices[0]
        assert 'unable to open file "scan.ini"' in caplog.text    # kept in the log
    finally:
        opponent.close()


def test_a_coach_engine_that_gives_no_score_is_not_given_up(tmp_path: Path) -> None:
    variant = build_variant(GameSetup("classic"))
    coach = HubCoach(variant, script(tmp_path, NO_SCORE), hint_time=0.3, check_time=0.2, name="Scan")
    try:
        game = Game(variant, variant.parse_position("W:Wa1,d4:Bf6,h8"))
        move = parse_move(variant, game.position, "d4-e5")
        warning = coach.check_blunder(game, move)
        assert coach.failed == "", coach.failed
        assert warning is None          # no score: no verdict, no warning
        assert coach.failed == "" and coach.take_notices() == []
        assert coach.hint(game) in variant.legal_moves(game.position)
        assert coach.engine_answers == 2 and coach.engine_name == "Scan"   # still the engine's
    finally:
        coach.close_engine()


def test_an_engine_configured_with_its_folder_runs_there(tmp_path: Path) -> None:
    folder = tmp_path / "scan"
    folder.mkdir()
    (folder / "scan.ini").write_text("# Scan's settings\n")
    command = script(tmp_path, NO_INI)
    config = parse_config({"engines": {"classic": {"Scan": {"command": command, "dir": str(folder)},
                                                   "Plain": "scan hub"}}})
    assert config.engines == {"classic": {"Scan": command, "Plain": "scan hub"}}
    assert config.engine_table() == (("classic", "Scan", command, str(folder)), ("classic", "Plain", "scan hub"))
    setup = GameSetup("classic", mode="computer", colours="first", move_time=0.05, engines=config.engine_table(),
                      engine="Scan")
    opponent = build_game(setup).session.opponent
    game = Game(opponent.variant)
    game.push(game.legal_moves()[0])
    try:
        opponent.start(game)
        assert opponent.wait(DEADLINE_S) in game.legal_moves()
        assert opponent.take_notices() == [] and opponent.engine_moves == 1   # it found scan.ini: it played
    finally:
        opponent.close()
    with pytest.raises(ConfigError, match=r"\[engines.classic.Scan\]: unknown setting: colour"):
        parse_config({"engines": {"classic": {"Scan": {"command": "scan hub", "colour": "red"}}}})
    with pytest.raises(ConfigError, match=r"\[engines.classic.Scan\] command: expected an engine command"):
        parse_config({"engines": {"classic": {"Scan": {"dir": "/opt/scan"}}}})
