"""Finding puzzles: candidate positions from self-play and real games, each proved.

Candidates come from games: Damka playing itself at a learner's level (its
mistakes are what make combinations appear) and the games of PDN files (for
example the real archives in ../shared/pdn-corpus/). Each position from the
sixth ply on, with the material still about level, is first given a cheap
look (`puzzle_prefilter.may_combine`: could a combination be there at all?)
and then put to the variant's prover (`MaterialProver`, or `TurnProver` for
multiwarcaby); a position counts only when the proof finds exactly one
winning move (or turn) and the deeper search agrees. Positions already seen (the same
placement and side to move) are tried once.

The maker keeps counts of what it rejected and why, for `damka puzzles make`'s
progress line and `benchmarks/puzzles_make.py`.
"""

from __future__ import annotations

import io
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator, NamedTuple

from damka.base.files import open_regular
from damka.engine.game import Game
from damka.engine.levels import choose_move, find_level, make_searcher
from damka.engine.pdn import DETECT, PdnGame, iter_games
from damka.engine.pdn_detect import same_board
from damka.engine.puzzle_prefilter import may_combine
from damka.engine.puzzle_proof import MAX_DEPTH, MaterialProver, ProofTooCostly
from damka.engine.variant import Position, Variant
from damka.engine.variants import find_variant
from damka.teaching.puzzles import Puzzle, PuzzleError, from_proof, make_prover

FIRST_PLY = 6          # opening positions are not puzzles
MAX_BALANCE = 2        # pieces ahead or behind: beyond this the game is decided anyway
SELF_PLAY_LEVEL = "novice"
SELF_PLAY_PLIES = 160
KIN_READERS = ("american", "russian", "classic")   # how a file without GameType may be read, after the target
SELF_PLAY_NODES = 4000       # a move's search budget: nodes, not seconds, so a run is the same on any machine


class Candidate(NamedTuple):
    position: Position
    ply: int        # of its game: the opening is passed over
    source: str     # where it came from, kept with the puzzle


@dataclass
class MakerStats:
    """What the maker did: candidates tried, puzzles found, and why the rest were rejected."""

    candidates: int = 0
    found: int = 0
    nodes: int = 0
    rejected: Counter[str] = field(default_factory=Counter)
    skipped: Counter[str] = field(default_factory=Counter)   # PDN records not read: why (of another board)
    cpu_s: float = 0.0

    @property
    def rejected_share(self) -> float:
        return sum(self.rejected.values()) / self.candidates if self.candidates else 0.0


def self_play_positions(variant: Variant, games: int, seed: int) -> Iterator[Candidate]:
    """Every position of `games` games of Damka against itself at a learner's level."""
    rng = random.Random(seed)
    level = find_level(SELF_PLAY_LEVEL)
    for number in range(1, games + 1):
        game, searcher = Game(variant), make_searcher(variant)
        while not game.is_over and game.ply < SELF_PLAY_PLIES:
            yield Candidate(game.position, game.ply, f"self-play {seed}.{number}, ply {game.ply}")
            choice = choose_move(variant, game.position, level, rng=rng, max_nodes=SELF_PLAY_NODES,
                                 searcher=searcher, history=game.positions[:-1])
            game.push(choice.move)


