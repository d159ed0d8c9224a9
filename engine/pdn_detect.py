"""Which game a PDN record is in when no tag says so: its FEN's board, then its first moves.

PDN 3.0 reads a record without GameType as international draughts, but real
8x8 archives (OCA, CheckerBoard's Tinsley games and ballots, Russian
collections) leave the tag out. So, as pydraughts guesses from the first
move: squares past 50 are a 12x12 board, past 32 a 10x10 one, letter-digit
squares (`c3`) a Russian board; a record whose squares all fit 1..32 is
tried as american, then international, keeping the first in which its FEN
and first moves are legal. Games that share a board cannot be told apart
this way (Czech and Italian records read like Russian and american ones):
for those, the reader is told the variant (`damka import --variant`,
`damka puzzles make VARIANT`). A named variant stands in for the candidate
of its own board and is kept unless a likelier candidate of another board
reads the record; so a file of English checkers problems (every square
1..32, legal on the 8x8 board) is american even when international is
named: a named variant is never a guess against what the record plainly is. `damka import` and `damka
puzzles make` both read untagged records through `detect_variant`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache

from damka.engine.errors import DamkaError
from damka.engine.variant import Position, Variant
from damka.engine.variants import default_variant

DETECT = "detect"  # the reader's default variant meaning "find it from the record" (not a variant name)
PROBE_MOVES = 4    # the first moves tried on each candidate

_NUMBER_RE = re.compile(r"\d+")
_ALPHA_RE = re.compile(r"(?<!\w)[a-zA-Z]\d")  # `c3`, not the `x4` of `37x46`


def fen_side_fixed(variant: Variant, fen: str, warn: Callable[[str], None] | None = None) -> str:
    """`fen` with a `?` side to move (real files write it when they do not know) read as the
    side that starts the game; `warn` is told."""
    side, colon, rest = fen.strip().partition(":")
    if side.strip() != "?" or not colon:
        return fen
    first = _start_side(variant)
    if warn is not None:
        warn(f"FEN tag: the side to move is '?'; {first} (the side that starts) is used")
    return f"{first}:{rest}"


@cache  # speed: once per variant
def _start_side(variant: Variant) -> str:
    return variant.format_position(variant.start_position()).split(":")[0]


def candidates(fen: str, moves: Sequence[str]) -> list[str]:
    """The variants a record with this FEN and these first moves may be in, likeliest first."""
    fen_board = re.sub(r"^[^:]*:", "", fen.strip())  # without the side to move (`?`, `W`)
    fen_board = re.sub(r"(^|[:,])[WBK]*", r"\1", fen_board)  # without colours and king marks: squares
    text = " ".join([fen_board, *moves])
    if _ALPHA_RE.search(text):
        return ["russian"]
    squares = [int(number) for number in _NUMBER_RE.findall(text)]
    highest = max(squares, default=0)
    if highest > 50:
        return ["canadian"]
    if highest > 32:
        return ["international"]
    return ["american", "international"]


def same_board(variant: Variant, other: Variant) -> bool:
    """Whether a position of `other` is a position of `variant` as it stands (same board, same kind of pieces)."""
    return other.name == variant.name or (other.board_size == variant.board_size and other.family == variant.family)


def with_named(names: Sequence[str], named: str) -> list[str]:
    """The variants to try when the caller names `named`: the candidates `names` likelier than
    the one of its board (american before international), then `named` itself (in the place of
    its board's candidate: classic for american), last; just `named` when none is of its board."""
    chosen = default_variant(named)
    for index, name in enumerate(names):
        if same_board(chosen, default_variant(name)):
            return [*names[:index], chosen.name]
    return [chosen.name]


def detect_variant(fen: str, moves: Sequence[str],
                   read_move: Callable[[Variant, Position, str], Position], named: str | None = None) -> str:
    """The name of the first candidate variant in which `fen` (may be empty) and `moves`
    (the first few) are legal (`read_move` plays one text or raises); the likeliest if none.
    `named`: the variant the caller names for records without a game tag (`with_named`); it
    is kept when no likelier candidate reads the record (its reader then says what is wrong)."""
    names = candidates(fen, moves)
    if named is not None:
        names = with_named(names, named)
    if len(names) == 1:
        return names[0]   # speed: the one candidate is the answer whether it reads the record or not
    for name in names:
        variant = default_variant(name)
        try:
            position = variant.parse_position(fen_side_fixed(variant, fen)) if fen.strip() \
                else variant.start_position()
            for text in moves:
                position = read_move(variant, position, text)
        except (DamkaError, ValueError):
            continue
        return name
    return names[-1] if named is not None else names[0]
