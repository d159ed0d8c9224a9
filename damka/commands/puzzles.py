"""`damka puzzles`: find puzzles (`make`), and check or list a set (`check`, `show`).

    damka puzzles make classic --count 300 --self-play 400 --out classic.json
    damka puzzles make international --from ../shared/pdn-corpus/wiegerw/games/succeed/*.pdn
    damka puzzles check classic            (the set that ships, proved again)
    damka puzzles show puzzles.json

`make` proves every candidate (damka.engine.puzzle_proof) and writes the set
only at the end, to a new file beside the target renamed into place, so an
interrupted run leaves the old set whole. A progress line on stderr says how
far it is (candidates tried, puzzles found, CPU time).
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import sys
from pathlib import Path

from damka.engine.errors import DamkaError
from damka.engine.variants import find_variant


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "puzzles",
        description="Find, check and show puzzles: positions where exactly one move wins two pieces "
                    "or the game by force, proved by the engine.")
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    make = actions.add_parser("make", help="find puzzles from self-play and PDN files",
                              description="Find puzzles of VARIANT from Damka's self-play and the games of "
                                          "PDN files, each proved; write them as a puzzle set (JSON).")
    make.add_argument("variant", metavar="VARIANT", help="classic, russian, international, ...")
    make.add_argument("--count", type=int, default=300, help="stop after this many puzzles (default 300)")
    make.add_argument("--self-play", type=int, default=200, metavar="GAMES",
                      help="games of self-play to take positions from (default 200; 0: none)")
    make.add_argument("--from", dest="pdn", type=Path, nargs="*", default=[], metavar="PDN",
                      help="PDN files whose games give positions too (read before self-play)")
    make.add_argument("--corpus", type=Path, default=None, metavar="FOLDER",
                      help="every PDN file below FOLDER that fits the variant's board (as ../shared/pdn-corpus)")
    make.add_argument("--save-every", type=int, default=0, metavar="N",
                      help="write the set each time N more puzzles are found (default: only at the end)")
    make.add_argument("--seed", type=int, default=1, help="seed of the self-play games (default 1)")
    make.add_argument("--depth", type=int, default=7, help="deepest proof, in plies (default 7)")
    make.add_argument("--out", type=Path, default=None, help="the set to write (default VARIANT-puzzles.json)")
    make.set_defaults(func=run_make)
    check = actions.add_parser("check", help="prove every puzzle of a set again",
                               description="Prove every puzzle of a set again: the same single winning move "
                                           "at the same depth. SET is a file or a variant's shipped set.")
    check.add_argument("set", metavar="SET", help="a puzzle file, or a variant name for its shipped set")
    check.add_argument("--sample", type=int, default=None, help="check this many, chosen at random")
    check.set_defaults(func=run_check)
    show = actions.add_parser("show", help="list the puzzles of a set",
                              description="List a set's puzzles: id, difficulty, position and solution.")
    show.add_argument("set", metavar="SET", help="a puzzle file, or a variant name for its shipped set")
    show.set_defaults(func=run_show)
    parser.set_defaults(func=lambda args: parser.error("an action is needed: make, check or show"))


def run_make(args: argparse.Namespace) -> int:
    from damka.teaching.puzzle_maker import MakerStats, corpus_files, make_puzzles, pdn_positions, self_play_positions
    from damka.base.files import open_regular
    from damka.teaching.puzzles import MAX_PUZZLES, dumps

    if not 1 <= args.count <= MAX_PUZZLES or args.self_play < 0 or not 1 <= args.depth <= 11:
        raise ValueError(f"--count must be 1 to {MAX_PUZZLES:,} (a set holds no more), --self-play 0 or more, "
                         "--depth 1 to 11")
    variant = find_variant(args.variant)
    for path in args.pdn:
        open_regular(path, "file", DamkaError).close()  # missing, a FIFO, a device: said before any work
    if args.corpus is not None and not args.corpus.is_dir():
        raise DamkaError(f"{args.corpus}: no such folder")
    out = args.out or Path(f"{variant.name}-puzzles.json")
    files = [*args.pdn, *(corpus_files(variant, args.corpus) if args.corpus is not None else [])]
    stats = MakerStats()
    candidates = itertools.chain(pdn_positions(variant, files, stats),
                                 self_play_positions(variant, args.self_play, args.seed))
    show = sys.stderr.isatty()

    def write(puzzles: list) -> None:
        temporary = out.with_name(out.name + ".new")
        temporary.write_text(dumps(variant, puzzles), encoding="utf-8")
        os.replace(temporary, out)

    def save_now_and_then(so_far: list) -> None:
        if args.save_every and len(so_far) % args.save_every == 0:
            write(so_far)

    def progress(done: MakerStats) -> None:
        if show and done.candidates % 25 == 0:
            print(f"\r{done.candidates} positions tried, {done.found} puzzles, {done.cpu_s:.0f} s CPU",
                  end="", file=sys.stderr, flush=True)

    try:
        puzzles = make_puzzles(variant, candidates, wanted=args.count, max_depth=args.depth,
                               stats=stats, progress=progress, on_found=save_now_and_then)
    finally:
        if show:
            print(file=sys.stderr)
    for why, count in stats.skipped.most_common():
        print(f"damka puzzles make: {count} {why} skipped (not {variant.name})", file=sys.stderr)
    if not puzzles:
        print(f"damka puzzles make: no puzzle found in {stats.candidates} positions", file=sys.stderr)
        return 1
    write(puzzles)
    reasons = ", ".join(f"{count} {why}" for why, count in stats.rejected.most_common())
    print(f"{len(puzzles)} puzzles written to {out}: {stats.candidates} positions tried "
          f"({reasons or 'none rejected'}), {stats.cpu_s:.0f} s CPU")
    return 0


def _load(name: str) -> tuple[str, list]:
    from damka.teaching.puzzles import read_file, shipped

    path = Path(name)
    if path.suffix == ".json" or path.exists():
        variant, puzzles = read_file(path)
        return variant.name, puzzles
    puzzles = shipped(name)
    if not puzzles:
        raise DamkaError(f"no puzzle set ships for {name!r} (and no such file)")
    return find_variant(name).name, puzzles


def run_check(args: argparse.Namespace) -> int:
    from damka.teaching.puzzles import reprove

    variant_name, puzzles = _load(args.set)
    variant = find_variant(variant_name)
    if args.sample is not None:
        puzzles = random.Random().sample(puzzles, min(args.sample, len(puzzles)))
    problems = [problem for puzzle in puzzles if (problem := reprove(variant, puzzle)) is not None]
    for problem in problems:
        print(problem)
    print(f"{len(puzzles) - len(problems)} of {len(puzzles)} puzzles proved again")
    return 1 if problems else 0


def run_show(args: argparse.Namespace) -> int:
    _, puzzles = _load(args.set)
    for puzzle in puzzles:
        print(f"{puzzle.id}  difficulty {puzzle.difficulty}  {puzzle.fen}  {' '.join(puzzle.line)}")
    return 0
