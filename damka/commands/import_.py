"""`damka import FILE.pdn [--db FILE]`: store PDN records, to replay or to go on with.

The file is read and stored game by game (a block of text at a time, one
transaction for the whole file), so its size does not decide the memory
used. A long import shows a count on stderr when stderr is a terminal (or
with `--progress`: one line now and then, for a log).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any, Callable, Mapping, TextIO

from damka.commands.games import add_db_argument
from damka.controller.plurals import english
from damka.controller.store import Store, default_path
from damka.controller.store_pdn import iter_records
from damka.controller.store_schema import Footprint
from damka.controller.user_files import read_text_chunks
from damka.engine.game import Game
from damka.engine.pdn import result_text


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "import",
        description="Store every game of a PDN file (all or nothing: a file with a bad record stores "
                    "nothing). With --continue the games stay unfinished, so the board offers to go on "
                    "with the last one; --ply N cuts them after N moves (go on from any position).")
    parser.add_argument("file", metavar="FILE.pdn", type=Path)
    parser.add_argument("--continue", dest="keep_open", action="store_true",
                        help="store the games unfinished, to be resumed on the board")
    parser.add_argument("--ply", type=int, default=None, metavar="N", help="keep only the first N moves")
    parser.add_argument("--progress", action="store_true",
                        help="show the count of games stored on stderr even when it is not a terminal")
    add_db_argument(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.ply is not None and args.ply < 0:
        raise ValueError(f"--ply must be 0 or more, not {args.ply}")
    records = iter_records(read_text_chunks(args.file), name=str(args.file), keep_open=args.keep_open,
                           upto_ply=args.ply, warn=lambda text: print(f"damka import: warning: {text}",
                                                                      file=sys.stderr))
    lines: list[str] = []  # one short line per game, printed once all are stored
    progress = Progress(sys.stderr, always=args.progress)

    def stored(game_id: int, game: Game, details: Mapping[str, Any]) -> None:
        lines.append(summary_line(game_id, game, details))
        progress.update(len(lines))

    path = Path(args.db).expanduser() if args.db else default_path()
    created = Footprint(path)  # a failed import removes the database it created (and only that)
    try:
        with Store(path) as store:
            try:
                ids = store.add_records(records, on_stored=stored)
            finally:
                progress.done()
    except BaseException:
        created.undo()
        raise
    for line in lines:
        print(line)
    print(f"{english(len(ids), 'game')} stored in {path}")
    return 0


def summary_line(game_id: int, game: Game, details: Mapping[str, Any]) -> str:
    players = " - ".join(details["players"])
    state = result_text(game.variant, details["result"]) if details["finished"] else "unfinished"
    return f"game {game_id}: {game.variant.name}, {players}, {english(game.ply, 'move')}, {state}"


class Progress:
    """`N games stored` on a stream: rewritten in place on a terminal (at most
    a few times a second, from one second on: a short import shows nothing);
    with `always` on anything else, one plain line every `every` games."""

    def __init__(self, stream: TextIO, *, always: bool = False, every: int = 1000,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.stream = stream
        self.terminal = _is_terminal(stream)
        self.always = always
        self.every = every
        self.clock = clock
        self.started = clock()
        self.shown_at = self.started
        self.shown = False

    def update(self, count: int) -> None:
        if self.terminal:
            now = self.clock()
            if (self.always or now - self.started >= 1.0) and now - self.shown_at >= 0.2:
                self.stream.write(f"\r{english(count, 'game')} stored")
                self.stream.flush()
                self.shown_at, self.shown = now, True
        elif self.always and count % self.every == 0:
            self.stream.write(f"{english(count, 'game')} stored\n")
            self.stream.flush()

    def done(self) -> None:
        """Clear the count on a terminal, before the results are printed."""
        if self.terminal and self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
