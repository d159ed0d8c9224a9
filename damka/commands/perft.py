"""`damka perft VARIANT DEPTH`: count the move sequences of every length up to DEPTH.

Prints one line `DEPTH NODES` per depth, each as soon as it is known. On a
terminal a progress line on stderr shows which root move the last depth is at.
The variant and position arguments (`--fen`, `--free-capture`, `--sides`, ...)
are shared with `damka moves`.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any, TextIO

from damka.engine import find_variant
from damka.engine.variant import Position, Variant

# A depth that takes longer than this (seconds) is counted root move by root
# move, with progress on a terminal.
PROGRESS_AFTER = 0.5


def add_position_arguments(parser: argparse.ArgumentParser) -> None:
    """VARIANT and the options that pick the variant and its position."""
    parser.add_argument("variant", metavar="VARIANT",
                        help="variant name or alias (classic, international, multiwarcaby, ...)")
    parser.add_argument("--fen", metavar="FEN",
                        help="start from this position (PDN FEN; multiwarcaby: its position string)")
    parser.add_argument("--free-capture", action="store_true", help="classic, classic81: capturing is optional")
    parser.add_argument("--symmetric", action="store_true", help="classic81: Black's setup is White's turned round")
    parser.add_argument("--sides", metavar="N", help="multiwarcaby: number of players, 2-4")
    parser.add_argument("--teams", action="store_true", help="multiwarcaby: two teams of two")


def load_position(args: argparse.Namespace) -> tuple[Variant, Position]:
    """The variant and position the arguments describe (ValueError / DamkaError if bad)."""
    options: dict[str, Any] = {}
    if args.free_capture:
        options["free_capture"] = True
    if args.symmetric:
        options["symmetric"] = True
    if args.teams:
        options["teams"] = True
    if args.sides is not None:
        options["sides"] = parse_count(args.sides, "--sides", minimum=2)
    variant = find_variant(args.variant, **options)
    position = variant.parse_position(args.fen) if args.fen is not None else variant.start_position()
    return variant, position


def parse_count(text: str, what: str, minimum: int) -> int:
    """A whole number >= minimum, or ValueError saying which argument was wrong."""
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"{what} must be a whole number, not {text!r}") from None
    if value < minimum:
        raise ValueError(f"{what} must be at least {minimum}, not {value}")
    return value


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "perft",
        help="count move sequences to a depth (tests the move generator)",
        description="Print 'DEPTH NODES' for every depth from 1 to DEPTH: the number of distinct "
                    "move sequences of that many moves (in multiwarcaby each of a turn's two moves counts).",
    )
    add_position_arguments(parser)
    parser.add_argument("depth", metavar="DEPTH", help="deepest depth to count, 1 or more")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    depth = parse_count(args.depth, "DEPTH", minimum=1)
    variant, position = load_position(args)
    out, err = sys.stdout, sys.stderr
    show_progress = err.isatty()
    for current in range(1, depth + 1):
        nodes = count(variant, position, current, err if show_progress else None)
        if show_progress:
            print("\r\x1b[K", end="", file=err, flush=True)  # wipe the progress line first
        print(f"{current} {nodes}", file=out, flush=True)
    return 0


def count(variant: Variant, position: Position, depth: int, progress: TextIO | None) -> int:
    """perft(depth); with a progress stream, root move by root move so it can report."""
    if progress is None or depth < 3:
        return variant.perft(position, depth)
    moves = variant.legal_moves(position)
    total = 0
    began = time.monotonic()
    for index, move in enumerate(moves, 1):
        total += variant.perft(variant.play(position, move), depth - 1)
        elapsed = time.monotonic() - began
        if elapsed > PROGRESS_AFTER:
            print(f"\rdepth {depth}: {index}/{len(moves)} root moves, {total} nodes, {elapsed:.0f}s",
                  end="", file=progress, flush=True)
    return total
