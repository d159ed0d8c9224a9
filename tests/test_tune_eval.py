"""benchmarks/tune_eval.py: self-play positions with their results, and the
fit of the evaluation's weights to them (issue 26: the weights in
`evaluate.TUNED` come from it)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from damka.engine import Game, find_variant
from damka.engine.draughts_position import DraughtsPosition
from damka.engine.evaluate import HAND, DraughtsEvaluator

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "tune_eval.py"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=600)


def test_play_writes_the_quiet_positions_of_each_game_with_its_result(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    done = run("play", "--variant", "classic", "--games", "2", "--depth", "1", "--seed", "3", "--out", str(out))
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) > 20
    variant = find_variant("classic")
    assert {record["g"] for record in records} <= {"3-0", "3-1"}
    for record in records:
        assert record["r"] in (0.0, 0.5, 1.0)
        position = DraughtsPosition(record["w"], record["b"], record["k"], record["t"])
        assert not any(move.captures for move in variant.legal_moves(position))


def test_fit_moves_a_weight_the_way_the_results_say(tmp_path: Path) -> None:
    """Positions where the side with more pieces in the centre always won:
    the centre's weight rises well above the hand-set one, and the fitted
    weights predict the results better than before."""
    variant = find_variant("international")
    evaluator = DraughtsEvaluator(variant)
    rng = random.Random(8)
    lines = []
    for index in range(120):
        game = Game(variant)
        for _ in range(rng.randrange(10, 60)):
            moves = game.legal_moves()
            if not moves:
                break
            game.push_unchecked(rng.choice(moves))
        position = game.position
        centre = evaluator.features(position.white, position.black, position.kings)[6]
        outcome = 1.0 if centre > 0 else 0.0 if centre < 0 else 0.5
        lines.append(json.dumps({"g": f"1-{index}", "w": position.white, "b": position.black,
                                 "k": position.kings, "r": outcome}))
    data = tmp_path / "centre.jsonl"
    data.write_text("\n".join(lines) + "\n")
    done = run("fit", str(data))
    assert done.returncode == 0, done.stderr
    before = float(done.stdout.split("loss before: ")[1].split()[0])
    after = float(done.stdout.split("loss after: ")[1].split()[0])
    assert after < before
    tuned = done.stdout.strip().splitlines()[-1]
    centre = int(tuned.split("centre=")[1].split(",")[0])
    assert centre > HAND.centre + 10


def test_fit_names_a_line_that_is_not_a_position(tmp_path: Path) -> None:
    data = tmp_path / "bad.jsonl"
    data.write_text('{"g": "1-0", "w": 1, "b": 2, "k": 0, "r": 1}\nnot json\n')
    done = run("fit", str(data))
    assert done.returncode != 0
    assert f"{data}:2: not a position record" in done.stderr


def test_fit_names_a_term_it_does_not_know(tmp_path: Path) -> None:
    data = tmp_path / "one.jsonl"
    data.write_text('{"g": "1-0", "w": 1, "b": 2, "k": 0, "t": 0, "r": 1}\n')
    done = run("fit", str(data), "--fixed", "king,queen")
    assert done.returncode != 0 and "no term queen" in done.stderr
