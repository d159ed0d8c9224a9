"""Board geometry: any width and height, any set of playable squares.

A square is an int, the index of its bit in a *padded* layout:
``index = rank * (width + 1) + file``. The extra, never-playable column at
``file == width`` catches pieces that a shift would otherwise wrap from one
edge of the board to the other, so a whole bitboard moves one step in any of
the eight directions with one shift and one mask (speed: no per-square loops).

Sets of squares are bitboards (Python ints). Square names are algebraic:
files `a`, `b`, ... left to right for the player at rank 1, ranks from 1
(`e5`, `j10`, `l12`); `a1` is dark.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator

from damka.engine.errors import InvalidSquareError
from damka.engine.reasons import Reason

FILE_LETTERS = "abcdefghijklmnopqrstuvwxyz"

# Direction names in a fixed order; diagonals first (draughts uses only those).
DIAGONALS = ("ne", "nw", "se", "sw")
ORTHOGONALS = ("n", "s", "e", "w")
ALL_DIRECTIONS = DIAGONALS + ORTHOGONALS


def iter_bits(bits: int) -> Iterator[int]:
    """Yield the indices of the set bits, lowest first."""
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low


def shift(bits: int, delta: int) -> int:
    """Shift a bitboard by a signed number of bit positions (no mask applied)."""
    return bits << delta if delta >= 0 else bits >> -delta


@dataclass(frozen=True)
class Geometry:
    """A rectangular board with a set of playable squares.

    `playable` is the bitboard of squares where pieces may stand; `region`
    (files and ranks, inclusive, 0-based) names the part of a larger physical
    board that is in play, e.g. the central 7x7 of the 9x9 board.
    """

    width: int
    height: int
    playable: int
    stride: int = field(init=False)
    deltas: dict[str, int] = field(init=False, repr=False, compare=False)
    _numbers: dict[int, int] = field(init=False, repr=False, compare=False)
    _by_number: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        stride = self.width + 1
        object.__setattr__(self, "stride", stride)
        object.__setattr__(
            self,
            "deltas",
            {
                "n": stride, "s": -stride, "e": 1, "w": -1,
                "ne": stride + 1, "nw": stride - 1, "se": -stride + 1, "sw": -stride - 1,
            },
        )
        # PDN numbering: playable squares counted from the top rank (the far
        # side for the player at rank 1), left to right, starting at 1.
        order = sorted(iter_bits(self.playable), key=lambda sq: (-(sq // stride), sq % stride))
        object.__setattr__(self, "_numbers", {sq: n for n, sq in enumerate(order, 1)})
        object.__setattr__(self, "_by_number", tuple(order))

    # -- construction -------------------------------------------------------

    @classmethod
    def rectangle(
        cls,
        width: int,
        height: int,
        *,
        dark_only: bool,
        files: tuple[int, int] | None = None,
        ranks: tuple[int, int] | None = None,
    ) -> "Geometry":
        """A board whose playable squares are the dark ones (or all), optionally
        limited to a sub-rectangle of files and ranks (0-based, inclusive)."""
        f0, f1 = files if files else (0, width - 1)
        r0, r1 = ranks if ranks else (0, height - 1)
        playable = 0
        for rank in range(r0, r1 + 1):
            for file in range(f0, f1 + 1):
                if not dark_only or (file + rank) % 2 == 0:
                    playable |= 1 << (rank * (width + 1) + file)
        return cls(width, height, playable)

    # -- squares ------------------------------------------------------------

    def index(self, file: int, rank: int) -> int:
        """The square at 0-based file and rank (not checked for playability)."""
        return rank * self.stride + file

    def file_rank(self, square: int) -> tuple[int, int]:
        rank, file = divmod(square, self.stride)
        return file, rank

    def is_playable(self, square: int) -> bool:
        return square >= 0 and bool(self.playable >> square & 1)

    def name(self, square: int) -> str:
        file, rank = self.file_rank(square)
        return f"{FILE_LETTERS[file]}{rank + 1}"

    def parse(self, text: str) -> int:
        """The playable square named `text` (`e5`); InvalidSquareError otherwise."""
        name = text.strip().lower()
        if len(name) < 2 or name[0] not in FILE_LETTERS or not name[1:].isdigit():
            raise InvalidSquareError(Reason("square.not_name", text=text))
        file = FILE_LETTERS.index(name[0])
        rank = int(name[1:]) - 1
        if not (0 <= file < self.width and 0 <= rank < self.height):
            last = f"{FILE_LETTERS[self.width - 1]}{self.height}"
            raise InvalidSquareError(Reason("square.off_board", text=text, last=last))
        square = self.index(file, rank)
        if not self.is_playable(square):
            raise InvalidSquareError(Reason("square.not_playable", text=text))
        return square

    def number(self, square: int) -> int:
        """PDN square number (1 = top-left playable square seen from rank 1)."""
        return self._numbers[square]

    def from_number(self, number: int) -> int:
        if not 1 <= number <= len(self._by_number):
            raise InvalidSquareError(Reason("square.number_off_board", number=number, last=len(self._by_number)))
        return self._by_number[number - 1]

    @property
    def squares(self) -> tuple[int, ...]:
        """Playable squares, a1 first, then along rank 1, then rank 2, ..."""
        return tuple(iter_bits(self.playable))

    def neighbour(self, square: int, direction: str) -> int | None:
        """The playable square one step away, or None at the edge."""
        target = square + self.deltas[direction]
        return target if self.is_playable(target) else None

    def mask_of(self, names: "Iterator[str] | list[str] | tuple[str, ...] | set[str] | frozenset[str]") -> int:
        """Bitboard of the named squares."""
        bits = 0
        for name in names:
            bits |= 1 << self.parse(name)
        return bits

    def names_of(self, bits: int) -> list[str]:
        return [self.name(square) for square in iter_bits(bits)]
