#!/usr/bin/env python3
"""How fast `damka puzzles make` finds puzzles: per variant, puzzles per CPU minute and why candidates fail.

    .venv/bin/python benchmarks/puzzles_make.py                    # 60 s of CPU per variant
    .venv/bin/python benchmarks/puzzles_make.py --budget 30 -v classic -v russian
    .venv/bin/python benchmarks/puzzles_make.py --source self-play   # the games of Damka against itself only
    .venv/bin/python benchmarks/puzzles_make.py -v international --depth 5

Each variant gets the same fixed budget of this process's CPU time (making
the candidates included: the self-play games cost CPU too) and the same
candidates: the real games of ../shared/pdn-corpus/ that fit the variant's
board, then self-play from seed 1. It prints the candidates tried, the
puzzles found, puzzles per CPU minute and the share of candidates rejected
for each reason. Run it with `nice -n 19` on a shared machine.
"""

from __future__ import annotations

import argparse
import itertools
from pathlib import Path

from damka.engine.puzzle_proof import MAX_DEPTH
from damka.engine.variants import find_variant
from damka.teaching.puzzle_maker import MakerStats, corpus_files, make_puzzles, pdn_positions, self_play_positions

VARIANTS = ("classic", "russian", "international", "multiwarcaby")
CORPUS = Path(__file__).resolve().parents[2] / "shared" / "pdn-corpus"


def run(name: str, budget: float, source: str, corpus: Path, depth: int) -> MakerStats:
    variant = find_variant(name)
    real = pdn_positions(variant, corpus_files(variant, corpus)) if source in ("both", "pdn") else iter(())
    played = self_play_positions(variant, 10_000, seed=1) if source in ("both", "self-play") else iter(())
    stats = MakerStats()
    make_puzzles(variant, itertools.chain(real, played), wanted=1_000_000, stats=stats, cpu_budget=budget,
                 max_depth=depth)
    return stats


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-v", "--variant", action="append", choices=VARIANTS, help="a variant (default: all four)")
    parser.add_argument("--budget", type=float, default=60.0, help="seconds of CPU per variant (default 60)")
    parser.add_argument("--source", choices=("both", "pdn", "self-play"), default="both")
    parser.add_argument("--depth", type=int, default=MAX_DEPTH, help=f"deepest proof in plies (default {MAX_DEPTH})")
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="the real games (default ../shared/pdn-corpus)")
    args = parser.parse_args(argv)
    print(f"budget {args.budget:.0f} s CPU per variant, candidates from {args.source}, proofs to {args.depth} plies")
    for name in args.variant or VARIANTS:
        try:
            stats = run(name, args.budget, args.source, args.corpus, args.depth)
        except ValueError as exc:
            print(f"{name:14} not proved: {exc}")
            continue
        minutes = max(stats.cpu_s, 1e-9) / 60
        shares = ", ".join(f"{why} {count / stats.candidates:.0%}" for why, count in stats.rejected.most_common())
        print(f"{name:14} {stats.candidates:6} candidates  {stats.found:4} puzzles  "
              f"{stats.found / minutes:6.1f} a CPU minute  ({stats.cpu_s:.0f} s)  rejected: {shares or 'none'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
