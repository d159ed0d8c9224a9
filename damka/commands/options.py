"""Arguments shared by the commands that take a variant and a position
(`damka perft`, `damka moves`, `damka replay`): one parser, one set of errors.

The variant's option flags are generated from the variants' declarations
(`Variant.option_specs`): `--free-capture`, `--teams` (switches), `--draw-moves N`,
`--threefold yes/no`, `--sides N`, `--first N`, `--quiet-rounds N|off`.
"""

from __future__ import annotations

import argparse
from typing import Any, Callable

from damka.engine.option_spec import OptionSpec
from damka.engine.variant import Position, Variant
from damka.engine.variants import all_option_specs, variant_class, variant_classes


def _option_flags() -> dict[str, tuple[OptionSpec, str]]:
    """option name -> (its declaration, the variants that take it), over every variant."""
    flags: dict[str, tuple[OptionSpec, str]] = {}
    for spec in all_option_specs().values():
        takers = [cls.name for cls in variant_classes() if any(s.name == spec.name for s in cls.option_specs)]
        flags[spec.name] = (spec, ", ".join(takers))
    return flags


def add_position_arguments(parser: argparse.ArgumentParser) -> None:
    """VARIANT and the options that pick the variant and its position."""
    parser.add_argument("variant", metavar="VARIANT",
                        help="variant name or alias (classic, international, multiwarcaby, ...)")
    parser.add_argument("--fen", metavar="FEN",
                        help="start from this position (PDN FEN; multiwarcaby: its position string)")
    for name, (spec, takers) in _option_flags().items():
        if spec.switch:
            parser.add_argument(spec.flag, dest=name, action="store_true", default=None,
                                help=f"{takers}: {spec.help}")
        else:
            metavar = "yes/no" if spec.kind is bool else "N|off" if spec.off else "N"
            parser.add_argument(spec.flag, dest=name, metavar=metavar, default=None,
                                help=f"{takers}: {spec.help} ({spec.allowed()})")


def variant_options(args: argparse.Namespace) -> dict[str, Any]:
    """The `find_variant` options the flags ask for (ValueError naming the flag if a value is bad)."""
    factory = variant_class(args.variant)
    declared = {spec.name: spec for spec in factory.option_specs}
    options: dict[str, Any] = {}
    for name, (spec, _) in _option_flags().items():
        text = getattr(args, name, None)
        if text is None:
            continue
        if text is True:
            options[name] = True
            continue
        try:
            options[name] = declared.get(name, spec).parse(text)
        except ValueError:
            raise ValueError(f"{spec.flag} must be {declared.get(name, spec).allowed()}, not {text!r}") from None
    return options


def load_position(args: argparse.Namespace) -> tuple[Variant, Position]:
    """The variant and position the arguments describe (ValueError / DamkaError if bad)."""
    variant = variant_class(args.variant).create(**variant_options(args))
    position = variant.parse_position(args.fen) if args.fen is not None else variant.start_position()
    return variant, position


def parse_count(text: str, what: str, minimum: int, maximum: int | None = None, why: str = "") -> int:
    """A whole number from `minimum` to `maximum`, or ValueError saying which
    argument was wrong (`why`: the reason for the maximum, said with it)."""
    text = text.strip()
    if not (text.isascii() and text.lstrip("+-").isdigit()):  # not int(): it takes '1_000' and '٣'
        raise ValueError(f"{what} must be a whole number, not {text!r}")
    # Past 30 digits, a number of the same sign past any bound (int() stops at 4300 digits).
    value = int(text) if len(text) <= 30 else int(text[0].replace("+", "") + "9" * 30)
    shown = text if len(text) <= 30 else f"{text[:12]}... ({len(text)} digits)"
    if value < minimum:
        raise ValueError(f"{what} must be at least {minimum}, not {shown}")
    if maximum is not None and value > maximum:
        raise ValueError(f"{what} must be at most {maximum}, not {shown}" + (f": {why}" if why else ""))
    return value


def count_argument(what: str, minimum: int, maximum: int | None = None) -> Callable[[str], int]:
    """An argparse `type=` for a bounded whole number: a bad one is a usage error naming `what`."""
    def parse(text: str) -> int:
        try:
            return parse_count(text, what, minimum, maximum)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    return parse
