"""Square names of the physical board (`c3`) to bits of a variant's geometry,
and the bit helpers every reading of the board uses. Owns only the name table;
the tracker, the LED layers and the tests share it."""

from __future__ import annotations

from typing import Iterable

from damka.engine.variant import Variant

FILE_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def each_bit(mask: int) -> Iterable[int]:
    """The set bits of `mask`, one at a time, lowest first."""
    while mask:
        low = mask & -mask
        yield low
        mask ^= low


def bits_of(squares: Iterable[int]) -> int:
    """The mask with a bit for each square index."""
    mask = 0
    for square in squares:
        mask |= 1 << square
    return mask


class BoardMap:
    """Square names of the physical board to bits of the variant's geometry.

    Squares inside the geometry's rectangle get their geometry index (light
    squares too: a piece put there is an extra piece); squares outside it (the
    9th file and rank around an 8x8 game) get bits beyond the rectangle."""

    def __init__(self, variant: Variant) -> None:
        geometry = variant.geometry
        self.geometry = geometry
        self.playable = geometry.playable
        self._bits: dict[str, int] = {}
        self._names: dict[int, str] = {}
        for rank in range(geometry.height):
            for file in range(geometry.width):
                self._add(f"{FILE_LETTERS[file]}{rank + 1}", geometry.index(file, rank))
        self._next = geometry.stride * (geometry.height + 1)

    def _add(self, name: str, index: int) -> None:
        self._bits[name] = 1 << index
        self._names[index] = name

    def bits(self, names: Iterable[str]) -> int:
        mask = 0
        table = self._bits
        for name in names:
            bit = table.get(name)
            if bit is None:
                self._add(name, self._next)
                self._next += 1
                bit = table[name]
            mask |= bit
        return mask

    def name(self, index: int) -> str:
        return self._names[index]

    def names(self, bits: int) -> list[str]:
        out = []
        while bits:
            low = bits & -bits
            out.append(self._names[low.bit_length() - 1])
            bits ^= low
        return out
