"""`damka doctor`: check the board's hardware by hand.

Shows which backend the config chooses, measures the scan rate, prints a live
map of occupied squares, runs an LED test pattern and shows button presses.
With `--mock` the hardware is simulated (a MockFactory matrix, or the
firmware on a pty for the serial backend) and pieces move by themselves, so
it runs anywhere, tests included.
"""

from __future__ import annotations

import argparse
import random
import time

from damka.hardware.config import load_config, parse_config
from damka.hardware.interfaces import Role, Snapshot
from damka.hardware.layout import Layout


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("doctor", help="check the board's hardware: scan rate, squares, LEDs, buttons",
                                   description=__doc__.split("\n\n")[1])
    parser.add_argument("--config", metavar="FILE", help="board configuration (TOML; default: the built-in sim board)")
    parser.add_argument("--seconds", type=float, default=10.0, metavar="N",
                        help="how long to watch the squares and buttons (default 10)")
    parser.add_argument("--mock", action="store_true",
                        help="simulate the hardware of the configured backend; pieces move by themselves")
    parser.add_argument("--backend", choices=("sim", "gpio", "serial"), help="override [board] backend")
    parser.set_defaults(func=run)


def board_map(snapshot: Snapshot, layout: Layout, ghosts: frozenset[str] = frozenset()) -> str:
    """The board as text, rank 9 at the top: X occupied, ? possible ghost, . empty, blank off-board."""
    lines = []
    for rank in range(layout.ranks - 1, -1, -1):
        cells = []
        for f in range(layout.files):
            name = "abcdefghijklmnop"[f] + str(rank + 1)
            if name not in layout.squares:
                cells.append(" ")
            elif name in ghosts:
                cells.append("?")
            else:
                cells.append("X" if name in snapshot.occupied else ".")
        lines.append(f"{rank + 1:>2} {' '.join(cells)}")
    lines.append("   " + " ".join("abcdefghijklmnop"[:layout.files]))
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from damka.hardware.backends import open_board

    if args.config:
        config = load_config(args.config, backend=args.backend)
    else:
        config = parse_config({}, "<built-in sim board>", backend=args.backend)
    layout = config.layout()
    out = print
    out(f"config: {config.source}")
    with open_board(config, mock=args.mock) as board:
        out(f"backend: {board.description}")
        out(f"orientation: rotation {config.rotation}, mirror {'yes' if config.mirror else 'no'}"
            + (f", sub-board {config.sub_board}" if config.sub_board else ""))
        _scan_rate(board, out)
        _led_test(board, layout, out)
        _watch(board, layout, args.seconds, out)
    return 0


def _scan_rate(board, out) -> None:
    sensor = board.sensor
    if hasattr(sensor, "scans"):  # the GPIO matrix scans on its own thread
        before, t0 = sensor.scans, time.perf_counter()
        time.sleep(0.5)
        rate = (sensor.scans - before) / (time.perf_counter() - t0)
        out(f"scan rate: {rate:.0f} full scans/s (target {sensor.rate_hz}/s, at least 100)")
        # And how fast it could go, for the record:
        t0, n = time.perf_counter(), 0
        while time.perf_counter() - t0 < 0.1:
            sensor.scan_raw()
            n += 1
        out(f"scan capacity: {n / (time.perf_counter() - t0):.0f} scans/s on this machine")
    else:
        synced = sensor.wait_synced(3.0)
        before, t0 = sensor.stats.frames_ok, time.perf_counter()
        time.sleep(0.5)
        rate = (sensor.stats.frames_ok - before) / (time.perf_counter() - t0)
        info = sensor.device
        out(f"device: {info[4] if info else 'no HELLO yet'}; link {'synced' if synced else 'NOT synced'}; "
            f"{rate:.1f} frames/s from the device (heartbeat every 250 ms); the device scans on its own")
        if not synced:
            out(f"no board answers: {sensor.last_problem or 'nothing received'} "
                "(check the USB cable, the firmware, and [serial] port in the config)")
        if sensor.error is not None:
            out(f"protocol problem: {sensor.error}")


def _led_test(board, layout: Layout, out) -> None:
    """Each role along the files of one rank after another, then all off."""
    squares = sorted(layout.squares, key=lambda s: (int(s[1:]), s[0]))
    roles = list(Role)
    frame = {sq: roles[i % len(roles)] for i, sq in enumerate(squares)}
    board.leds.show(frame)
    out(f"LED test: {len(roles)} roles across {len(squares)} squares "
        f"({', '.join(r.value for r in roles)})")
    time.sleep(0.3)
    board.leds.show({})
    out("LED test: all off")


def _watch(board, layout: Layout, seconds: float, out) -> None:
    rng = random.Random(7)
    sim = board.sim
    end = time.monotonic() + seconds
    last_map = None
    next_move = time.monotonic()
    pieces: set[tuple[int, int]] = set()
    pressed_once = False
    while time.monotonic() < end:
        now = time.monotonic()
        if sim is not None and now >= next_move:
            # The mock board: drop a piece, lift another, press a clock button once.
            cell = (rng.randrange(layout.rows), rng.randrange(layout.cols))
            pieces ^= {cell}
            if hasattr(sim, "set_closed"):
                sim.set_closed(pieces)
            else:
                sim.matrix.set(pieces)
            if not pressed_once:
                _press(sim)
                pressed_once = True
            next_move = now + 0.2
        snap = board.sensor.snapshot()
        ghosts = getattr(board.sensor, "ghosts", frozenset())
        text = board_map(snap, layout, ghosts)
        if text != last_map:
            out(f"squares at {snap.time_ms} ms: {' '.join(sorted(snap.occupied)) or '(none)'}")
            out(text)
            if ghosts:
                out(f"possible ghosts (no diodes?): {' '.join(sorted(ghosts))}")
            last_map = text
        for press in board.buttons.presses():
            out(f"button: {press}")
        time.sleep(0.05)
    stats = getattr(board.sensor, "stats", None)
    if stats is not None:
        out(f"link: {stats.frames_ok} frames ok, {stats.frames_bad} bad, {stats.lost} lost, "
            f"{stats.reconnects} connects, {stats.led_acks}/{stats.led_frames_sent} LED frames acknowledged")


def _press(sim) -> None:
    """Press and release the first button of the simulated board."""
    import threading

    if hasattr(sim, "factory"):  # mock GPIO: the first pin after the matrix is clock0
        pin = sim.factory.pin(4 + sim.rows + sim.cols)
        pin.drive_low()
        threading.Timer(0.05, pin.drive_high).start()
        return
    pin = sim.buttons.pins[0]
    pin.down = True
    threading.Timer(0.05, lambda: setattr(pin, "down", False)).start()
