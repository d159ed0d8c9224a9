"""benchmarks/engine_match.py keeps its games: `--pdn FILE` writes each one as it ends."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from damka.engine import Game
from damka.engine.pdn import read_games

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import engine_match  # noqa: E402


def test_every_game_of_a_match_is_written_to_the_pdn_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    games_file = tmp_path / "match.pdn"
    assert engine_match.main(["--opponent", "levels", "--pairs", "novice:beginner", "--variants", "classic",
                              "--games", "2", "--time", "0.02", "--pdn", str(games_file)]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("| classic"))
    wins, draws, losses = (int(cell) for cell in row.split("|")[4:7])
    games = read_games(games_file.read_text(encoding="utf-8"))
    assert len(games) == 2 and not any(game.errors for game in games)
    assert [(game.tags["White"], game.tags["Black"]) for game in games] == [("novice", "beginner"),
                                                                            ("beginner", "novice")]
    novice_points = 0.0
    for game in games:
        replay = Game(game.variant)
        for move in game.moves:
            replay.push(move)
        assert replay.result is not None  # played to the end: the record's last move ends it
        white = {"2-0": 1.0, "1-1": 0.5, "0-2": 0.0}[game.result]
        assert replay.result.points[0] == white
        novice_points += white if game.tags["White"] == "novice" else 1 - white
    assert novice_points == wins + draws / 2 and wins + draws + losses == 2


def test_a_game_stopped_at_the_ply_limit_is_written_as_the_draw_it_was_scored(tmp_path: Path) -> None:
    games_file = tmp_path / "match.pdn"
    engine_match.main(["--opponent", "levels", "--pairs", "novice:beginner", "--variants", "russian",
                       "--games", "1", "--time", "0.02", "--max-plies", "12", "--pdn", str(games_file)])
    [game] = read_games(games_file.read_text(encoding="utf-8"))
    assert len(game.moves) == 12 and game.result == "1-1"
    assert game.tags["Termination"] == "ply limit (12 plies)"
