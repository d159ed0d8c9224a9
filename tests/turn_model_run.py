"""Running model sequences (`turn_model.py`), and shrinking a failing one.

`run(config, actions, seed)` plays one sequence on a fresh store and raises
`Violation` at the first broken invariant (an exception inside the App is
one too). `shrink` deletes actions while the same invariant still breaks
(delta debugging: halves, then quarters, ... then single actions), so a
failure is reported as the shortest list it found, ready to paste into a
named test:

    run(Config("classic", mode="casual", time_control="5+3"), [("move", 3), ("takeback_button",), ...], seed=7)
"""

from __future__ import annotations

import os
import tempfile
import traceback
from pathlib import Path

from turn_model import AVOID, Config, Violation, World, draw_sequence, outside_programs
from turn_model_actions import act
from turn_model_checks import Checker


def scratch_dir() -> str | None:
    """Where the stores go: memory when the machine has it (a real SQLite file, no disk flushes)."""
    return "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None


def run(config: Config, actions: list[tuple], seed: int, *, store_every: bool = True,
        avoid: frozenset[str] = AVOID) -> int:
    """Play the sequence; the number of moves committed. Violation at the first broken invariant."""
    with (tempfile.TemporaryDirectory(prefix="damka-model-", dir=scratch_dir()) as folder,
          outside_programs(bool(config.carrying_out))):
        world = None
        step = -1
        try:
            world = World(config, seed, Path(folder) / "games.db", avoid)
            checker = Checker(store_every)
            for step, action in enumerate(actions):
                checker.start(world)
                act(world, action)
                checker.after(world, action)
            checker.store_matches(world)
            return len(world.session.committed) if world.session is not None else 0
        except Violation as violation:
            violation.step = step
            raise
        except Exception as error:  # noqa: BLE001 - the App failing is a finding like any other
            where = traceback.extract_tb(error.__traceback__)[-1]
            violation = Violation(f"crash {type(error).__name__}", f"{error} ({Path(where.filename).name}:"
                                                                    f"{where.lineno})")
            violation.step = step
            raise violation from error
        finally:
            if world is not None:
                world.close()


def failure(config: Config, actions: list[tuple], seed: int, store_every: bool = True,
            avoid: frozenset[str] = AVOID) -> Violation | None:
    try:
        run(config, actions, seed, store_every=store_every, avoid=avoid)
    except Violation as violation:
        return violation
    return None


def shrink(config: Config, actions: list[tuple], seed: int, name: str, budget: int = 400) -> list[tuple]:
    """The shortest sub-list of `actions` found that still breaks invariant `name` (ddmin)."""
    current = list(actions)
    chunks = 2
    tries = 0
    while len(current) >= 2 and tries < budget:
        size = max(1, len(current) // chunks)
        for start in range(0, len(current), size):
            candidate = current[:start] + current[start + size:]
            tries += 1
            found = failure(config, candidate, seed)
            if found is not None and found.name == name:
                current = candidate
                chunks = max(chunks - 1, 2)
                break
        else:
            if size == 1:
                break
            chunks = min(len(current), chunks * 2)
    return current


def explore(seeds: range, length: int, *, shrink_budget: int = 400, stats: dict[str, int] | None = None,
            **draw: object) -> list[str]:
    """Run a sequence per seed; one report per distinct invariant broken (shrunk).
    `stats` gets the moves committed and the actions run."""
    reports: dict[str, str] = {}
    stats = stats if stats is not None else {}
    stats.update(moves=0, actions=0)
    for count, seed in enumerate(seeds):
        if count and count % 2000 == 0:
            print(f"{count} sequences: {stats['moves']} moves, {len(reports)} invariants broken", flush=True)
        config, actions = draw_sequence(seed, length, **draw)
        stats["actions"] += len(actions)
        try:
            stats["moves"] += run(config, actions, seed)
            continue
        except Violation as violation:
            found = violation
        if found.name in reports:
            continue
        cut = actions[:found.step + 1] if found.step >= 0 else actions
        small = shrink(config, cut, seed, found.name, shrink_budget)
        again = failure(config, small, seed)
        reports[found.name] = (f"seed {seed}: {again or found}\n    run({config!r},\n        {small!r}, seed={seed})")
        print(reports[found.name], flush=True)   # (a long run shows what it found as it goes)
    return list(reports.values())
