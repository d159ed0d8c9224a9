"""`damka games [--db FILE]`: list the stored games."""

from __future__ import annotations

import argparse
from pathlib import Path

from damka.controller.store.store import Store, default_path


def add_db_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", metavar="FILE", default=None,
                        help=f"game database (default: $DAMKA_HOME/games.db or {default_path()})")


def open_existing(db: str | None) -> Store:
    """The store at `db` (or the default), which must already exist, opened
    read-only: reading commands never create an empty database by mistake,
    and work on a read-only card or a full disk."""
    path = Path(db).expanduser() if db else default_path()
    if not path.exists():
        raise ValueError(f"{path}: no game database there (play a game or `damka import` first)")
    return Store(path, readonly=True)


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("games",
                                   description="List the games stored on this board: id, date, variant, "
                                               "players, number of moves and result ('*' while unfinished).")
    add_db_argument(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    path = Path(args.db).expanduser() if args.db else default_path()
    if not path.exists():
        print(f"no games stored (no game database at {path})")
        return 0
    with Store(path, readonly=True) as store:
        games = store.list_games()
    if not games:
        print(f"no games stored in {store.path}")
        return 0
    rows = [("id", "date", "variant", "players", "moves", "result")]
    for summary in games:
        rows.append((str(summary.id), summary.date, summary.variant,
                     " - ".join(summary.players), str(summary.moves), summary.result))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())
    return 0
