"""Arguments shared by the commands that take a variant and a position
(`damka perft`, `damka moves`, `damka replay`): one parser, one set of errors."""

from __future__ import annotations

import argparse
from typing import Any

from damka.engine import find_variant
from damka.engine.variant import Position, Variant


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
