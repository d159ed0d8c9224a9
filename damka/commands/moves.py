"""`damka moves VARIANT`: the legal moves of a position, in PDN notation.

One move per line (`32-28`, `c3xe5`, the full route `28x19x10` only when
start and end are ambiguous), or with `--json` an array of objects
`{"from", "to", "path", "captures", "pdn"}` whose squares are strings in the
variant's notation: numbers (`"32"`) for american, international and canadian,
names (`"c3"`) otherwise. `path` lists the landing squares in order.
"""

from __future__ import annotations

import argparse
import json

from damka.commands.options import add_position_arguments, load_position
from damka.engine.notation import format_move, move_sort_key, square_name, square_sort_key


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "moves",
        description="List the legal moves of the start position (or --fen), one per line in PDN notation.",
    )
    add_position_arguments(parser)
    parser.add_argument("--json", action="store_true",
                        help='print a JSON array of {"from", "to", "path", "captures", "pdn"}')
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    variant, position = load_position(args)
    legal = variant.legal_moves(position)
    moves = sorted(legal, key=lambda move: move_sort_key(variant, move))
    if args.json:
        listing = [
            {
                "from": square_name(variant, move.start),
                "to": square_name(variant, move.end),
                "path": [square_name(variant, square) for square in move.path],
                "captures": [square_name(variant, square)
                             for square in sorted(move.captures, key=lambda sq: square_sort_key(variant, sq))],
                "pdn": format_move(variant, position, move, legal),
            }
            for move in moves
        ]
        print(json.dumps(listing, indent=None))
        return 0
    for move in moves:
        print(format_move(variant, position, move, legal))
    return 0
