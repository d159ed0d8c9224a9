"""A simulated board for tests and the load benchmark: recorded games through the real store and publisher.

Each game is a variant and a seed: the moves are chosen from the legal ones
by a seeded random generator, so a board restarted after a kill continues the
same games from what its store holds. The moves are written exactly as the
board's recorder writes them (`Store.record_plies`, one turn per transaction),
so the outbox and the publisher are the real ones.

    python3 -m damka.hall.simboard --store b1.sqlite --hall h --board b1 --port 1883 \
        --user b1 --password-env PW --games classic:1,multiwarcaby/sides=4:2 --delay 0.02
"""

from __future__ import annotations

import argparse
import os
import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from damka.controller.store.store import Store
from damka.engine.game import Game
from damka.engine.variant import Result
from damka.engine.variants import find_variant
from damka.hall.broker import BrokerSettings
from damka.hall.publisher import BoardPublisher

START_MS = 300_000


@dataclass(frozen=True)
class GameSpec:
    variant: str
    seed: int
    options: tuple[tuple[str, Any], ...] = ()
    max_plies: int = 40


def parse_specs(text: str, max_plies: int = 40) -> list[GameSpec]:
    """'classic:1,multiwarcaby/sides=4:2' -> specs (options after '/', seed after ':')."""
    specs = []
    for item in text.split(","):
        head, seed = item.rsplit(":", 1)
        name, *opts = head.split("/")
        options = tuple((k, int(v) if v.isdigit() else v) for k, v in (o.split("=") for o in opts))
        specs.append(GameSpec(name, int(seed), options, max_plies))
    return specs


def choose(game: Game, seed: int) -> Any:
    moves = game.legal_moves()
    return moves[random.Random(seed * 1_000_003 + game.ply).randrange(len(moves))]


def play(store: Store, specs: list[GameSpec], *, delay: float = 0.0,
         committed: Callable[[int, int], None] = lambda game, ply: None,
         stop: Callable[[], bool] = lambda: False, finish: bool = True) -> list[int]:
    """Play (or go on with) each game; the store's game ids. A game's tag `SimGame` says which spec it is.
    `finish=False`: a game stopped at `max_plies` stays open (a later call with more plies goes on with it)."""
    done = {tags.get("SimGame"): gid for gid, tags in _sim_games(store)}
    ids = []
    for index, spec in enumerate(specs):
        gid = done.get(str(index))
        variant = find_variant(spec.variant, **dict(spec.options))
        if gid is None:
            gid = store.new_game(variant, players=[f"P{index}-{s}" for s in range(len(variant.sides))],
                                 mode="tournament", time_control="5+0", clock_ms=[START_MS] * len(variant.sides),
                                 tags={"SimGame": str(index), "Round": "1"})
            stored = store.load_game(gid)
        else:
            stored = store.load_game(gid)
            if stored.is_finished:
                ids.append(gid)
                continue
        game = stored.game
        while not game.is_over and game.ply < spec.max_plies:
            if stop():
                return ids
            game.push(choose(game, spec.seed))
            clock = [START_MS - 700 * game.ply - 13 * side for side in range(len(variant.sides))]
            store.record_plies(gid, game, [game.ply], clock_ms=clock)
            committed(gid, game.ply)
            if delay:
                time.sleep(delay)
        if not finish and not game.is_over:
            ids.append(gid)
            continue
        n = len(variant.sides)
        result = game.result or Result(tuple(0.5 for _ in range(n)), tuple(1 for _ in range(n)), "adjudicated")
        store.finish(gid, result, clock_ms=[START_MS - 700 * game.ply] * n)
        ids.append(gid)
    return ids


def _sim_games(store: Store) -> list[tuple[int, dict[str, str]]]:
    return [(summary.id, store.load_game(summary.id).tags) for summary in store.list_games()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="damka.hall.simboard")
    parser.add_argument("--store", type=Path, required=True)
    parser.add_argument("--hall", required=True)
    parser.add_argument("--board", required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--user", default="")
    parser.add_argument("--password-env", default="", help="the environment variable holding the password")
    parser.add_argument("--games", required=True)
    parser.add_argument("--plies", type=int, default=40)
    parser.add_argument("--delay", type=float, default=0.0)
    parser.add_argument("--linger", type=float, default=30.0, help="seconds to keep sending after the last move")
    args = parser.parse_args(argv)
    settings = BrokerSettings(args.host, args.port, username=args.user,
                              password=os.environ.get(args.password_env, "") if args.password_env else "")
    store = Store(args.store)
    publisher = BoardPublisher(args.hall, args.board, settings, args.store)
    publisher.attach(store)
    publisher.start()
    play(store, parse_specs(args.games, args.plies), delay=args.delay)
    print("played", flush=True)
    end = time.monotonic() + args.linger
    while time.monotonic() < end and publisher.reader.pending():
        time.sleep(0.05)
    print("delivered" if not publisher.reader.pending() else "pending", flush=True)
    publisher.close()
    store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
