"""What the firmware's hot paths cost, next to the firmware before issue 21,
in one run: the main loop's poll (LEDs blinking), encoding and sending a
SNAPSHOT, and handling a LEDS frame (decode, precompute, chain write). Also
what MicroPython would allocate per call (micropython_stubs.AllocationWatch:
tuples, lists, bytes(), slices, big ints...): each allocation is garbage that
slows every later one until a collection (issue 37).

    python benchmarks/firmware_cost.py [--polls N] [--rounds R] [--baseline DIR]

Both boards are built by their own `main.build()` on the same stub MicroPython
modules (tests/micropython_stubs.py: the pins are one GPIO word, as on the
RP2040), the old one from benchmarks/firmware_baseline/ (the files of commit
676facf, never edited). CPython times, so the ratio is what to read: on the
Pico each Python-level call costs far more, pin reads and per-pixel calls
included, so the ratios there are of the same kind.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import micropython_stubs as stubs  # noqa: E402

FLAT = ("main", "device", "scan", "lights", "protocol", "encoder", "chain", "fw_version")
PIECES = [(r, c) for r in range(9) for c in range(9) if (r + c) % 2 == 0][:24]


def build(folder: Path):
    """A board from `folder`'s main.build(), with its own flat modules."""
    for name in FLAT:
        sys.modules.pop(name, None)
    sys.path.insert(0, str(folder))
    try:
        main = importlib.import_module("main")
        board = main.build()
        return main, board, sys.modules["protocol"]
    finally:
        sys.path.remove(str(folder))


class NullTransport:
    def read(self) -> bytes:
        return b""

    def write(self, data: bytes) -> None:
        pass


def frames(P, brightness=(200, 200)) -> list[bytes]:
    """Two LEDS frames a game shows: pieces, a hint blinking, the last move, a flagged clock square
    (the same palette, as a game's frames have, unless the brightness differs)."""
    out = []
    for shift in (0, 1):
        cells = bytearray(81)
        for i, (r, c) in enumerate(PIECES):
            cells[r * 9 + c] = 1 if i % 2 else 2
        cells[(40 + shift) % 81] = 3
        cells[(50 + shift) % 81] = 4
        cells[(60 + shift) % 81] = 5
        palette = [(40, 40, 40, P.STEADY), (0, 60, 0, P.STEADY), (255, 200, 0, P.BLINK_FAST),
                   (0, 0, 255, P.BLINK_SLOW), (255, 0, 0, P.DOUBLE)]
        out.append(P.pack_leds(brightness[shift], palette, bytes(cells)))
    return out


def timed(step, calls: int) -> list[float]:
    """How long each of `calls` calls of `step()` took, in microseconds."""
    clock = time.perf_counter
    out = []
    for _ in range(calls):
        start = clock()
        step()
        out.append((clock() - start) * 1e6)
    return out


def operations(folder: Path, chip, pieces_closed: bool) -> dict:
    """The three measured steps of a board built from `folder`."""
    main, board, P = build(folder)
    board.transport = NullTransport()
    if not pieces_closed:
        for r, c in PIECES:
            chip.gpio.close(main.ROW_PINS[r], main.COL_PINS[c])
    board.start()
    bodies = frames(P)
    seq = [0]

    def leds() -> None:
        seq[0] += 1
        board.handle(P.LEDS, seq[0] & 0xFF, bodies[seq[0] & 1])
        board.leds_seq = None  # the next one is always taken, whatever its seq

    leds()
    other = frames(P, brightness=(200, 199))

    def leds_new_palette() -> None:
        seq[0] += 1
        board.handle(P.LEDS, seq[0] & 0xFF, other[seq[0] & 1])
        board.leds_seq = None

    def poll() -> None:
        chip.us += 1000  # a ms between polls, as `run` sleeps
        board.poll()

    return {"poll (LEDs blinking)": poll, "snapshot encode + send": board.send_snapshot,
            "LEDS frame handled": leds, "  (its palette new)": leds_new_palette}


def allocations(folder: Path, ops: dict, calls: dict[str, int]) -> dict[str, float]:
    """MicroPython allocations per call of each operation, by the opcode watch over `folder`'s code."""
    out = {}
    for name, op in ops.items():
        with stubs.AllocationWatch(folder) as watch:
            for _ in range(calls[name]):
                op()
        out[name] = watch.count / calls[name]
    return out


def measure(polls: int, rounds: int, chip, baseline: Path) -> tuple[dict[str, float], dict[str, float], dict, dict]:
    """Old and new in turns, call by call: each call's best time over the
    rounds (the i-th poll of every round is at the same device time, so a
    blink edge is compared with a blink edge), then their mean. A call the
    busy machine interrupted in one round is timed again in the next."""
    folders = {"old": baseline, "new": ROOT / "firmware"}
    boards = {"old": operations(folders["old"], chip, pieces_closed=False),
              "new": operations(folders["new"], chip, pieces_closed=True)}
    calls = {"poll (LEDs blinking)": polls, "snapshot encode + send": 40, "LEDS frame handled": 40,
             "  (its palette new)": 40}
    best = {side: {name: [float("inf")] * n for name, n in calls.items()} for side in boards}
    for _ in range(rounds):
        for name, n in calls.items():
            for side, ops in boards.items():
                if name.startswith("poll"):  # every round from a whole second: the same blink edges
                    chip.us = (chip.us // 1_000_000 + 1) * 1_000_000
                for i, t in enumerate(timed(ops[name], n)):
                    best[side][name][i] = min(best[side][name][i], t)
    mean = {side: {name: sum(times) / len(times) for name, times in table.items()} for side, table in best.items()}
    allocs = {}
    for side, ops in boards.items():
        chip.us = (chip.us // 1_000_000 + 1) * 1_000_000
        allocs[side] = allocations(folders[side], ops, calls)
    return mean["old"], mean["new"], allocs["old"], allocs["new"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--polls", type=int, default=1000, help="polls per round, a ms of device time apart "
                                                                "(1000: one whole blink cycle)")
    parser.add_argument("--rounds", type=int, default=30, help="rounds, old and new in turns")
    parser.add_argument("--baseline", type=Path, default=ROOT / "benchmarks" / "firmware_baseline",
                        help="the old firmware's files (default: benchmarks/firmware_baseline, commit 676facf)")
    args = parser.parse_args(argv)
    with stubs.installed(str(ROOT / "firmware"), FLAT) as (_modules, _usb, chip):
        stubs.StateMachine.time = stubs.NeoPixel.time = None  # cost only, no simulated waiting
        chip.advance = lambda us, interrupts=True: None
        old, new, old_allocs, new_allocs = measure(args.polls, args.rounds, chip, args.baseline)
    print(f"{'operation':<26}{'old us':>10}{'new us':>10}{'old/new':>10}{'MicroPython allocations/call':>30}")
    for name in old:
        print(f"{name:<26}{old[name]:>10.1f}{new[name]:>10.1f}{old[name] / new[name]:>9.1f}x"
              f"{old_allocs[name]:>16.2f} -> {new_allocs[name]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
