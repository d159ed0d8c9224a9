#!/usr/bin/env python3
"""Matches of the computer against simple movers and level against level.

    python benchmarks/ai_match.py --games 100 --time 0.1
    python benchmarks/ai_match.py --families classic russian --opponents greedy --games 20
    python benchmarks/ai_match.py --levels-only --games 20

Families: classic, russian, american, international (two sides, colours
alternate game by game) and mw2 / mw4 (multiwarcaby with 2 or 4 players: the
computer takes each seat in turn, the others are all the opponent kind).
Opponents: `random` (a uniformly random legal move), `greedy` (the move that
captures most, ties at random). A game that reaches --max-plies is scored a
draw. Multiwarcaby with 4 players: a win is an unshared first place, a draw a
shared one, anything else a loss.

Progress goes to stderr one line per game; the tables go to stdout.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from damka.engine import Game, find_variant  # noqa: E402
from damka.engine.levels import LEVELS, Level, choose_move, find_level, make_searcher  # noqa: E402

FAMILIES = {
    "classic": ("classic", {}),
    "russian": ("russian", {}),
    "american": ("american", {}),
    "international": ("international", {}),
    "mw2": ("multiwarcaby", {"sides": 2}),
    "mw4": ("multiwarcaby", {"sides": 4}),
}
DEFAULT_MAX_PLIES = {"international": 400, "mw2": 400, "mw4": 600}


# -- players ----------------------------------------------------------------


class RandomPlayer:
    name = "random"

    def __init__(self, variant: Any, rng: random.Random) -> None:
        self.variant, self.rng = variant, rng

    def move(self, game: Game) -> Any:
        return self.rng.choice(game.legal_moves())


class GreedyPlayer(RandomPlayer):
    name = "greedy"

    def move(self, game: Game) -> Any:
        moves = game.legal_moves()
        most = max(len(m.captures) for m in moves)
        return self.rng.choice([m for m in moves if len(m.captures) == most])


class EnginePlayer:
    def __init__(self, variant: Any, rng: random.Random, level: Level, seconds: float | None,
                 depth: int | None) -> None:
        self.variant, self.rng, self.level = variant, rng, level
        self.seconds = seconds
        if depth is not None:
            self.level = Level(level.name, depth, level.time, level.noise, level.blunder_rate)
        self.searcher = make_searcher(variant)
        self.name = level.name
        self.nodes = 0
        self.thinking = 0.0
        self.moves = 0

    def move(self, game: Game) -> Any:
        start = time.monotonic()
        result = choose_move(
            self.variant, game.position, self.level,
            time_limit=self.seconds, now=time.monotonic if self.seconds else None,
            history=game.positions[:-1], rng=self.rng, searcher=self.searcher,
        )
        self.thinking += time.monotonic() - start
        self.nodes += result.nodes
        self.moves += 1
        return result.move


def make_player(kind: str, variant: Any, rng: random.Random, seconds: float | None, depth: int | None) -> Any:
    if kind == "random":
        return RandomPlayer(variant, rng)
    if kind == "greedy":
        return GreedyPlayer(variant, rng)
    return EnginePlayer(variant, rng, find_level(kind), seconds, depth)


# -- games ------------------------------------------------------------------


def _seconds(kind: str, task: "GameTask") -> float | None:
    if task.level_scale is not None and kind not in ("random", "greedy"):
        return find_level(kind).time * task.level_scale
    return task.seconds


@dataclass
class GameTask:
    family: str
    players: tuple[str, ...]  # one kind per seat (side index)
    hero: int  # the seat whose result is counted
    seed: int
    seconds: float | None
    depth: int | None
    max_plies: int
    level_scale: float | None = None  # each level thinks its own time times this


def play(task: GameTask) -> tuple[GameTask, str, int, str, float]:
    """Play one game; (task, 'W'/'D'/'L' for the hero, plies, reason, seconds)."""
    name, options = FAMILIES[task.family]
    variant = find_variant(name, **options)
    rng = random.Random(task.seed)
    players = [make_player(kind, variant, random.Random(rng.random()), _seconds(kind, task), task.depth)
               for kind in task.players]
    game = Game(variant)
    started = time.monotonic()
    while game.result is None and game.ply < task.max_plies:
        game.push_unchecked(players[game.turn].move(game))
    elapsed = time.monotonic() - started
    result = game.result
    if result is None:
        return task, "D", game.ply, "ply limit", elapsed
    places = result.places
    mine = places[task.hero]
    if mine == 1 and places.count(1) == 1:
        outcome = "W"
    elif mine == 1:
        outcome = "D"
    else:
        outcome = "L"
    return task, outcome, game.ply, result.reason, elapsed


def tasks_for(family: str, hero_kind: str, opponent: str, games: int, args: argparse.Namespace,
              seed: int, level_scale: float | None = None) -> list[GameTask]:
    name, options = FAMILIES[family]
    seats = len(find_variant(name, **options).sides)
    max_plies = args.max_plies or DEFAULT_MAX_PLIES.get(family, 300)
    tasks = []
    for index in range(games):
        hero = index % seats
        players = tuple(hero_kind if seat == hero else opponent for seat in range(seats))
        tasks.append(GameTask(family, players, hero, seed * 100_003 + index, args.time, args.depth, max_plies,
                              level_scale))
    return tasks


# -- tables -----------------------------------------------------------------


def table(title: str, rows: list[tuple[str, str, dict[str, int], float]]) -> str:
    lines = [title, "",
             "| family | opponent | games | wins | draws | losses | score % | s/game |",
             "|---|---|---|---|---|---|---|---|"]
    for family, opponent, tally, seconds in rows:
        n = sum(tally.values())
        score = 100 * (tally["W"] + 0.5 * tally["D"]) / n if n else 0.0
        lines.append(f"| {family} | {opponent} | {n} | {tally['W']} | {tally['D']} | {tally['L']} "
                     f"| {score:.1f} | {seconds / max(n, 1):.1f} |")
    return "\n".join(lines)


def run(groups: list[tuple[str, str, list[GameTask]]], jobs: int) -> list[tuple[str, str, dict[str, int], float]]:
    all_tasks = [(key, task) for key, _, tasks in groups for task in tasks]
    tallies = {key: {"W": 0, "D": 0, "L": 0} for key, _, _ in groups}
    seconds = {key: 0.0 for key, _, _ in groups}
    done = 0
    total = len(all_tasks)
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results = pool.map(play, [task for _, task in all_tasks])
            for (key, _), (task, outcome, plies, reason, elapsed) in zip(all_tasks, results):
                done += 1
                tallies[key][outcome] += 1
                seconds[key] += elapsed
                print(f"[{done}/{total}] {key}: seat {task.hero} {outcome} in {plies} plies ({reason}), "
                      f"{elapsed:.1f} s", file=sys.stderr, flush=True)
    else:
        for key, task in all_tasks:
            _, outcome, plies, reason, elapsed = play(task)
            done += 1
            tallies[key][outcome] += 1
            seconds[key] += elapsed
            print(f"[{done}/{total}] {key}: seat {task.hero} {outcome} in {plies} plies ({reason}), "
                  f"{elapsed:.1f} s", file=sys.stderr, flush=True)
    rows = []
    for key, opponent, _ in groups:
        rows.append((key.split("/")[0], opponent, tallies[key], seconds[key]))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--games", type=int, default=100, help="games per family and opponent (default 100)")
    parser.add_argument("--time", type=float, default=0.1, help="seconds per move for the computer (default 0.1)")
    parser.add_argument("--depth", type=int, default=None, help="fixed depth instead of a time limit")
    parser.add_argument("--families", nargs="+", default=list(FAMILIES), choices=list(FAMILIES))
    parser.add_argument("--opponents", nargs="+", default=["random", "greedy"], choices=["random", "greedy"])
    parser.add_argument("--level", default="master", help="the computer's level (default master: full strength)")
    parser.add_argument("--levels-only", action="store_true", help="only the level-against-level matches")
    parser.add_argument("--no-levels", action="store_true", help="skip the level-against-level matches")
    parser.add_argument("--level-family", default="classic", choices=list(FAMILIES),
                        help="family for the level matches (default classic)")
    parser.add_argument("--level-games", type=int, default=None, help="games per level pair (default --games)")
    parser.add_argument("--level-scale", type=float, default=0.1,
                        help="level matches: each level thinks its own time per move times this (default 0.1)")
    parser.add_argument("--max-plies", type=int, default=None, help="adjudicate a draw after this many plies")
    parser.add_argument("--jobs", type=int, default=1, help="games played in parallel processes (default 1)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.depth is not None:
        args.time = None

    started = time.monotonic()
    if not args.levels_only:
        groups = []
        for family in args.families:
            for opponent in args.opponents:
                key = f"{family}/{opponent}"
                groups.append((key, opponent, tasks_for(family, args.level, opponent, args.games, args, args.seed)))
        rows = run(groups, args.jobs)
        mode = f"depth {args.depth}" if args.depth else f"{args.time} s per move"
        print(table(f"Computer ({args.level}, {mode}) against simple movers", rows))
        print()
    if not args.no_levels:
        names = [level.name for level in LEVELS]
        pairs = list(zip(names, names[1:]))
        groups = []
        for weaker, stronger in pairs:
            key = f"{args.level_family}/{stronger}-vs-{weaker}"
            groups.append((key, f"{stronger} vs {weaker}",
                           tasks_for(args.level_family, stronger, weaker, args.level_games or args.games, args,
                                     args.seed + 7, args.level_scale)))
        rows = run(groups, args.jobs)
        mode = f"each level's own time x {args.level_scale:g}"
        print(table(f"Level against the level below ({args.level_family}, {mode}); results of the stronger", rows))
    print(f"\n{time.monotonic() - started:.0f} s in all", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
