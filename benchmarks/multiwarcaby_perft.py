#!/usr/bin/env python3
"""Perft benchmark for multiwarcaby: nodes, seconds and nodes per second per depth.

    .venv/bin/python benchmarks/multiwarcaby_perft.py              # 9x9 start, depths 1-4
    .venv/bin/python benchmarks/multiwarcaby_perft.py -v multiwarcaby7 -d 5
    .venv/bin/python benchmarks/multiwarcaby_perft.py --position 'MW9:S2:T1.1:...'

Depth counts single moves (half-turns); a node is a distinct resulting board
at its parent. The expected counts are in tests/perft/multiwarcaby*.perft.
"""

from __future__ import annotations

import argparse
import sys
import time

from damka.engine.multiwarcaby import VARIANTS


def main(argv: list[str] | None = None) -> int:
    names = {factory.name: factory for factory in VARIANTS}
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-v", "--variant", choices=sorted(names), default="multiwarcaby",
                        help="variant (default: %(default)s)")
    parser.add_argument("-d", "--depth", type=int, default=4,
                        help="deepest depth, in single moves (default: %(default)s)")
    parser.add_argument("--from-depth", type=int, default=1,
                        help="first depth to run (default: %(default)s)")
    parser.add_argument("-p", "--position", default=None,
                        help="a multiwarcaby position string (default: the start position)")
    args = parser.parse_args(argv)
    if args.depth < 1 or args.from_depth < 1:
        parser.error("depths start at 1")

    variant = names[args.variant].create()
    position = variant.parse_position(args.position) if args.position else variant.start_position()
    print(f"{variant.name}: {variant.format_position(position)}")
    # CPU seconds too: on a busy machine they say more about the code than the clock does.
    print(f"{'depth':>5} {'nodes':>14} {'seconds':>9} {'cpu s':>9} {'nodes/s':>12}")
    total_nodes, total_seconds = 0, 0.0
    for depth in range(args.from_depth, args.depth + 1):
        began, cpu_began = time.perf_counter(), time.process_time()
        nodes = variant.perft(position, depth)
        seconds, cpu = time.perf_counter() - began, time.process_time() - cpu_began
        total_nodes += nodes
        total_seconds += seconds
        rate = nodes / seconds if seconds > 0 else float("inf")
        print(f"{depth:>5} {nodes:>14,} {seconds:>9.3f} {cpu:>9.3f} {rate:>12,.0f}", flush=True)
    print(f"{'all':>5} {total_nodes:>14,} {total_seconds:>9.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
