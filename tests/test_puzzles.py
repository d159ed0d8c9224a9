"""`damka puzzles`: a set made from PDN games, proved again, shown, and refused when broken."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from damka.engine import find_variant
from damka.teaching.puzzles import PuzzleError, loads, read_file

import pytest

POSITIONS = ["B:Wa1,e1,b2,f2,h2,b4,d4:Bg5,b6,d6,a7,g7,h8", "W:Wg1,c3,f4,Ke7:Bg5,b6,h8"]  # level, or one ahead


def damka(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "damka", "puzzles", *args], capture_output=True, text=True,
                          timeout=300)


def pdn_file(path: Path) -> Path:
    records = [f'[GameType "26"]\n[SetUp "1"]\n[FEN "{fen}"]\n[Event "study {n}"]\n\n*\n' for n, fen in enumerate(POSITIONS, 1)]
    records.append('[GameType "20"]\n\n1. 32-28 19-23 *\n')   # international: not a classic game
    path.write_text("\n".join(records), encoding="utf-8")
    return path


def test_a_set_made_from_pdn_games_is_proved_again(tmp_path: Path) -> None:
    out = tmp_path / "classic.json"
    made = damka("make", "classic", "--from", str(pdn_file(tmp_path / "games.pdn")), "--self-play", "0",
                 "--depth", "5", "--out", str(out))
    assert made.returncode == 0, made.stderr
    assert made.stdout.startswith("2 puzzles written to"), made.stdout
    variant, puzzles = read_file(out)
    assert variant.name == "classic" and [p.fen for p in puzzles] == POSITIONS
    assert puzzles[0].solution == "b6-c5" and puzzles[0].source == "games.pdn game 1 (study 1), ply 6"
    assert [p.depth for p in puzzles] == [1, 4]
    assert all(1 <= p.difficulty <= 5 and p.line[0] == p.solution for p in puzzles)
    checked = damka("check", str(out))
    assert checked.returncode == 0 and checked.stdout.strip() == "2 of 2 puzzles proved again", checked.stdout
    shown = damka("show", str(out))
    assert shown.stdout.splitlines()[0].startswith("classic-0001  difficulty ")

    data = json.loads(out.read_text())
    data["puzzles"][1]["depth"] = 2   # the win takes 4 plies to see
    out.write_text(json.dumps(data))
    wrong = damka("check", str(out))
    assert wrong.returncode == 1, wrong.stderr
    assert wrong.stdout.splitlines() == ["classic-0002: no unique winning move within 2 plies", "1 of 2 puzzles proved again"]


@pytest.mark.parametrize("text, says", [
    ("{", "not JSON"),
    ('{"format": "other"}', "not a Damka puzzle set"),
    ('{"format": "damka-puzzles", "version": 9}', "version 9"),
    ('{"format": "damka-puzzles", "version": 1, "variant": "chess", "puzzles": []}', "chess"),
    ('{"format": "damka-puzzles", "version": 1, "variant": "classic", "puzzles": [{"id": "x"}]}',
     "puzzle 1: 'fen' missing"),
    ('{"format": "damka-puzzles", "version": 1, "variant": "classic", "puzzles": [{"id": "x", "fen": "W:Wc3:Bd6",'
     ' "solution": "c3-b5", "depth": 1, "gain": 2, "difficulty": 1, "rating": 800}]}', "puzzle 1 (x)"),
])
def test_a_broken_set_is_one_clear_line(tmp_path: Path, text: str, says: str) -> None:
    with pytest.raises(PuzzleError, match=None) as caught:
        loads(text, "my.json")
    assert says in str(caught.value) and str(caught.value).startswith("my.json")
    path = tmp_path / "bad.json"
    path.write_text(text)
    ran = damka("check", str(path))
    assert ran.returncode == 2 and ran.stderr.count("\n") == 1 and says in ran.stderr, ran.stderr


def test_a_variant_without_a_set_and_a_missing_file_are_said_plainly(tmp_path: Path) -> None:
    assert find_variant("classic")  # the names are the variants' own
    ran = damka("make", "classic", "--from", str(tmp_path / "none.pdn"), "--self-play", "0")
    assert ran.returncode == 2 and "none.pdn: no such file" in ran.stderr


def test_multiwarcaby_puzzles_are_made_from_self_play_and_proved_again(tmp_path: Path) -> None:
    """One two-move turn that wins two points: found in Damka's own games, written, and proved again."""
    out = tmp_path / "multiwarcaby.json"
    made = damka("make", "multiwarcaby", "--self-play", "2", "--count", "1", "--out", str(out))
    assert made.returncode == 0, made.stderr
    variant, puzzles = read_file(out)
    assert variant.name == "multiwarcaby" and len(puzzles) == 1
    puzzle = puzzles[0]
    assert puzzle.depth == 4 and puzzle.gain >= 2 and len(puzzle.line) == 4 and puzzle.line[0] == puzzle.solution
    assert puzzle.fen.startswith("MW9:S2:T") and puzzle.source.startswith("self-play 1.")
    checked = damka("check", str(out))
    assert checked.returncode == 0 and checked.stdout.strip() == "1 of 1 puzzles proved again", checked.stdout


