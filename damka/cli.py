"""The `damka` command line: one sub-command per module in `damka.commands`.

Each command module defines `add_parser(subparsers)` (which registers its
parser and sets `func`) so commands stay small and independent.

Every mistake a person can make on the command line ends the same way, by
construction: ONE line on stderr (`damka CMD: error: ...`) and exit code 2,
never a usage block or a traceback. Usage errors go through `OneLineParser`,
which every sub-command's parser inherits; errors from running a command
(`DamkaError`, `ValueError`, `OSError`, a number too large for SQLite or C)
go through `error_line` in `main`.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

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
    "hall",
    "firmware",
    "puzzles",
)


class UsageError(DamkaError, ValueError):
    """A command line argparse could not read (a missing or malformed argument)."""

    def __init__(self, prog: str, message: str) -> None:
        super().__init__(message)
        self.prog = prog


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are one line, not the usage block
    and the error: they raise `UsageError` for `main` to print. Sub-parsers
    made by `add_subparsers` are of the same class, so no command can forget."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(self.prog, message)


def one_line(text: str) -> str:
    """`text` on one line: line breaks (SQLite's integrity report, a wrapped
    message) become '; '."""
    return "; ".join(part.strip() for part in str(text).splitlines() if part.strip())


def error_line(command: str, exc: BaseException) -> str:
    """The one line a person sees for `exc`, raised by `damka COMMAND`."""
    if isinstance(exc, UsageError):
        return f"{exc.prog}: error: {one_line(str(exc))} (see '{exc.prog} --help')"
    if isinstance(exc, UnicodeDecodeError):
        # Readers name the file themselves; this is the last resort.
        text = f"not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at offset {exc.start})"
    elif isinstance(exc, OSError) and not isinstance(exc, DamkaError):
        where = os.fsdecode(exc.filename) if exc.filename is not None else ""
        text = f"{where}: {exc.strerror or exc}" if where else str(exc.strerror or exc)
    elif isinstance(exc, OverflowError):
        text = f"a number is too large ({exc})"
    else:
        text = str(exc)
    return f"damka {command}: error: {one_line(text)}"


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
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
    try:
        args, extra = parser.parse_known_args(argv)
        if extra:
            prog = f"damka {args.command}" if getattr(args, "command", None) else "damka"
            raise UsageError(prog, f"unrecognized arguments: {' '.join(extra)}")
    except UsageError as exc:
        print(error_line("", exc), file=sys.stderr)
        return 2
    if not getattr(args, "func", None):
        commands = ", ".join(name.rstrip("_") for name in COMMAND_MODULES)
        print(error_line("", UsageError("damka", f"a command is needed: {commands}")), file=sys.stderr)
        return 2
    try:
        return int(args.func(args) or 0)
    except BrokenPipeError:
        # `damka moves ... | head`: the reader left; that is not an error.
        try:
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the flush at exit
        except OSError:
            pass
        return 0
    except (DamkaError, ValueError, OSError, OverflowError) as exc:
        print(error_line(args.command, exc), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"damka {args.command}: interrupted", file=sys.stderr)
        return 130
