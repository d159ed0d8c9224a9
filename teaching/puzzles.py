"""A puzzle as stored: a position, its one winning move, and how hard it is.

A set is one JSON file per variant (`sets/<variant>.json` ships with the
package; `damka puzzles make` writes the same format):

    {"format": "damka-puzzles", "version": 1, "variant": "classic",
     "puzzles": [{"id": "classic-0001", "fen": "W:W...:B...", "solution": "c3-d4",
                  "line": ["c3-d4", "e5xc3", "b2xd4xf6"], "depth": 3, "gain": 2,
                  "difficulty": 2, "rating": 1000, "source": "self-play 12, ply 31"}]}

Moves are written as the variant's notation writes them (the board shows
them the same way). `gain` is the pieces the solution wins at `depth` plies
(100: it wins the game). Reading checks every field, so a hand-edited file
gives one clear line saying which puzzle and what is wrong.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from damka.base.files import MAX_PUZZLE_SET_BYTES, load_json, read_text
from damka.engine.errors import DamkaError
from damka.engine.notation import format_move, parse_move
from damka.engine.pdn_detect import detect_variant, same_board
from damka.engine.puzzle_proof import MaterialProver, Proof
from damka.engine.puzzle_turn_proof import TurnProver
from damka.engine.variant import Position, Variant
from damka.engine.variants import default_variant, find_variant

FORMAT = "damka-puzzles"
VERSION = 1
MAX_PUZZLES = 2000   # the sets that ship have 100-300; reading plays each one's line (0.2-0.7 ms each)


class PuzzleError(DamkaError, ValueError):
    """A puzzle file or record that cannot be used, with where and why."""


@dataclass(frozen=True)
class Puzzle:
    """One stored puzzle (see the module docstring for the fields)."""

    id: str
    fen: str
    solution: str
    line: tuple[str, ...]
    depth: int
    gain: int
    difficulty: int
    rating: int
    source: str = ""

    def position(self, variant: Variant) -> Position:
        return variant.parse_position(self.fen)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["line"] = list(self.line)
        return data


def from_proof(variant: Variant, position: Position, proof: Proof, *, id: str, source: str) -> Puzzle:
    """The stored form of a proved position."""
    line: list[str] = []
    here = position
    for move in proof.line:
        line.append(format_move(variant, here, move))
        here = variant.play(here, move)
    return Puzzle(id=id, fen=variant.format_position(position), solution=line[0], line=tuple(line),
                  depth=proof.depth, gain=proof.gain, difficulty=proof.difficulty, rating=proof.rating,
                  source=source)


def make_prover(variant: Variant, *, max_nodes: int = 400_000) -> MaterialProver | TurnProver:
    """The prover of `variant`'s puzzles: one move that wins men, or (multiwarcaby) one turn that wins points."""
    if variant.search_kind == "multi":
        return TurnProver(variant, max_nodes=max_nodes)
    return MaterialProver(variant, max_nodes=max_nodes)


def reprove(variant: Variant, puzzle: Puzzle, *, max_nodes: int = 2_000_000) -> str | None:
    """None when the engine proves `puzzle` again (same only winning move, same depth); else what differs."""
    position = puzzle.position(variant)
    proof = make_prover(variant, max_nodes=max_nodes).prove(position, max_depth=puzzle.depth)
    if proof is None:
        return f"{puzzle.id}: no unique winning move within {puzzle.depth} plies"
    solution = format_move(variant, position, proof.solution)
    if solution != puzzle.solution or proof.depth != puzzle.depth:
        return f"{puzzle.id}: the proof finds {solution} at {proof.depth} plies, the set says {puzzle.solution} at {puzzle.depth}"
    return None


# -- files ------------------------------------------------------------------------------


def dumps(variant: Variant, puzzles: list[Puzzle]) -> str:
    body = ",\n".join("  " + json.dumps(puzzle.to_json(), ensure_ascii=False) for puzzle in puzzles)
    return (f'{{"format": "{FORMAT}", "version": {VERSION}, "variant": {json.dumps(variant.name)},\n'
            f' "puzzles": [\n{body}\n]}}\n')


