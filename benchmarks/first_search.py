#!/usr/bin/env python3
"""Wall time of the first timed search of a new searcher (issue 42).

    python benchmarks/first_search.py                 # 8 fresh searchers, 1 s each
    python benchmarks/first_search.py --count 20 --time 0.5

A searcher runs the collector's first pass over a search's objects inside the
search's own time (`Searcher._collect_within_time`) and leaves room for it
from the share the last pass took; a new searcher has no last pass, and its
first search overran (1.02-1.20 s for 1 s before the fix). Each run makes
`--count` new searchers (positions: the international puzzle set, a new
position each), gives each one search of `--time` on the wall clock, and
prints each wall time, then the worst and the median of those that ran to
their deadline, as a ratio of the time given; then one second search of the last searcher, the case that was
already budgeted, as the baseline of the same run. The machine may be
shared: compare the ratios of one run.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from damka.engine.levels import make_searcher  # noqa: E402
from damka.engine.variants import find_variant  # noqa: E402
from damka.teaching.puzzles import shipped  # noqa: E402


def timed_search(searcher: object, position: object, limit: float) -> tuple[float, bool]:
    """The wall time of one search of `limit` seconds, as a caller waiting for the move sees it, and
    whether it ran to its deadline (a forced win seen to its end returns at once)."""
    started = time.perf_counter()
    result = searcher.search(position, time_limit=limit, now=time.perf_counter)  # type: ignore[attr-defined]
    return time.perf_counter() - started, result.stopped


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=8, help="fresh searchers, one first search each (default 8)")
    parser.add_argument("--time", type=float, default=1.0, help="seconds given to each search (default 1)")
    args = parser.parse_args()
    variant = find_variant("international")
    puzzles = shipped("international")
    walls = []
    searcher = None
    position = None
    for number in range(args.count):
        position = puzzles[number * 7 % len(puzzles)].position(variant)
        searcher = make_searcher(variant)
        wall, stopped = timed_search(searcher, position, args.time)
        if stopped:
            walls.append(wall)
        print(f"searcher {number + 1}: first search {wall:.3f} s ({wall / args.time:.3f} of the time given)"
              f"{'' if stopped else ', ended before its deadline (not counted)'}")
    second, _ = timed_search(searcher, position, args.time)
    if walls:
        print(f"{len(walls)} first searches to their deadline: worst {max(walls):.3f} s ({max(walls) / args.time:.3f}), "
              f"median {statistics.median(walls):.3f} s; a second search: {second:.3f} s ({second / args.time:.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
