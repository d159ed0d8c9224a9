#!/usr/bin/env python3
"""The multiwarcaby search before issue 26's speed-up and now, on the same tree.

    python benchmarks/multisearch_speed.py              # 12 positions per variant, fixed depth
    python benchmarks/multisearch_speed.py --seeds 1 2  # fewer positions

The search as it was is kept in benchmarks/multisearch_baseline/ (a copy,
never edited). Both search the same positions (benchmarks/ai_speed.py's: the
start and plies 10, 25 and 40 of seeded random games) to the same fixed
depth; they must choose the same move with the same score, score the root
moves alike and expand the same number of nodes (the run stops if not), so
the ratio of their CPU times is the speed-up. A node is one position
expanded: every child generated and scored. `benchmarks/ai_speed.py`
(table 1) shows the nodes per second and depth of timed searches.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for folder in (ROOT, ROOT / "benchmarks"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from ai_speed import benchmark_positions, parse_spec  # noqa: E402
from damka.engine.multisearch import MultiSearcher  # noqa: E402
from multisearch_baseline.multisearch import MultiSearcher as BaselineSearcher  # noqa: E402

# Variant specs and the depth each is searched to (a few seconds each).
DEFAULT = ["multiwarcaby:5", "multiwarcaby:sides=3:5", "multiwarcaby:sides=4:5", "multiwarcaby:teams=True:5",
           "multiwarcaby7:7"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--cases", nargs="*", default=DEFAULT, help="variant spec and depth, SPEC:DEPTH")
    parser.add_argument("--seeds", nargs="*", type=int, default=[1, 2, 3], help="seeded games (default 1 2 3)")
    args = parser.parse_args(argv)
    print("| variant | depth | positions | nodes (both) | before CPU s | now CPU s | before nodes/s "
          "| now nodes/s | speed-up |")
    print("|---|---|---|---|---|---|---|---|---|")
    for case in args.cases:
        spec, _, depth_text = case.rpartition(":")
        depth = int(depth_text)
        variant = parse_spec(spec)
        spent = {"before": 0.0, "now": 0.0}
        nodes = count = 0
        for seed in args.seeds:
            for index, (_, position) in enumerate(benchmark_positions(variant, seed)):
                runs = [("before", BaselineSearcher), ("now", MultiSearcher)]
                results = {}
                # Alternate which runs first, so neither gains from a warmer machine.
                for label, make in runs if index % 2 == 0 else runs[::-1]:
                    searcher = make(variant)
                    started = time.process_time()
                    results[label] = searcher.search(position, max_depth=depth)
                    spent[label] += time.process_time() - started
                old, new = results["before"], results["now"]
                if (old.move, old.score, old.nodes, old.root_scores) != (new.move, new.score, new.nodes,
                                                                         new.root_scores):
                    raise SystemExit(f"multisearch_speed: {spec}: the searches differ: before {old.move} "
                                     f"{old.score} {old.nodes} nodes, now {new.move} {new.score} {new.nodes} nodes")
                nodes += new.nodes
                count += 1
        print(f"| {spec} | {depth} | {count} | {nodes} | {spent['before']:.2f} | {spent['now']:.2f} "
              f"| {nodes / spent['before']:,.0f} | {nodes / spent['now']:,.0f} "
              f"| {spent['before'] / spent['now']:.2f}x |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
