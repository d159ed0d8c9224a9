"""`damka import FILE.pdn [--variant V] [--strict] [--db FILE]`: store PDN records, to replay or to go on with.

Record by record: each good record is stored, each bad one is reported (its
number, line and reason) and skipped, and a summary ends the output; a record
stored before (the same file imported again) is not stored twice. With
`--strict` a bad record stores nothing (one transaction for the whole file).
A record with no tag naming its game is read as its FEN and first moves say,
as `--variant` unless they plainly say another board (an English checkers
problem is American even with `--variant international`); `damka puzzles
make` reads them the same way (`engine/pdn_detect.detect_variant`). The file is read and stored game by game (a block of
text at a time), so its size does not decide the memory used. A long import shows a count on stderr when stderr is a terminal (or
with `--progress`: one line now and then, for a log).

The import stops at the archive's budget, [archive] in the board config
(`--config`, else the one `damka run` reads; controller/store/budget.py): the
games stored before it stay, one line says the archive is full and what to
raise, and the exit code is 1; with nothing stored (or `--strict`), 2.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from collections import Counter
from typing import Any, Callable, Iterator, Mapping, TextIO

from damka.commands.games import add_db_argument
from damka.controller.words.plurals import english
from damka.controller.store.store import Store, default_path
from damka.controller.store.pdn import import_variant, iter_outcomes, iter_records, record_key
from damka.controller.store.budget import DEFAULT_GAMES, DEFAULT_MEGABYTES, ArchiveBudget, ArchiveFull
from damka.controller.store.schema import Footprint
from damka.controller.config.user_files import pdn_encoding, read_text_chunks
from damka.controller.words.wording import archive_full_text
from damka.engine.errors import RecordError
from damka.engine.game import Game
from damka.engine.pdn import result_text


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "import",
        description="Store every good game of a PDN file; each bad one is reported with its number, line "
                    "and reason (--strict: a bad record stores nothing). A game stored before is not stored "
                    "again. With --continue the games stay unfinished, so the board offers to go on "
                    "with the last one; --ply N cuts them after N moves (go on from any position).")
    parser.add_argument("file", metavar="FILE.pdn", type=Path)
    parser.add_argument("--continue", dest="keep_open", action="store_true",
                        help="store the games unfinished, to be resumed on the board")
    parser.add_argument("--ply", type=int, default=None, metavar="N", help="keep only the first N moves")
    parser.add_argument("--variant", metavar="V", default=None,
                        help="the game of records with no GameType tag, unless their FEN and first moves "
                             "plainly say another board (default: found from them), e.g. american, russian, "
                             "international")
    parser.add_argument("--strict", action="store_true", help="all or nothing: a bad record stores no game")
    parser.add_argument("--progress", action="store_true",
                        help="show the count of games stored on stderr even when it is not a terminal")
    parser.add_argument("--config", metavar="FILE", type=Path, default=None,
                        help="board config whose [archive] budget the import stops at (default: "
                             "/etc/damka/board.toml or ~/.config/damka/board.toml; none: "
                             f"{DEFAULT_GAMES:,} games, {DEFAULT_MEGABYTES} MB)")
    add_db_argument(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.ply is not None and args.ply < 0:
        raise ValueError(f"--ply must be 0 or more, not {args.ply}")
    variant = import_variant(args.variant)
    budget = archive_budget(args.config)
    chunks = read_text_chunks(args.file, encoding=pdn_encoding(args.file))
    if args.strict:
        return _run_strict(args, iter_records(chunks, name=str(args.file), keep_open=args.keep_open,
                                              upto_ply=args.ply, variant=variant, warn=_warn), budget)
    counts = {"read": 0, "refused": 0}
    refused_last: list[str] = []  # said once the next record is read: when nothing is stored, it is the error

    def good() -> Iterator[tuple[str, Game, dict[str, Any]]]:
        seen: Counter[str] = Counter()
        for outcome in iter_outcomes(chunks, variant=variant, keep_open=args.keep_open, upto_ply=args.ply):
            counts["read"] += 1
            where = f"{args.file}, game {outcome.number}"
            for warning in outcome.warnings:
                _warn(f"{where}: {warning}")
            if outcome.record is None:
                counts["refused"] += 1
                if refused_last:
                    print(f"damka import: {refused_last[0]}", file=sys.stderr)
                refused_last[:] = [f"{where} (line {outcome.line}) is not stored: {outcome.reason}"]
                continue
            if refused_last:
                print(f"damka import: {refused_last.pop()}", file=sys.stderr)
            game, details = outcome.record
            digest = record_key(game, details)
            seen[digest] += 1  # equal records of one file are each stored once
            yield f"{digest}:{seen[digest]}", game, details

    path = Path(args.db).expanduser() if args.db else default_path()
    created = Footprint(path)
    progress = Progress(sys.stderr, always=args.progress)
    lines: list[str] = []

    def stored(game_id: int, game: Game, details: Mapping[str, Any]) -> None:
        lines.append(summary_line(game_id, game, details))
        progress.update(len(lines))

    full: ArchiveFull | None = None
    try:
        with Store(path) as store:
            try:
                ids, known = store.add_new_records(good(), on_stored=stored, budget=budget)
            except ArchiveFull as error:    # the games stored before the budget stay
                full, ids, known = error, error.ids, error.known
            finally:
                progress.done()
    except BaseException:
        created.undo()
        raise
    if full is not None and not ids:  # (a refused record before was said when the next one came)
        raise ValueError(archive_full_text(full, str(args.file), 0))  # nothing stored: one line, exit 2
    if not counts["read"]:
        created.undo()
        raise RecordError(f"{args.file}: no game record found")
    if refused_last and not ids and not known:
        created.undo()
        raise RecordError(refused_last[0])  # no game in the file could be stored
    if refused_last:
        print(f"damka import: {refused_last[0]}", file=sys.stderr)
    for line in lines:
        print(line)
    if full is not None:
        print(f"damka import: {archive_full_text(full, str(args.file), len(ids))}", file=sys.stderr)
    print(import_summary(len(ids), counts["refused"], known, path))
    return 1 if counts["refused"] or full is not None else 0


def archive_budget(config: Path | None) -> ArchiveBudget:
    """[archive] of the board config (`--config`, else the one `damka run` reads; none: the defaults)."""
    from damka.commands.run import find_config
    from damka.config import load_config

    path = find_config(config)
    return load_config(path).archive if path is not None else ArchiveBudget()


def import_summary(stored: int, refused: int, known: int, path: Path) -> str:
    """The last line of an import: `3 games stored in PATH, 1 refused: see above`."""
    text = f"{english(stored, 'game')} stored in {path}"
    if known:
        text += f", {known} stored before"
    if refused:
        text += f", {refused} refused: see the reasons above"
    return text


def _warn(text: str) -> None:
    print(f"damka import: warning: {text}", file=sys.stderr)


def _run_strict(args: argparse.Namespace, records: Iterator[tuple[Game, dict[str, Any]]],
                budget: ArchiveBudget) -> int:
    """All or nothing, in one transaction: the first bad record, or the budget, stops the import."""
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
                ids = store.add_records(records, on_stored=stored, budget=budget)
            finally:
                progress.done()
    except ArchiveFull as full:
        created.undo()
        raise ValueError(archive_full_text(full, str(args.file), 0)) from None
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