def loads(text: str, where: str) -> tuple[Variant, list[Puzzle]]:
    """A set from its JSON text; PuzzleError naming `where` and the puzzle on anything wrong."""
    data = load_json(text, where, PuzzleError)   # (nested past MAX_NESTING: refused, not a RecursionError)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise PuzzleError(f"{where}: not a Damka puzzle set (no \"format\": \"{FORMAT}\")")
    if data.get("version") != VERSION:
        raise PuzzleError(f"{where}: puzzle set version {data.get('version')!r}; this Damka reads version {VERSION}")
    try:
        variant = find_variant(str(data.get("variant")))
    except (DamkaError, ValueError) as exc:
        raise PuzzleError(f"{where}: {exc}") from None
    records = data.get("puzzles")
    if not isinstance(records, list):
        raise PuzzleError(f"{where}: \"puzzles\" must be a list")
    if len(records) > MAX_PUZZLES:
        raise PuzzleError(f"{where}: {len(records):,} puzzles; a set has at most {MAX_PUZZLES:,} "
                          f"(each is checked by playing its line)")
    puzzles = [_puzzle(variant, record, f"{where}: puzzle {number}") for number, record in enumerate(records, 1)]
    return variant, puzzles


def _puzzle(variant: Variant, record: Any, where: str) -> Puzzle:
    if not isinstance(record, dict):
        raise PuzzleError(f"{where}: not an object")
    fields: dict[str, Any] = {}
    for name, kind in (("id", str), ("fen", str), ("solution", str), ("depth", int), ("gain", int),
                       ("difficulty", int), ("rating", int)):
        value = record.get(name)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise PuzzleError(f"{where}: {name!r} missing or not {kind.__name__}")
        fields[name] = value
    line = record.get("line", [fields["solution"]])
    if not isinstance(line, list) or not line or not all(isinstance(move, str) for move in line):
        raise PuzzleError(f"{where}: 'line' must be a list of moves")
    if not 1 <= fields["difficulty"] <= 5 or not 1 <= fields["depth"] <= 20:
        raise PuzzleError(f"{where}: difficulty 1-5 and depth 1-20, not {fields['difficulty']} and {fields['depth']}")
    puzzle = Puzzle(line=tuple(line), source=str(record.get("source", "")), **fields)
    try:
        here = puzzle.position(variant)
        for ply, text in enumerate(puzzle.line, 1):
            here = variant.play(here, parse_move(variant, here, text))
    except (DamkaError, ValueError) as exc:
        raise PuzzleError(f"{where} ({puzzle.id}): {exc}") from None
    board = board_of(variant, puzzle)
    if board != variant.name:
        raise PuzzleError(f"{where} ({puzzle.id}): its position and line are of {board}, another board than "
                          f"{variant.name}'s")
    if puzzle.line[0] != puzzle.solution:
        raise PuzzleError(f"{where} ({puzzle.id}): the line must start with the solution {puzzle.solution}")
    return puzzle


def board_of(variant: Variant, puzzle: Puzzle) -> str:
    """`variant`'s name when the puzzle is of its board, else the variant whose board its squares and
    line plainly say (an English checkers problem in a 10x10 set: american), read as `damka import`
    reads a record without a game tag (`pdn_detect.detect_variant`)."""
    found = default_variant(detect_variant(puzzle.fen, puzzle.line, _play_text, named=variant.name))
    return variant.name if same_board(variant, found) else found.name


def _play_text(variant: Variant, position: Position, text: str) -> Position:
    return variant.play(position, parse_move(variant, position, text))


def read_file(path: Path) -> tuple[Variant, list[Puzzle]]:
    """The set in the file at `path`: a regular file of at most `MAX_PUZZLE_SET_BYTES` (PuzzleError, one line)."""
    return loads(read_text(path, "puzzle set", MAX_PUZZLE_SET_BYTES, PuzzleError), str(path))


def shipped(variant_name: str) -> list[Puzzle]:
    """The set that ships with Damka for `variant_name` ([] when there is none)."""
    variant = find_variant(variant_name)
    source = resources.files("damka.teaching.sets").joinpath(f"{variant.name}.json")
    if not source.is_file():
        return []
    return loads(source.read_text("utf-8"), f"damka/teaching/sets/{variant.name}.json")[1]


@cache
def shipped_count(variant_name: str) -> int:
    """How many puzzles ship for `variant_name`: counted, not checked (0.1-0.2 s a set here), for the
    progress lines ("Puzzles solved: 3 of 1000") that the board and the page show often."""
    source = resources.files("damka.teaching.sets").joinpath(f"{find_variant(variant_name).name}.json")
    if not source.is_file():
        return 0
    puzzles = json.loads(source.read_text("utf-8")).get("puzzles")
    return len(puzzles) if isinstance(puzzles, list) else 0


@cache
def shipped_set(variant_name: str) -> tuple[Puzzle, ...]:
    """`shipped(variant_name)` read once (reading checks every puzzle's line: the board asks often)."""
    return tuple(shipped(variant_name))
