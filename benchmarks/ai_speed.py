#!/usr/bin/env python3
"""Speed of the computer's search: nodes per second and depth reached per move.

    python benchmarks/ai_speed.py                 # 1 s per position, every variant
    python benchmarks/ai_speed.py --time 0.5 --variants classic multiwarcaby:sides=4

Benchmark positions per variant: the start, and positions after 10, 25 and
40 plies of a seeded random game (the same on every run and machine), so the
numbers compare between machines (a PC against the Pi) and between versions.
A node is one position searched (draughts) or one position expanded
(multiwarcaby: every child of an expanded node is generated and scored, so
a node there is worth a whole move generation).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from damka.engine import Game, find_variant  # noqa: E402
from damka.engine.levels import make_searcher  # noqa: E402

DEFAULT_VARIANTS = ["classic", "russian", "american", "international", "canadian", "classic81",
                    "multiwarcaby", "multiwarcaby:sides=4", "multiwarcaby7"]
PLIES = (0, 10, 25, 40)


def parse_spec(spec: str):
    name, _, text = spec.partition(":")
    options = {}
    for item in filter(None, text.split(",")):
        key, _, value = item.partition("=")
        options[key] = True if value == "True" else int(value)
    return find_variant(name, **options)


def benchmark_positions(variant, seed: int):
    rng = random.Random(seed)
    game = Game(variant)
    positions = []
    for ply in range(max(PLIES) + 1):
        if ply in PLIES and len(game.legal_moves()) > 1:
            positions.append((ply, game.position))
        moves = game.legal_moves()
        if not moves:
            break
        game.push_unchecked(rng.choice(moves))
    return positions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--time", type=float, default=1.0, help="seconds per position (default 1)")
    parser.add_argument("--variants", nargs="+", default=DEFAULT_VARIANTS,
                        help="variant specs, name[:option=value,...] (default: all)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    print(f"Search speed, {args.time:g} s per position\n")
    print("| variant | ply | legal moves | depth | nodes | nodes/s | seconds |")
    print("|---|---|---|---|---|---|---|")
    for spec in args.variants:
        variant = parse_spec(spec)
        total_nodes = total_time = 0.0
        depths = []
        for ply, position in benchmark_positions(variant, args.seed):
            searcher = make_searcher(variant)  # a cold table: every position alike
            started = time.monotonic()
            result = searcher.search(position, time_limit=args.time, now=time.monotonic)
            spent = time.monotonic() - started
            rate = result.nodes / spent if spent else 0.0
            total_nodes += result.nodes
            total_time += spent
            depths.append(result.depth)
            print(f"| {spec} | {ply} | {len(variant.legal_moves(position))} | {result.depth} | {result.nodes} "
                  f"| {rate:,.0f} | {spent:.2f} |", flush=True)
            print(f"{spec} ply {ply}: depth {result.depth}, {result.nodes} nodes", file=sys.stderr, flush=True)
        if depths:
            print(f"| **{spec}** | all | | {min(depths)}-{max(depths)} | {int(total_nodes)} "
                  f"| {total_nodes / total_time:,.0f} | {total_time:.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
