"""`damka export GAME [--pdn FILE] [--db FILE]`: a stored game as PDN."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from damka.commands.games import add_db_argument, open_existing
from damka.controller.store.pdn import export_pdn
from damka.controller.config.user_files import check_writable, write_file

MAX_GAME_ID = 2**63 - 1  # SQLite's largest row id


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "export",
        description="Write a stored game as PDN, with each move's clock times as {[%clock ...]} and the "
                    "TimeControl tag. GAME is an id from `damka games`, or `last`.")
    parser.add_argument("game", metavar="GAME", help="game id, or 'last'")
    parser.add_argument("--pdn", metavar="FILE", type=Path, default=None, help="write here (default: stdout)")
    parser.add_argument("--force", action="store_true", help="replace FILE if it is a regular file (a symbolic link: its target)")
    add_db_argument(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.pdn is not None:
        check_writable(args.pdn, replace=args.force)  # before any work: a FIFO, a device, an existing file
    with open_existing(args.db) as store:
        if args.game == "last":
            games = store.list_games()
            if not games:
                raise ValueError(f"no games stored in {store.path}")
            game_id = games[-1].id
        else:
            game_id = game_number(args.game, store.path)
        text = export_pdn(store.load_game(game_id))
    if args.pdn is None:
        sys.stdout.write(text)
        return 0
    write_file(args.pdn, text, replace=args.force)
    print(f"game {game_id} written to {args.pdn}", file=sys.stderr)
    return 0


def game_number(text: str, db: Path) -> int:
    """GAME as a stored game's id; ValueError for what is not one, or cannot be one
    (SQLite ids end at 2**63 - 1: past that no game is stored, and SQLite could not even look)."""
    if not (text.isascii() and text.isdigit()):
        raise ValueError(f"GAME must be a game id (a number) or 'last', not {text!r}")
    if len(text) > 19 or int(text) > MAX_GAME_ID or int(text) == 0:
        raise ValueError(f"{db}: there is no game {text}")
    return int(text)
