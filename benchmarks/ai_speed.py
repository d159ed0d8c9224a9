#!/usr/bin/env python3
"""Speed of the computer's search: nodes per second and depth reached per move.

    python benchmarks/ai_speed.py                 # every table below, 1 s per position
    python benchmarks/ai_speed.py --time 0.5 --variants classic multiwarcaby:sides=4
    .venv-match/bin/python benchmarks/ai_speed.py --turbo   # with py-draughts' TurboEngine

Three tables, in one run:

1. Damka now, every variant: nodes/s and depth per position at `--time`.
2. Damka before against Damka now (`--before`, default classic and russian,
   plus international with `--turbo`): the search as it was before issue 26
   is kept in benchmarks/search_baseline/ (a copy, never edited) and both
   search the same positions to the same fixed depth (`--depth`). The two
   must give the same move, score and node count (the run stops if not), so
   the ratio of their times is the speed-up on the same tree. The strength
   work after it changed the tree on purpose, so "now" searches with the old
   evaluation and without the threat extension (`same_tree_searcher`).
3. Damka against TurboEngine (`--turbo`, needs py-draughts: a venv with
   `pip install -e .[match]`, see benchmarks/engine_match.py): 12
   international positions, `--time` each, nodes/s and depth side by side.
   TurboEngine counts a node per `_negamax` call and does not count its
   quiet leaves (`_qs_quiet`: a stand-pat score, no move list); Damka counts
   every position it looks at, leaves included. So TurboEngine's nodes are
   also counted with its leaves, in a second untimed search of the same
   position to the depth it reached, and the table shows both.

Benchmark positions per variant: the start, and positions after 10, 25 and
40 plies of a seeded random game (the same on every run and machine), so the
numbers compare between machines (a PC against the Pi) and between versions.
A node is one position searched (draughts) or one position expanded
(multiwarcaby: every child of an expanded node is generated and scored, so
a node there is worth a whole move generation). The machine may be shared:
compare the ratios of one run, not absolute numbers between runs. Tables 2
and 3 divide by the CPU time each search used (`time.process_time`), not
the wall time, so another program's load on the machine counts for neither;
the searches still stop on the wall clock, as in a game.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for folder in (ROOT, ROOT / "benchmarks"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from damka.engine import Game, find_variant  # noqa: E402
from damka.engine.levels import make_searcher  # noqa: E402
from damka.engine.search import Searcher  # noqa: E402
from search_baseline.evaluate import DraughtsEvaluator as BaselineEvaluator  # noqa: E402
from search_baseline.search import Searcher as BaselineSearcher  # noqa: E402

DEFAULT_VARIANTS = ["classic", "russian", "american", "international", "canadian", "classic81",
                    "multiwarcaby", "multiwarcaby:sides=4", "multiwarcaby7"]
PLIES = (0, 10, 25, 40)
TURBO_POSITIONS = 12


def parse_spec(spec: str) -> Any:
    name, _, text = spec.partition(":")
    options: dict[str, Any] = {}
    for item in filter(None, text.split(",")):
        key, _, value = item.partition("=")
        options[key] = True if value == "True" else int(value)
    return find_variant(name, **options)


def benchmark_positions(variant: Any, seed: int, plies: tuple[int, ...] = PLIES) -> list[tuple[int, Any]]:
    """(ply, position) after those plies of a seeded random game (positions with one legal move skipped)."""
    rng = random.Random(seed)
    game = Game(variant)
    positions = []
    for ply in range(max(plies) + 1):
        if ply in plies and len(game.legal_moves()) > 1:
            positions.append((ply, game.position))
        moves = game.legal_moves()
        if not moves:
            break
        game.push_unchecked(rng.choice(moves))
    return positions


def many_positions(variant: Any, count: int) -> list[tuple[str, Any]]:
    """`count` distinct positions: the start, then plies 10, 25 and 40 of seeded games 1, 2, 3..."""
    found: list[tuple[str, Any]] = []
    seen = set()
    seed = 1
    while len(found) < count:
        for ply, position in benchmark_positions(variant, seed):
            if position not in seen and len(found) < count:
                seen.add(position)
                found.append((f"{seed}/{ply}", position))
        seed += 1
    return found


def speed_table(specs: list[str], seconds: float, seed: int) -> None:
    print(f"Search speed, {seconds:g} s per position\n")
    print("| variant | ply | legal moves | depth | nodes | nodes/s | seconds |")
    print("|---|---|---|---|---|---|---|")
    for spec in specs:
        variant = parse_spec(spec)
        total_nodes = total_time = 0.0
        depths = []
        for ply, position in benchmark_positions(variant, seed):
            searcher = make_searcher(variant)  # a cold table: every position alike
            started = time.monotonic()
            result = searcher.search(position, time_limit=seconds, now=time.monotonic)
            spent = time.monotonic() - started
            rate = result.nodes / spent if spent else 0.0
            total_nodes += result.nodes
            total_time += spent
            depths.append(result.depth)
            print(f"| {spec} | {ply} | {len(variant.legal_moves(position))} | {result.depth} | {result.nodes} "
                  f"| {rate:,.0f} | {spent:.2f} |", flush=True)
        if depths:
            print(f"| **{spec}** | all | | {min(depths)}-{max(depths)} | {int(total_nodes)} "
                  f"| {total_nodes / total_time:,.0f} | {total_time:.2f} |", flush=True)
    print()


def same_tree_searcher(variant: Any) -> Searcher:
    """Today's search over the tree the search before issue 26 walked: the old
    evaluation, no threat extension and no forward pruning (changed later, for strength)."""
    return Searcher(variant, BaselineEvaluator(variant), threat_extension=False, forward_pruning=False)


def before_after_table(specs: list[str], depth: int, seed: int) -> None:
    print(f"Damka before (benchmarks/search_baseline) and now, the same positions to depth {depth}\n")
    print("| variant | positions | nodes (both) | before CPU s | now CPU s | before nodes/s | now nodes/s | speed-up |")
    print("|---|---|---|---|---|---|---|---|")
    for spec in specs:
        variant = parse_spec(spec)
        nodes = 0
        spent = {"before": 0.0, "now": 0.0}
        positions = benchmark_positions(variant, seed)
        for index, position in enumerate(position for _, position in positions):
            results = {}
            runs = [("before", BaselineSearcher), ("now", same_tree_searcher)]
            # Alternate which runs first, so neither gains from a warmer machine.
            for label, make in runs if index % 2 == 0 else runs[::-1]:
                started = time.process_time()
                results[label] = make(variant).search(position, max_depth=depth)
                spent[label] += time.process_time() - started
            old, new = results["before"], results["now"]
            if (old.move, old.score, old.nodes) != (new.move, new.score, new.nodes):
                raise SystemExit(f"ai_speed: {spec}: the searches differ: before {old.move} {old.score} "
                                 f"{old.nodes} nodes, now {new.move} {new.score} {new.nodes} nodes")
            nodes += new.nodes
        print(f"| {spec} | {len(positions)} | {nodes} | {spent['before']:.2f} | {spent['now']:.2f} "
              f"| {nodes / spent['before']:,.0f} | {nodes / spent['now']:,.0f} "
              f"| {spent['before'] / spent['now']:.2f}x |", flush=True)
    print()


def turbo_table(seconds: float) -> None:
    try:
        import draughts
        from draughts.engines.turbo import TurboEngine
    except ImportError:
        raise SystemExit("ai_speed: --turbo needs py-draughts (a venv with `pip install -e .[match]`)") from None

    class LeafCountingTurbo(TurboEngine):  # type: ignore[misc]
        """TurboEngine that also counts its quiet leaves (only for the untimed count)."""

        leaves = 0

        def _qs_quiet(self, *args: Any, **kwargs: Any) -> int:
            self.leaves += 1
            return super()._qs_quiet(*args, **kwargs)

    variant = find_variant("international")
    print(f"Damka and TurboEngine, international, {seconds:g} s per position\n")
    print("| position | Damka depth | Damka nodes/s | Turbo depth | Turbo nodes/s (its count) "
          "| Turbo nodes/s (with leaves) | Damka / Turbo (its count) | Damka / Turbo (with leaves) |")
    print("|---|---|---|---|---|---|---|---|")
    totals = {"damka": 0, "turbo": 0, "turbo_all": 0, "damka_s": 0.0, "turbo_s": 0.0}
    depths: dict[str, list[int]] = {"damka": [], "turbo": []}
    for name, position in many_positions(variant, TURBO_POSITIONS):
        started = time.process_time()
        result = Searcher(variant).search(position, time_limit=seconds, now=time.monotonic)
        damka_s = time.process_time() - started

        board = draughts.StandardBoard.from_fen(variant.format_position(position))
        engine = TurboEngine(depth_limit=64, time_limit=seconds)
        started = time.process_time()
        engine.get_best_move(board)
        turbo_s = time.process_time() - started
        counted = LeafCountingTurbo(depth_limit=max(1, engine.completed_depth))
        counted.get_best_move(draughts.StandardBoard.from_fen(variant.format_position(position)))
        # The same share of leaves as in the search to the depth it completed.
        share = (counted.nodes + counted.leaves) / counted.nodes if counted.nodes else 1.0
        turbo_all = int(engine.nodes * share)

        damka_rate, turbo_rate, turbo_all_rate = result.nodes / damka_s, engine.nodes / turbo_s, turbo_all / turbo_s
        print(f"| {name} | {result.depth} | {damka_rate:,.0f} | {engine.completed_depth} | {turbo_rate:,.0f} "
              f"| {turbo_all_rate:,.0f} | {damka_rate / turbo_rate:.2f} | {damka_rate / turbo_all_rate:.2f} |",
              flush=True)
        totals["damka"] += result.nodes
        totals["turbo"] += engine.nodes
        totals["turbo_all"] += turbo_all
        totals["damka_s"] += damka_s
        totals["turbo_s"] += turbo_s
        depths["damka"].append(result.depth)
        depths["turbo"].append(engine.completed_depth)
    damka_rate = totals["damka"] / totals["damka_s"]
    turbo_rate = totals["turbo"] / totals["turbo_s"]
    turbo_all_rate = totals["turbo_all"] / totals["turbo_s"]
    mean = {key: sum(values) / len(values) for key, values in depths.items()}
    print(f"| **all {TURBO_POSITIONS}** | {mean['damka']:.1f} | {damka_rate:,.0f} | {mean['turbo']:.1f} "
          f"| {turbo_rate:,.0f} | {turbo_all_rate:,.0f} | {damka_rate / turbo_rate:.2f} "
          f"| {damka_rate / turbo_all_rate:.2f} |", flush=True)
    print()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--time", type=float, default=1.0, help="seconds per position (default 1)")
    parser.add_argument("--variants", nargs="*", default=DEFAULT_VARIANTS,
                        help="variant specs for table 1, name[:option=value,...] (default: all; the option with no names skips table 1)")
    parser.add_argument("--before", nargs="*", default=None,
                        help="variants for table 2 (default classic russian, and international with --turbo)")
    parser.add_argument("--depth", type=int, default=6, help="fixed depth of table 2 (default 6)")
    parser.add_argument("--turbo", action="store_true", help="table 3: against py-draughts' TurboEngine")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    before = args.before if args.before is not None else (
        ["classic", "russian"] + (["international"] if args.turbo else []))
    if args.variants:
        speed_table(args.variants, args.time, args.seed)
    if before:
        before_after_table(before, args.depth, args.seed)
    if args.turbo:
        turbo_table(args.time)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
