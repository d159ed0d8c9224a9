"""Fit the draughts evaluation's weights to self-play results (Texel's method).

    python benchmarks/tune_eval.py play --variant international --games 400 --depth 4 --seed 1 --out games.jsonl
    python benchmarks/tune_eval.py fit games.jsonl --variant international

`play` has Damka play itself at a fixed depth (so the load of the machine
does not change a game) from random openings and writes every quiet
position of each game (no capture pending, past the opening, not a king
ending) with the game's result, one JSON line each. It appends, so several
runs with other seeds can share a file.

`fit` finds the weights `w` that make `1 / (1 + 10 ** (-k * score / 400))`,
with `score = sum(w[i] * features[i])` (`DraughtsEvaluator.features`), best
predict the results (least squares, as Texel's tuning): first the scale `k`
for today's weights, then the weights not `--fixed` (the man's never: it is
the scale) by Levenberg-Marquardt with that `k`. By default the king, the
trade bonus and the blocked side stay fixed: fitted to shallow self-play
they come out implausible (a king worth 1.3 men: positions with kings are
mostly endings that were drawn anyway). It prints the loss before and after, on the
positions it fitted and on every tenth game held out, and the weights as an
`EvalWeights(...)` line for `evaluate.py`'s `TUNED`. A weight only moves
the results where a match shows it (docs/computer.md).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
import zlib
from dataclasses import astuple, fields
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from damka.engine import Game, find_variant  # noqa: E402
from damka.engine.evaluate import EVAL_TERMS, MAN, DraughtsEvaluator, EvalWeights  # noqa: E402
from damka.engine.search import Searcher  # noqa: E402
from engine_match import random_opening  # noqa: E402  (benchmarks/, beside this file)

OPENING_PLIES = 6
MAX_PLIES = 300


def play(args: argparse.Namespace) -> int:
    variant = find_variant(args.variant)
    rng = random.Random(args.seed)
    written = 0
    started = time.monotonic()
    with open(args.out, "a", encoding="utf-8") as out:
        for index in range(args.games):
            game = Game(variant)
            for move in random_opening(variant, rng, OPENING_PLIES):
                game.push(move)
            searchers = (Searcher(variant), Searcher(variant))
            while game.result is None and game.ply < MAX_PLIES:
                result = searchers[game.turn].search(game.position, max_depth=args.depth,
                                                     history=game.positions[:-1])
                game.push(result.move)
            outcome = 0.5 if game.result is None or game.result.winner is None else (
                1.0 if game.result.winner == 0 else 0.0)
            for ply, position in enumerate(game.positions):
                if ply < OPENING_PLIES + 4 or not (position.white | position.black) & ~position.kings:
                    continue
                if any(move.captures for move in variant.legal_moves(position)):
                    continue
                out.write(json.dumps({"g": f"{args.seed}-{index}", "w": position.white, "b": position.black,
                                      "k": position.kings, "t": position.turn, "r": outcome}) + "\n")
                written += 1
            print(f"game {index + 1}/{args.games}: {outcome:g} for white, {game.ply} plies; "
                  f"{written} positions, {time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)
    return 0


def load(paths: list[str], evaluator: DraughtsEvaluator) -> tuple[list[tuple[tuple[float, ...], float]], ...]:
    """(features, result) pairs: the positions to fit, and every tenth game's held out."""
    fit: list[tuple[tuple[float, ...], float]] = []
    held: list[tuple[tuple[float, ...], float]] = []
    for path in paths:
        for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
            try:
                record = json.loads(line)
                white, black, kings, outcome = int(record["w"]), int(record["b"]), int(record["k"]), float(record["r"])
                game = str(record["g"])
            except (ValueError, KeyError, TypeError) as exc:
                sys.exit(f"tune_eval: {path}:{number}: not a position record ({exc})")
            row = (evaluator.features(white, black, kings), outcome)
            (held if zlib.crc32(game.encode()) % 10 == 0 else fit).append(row)
    return fit, held


def predict(weights: list[float], features: tuple[float, ...], k: float) -> float:
    score = sum(w * f for w, f in zip(weights, features))
    return 1 / (1 + 10 ** (-k * score / 400))


