"""What the cues cost the board loop: a seeded 4-player multiwarcaby game
played through the App on the virtual board, timed per input (App.handle and
App.tick: what the board loop calls), without cues, and with the cue listener
and voice on and a sink whose player is stuck (as a slow speaker or
espeak-ng would be): the loop must not notice.

    python benchmarks/cue_overhead.py [--games 3]
"""

from __future__ import annotations

import argparse
import random
import statistics
import threading
import time

from damka.controller.app import App
from damka.controller.cues.sinks import ThreadedSink
from damka.controller.cues.listener import CueListener, CueSettings
from damka.controller.game.setup import GameSetup
from damka.controller.board.board_map import BoardMap
from damka.controller.board.tracker import Kind
from damka.sim.virtual_board import VirtualBoard, carry_out


class Timed:
    """Wraps the app: every handle/tick the virtual board makes is timed."""

    def __init__(self, app: App) -> None:
        self.app, self.times = app, []

    def handle(self, event) -> None:
        t0 = time.perf_counter()
        self.app.handle(event)
        self.times.append(time.perf_counter() - t0)

    def tick(self, now: int) -> None:
        t0 = time.perf_counter()
        self.app.tick(now)
        self.times.append(time.perf_counter() - t0)

    def next_deadline(self):
        return self.app.next_deadline()

    @property
    def frame(self):
        return self.app.frame


def turn(app: App, rng: random.Random):
    variant, game = app.session.variant, app.session.game
    for _ in range(50):
        first = rng.choice(variant.legal_moves(game.position))
        middle = variant.play(game.position, first)
        seconds = variant.legal_moves(middle)
        if not seconds:
            continue
        second = rng.choice(seconds)
        after = variant.occupancy(variant.play(middle, second))
        if app.session.tracker.read(game, after).kind is not Kind.HALF_TURN and \
                after != variant.occupancy(game.position):
            return first, second
    raise RuntimeError("no turn")


def play(seed: int, cues: bool) -> tuple[list[float], int]:
    app = App(setup=GameSetup("multiwarcaby", sides=4, time_control="casual"), start_game=True, seed=seed)
    gate = threading.Event()
    sink = None
    if cues:
        sink = ThreadedSink(lambda item: gate.wait(60), maxsize=16)
        CueListener.attach(app, [sink], CueSettings(voice=True))
    game = app.session.game
    board = VirtualBoard(BoardMap(game.variant).names(game.variant.occupancy(game.position)))
    timed = Timed(app)
    board.connect(timed)
    board.advance(1000)
    rng = random.Random(seed)
    name = app.session.variant.geometry.name
    while app.session.result is None:
        side = app.session.game.turn
        for move in turn(app, rng):
            carry_out(board, name(move.start), [name(s) for s in move.path], [name(s) for s in move.captures])
            board.advance(300)
        board.press(side)
        board.advance(200)
    told = 0
    if sink is not None:
        told = sink.dropped + 1 + sink._queue.qsize()
        gate.set()
        sink.close()
    return timed.times, told


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    print(f"{'':22} {'inputs':>7} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'announcements':>14}")
    for cues in (False, True):
        times, told = [], 0
        for seed in range(args.games):
            t, n = play(seed, cues)
            times += t
            told += n
        ms = sorted(x * 1000 for x in times)
        label = "cues + voice, stuck" if cues else "no cues"
        print(f"{label:22} {len(ms):>7} {statistics.median(ms):>8.3f} {ms[int(len(ms) * 0.99)]:>8.3f} "
              f"{ms[-1]:>8.3f} {told if cues else '-':>14}")


if __name__ == "__main__":
    main()
