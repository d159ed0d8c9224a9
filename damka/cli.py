"""The `damka` command line: one sub-command per module in `damka.commands`.

Each command module defines `add_parser(subparsers)` (which registers its
parser and sets `func`) so commands stay small and independent. Only the
command being run is imported: `damka --help` lists the commands from the
`COMMANDS` table here, and a GUI that starts `damka hub` does not wait for the
simulator, the store or the web server to load.

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
from typing import Any, NoReturn

from damka import __version__
from damka.engine.errors import DamkaError

# Every command with the one line `damka --help` shows for it, in that order.
# The line lives here, not in the command's module, so listing the commands
# imports none of them.
COMMANDS: dict[str, str] = {
    "perft": "count move sequences to a depth (tests the move generator)",
    "moves": "list the legal moves of a position in PDN notation",
    "games": "list the stored games",
    "export": "write a stored game as PDN",
    "import": "store the games of a PDN file",
    "sim": "the simulator window (board, LEDs, screen)",
    "run": "run the board (hardware from the config, else the simulator)",
    "doctor": "check the board's hardware: scan rate, squares, LEDs, buttons",
    "replay": "re-run a sensor log through the board controller and print the moves",
    "hub": "play as an engine over the Hub protocol (stdin/stdout), for draughts GUIs",
    "dxp": "play a board game against another program over DXP (DamExchange, TCP)",
    "hall": "run a tournament hall: collect every board's games from an MQTT broker, serve the hall page",
    "firmware": "install the Pico's firmware, or check what the board runs",
    "puzzles": "find puzzles (a single winning move) and check puzzle sets",
    "lessons": "list the lessons and check a lesson file",
}
ALL = "*"  # build_parser(ALL): every command's full parser


def module_of(command: str) -> str:
    """The module of `damka.commands` that holds `command` (`import` is a keyword)."""
    return "import_" if command == "import" else command


# Sub-command modules, in the order `damka --help` lists them.
COMMAND_MODULES: tuple[str, ...] = tuple(module_of(name) for name in COMMANDS)


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


class CommandsAction(argparse._SubParsersAction):
    """The sub-parsers of `damka`: each command's one-line help comes from
    `COMMANDS`, whether its module registered it or only its name is listed."""

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser:
        kwargs["help"] = COMMANDS[name]
        return super().add_parser(name, **kwargs)


def chosen_command(argv: Sequence[str]) -> str | None:
    """The command `argv` runs: its first word that is not an option (`damka`
    itself takes only --help and --version, neither with a value)."""
    words = iter(argv)
    for word in words:
        if word == "--":  # what follows is positional, the command first
            word = next(words, "")
        elif word.startswith("-"):
            continue
        return word if word in COMMANDS else None
    return None


def build_parser(command: str | None = ALL) -> argparse.ArgumentParser:
    """The parser of `damka`. Only `command`'s module is imported and asked for
    its full parser (every module with ALL); the other commands are listed by
    name and help line, enough for `damka --help` and for a misspelt name."""
    parser = OneLineParser(
        prog="damka",
        description="Damka, the smart draughts board: rules engine, board controller and simulator.",
    )
    parser.add_argument("--version", action="version", version=f"damka {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", action=CommandsAction)
    for name in COMMANDS:
        if command in (ALL, name):
            importlib.import_module(f"damka.commands.{module_of(name)}").add_parser(subparsers)
        else:
            subparsers.add_parser(name)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(chosen_command(argv))
    try:
        args, extra = parser.parse_known_args(argv)
        if extra:
            prog = f"damka {args.command}" if getattr(args, "command", None) else "damka"
            raise UsageError(prog, f"unrecognized arguments: {' '.join(extra)}")
    except UsageError as exc:
        print(error_line("", exc), file=sys.stderr)
        return 2
    if not getattr(args, "func", None):
        commands = ", ".join(COMMANDS)
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
