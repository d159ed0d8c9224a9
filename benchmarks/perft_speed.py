"""Perft speed of the draughts variants, in nodes per second on one core.

    .venv/bin/python benchmarks/perft_speed.py             # the standard set
    .venv/bin/python benchmarks/perft_speed.py classic:8 international:6 --repeat 5

Each case runs `variant.perft(start, depth)` (bulk-counted: the last ply is
counted, never played) and reports the best of `--repeat` runs, timed with
`time.process_time()` (CPU time, so other processes on the machine disturb it
less). The target is classic perft 8 (907830 nodes) at >= 1,000,000 nodes/s.
"""

from __future__ import annotations

import argparse
import sys
import time

from damka.engine import find_variant

DEFAULT_CASES = ("classic:8", "russian:8", "american:8", "international:6", "canadian:5")
EXPECTED = {
    ("classic", 8): 907830, ("russian", 8): 929899, ("american", 8): 845931, ("international", 6): 167140,
    ("international", 7): 1049442,
}
TARGET = 1_000_000  # nodes/s for classic perft 8


def run(name: str, depth: int, repeat: int) -> tuple[int, float]:
    """(nodes, best CPU seconds) of perft `depth` from the start of `name`."""
    variant = find_variant(name)
    position = variant.start_position()
    best = float("inf")
    nodes = 0
    for _ in range(repeat):
        started = time.process_time()
        nodes = variant.perft(position, depth)
        best = min(best, time.process_time() - started)
    return nodes, best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Perft nodes/s of the draughts variants (one core, CPython).")
    parser.add_argument(
        "cases", nargs="*", default=list(DEFAULT_CASES), metavar="VARIANT:DEPTH",
        help=f"variants and depths to run (default: {' '.join(DEFAULT_CASES)})",
    )
    parser.add_argument("--repeat", type=int, default=3, help="runs per case; the best is reported (default 3)")
    args = parser.parse_args(argv)
    failed = False
    print(f"{'variant':<14}{'depth':>6}{'nodes':>12}{'seconds':>10}{'nodes/s':>12}")
    for case in args.cases:
        name, _, depth_text = case.partition(":")
        depth = int(depth_text or 6)
        nodes, seconds = run(name, depth, args.repeat)
        rate = nodes / seconds if seconds else float("inf")
        note = ""
        expected = EXPECTED.get((name, depth))
        if expected is not None and expected != nodes:
            note = f"  WRONG: expected {expected}"
            failed = True
        if (name, depth) == ("classic", 8):
            note += "  (target met)" if rate >= TARGET else f"  (below the {TARGET:,} nodes/s target)"
        print(f"{name:<14}{depth:>6}{nodes:>12}{seconds:>10.3f}{rate:>12,.0f}{note}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
