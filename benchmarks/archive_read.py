"""What one Archive read of the page (GET /api/games: `web/archive.list_games`) costs on a large
database, against the same read with the whole-file check a read-only open used to make.

    python benchmarks/archive_read.py                # 10,000 games
    python benchmarks/archive_read.py --games 40000

The page reads the board's own file through a read-only connection of its own per request
(controller/store/schema.py: one way into the file, SQLite's). Its PRAGMA quick_check reads every
page of the file: the board checks its file when it opens it, the page's reader need not again.
Prints the database's size and the median of `--reads` list reads each way, and their ratio.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from damka.controller.store.store import Store
from damka.engine import Game, find_variant
from damka.web import archive


def fill(store: Store, games: int, seed: int) -> None:
    """`games` seeded random classic games of 10 to 40 moves, stored in batches."""
    rng = random.Random(seed)
    variant = find_variant("classic")

    def records():
        for _ in range(games):
            game = Game(variant)
            for _ in range(rng.randint(10, 40)):
                if game.is_over:
                    break
                game.push(rng.choice(game.legal_moves()))
            yield game, {"players": [f"P{rng.randrange(10**6)}", f"Q{rng.randrange(10**6)}"]}

    source = records()
    while batch := [next(source) for _ in range(min(1000, games))]:
        store.add_records(batch)
        games -= len(batch)


def median_ms(read, reads: int) -> float:
    times = []
    for _ in range(reads):
        began = time.perf_counter()
        read()
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times)


def checked_read(board: Store) -> None:
    """The read as it was: a read-only open with the whole-file check, then the page of the list."""
    with Store(board.path, readonly=True) as reader:
        reader.latest_games(archive.PAGE + 1, None)
        reader.count_games()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--reads", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        with Store(Path(folder) / "games.db") as board:
            began = time.perf_counter()
            fill(board, args.games, seed=36)
            print(f"{args.games:,} games stored in {time.perf_counter() - began:.1f} s; "
                  f"{board.path.stat().st_size / 1e6:.1f} MB")
            now = median_ms(lambda: archive.list_games(board), args.reads)
            before = median_ms(lambda: checked_read(board), args.reads)
    print(f"GET /api/games, median of {args.reads}: {now:.1f} ms; with the whole-file check {before:.1f} ms "
          f"({before / now:.1f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