def loss(rows: list[tuple[tuple[float, ...], float]], weights: list[float], k: float) -> float:
    return sum((outcome - predict(weights, features, k)) ** 2 for features, outcome in rows) / max(1, len(rows))


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """`matrix x = vector` by Gaussian elimination with partial pivoting (a dozen unknowns)."""
    n = len(vector)
    rows = [list(matrix[i]) + [vector[i]] for i in range(n)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        if abs(rows[col][col]) < 1e-300:
            continue
        for r in range(col + 1, n):
            factor = rows[r][col] / rows[col][col]
            if factor:
                for c in range(col, n + 1):
                    rows[r][c] -= factor * rows[col][c]
    x = [0.0] * n
    for i in reversed(range(n)):
        if abs(rows[i][i]) >= 1e-300:
            x[i] = (rows[i][n] - sum(rows[i][c] * x[c] for c in range(i + 1, n))) / rows[i][i]
    return x


def fit(args: argparse.Namespace) -> int:
    variant = find_variant(args.variant)
    evaluator = DraughtsEvaluator(variant)
    rows, held = load(args.files, evaluator)
    if not rows:
        sys.exit("tune_eval: no positions in " + ", ".join(args.files))
    fixed = {"man", *filter(None, args.fixed.split(","))}
    unknown = fixed - set(EVAL_TERMS)
    if unknown:
        sys.exit(f"tune_eval: --fixed: no term {', '.join(sorted(unknown))} (the terms: {', '.join(EVAL_TERMS)})")
    start = [float(MAN), *map(float, astuple(evaluator.weights))]
    k = min((loss(rows, start, k / 100), k / 100) for k in range(5, 301, 5))[1]
    print(f"{len(rows)} positions to fit, {len(held)} held out; scale k = {k:.2f}; fixed: {', '.join(sorted(fixed))}")
    print(f"loss before: {loss(rows, start, k):.5f} (held out {loss(held, start, k):.5f})")
    free = [i for i, term in enumerate(EVAL_TERMS) if term not in fixed]
    weights = list(start)
    damping = 1e-3
    current = loss(rows, weights, k)
    # Levenberg-Marquardt on the squared error: a dozen weights, so the
    # normal equations are cheap and it converges in tens of passes.
    for step in range(1, args.steps + 1):
        normal = [[0.0] * len(free) for _ in free]
        gradient = [0.0] * len(free)
        for features, outcome in rows:
            p = predict(weights, features, k)
            slope = p * (1 - p) * k * math.log(10) / 400
            jac = [slope * features[i] for i in free]
            residual = outcome - p
            for a, ja in enumerate(jac):
                if ja:
                    gradient[a] += ja * residual
                    row = normal[a]
                    for b, jb in enumerate(jac):
                        row[b] += ja * jb
        while True:
            damped = [[value * (1 + damping) if a == b else value for b, value in enumerate(row)]
                      for a, row in enumerate(normal)]
            trial = list(weights)
            for i, delta in zip(free, solve(damped, gradient)):
                trial[i] += delta
            tried = loss(rows, trial, k)
            if tried <= current or damping > 1e6:
                break
            damping *= 10
        if tried > current:
            break  # no step lowers the error any more
        weights, gain, current = trial, current - tried, tried
        damping = max(damping / 10, 1e-6)
        print(f"step {step}: loss {current:.5f} (held out {loss(held, weights, k):.5f})", file=sys.stderr, flush=True)
        if gain < 1e-7:
            break
    print(f"loss after: {loss(rows, weights, k):.5f} (held out {loss(held, weights, k):.5f})")
    for term, before, after in zip(EVAL_TERMS, start, weights):
        print(f"  {term:>11}: {before:7.1f} -> {after:7.1f}")
    tuned = {field.name: round(value) for field, value in zip(fields(EvalWeights), weights[1:])}
    print(f'"{args.variant}": EvalWeights(' + ", ".join(f"{name}={value}" for name, value in tuned.items()) + "),")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("play", help="self-play games, their quiet positions and results to a file")
    p.add_argument("--variant", default="international")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--depth", type=int, default=4)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", required=True, help="JSON lines, appended")
    f = commands.add_parser("fit", help="fit the weights to the positions' results")
    f.add_argument("files", nargs="+")
    f.add_argument("--variant", default="international")
    f.add_argument("--steps", type=int, default=30, help="passes over the positions, at most")
    f.add_argument("--fixed", default="king,trade,blocked",
                   help="terms kept at today's weight, comma-separated (the man is always the scale)")
    args = parser.parse_args(argv)
    if getattr(args, "games", 1) < 1 or getattr(args, "depth", 1) < 1 or getattr(args, "steps", 1) < 1:
        parser.error("--games, --depth and --steps must be at least 1")
    return play(args) if args.command == "play" else fit(args)


if __name__ == "__main__":
    raise SystemExit(main())
