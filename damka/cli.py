"""The `damka` command line: one sub-command per module in `damka.commands`.

Each command module defines `add_parser(subparsers)` (which registers its
parser and sets `func`) so commands stay small and independent. Any
`DamkaError` or `ValueError` from bad input becomes one line on stderr and
exit code 2: a person never sees a traceback for their own mistake.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from damka import __version__
from damka.engine.errors import DamkaError

# Sub-command modules, in the order `damka --help` lists them.
COMMAND_MODULES: tuple[str, ...] = (
    "perft",
    "moves",
    "games",
    "export",
    "import_",
    "sim",
    "run",
    "doctor",
    "replay",
    "hub",
    "dxp",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="damka",
        description="Damka, the smart draughts board: rules engine, board controller and simulator.",
    )
    parser.add_argument("--version", action="version", version=f"damka {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        module = importlib.import_module(f"damka.commands.{name}")
        module.add_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except (DamkaError, ValueError) as exc:
        print(f"damka {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # `damka moves ... | head`: the reader left; that is not an error.
        try:
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the flush at exit
        except OSError:
            pass
        return 0
    except OSError as exc:
        print(f"damka {args.command}: error: {exc.strerror or exc}: {exc.filename or ''}".rstrip(": "), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"damka {args.command}: interrupted", file=sys.stderr)
        return 130
