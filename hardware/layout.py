"""Where each square sits in the electrical matrix.

The matrix has `rows` x `cols` cells; cell (row, col) is the switch on row
wire `row` and column wire `col` (and the LED under it). With no rotation and
no mirror, row 0 is rank 1 and column 0 is file a, seen from the first
player's side. `mirror` flips the files (column 0 becomes the last file), then
`rotation` (0/90/180/270, clockwise as seen from above) turns the whole board,
so a maker can mount the matrix any way round and fix it in the config.
An optional sub-board (`"b2:h8"`) limits the squares reported and lit.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

FILES = "abcdefghijklmnop"


def square_name(file: int, rank: int) -> str:
    return f"{FILES[file]}{rank + 1}"


def parse_square(name: str) -> tuple[int, int]:
    """(file, rank), 0-based; ValueError for anything else."""
    if len(name) < 2 or name[0] not in FILES or not name[1:].isdigit():
        raise ValueError(f"not a square name: {name!r}")
    return FILES.index(name[0]), int(name[1:]) - 1


class Layout:
    """Maps matrix cells to square names and back (orientation applied)."""

    def __init__(self, rows: int = 9, cols: int = 9, rotation: int = 0, mirror: bool = False,
                 sub_board: str | None = None) -> None:
        if rotation not in (0, 90, 180, 270):
            raise ValueError(f"rotation must be 0, 90, 180 or 270, not {rotation!r}")
        if rotation in (90, 270) and rows != cols:
            raise ValueError("a rotation of 90 or 270 needs a square matrix")
        self.rows, self.cols, self.rotation, self.mirror = rows, cols, rotation, mirror
        # The board as seen by the players: files x ranks.
        self.files, self.ranks = (cols, rows) if rotation in (0, 180) else (rows, cols)
        self.sub_board = sub_board
        lo, hi = (0, 0), (self.files - 1, self.ranks - 1)
        if sub_board:
            try:
                first, last = sub_board.split(":")
                lo, hi = parse_square(first.strip()), parse_square(last.strip())
            except ValueError:
                raise ValueError(f"sub_board must look like 'b2:h8', not {sub_board!r}") from None
            if not (0 <= lo[0] <= hi[0] < self.files and 0 <= lo[1] <= hi[1] < self.ranks):
                raise ValueError(f"sub_board {sub_board!r} does not fit a {self.files}x{self.ranks} board")
        self._names: list[str | None] = []
        self._cells: dict[str, tuple[int, int]] = {}
        for r in range(rows):
            for c in range(cols):
                f, k = self._orient(r, c)
                name = square_name(f, k) if lo[0] <= f <= hi[0] and lo[1] <= k <= hi[1] else None
                self._names.append(name)
                if name:
                    self._cells[name] = (r, c)

    def _orient(self, row: int, col: int) -> tuple[int, int]:
        f, k = (self.cols - 1 - col if self.mirror else col), row
        w, h = self.cols, self.rows
        for _ in range(self.rotation // 90):
            # Turning the board a quarter clockwise: (f, k) -> (k, w-1-f).
            f, k, w, h = k, w - 1 - f, h, w
        return f, k

    @property
    def squares(self) -> frozenset[str]:
        return frozenset(self._cells)

    def square(self, row: int, col: int) -> str | None:
        """The square at a matrix cell (None outside the sub-board)."""
        return self._names[row * self.cols + col]

    def cell(self, square: str) -> tuple[int, int]:
        """The matrix cell of a square; KeyError when it is not on the board."""
        return self._cells[square]

    def occupied(self, row_masks: Sequence[int]) -> frozenset[str]:
        """Square names from row masks (bit c of row r = cell (r, c) closed)."""
        out = []
        names, cols = self._names, self.cols
        for r, mask in enumerate(row_masks):
            while mask:
                low = mask & -mask
                name = names[r * cols + low.bit_length() - 1]
                if name:
                    out.append(name)
                mask ^= low
        return frozenset(out)

    def row_masks(self, squares: Iterable[str]) -> list[int]:
        masks = [0] * self.rows
        for name in squares:
            r, c = self._cells[name]
            masks[r] |= 1 << c
        return masks
