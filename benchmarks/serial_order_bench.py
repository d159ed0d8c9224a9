"""Frames out of order over a pty: what the host makes of a firmware restart on
the open port and of frames dropped, repeated late or delayed on the way
(hardware/pty_device.FrameFaults). Prints the presses the host counted against
the real ones, the snapshots that went back in time, and the `lost` statistic
against the frames really dropped.

    python benchmarks/serial_order_bench.py [--steps N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import sys
import time

BUTTONS = {"clock0": 0, "clock1": 1}


def press(board, index: int) -> None:
    board.buttons.pins[index].down = True
    time.sleep(0.025)
    board.buttons.pins[index].down = False
    time.sleep(0.025)


def drain(link, seconds: float) -> list:
    got, end = [], time.monotonic() + seconds
    while time.monotonic() < end:
        got += link.presses()
        time.sleep(0.01)
    return got


def restart(presses_before: int) -> None:
    from damka.hardware.pty_device import PtyBoard
    from damka.hardware.serial_link import SerialLink

    with PtyBoard() as board:
        link = SerialLink(board.port, buttons=BUTTONS).start()
        try:
            link.wait_synced(3)
            for _ in range(presses_before):
                press(board, 0)
            counted = len(drain(link, 0.4))
            board.reset()
            phantom = len(drain(link, 0.6))
            press(board, 1)
            after = len(drain(link, 0.4))
        finally:
            link.close()
    print(f"firmware restart on the open port after {presses_before} presses: {counted} counted before, "
          f"{phantom} phantom presses after the restart, {after}/1 real press after it counted")


def faults(name: str, steps: int, seed: int, **kinds: float) -> None:
    from damka.hardware.layout import Layout
    from damka.hardware.pty_device import FrameFaults, PtyBoard
    from damka.hardware.serial_link import SerialLink

    layout = Layout()
    received = []
    with PtyBoard(seed=seed) as board:
        link = SerialLink(board.port, buttons=BUTTONS, on_snapshot=received.append).start()
        try:
            link.wait_synced(3)
            fault = board.transport.faults = FrameFaults(random.Random(seed), **kinds)
            occupied: set[tuple[int, int]] = set()
            counted = []
            for step in range(steps):
                cell = (step // 9 % 9, step % 9)
                occupied ^= {cell}  # pieces on in the first pass, off in the second, ...
                board.matrix.set(occupied)
                if step % 3 == 0:
                    press(board, step % 2)
                time.sleep(0.01)
                counted += link.presses()
            board.transport.flush_faults()
            counted += drain(link, 0.8)
        finally:
            link.close()
    real = sum(board.device.buttons.counts[:2])
    # Every state differs (pieces on in one pass, off in the next): a snapshot whose
    # state came before one already shown went back in time.
    order = {layout.occupied(state): i for i, state in enumerate(board.truth)}
    stale, newest = 0, -1
    for snap in received:
        index = order[snap.occupied]
        stale += index < newest
        newest = max(newest, index)
    stats = link.stats
    print(f"{name}: {fault.frames} frames, {fault.dropped} dropped, {fault.late} late (repeated {fault.repeated}, "
          f"delayed {fault.delayed}); presses counted {len(counted)} for {real} real; "
          f"stale snapshots {stale} of {len(received)}; lost statistic {stats.lost} "
          f"(really dropped {fault.dropped}); stale statistic {getattr(stats, 'stale', 'n/a')}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=160,
                        help="board changes per run, at most 162 so no state repeats (default 160)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if not 0 < args.steps <= 162:
        parser.error(f"--steps {args.steps}: give 1 to 162 (the board states must all differ)")
    if sys.platform == "win32":
        print("ptys are POSIX only")
        return 0
    restart(3)
    faults("5 % repeated late", args.steps, args.seed, repeat=0.05)
    faults("5 % dropped, 5 % repeated, 5 % delayed", args.steps, args.seed, drop=0.05, repeat=0.05, delay=0.05)
    return 0


if __name__ == "__main__":
    sys.exit(main())
