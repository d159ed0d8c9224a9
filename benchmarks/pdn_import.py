"""How fast `damka import` stores a large PDN file, and how much memory it takes.

    python benchmarks/pdn_import.py                  # 10,000 games
    python benchmarks/pdn_import.py --games 1000 --keep /tmp/big.pdn

Generates a PDN file of random legal games (several variants, with clock
annotations and results, as `damka export` writes them), then runs the real
`damka import` command on it in a child process, into a new SQLite database
in a temporary folder. Prints the file size, the wall time (and CPU time), games per second
and the child's peak resident memory (ru_maxrss: everything, the
interpreter included).
"""

from __future__ import annotations

import argparse
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from damka.controller.timed_game import format_clock
from damka.engine import Game
from damka.engine.variants import default_variant
from damka.engine.pdn import write_game

VARIANTS = ("classic", "international", "russian", "american", "canadian", "multiwarcaby")


def random_record(rng: random.Random, number: int) -> str:
    """One random legal game of 10 to 60 moves; one game in five has a clock after every move."""
    variant = default_variant(VARIANTS[number % len(VARIANTS)])
    timed = number % 5 == 0
    game = Game(variant)
    clock = [300_000] * len(variant.sides)
    clocks = []
    for _ in range(rng.randint(10, 60)):
        moves = game.legal_moves()
        if not moves or game.result is not None:
            break
        side = variant.side_to_move(game.position)
        clock[side % len(clock)] -= rng.randint(500, 9000)
        game.push(rng.choice(moves))
        clocks.append(format_clock(variant, clock) if timed else None)
    tags = {"Event": f"Benchmark {number}", "White": "Ala", "Black": "Ola", "TimeControl": "300" if timed else "-"}
    return write_game(variant, game.start, game.moves, tags, clocks=clocks, result=game.result)


def generate(path: Path, games: int, seed: int) -> None:
    rng = random.Random(seed)
    with path.open("w", encoding="utf-8") as handle:
        for number in range(games):
            handle.write(random_record(rng, number))
            handle.write("\n")


def run_import(pdn: Path, db: Path) -> tuple[float, float, int, str]:
    """Wall seconds, the child's CPU seconds (user + system: on a busy machine
    they say more about the code), its peak RSS in KiB, and its last output line."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "damka", "import", str(pdn), "--db", str(db)],
                          capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"damka import failed ({done.returncode}): {done.stderr.strip()}")
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, done.stdout.strip().splitlines()[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--keep", type=Path, help="write the generated PDN here and keep it (reused if it exists)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        pdn = args.keep or Path(tmp) / "games.pdn"
        if not pdn.exists():
            began = time.perf_counter()
            generate(pdn, args.games, args.seed)
            print(f"generated {args.games} games in {time.perf_counter() - began:.1f} s", file=sys.stderr)
        size_mb = pdn.stat().st_size / 1e6
        seconds, cpu, peak_kib, last = run_import(pdn, Path(tmp) / "games.db")
    games = int(last.split()[0])
    print(f"{games} games ({size_mb:.1f} MB) imported in {seconds:.1f} s ({cpu:.1f} s CPU): "
          f"{games / seconds:.0f} games/s, peak memory {peak_kib / 1024:.0f} MB")


if __name__ == "__main__":
    main()