def test_an_american_game_gives_classic_positions_counted_from_its_start(tmp_path: Path) -> None:
    """Same board, same pieces: the game's positions are candidates, the opening plies numbered from 0."""
    from damka.teaching.puzzle_maker import pdn_positions

    path = tmp_path / "american.pdn"
    path.write_text('[GameType "21"]\n[Event "club"]\n\n1. 9-13 22-18 2. 10-14 18x9 3. 5x14 *\n', encoding="utf-8")
    found = list(pdn_positions(find_variant("classic"), [path]))
    assert [candidate.ply for candidate in found] == [0, 1, 2, 3, 4, 5]
    assert found[0].position == find_variant("american").start_position()
    assert found[3].source == "american.pdn game 1 (club), ply 3"


def test_a_set_over_the_count_cap_is_refused_before_a_line_is_played() -> None:
    from damka.teaching.puzzles import MAX_PUZZLES

    shipped_text = (Path(__file__).resolve().parent.parent / "teaching" / "sets" / "classic.json").read_text()
    data = json.loads(shipped_text)
    one = data["puzzles"][0]
    data["puzzles"] = [dict(one, id=f"p{n}") for n in range(MAX_PUZZLES + 1)]
    with pytest.raises(PuzzleError, match=f"big.json: {MAX_PUZZLES + 1:,} puzzles; a set has at most {MAX_PUZZLES:,}"):
        loads(json.dumps(data), "big.json")
    data["puzzles"] = data["puzzles"][:3]
    assert len(loads(json.dumps(data), "small.json")[1]) == 3


def test_make_will_not_write_a_set_too_big_to_read_again() -> None:
    from damka.teaching.puzzles import MAX_PUZZLES

    ran = damka("make", "classic", "--count", str(MAX_PUZZLES + 1), "--self-play", "0")
    assert ran.returncode == 2 and ran.stderr.count("\n") == 1 and f"--count must be 1 to {MAX_PUZZLES:,}" in ran.stderr


# An English checkers problem as real files have it (no GameType; every square 1-32), and a 10x10 game.
CHECKERS_PROBLEM = '[Event "Bridges #47"]\n[SetUp "1"]\n[FEN "B:W5,K6,10,K11,13:B1,3,K9,K15"]\n\n1. 9x2 *\n'
TEN_BY_TEN = '[GameType "20"]\n[Event "club"]\n\n1. 32-28 19-23 2. 28x19 14x23 *\n'


def test_import_and_puzzles_make_read_an_untagged_checkers_problem_as_american(tmp_path: Path) -> None:
    """International named by the caller is not a guess against a record plainly of the 8x8 board:
    `damka import --variant international` stores it as American, and `damka puzzles make
    international` skips it, saying how many and why."""
    from damka.controller.store.pdn import iter_outcomes
    from damka.teaching.puzzle_maker import MakerStats, pdn_positions

    path = tmp_path / "problems.pdn"
    path.write_text(CHECKERS_PROBLEM + "\n" + TEN_BY_TEN, encoding="utf-8")
    outcomes = list(iter_outcomes([path.read_text(encoding="utf-8")], variant="international"))
    assert [outcome.record[0].variant.name for outcome in outcomes if outcome.record] == ["american", "international"]
    stats = MakerStats()
    found = list(pdn_positions(find_variant("international"), [path], stats))
    assert {candidate.source.split(", ply")[0] for candidate in found} == {"problems.pdn game 1 (club)"}
    assert dict(stats.skipped) == {"american records of another board": 1}
    made = damka("make", "international", "--from", str(path), "--self-play", "0", "--out", str(tmp_path / "s.json"))
    assert "1 american records of another board skipped (not international)" in made.stderr
