"""`damka perft VARIANT DEPTH`: count the move sequences of every length up to DEPTH.

Prints one line `DEPTH NODES` per depth, each as soon as it is known. On a
terminal a progress line on stderr shows which root move the last depth is at.
The variant and position arguments (`--fen`, `--free-capture`, `--sides`, ...)
come from `damka.commands.options`, shared with `damka moves` and `damka replay`.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import TextIO

from damka.commands.options import add_position_arguments, load_position, parse_count
from damka.engine.variant import Position, Variant

# A depth that takes longer than this (seconds) is counted root move by root
# move, with progress on a terminal.
PROGRESS_AFTER = 0.5

# The deepest depth asked for. Each depth takes about as many times longer as
# there are moves in a position: about 5 in draughts (classic depth 10 took
# 17 s on a desktop PC, so depth 15 takes about 9 hours there, days on a Pi),
# 40-60 in multiwarcaby (depth 5: minutes, 6: hours, 7: days). Deeper would
# run for years and look like a hang.
MAX_DEPTH = 15
WHY_MAX_DEPTH = ("each depth takes about 5 times as long as the one before in draughts, 50 in multiwarcaby "
                 "(classic depth 15: about 9 hours on a desktop PC)")


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "perft",
        description="Print 'DEPTH NODES' for every depth from 1 to DEPTH: the number of distinct "
                    "move sequences of that many moves (in multiwarcaby each of a turn's two moves counts).",
    )
    add_position_arguments(parser)
    parser.add_argument("depth", metavar="DEPTH",
                        help=f"deepest depth to count, 1 to {MAX_DEPTH}: {WHY_MAX_DEPTH}")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    depth = parse_count(args.depth, "DEPTH", minimum=1, maximum=MAX_DEPTH, why=WHY_MAX_DEPTH)
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