def pdn_positions(variant: Variant, paths: Iterable[Path], stats: MakerStats | None = None) -> Iterator[Candidate]:
    """Every position of the games in the PDN files played on `variant`'s board.

    A game of another variant on the same board counts: an American checkers
    game gives classic and Russian positions (the proof then uses the
    target's rules). A record without GameType tag is read as `damka import`
    reads it (`pdn_detect.detect_variant`): as `variant`, or a variant of the
    same board when that reads the file without errors, unless its squares
    plainly say another board; such records are skipped and counted in
    `stats.skipped` (English checkers problems are no 10x10 puzzles)."""
    readers = [variant.name, *(name for name in KIN_READERS
                               if name != variant.name and same_board(variant, find_variant(name)))]
    for path in paths:
        best: list[PdnGame] = []
        others: Counter[str] = Counter()
        for reader in readers:
            with io.TextIOWrapper(open_regular(path, "PDN file", PuzzleError), encoding="utf-8",
                                  errors="replace") as handle:   # a FIFO or a device: refused, not waited on
                records: list[PdnGame] = []
                elsewhere: Counter[str] = Counter()
                for record in iter_games(iter(lambda: handle.read(1 << 16), ""), DETECT, named=reader):
                    if record.variant is not None and same_board(variant, record.variant):
                        records.append(record)
                    elif record.variant is not None:
                        elsewhere[record.variant.name] += 1
            if not best or _positions(records) > _positions(best):
                best, others = records, elsewhere
            if not any(record.errors for record in records):
                break
        if stats is not None:
            for name, count in others.items():
                stats.skipped[f"{name} records of another board"] += count
        for number, record in enumerate(best, 1):
            event = record.tags.get("Event", "")
            start = record.variant.start_position() if record.variant is not None else None
            offset = 0 if record.start == start else FIRST_PLY  # a set-up position is mid-game
            for ply, position in enumerate(record.positions, offset):
                yield Candidate(position, ply, f"{path.name} game {number}{' (' + event + ')' if event else ''}, ply {ply}")


def _positions(records: list[PdnGame]) -> int:
    return sum(len(record.positions) for record in records)


def corpus_files(variant: Variant, corpus: Path) -> list[Path]:
    """The PDN files of a corpus folder (as ../shared/pdn-corpus/ is laid out) worth reading for `variant`.

    Left out: files a PDN reader is meant to refuse (`fail/`) and files of
    opening ballots (`*_man_*`), which are openings, not games."""
    return sorted(path for path in corpus.rglob("*.pdn")
                  if "fail" not in path.parts and "_man_" not in path.name and path.is_file())


def make_puzzles(variant: Variant, candidates: Iterable[Candidate], *, wanted: int,
                 max_depth: int = MAX_DEPTH, max_nodes: int = 400_000, prefix: str | None = None,
                 stats: MakerStats | None = None, prefilter: bool = True, cpu_budget: float | None = None,
                 progress: Callable[[MakerStats], None] | None = None,
                 on_found: Callable[[list[Puzzle]], None] | None = None) -> list[Puzzle]:
    """Up to `wanted` proved puzzles from `candidates`, in the order found.

    `prefilter` puts each position to a cheap look first (`may_combine`) and
    proves only those where a combination may be. `on_found` hears the list
    each time it grows (a long run saves as it goes). `cpu_budget` (seconds of this process's CPU, making the candidates
    included) stops the search early: the benchmark compares methods on it."""
    stats = stats if stats is not None else MakerStats()
    prover = make_prover(variant, max_nodes=max_nodes)
    seen: set[object] = set()
    puzzles: list[Puzzle] = []
    started = time.process_time()
    for position, ply, source in candidates:
        key = variant.repetition_key(position)
        if ply < FIRST_PLY or abs(prover.balance(position)) > MAX_BALANCE or key in seen:
            continue
        seen.add(key)
        stats.candidates += 1
        proof = None
        prover.nodes = 0
        if prefilter and isinstance(prover, MaterialProver) and not may_combine(prover, position):
            stats.rejected["no combination at a glance"] += 1
        else:
            try:
                proof = prover.prove(position, max_depth=max_depth)
            except ProofTooCostly:
                stats.rejected["over the node budget"] += 1
            else:
                if proof is None:
                    stats.rejected["no single winning move"] += 1
        stats.nodes += prover.nodes
        if proof is not None:
            stats.found += 1
            puzzles.append(from_proof(variant, position, proof, source=source,
                                      id=f"{prefix or variant.name}-{len(puzzles) + 1:04d}"))
            if on_found is not None:
                on_found(puzzles)
        stats.cpu_s = time.process_time() - started
        if progress is not None:
            progress(stats)
        if len(puzzles) >= wanted or (cpu_budget is not None and stats.cpu_s >= cpu_budget):
            break
    return puzzles
