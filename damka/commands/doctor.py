"""`damka doctor`: check the board's hardware by hand.

Shows which backend the config chooses, runs that backend's own checks
(scan rate, or the link to the microcontroller), prints a live map of
occupied squares, runs an LED test pattern and shows button presses.
With `--mock` the hardware is simulated (a MockFactory matrix, or the
firmware on a pty for the serial backend) and pieces move by themselves, so
it runs anywhere, tests included.

With no board to check (no config file and no --mock, or a board that does
not answer) it says so in one line and exits 2.
"""

from __future__ import annotations

import argparse
import math
import random
import time

from damka.commands import run as run_command
from damka.hardware.backends import HardwareBoard, Out, backend_names
from damka.config import load_config, parse_config
from damka.hardware.interfaces import ButtonPress, ClockPress, Role, Snapshot
from damka.hardware.layout import Layout


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("doctor",
                                   description=__doc__.split("\n\n")[1])
    parser.add_argument("--config", metavar="FILE",
                        help="board configuration (TOML; default: /etc/damka/board.toml or ~/.config/damka/board.toml)")
    parser.add_argument("--seconds", type=float, default=10.0, metavar="N",
                        help="how long to watch the squares and buttons (default 10)")
    parser.add_argument("--mock", action="store_true",
                        help="simulate the hardware of the configured backend; pieces move by themselves")
    parser.add_argument("--backend", choices=backend_names(), help="override [board] backend")
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
    from damka.hardware.backends import load_backend, open_board

    if not (math.isfinite(args.seconds) and args.seconds >= 0):
        raise ValueError(f"--seconds must be a number of seconds, 0 or more, not {args.seconds:g}")
    path = run_command.find_config(args.config)
    if path is not None:
        config = load_config(path, backend=args.backend)
    elif args.mock or args.backend is not None:
        config = parse_config({}, "<built-in board>", backend=args.backend)
    else:
        where = " or ".join(str(p) for p in run_command.DEFAULT_CONFIGS)
        raise ValueError(f"no board to check: no --config FILE and none at {where} "
                         "(--mock checks a simulated board)")
    layout = config.layout()
    checks = load_backend(config.backend).checks
    out = print
    out(f"config: {config.source}")
    with open_board(config, mock=args.mock) as board:
        out(f"backend: {board.description}")
        out(f"orientation: rotation {config.rotation}, mirror {'yes' if config.mirror else 'no'}"
            + (f", sub-board {config.sub_board}" if config.sub_board else ""))
        for check in checks:
            if not check.after_watch:
                check.run(board, out)
        _led_test(board, layout, out)
        inputs = list(board.inputs)
        out("inputs to try: " + (" ".join(inputs) or "(none configured)")
            + " (press each button, turn the encoder both ways)")
        seen = _watch(board, layout, args.seconds, out, inputs)
        out(input_report(inputs, seen))
        for check in checks:
            if check.after_watch:
                check.run(board, out)
    return 0


def press_name(press: ClockPress | ButtonPress) -> str:
    return f"clock{press.side}" if isinstance(press, ClockPress) else press.button.value


def input_report(inputs: list[str], seen: dict[str, int]) -> str:
    """One line: each input with how often it was seen; those never seen named last."""
    done = [f"{name} x{seen[name]}" for name in inputs if seen.get(name)]
    missing = [name for name in inputs if not seen.get(name)]
    line = "inputs seen: " + (", ".join(done) or "none")
    return line + (f"; not seen: {' '.join(missing)}" if missing else "; every input works")


def _led_test(board: HardwareBoard, layout: Layout, out: Out) -> None:
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


MOCK_GRACE_S = 30.0  # how long past `seconds` the simulated hands may take to press every input
MOCK_RETRY_S = 1.0  # an input the board has not reported this long after its press is pressed again


def _watch(board: HardwareBoard, layout: Layout, seconds: float, out: Out, inputs: list[str]) -> dict[str, int]:
    """The live map for `seconds`; on simulated hardware, hands move pieces and
    press every input (again, if the board did not report it). Returns how
    often each input was seen."""
    rng = random.Random(7)
    hands = board.hands
    end = time.monotonic() + seconds
    last_map = None
    next_move = time.monotonic()
    pieces: set[tuple[int, int]] = set()
    pressed_at: dict[str, float] = {}
    seen: dict[str, int] = {}
    # The simulated hands finish their round of presses even past `seconds`
    # (a busy machine runs the loop late), within a bound.
    give_up = end + MOCK_GRACE_S
    while True:
        now = time.monotonic()
        demo_left = hands is not None and not seen.keys() >= set(inputs)  # an input not seen yet
        if now >= end and not (demo_left and now < give_up):
            break
        if hands is not None and now >= next_move:
            # The mock board: drop a piece, lift another, press the next input.
            cell = (rng.randrange(layout.rows), rng.randrange(layout.cols))
            pieces ^= {cell}
            hands.set_closed(pieces)
            # A press the scanner missed (one made before its first scans, or
            # while a busy machine held its thread) is made again, as a person would.
            due = ([name for name in inputs if name not in pressed_at]
                   or [name for name in inputs if name not in seen and now - pressed_at[name] >= MOCK_RETRY_S])
            if due:
                hands.press(due[0])
                pressed_at[due[0]] = now
            next_move = now + 0.2
        snap = board.sensor.snapshot()
        ghosts = board.ghosts()
        text = board_map(snap, layout, ghosts)
        if text != last_map:
            out(f"squares at {snap.time_ms} ms: {' '.join(sorted(snap.occupied)) or '(none)'}")
            out(text)
            if ghosts:
                out(f"possible ghosts (no diodes?): {' '.join(sorted(ghosts))}")
            last_map = text
        for press in board.buttons.presses():
            name = press_name(press)
            seen[name] = seen.get(name, 0) + 1
            out(f"input: {name} ({press})")
        time.sleep(0.05)
    return seen
