"""How long the store takes to commit one move (one transaction with fsync),
on the disk the database lives on.

    python benchmarks/store_commit.py                # a temporary file
    python benchmarks/store_commit.py --db /home/pi/games.db --moves 100

Prints the median and the maximum in milliseconds.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from damka.controller.store.store import Store
from damka.engine import Game, find_variant


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", type=Path, help="database file (default: a temporary one)")
    parser.add_argument("--moves", type=int, default=60)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        variant = find_variant("classic")
        game = Game(variant)
        times = []
        with Store(args.db or Path(tmp) / "games.db") as store:
            gid = store.new_game(variant)
            for _ in range(args.moves):
                moves = game.legal_moves()
                if not moves:
                    break
                game.push(moves[len(moves) // 2])
                start = time.perf_counter()
                store.record_move(gid, game, clock_ms=[1, 2])
                times.append(time.perf_counter() - start)
    times.sort()
    print(f"commit latency over {len(times)} moves: median {times[len(times) // 2] * 1000:.2f} ms, "
          f"max {times[-1] * 1000:.2f} ms")


if __name__ == "__main__":
    main()
