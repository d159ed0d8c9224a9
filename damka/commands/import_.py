"""`damka import FILE.pdn [--db FILE]`: store PDN records, to replay or to go on with."""

from __future__ import annotations

import argparse
from pathlib import Path

from damka.commands.games import add_db_argument
from damka.controller.store import Store
from damka.controller.store_pdn import import_records
from damka.engine.pdn import result_text


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "import", help="store the games of a PDN file",
        description="Store every game of a PDN file (all or nothing: a file with a bad record stores "
                    "nothing). With --continue the games stay unfinished, so the board offers to go on "
                    "with the last one; --ply N cuts them after N moves (go on from any position).")
    parser.add_argument("file", metavar="FILE.pdn", type=Path)
    parser.add_argument("--continue", dest="keep_open", action="store_true",
                        help="store the games unfinished, to be resumed on the board")
    parser.add_argument("--ply", type=int, default=None, metavar="N", help="keep only the first N moves")
    add_db_argument(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.ply is not None and args.ply < 0:
        raise ValueError(f"--ply must be 0 or more, not {args.ply}")
    try:
        text = args.file.read_text(encoding="utf-8-sig", errors="strict")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{args.file}: not UTF-8 text (byte 0x{exc.object[exc.start]:02x} "
                         f"at offset {exc.start})") from None
    records = import_records(text, name=str(args.file), keep_open=args.keep_open, upto_ply=args.ply)
    with Store(args.db) as store:
        ids = store.add_records(records)
        path = store.path
    for game_id, (game, details) in zip(ids, records):
        players = " - ".join(details["players"])
        state = result_text(game.variant, details["result"]) if details["finished"] else "unfinished"
        print(f"game {game_id}: {game.variant.name}, {players}, {game.ply} moves, {state}")
    print(f"{len(ids)} game(s) stored in {path}")
    return 0
