"""What the firmware's hot paths cost, next to the firmware before issue 21,
in one run: the main loop's poll (LEDs blinking), encoding and sending a
SNAPSHOT, and handling a LEDS frame (decode, precompute, chain write).

    python benchmarks/firmware_cost.py [--polls N] [--rounds R]

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


def frames(P) -> list[bytes]:
    """Two LEDS frames a game shows: pieces, a hint blinking, the last move, a flagged clock square."""
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
        out.append(P.pack_leds(200, palette, bytes(cells)))
    return out


def timed(step, n: int) -> float:
    """The mean time of one `step()` over `n` calls, in microseconds."""
    start = time.perf_counter()
    for _ in range(n):
        step()
    return (time.perf_counter() - start) / n * 1e6


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

    def poll() -> None:
        chip.us += 1000  # a ms between polls, as `run` sleeps
        board.poll()

    return {"poll (LEDs blinking)": (poll, 1), "snapshot encode + send": (board.send_snapshot, 2),
            "LEDS frame handled": (leds, 4)}


def measure(chip, polls: int, rounds: int) -> tuple[dict[str, float], dict[str, float]]:
    """Old and new, step by step in turns (the machine's load hits both alike); the best round of each."""
    old_ops = operations(ROOT / "benchmarks" / "firmware_baseline", chip, pieces_closed=False)
    new_ops = operations(ROOT / "firmware", chip, pieces_closed=True)
    old = {name: float("inf") for name in old_ops}
    new = dict(old)
    for _ in range(rounds):
        for name, (step, fewer) in old_ops.items():
            old[name] = min(old[name], timed(step, polls // fewer))
            new_step, _ = new_ops[name]
            new[name] = min(new[name], timed(new_step, polls // fewer))
    return old, new


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--polls", type=int, default=400, help="polls per round (fewer of the costlier steps)")
    parser.add_argument("--rounds", type=int, default=60,
                        help="rounds, old and new in turns; the best is kept (short rounds dodge a busy machine)")
    args = parser.parse_args(argv)
    with stubs.installed(str(ROOT / "firmware"), FLAT) as (_modules, _usb, chip):
        stubs.StateMachine.time = stubs.NeoPixel.time = None  # cost only, no simulated waiting
        chip.advance = lambda us, interrupts=True: None
        old, new = measure(chip, args.polls, args.rounds)
    print(f"{'operation':<26}{'old us':>10}{'new us':>10}{'old/new':>10}")
    for name in old:
        print(f"{name:<26}{old[name]:>10.1f}{new[name]:>10.1f}{old[name] / new[name]:>9.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
