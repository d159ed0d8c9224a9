"""How long the controller takes to turn the snapshot that completes a move
into the committed move and the new LED frame.

Whole seeded random games of every variant are played by a virtual hand on
the headless virtual board (captured pieces removed before, during or after
the move, chains with and without touch-downs), multiwarcaby on the 9x9 board
with 2 and 4 players (76 pieces, long chains, two moves a turn, the side's
button ends the turn). For every committed move we add the CPU time of
processing the last sensor snapshot of the move (tracker + hints) and of the
call that commits it (the settle tick, or the button press) including the new
LED frame. The settle time itself (a setting, 300 ms by default) is waiting,
not work, and is not counted.

    python benchmarks/tracker_latency.py                  # every variant
    python benchmarks/tracker_latency.py --variants classic multiwarcaby:4 --games 5

Prints p50/p99/max in milliseconds per variant, and the same for every
snapshot (lifts included, where a new position's moves are first indexed).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from typing import Any

from damka.controller.session import Mode, Session, SessionSettings
from damka.controller.board.tracker import Kind
from damka.engine import find_variant
from damka.hardware.interfaces import Snapshot
from damka.sim.virtual_board import VirtualBoard, carry_out

DEFAULT_VARIANTS = ("classic", "classic81", "russian", "american", "international", "canadian",
                    "multiwarcaby7", "multiwarcaby:2", "multiwarcaby:4")


class TimedSession:
    """Stands between the virtual board and the session and times every call."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.calls: list[tuple[str, int, int]] = []  # (kind, cpu ns, committed count after)

    def _timed(self, kind: str, call: Any, *args: Any) -> None:
        start = time.process_time_ns()
        call(*args)
        frame = self.session.frame  # the LED frame is ready when the call returns
        elapsed = time.process_time_ns() - start
        del frame
        self.calls.append((kind, elapsed, len(self.session.committed)))

    def handle(self, event: Any) -> None:
        self._timed("snapshot" if isinstance(event, Snapshot) else "press", self.session.handle, event)

    def tick(self, now_ms: int) -> None:
        self._timed("tick", self.session.tick, now_ms)

    def next_deadline(self) -> int | None:
        return self.session.next_deadline()

    @property
    def frame(self) -> Any:
        return self.session.frame


def parse_variant(text: str):
    name, _, sides = text.partition(":")
    return find_variant(name, sides=int(sides)) if sides else find_variant(name)


def play(text: str, seed: int, max_plies: int, mode: Mode) -> TimedSession:
    variant = parse_variant(text)
    geometry = variant.geometry
    rng = random.Random(seed)
    session = Session(variant, SessionSettings(mode=mode))
    timed = TimedSession(session)
    board = VirtualBoard(geometry.names_of(variant.occupancy(variant.start_position())),
                         files=max(9, geometry.width), ranks=max(9, geometry.height))
    board.connect(timed)
    tracker = session.tracker
    name = geometry.name
    while session.game.ply < max_plies and not session.game.is_over:
        side = session.game.turn
        position = session.game.position
        turn = []
        for _ in range(20):  # multiwarcaby: a turn that is not also a single move
            turn, middle = [], position
            for _ in range(variant.moves_per_turn):
                legal = variant.legal_moves(middle)
                if not legal:
                    break
                move = rng.choice(legal)
                turn.append(move)
                middle = variant.play(middle, move)
            if variant.moves_per_turn == 1 or (len(turn) == 2 and tracker.read(
                    session.game, variant.occupancy(middle)).kind is not Kind.HALF_TURN):
                break
        for move in turn:
            carry_out(board, name(move.start), [name(sq) for sq in move.path],
                      [name(sq) for sq in sorted(move.captures)], remove=rng.choice(("before", "during", "after")),
                      touch_down=rng.random() < 0.6)
            board.advance(rng.choice((100, 400)))
        if variant.moves_per_turn > 1 or mode is Mode.TOURNAMENT:
            board.press(side)
        board.advance(2000)
        if session.game.position != middle:
            raise RuntimeError(f"{text}: the session did not read the turn {turn} ({session.message})")
    return timed


def commit_latencies(timed: TimedSession) -> list[float]:
    """Per commit: the last snapshot before it plus the committing call, in ms."""
    out = []
    last_snapshot = 0
    committed = 0
    for kind, ns, count in timed.calls:
        if count > committed:
            out.append((ns + (last_snapshot if kind != "snapshot" else 0)) / 1e6)
            committed = count
        elif count < committed:
            committed = count
        if kind == "snapshot":
            last_snapshot = ns
    return out


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="\n\n".join(__doc__.split("\n\n")[1:]))
    parser.add_argument("--variants", nargs="+", default=list(DEFAULT_VARIANTS), metavar="NAME[:SIDES]",
                        help="variants to play (multiwarcaby:4 for four players); default: all")
    parser.add_argument("--games", type=int, default=3, help="games per variant (default 3)")
    parser.add_argument("--plies", type=int, default=200, help="at most this many plies a game (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="first random seed (default 1)")
    parser.add_argument("--mode", choices=[m.value for m in Mode if m is not Mode.COMPUTER], default="casual",
                        help="session mode (default casual)")
    args = parser.parse_args(argv)
    print(f"{'variant':<16}{'moves':>7}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}   "
          f"{'snapshots':>9}{'p99 ms':>9}{'max ms':>9}")
    worst = 0.0
    for text in args.variants:
        commits: list[float] = []
        every: list[float] = []
        for game in range(args.games):
            timed = play(text, args.seed + game, args.plies, Mode(args.mode))
            commits += commit_latencies(timed)
            every += [ns / 1e6 for kind, ns, _ in timed.calls if kind == "snapshot"]
        if not commits:
            print(f"{text:<16} no moves")
            continue
        p99 = percentile(commits, 99)
        worst = max(worst, p99)
        print(f"{text:<16}{len(commits):>7}{statistics.median(commits):>9.2f}{p99:>9.2f}{max(commits):>9.2f}   "
              f"{len(every):>9}{percentile(every, 99):>9.2f}{max(every):>9.2f}")
    print(f"worst p99 of a committing snapshot: {worst:.2f} ms (target < 5 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
