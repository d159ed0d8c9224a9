"""How fast `damka import` stores a large PDN file, and how much memory it takes.

    python benchmarks/pdn_import.py                  # 10,000 games
    python benchmarks/pdn_import.py --games 1000 --keep /tmp/big.pdn
    python benchmarks/pdn_import.py --corpus [--report docs/pdn-corpus-report.md]

With --corpus it imports every file of the real corpus (../shared/pdn-corpus/,
tests/pdn_corpus.txt names each file's game) with `damka import`, one child
process per file into one new database, and prints the total time and the
largest peak memory; --report writes what each file stored and why each
refused record was refused.

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

from damka.controller.clock.pdn import format_clock
from damka.engine import Game
from damka.engine.variants import default_variant
from damka.controller.config.user_files import pdn_encoding, read_text_chunks
from damka.engine.pdn import iter_games, write_game

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


CORPUS_TARGET_CPU_S = 60   # the whole corpus (about 7,800 records), CPU time of every child together
CORPUS_TARGET_MB = 150     # the largest child's peak memory


def import_corpus(folder: Path, report: Path | None) -> None:
    """Every corpus file through `damka import`; prints the totals, writes the report."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from pdn_corpus import corpus_dir, corpus_files, variant_argument  # noqa: E402 (the tests' table)

    corpus = corpus_dir()
    if corpus is None:
        raise SystemExit("no ../shared/pdn-corpus beside the repository (or set DAMKA_SHARED)")
    rows, refusals = [], []
    total_s, stored_all, refused_all = 0.0, 0, 0
    for index, (name, variant) in enumerate(corpus_files().items()):
        db = folder / f"games{index}.db"  # one database a file: a file's count is not cut by another's
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "damka", "import", str(corpus / name), "--db", str(db),
                               *variant_argument(variant)], capture_output=True, text=True, check=False)
        total_s += time.perf_counter() - start
        games = [line.split(":")[1].split(",")[0].strip() for line in done.stdout.splitlines()
                 if line.startswith("game ")]
        reasons = [line.split(" is not stored: ", 1)[1] if " is not stored: " in line else line
                   for line in done.stderr.splitlines() if "warning:" not in line]
        reasons = [reason.removeprefix("damka import: error: ") for reason in reasons]
        if done.returncode == 2 and not games and "--variant" in done.stderr:  # a game Damka does not play
            records = sum(1 for _ in iter_games(read_text_chunks(corpus / name, encoding=pdn_encoding(corpus / name))))
            reasons = [f"all {records} records: {reasons[0]}"] + [""] * (records - 1)
        stored_all += len(games)
        refused_all += len(reasons)
        kinds = ", ".join(f"{games.count(kind)} {kind}" for kind in sorted(set(games))) or "none"
        rows.append(f"| {name} | {variant} | {len(games)} ({kinds}) | {len(reasons)} |")
        numbers = [line.split(", game ")[1].split(" ")[0] if ", game " in line else "all"
                   for line in done.stderr.splitlines() if "warning:" not in line]
        refusals += [f"- {name}{'' if number == 'all' else f', game {number}'}: {reason}"
                     for number, reason in zip(numbers, reasons) if reason]
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    peak_mb, cpu_s = usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime
    print(f"corpus: {stored_all} records stored, {refused_all} refused, in {total_s:.1f} s ({cpu_s:.1f} s CPU); "
          f"peak memory {peak_mb:.0f} MB (targets: {CORPUS_TARGET_CPU_S} s CPU, {CORPUS_TARGET_MB} MB)")
    if report is not None:
        report.write_text(
            "# The real PDN corpus through `damka import`\n\n"
            "Generated by `python benchmarks/pdn_import.py --corpus --report docs/pdn-corpus-report.md`; "
            "the game of each file from tests/pdn_corpus.txt (`detect`: the importer finds it).\n\n"
            f"{stored_all} records stored, {refused_all} refused.\n\n"
            "| file | read as | stored | refused |\n|---|---|---|---|\n" + "\n".join(rows) +
            "\n\n## Each refused record and its reason\n\n" + "\n".join(refusals) + "\n", encoding="utf-8")
    if cpu_s > CORPUS_TARGET_CPU_S or peak_mb > CORPUS_TARGET_MB:
        raise SystemExit("over target")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", action="store_true", help="import the real corpus (../shared/pdn-corpus)")
    parser.add_argument("--report", type=Path, help="with --corpus: write the per-file report here")
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--keep", type=Path, help="write the generated PDN here and keep it (reused if it exists)")
    args = parser.parse_args()
    if args.corpus:
        with tempfile.TemporaryDirectory() as tmp:
            import_corpus(Path(tmp), args.report)
        return
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
