"""A reed-switch matrix modelled on gpiozero's MockFactory (tests, the
doctor's `--mock`, the benchmarks). Imports gpiozero: only import it when a
mock board is wanted.

Electrically: row wires are driven (high idle, low to select), column wires
are inputs with pull-ups, and a closed switch joins its row wire to its column
wire (through a diode, cathode to the row, when `diodes` is true). A column
reads low when a selected (low) row reaches it: directly through one closed
switch with diodes; through any chain of closed switches without them, which
is how three closed corners of a rectangle make the fourth read closed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from gpiozero.pins.mock import MockFactory, MockPin

if TYPE_CHECKING:
    from damka.hardware.gpio_matrix import Gpiozero


class _RowPin(MockPin):
    def __init__(self, factory: Gpiozero, info: Gpiozero, matrix: "SwitchMatrix", index: int) -> None:
        super().__init__(factory, info)
        self.matrix, self.index = matrix, index

    def _change_state(self, value):
        changed = super()._change_state(value)
        if changed and not value and self._function == "output":
            self.matrix._row_selected(self.index)
        return changed


class _ColPin(MockPin):
    def __init__(self, factory: Gpiozero, info: Gpiozero, matrix: "SwitchMatrix", index: int) -> None:
        super().__init__(factory, info)
        self.matrix, self.index = matrix, index

    def _get_state(self):
        if self._function == "input" and self.matrix._pulled_low(self.index):
            return False
        return super()._get_state()


class SwitchMatrix:
    """Switches on a MockFactory's pins. Tests set `closed` squares as matrix
    cells, make a switch `chatter` (a callable giving its contact state each
    time its row is selected), and press `buttons` (pins read low)."""

    def __init__(self, factory: MockFactory, row_pins: Sequence[int], col_pins: Sequence[int],
                 diodes: bool = True) -> None:
        self.factory, self.diodes = factory, diodes
        self.rows, self.cols = len(row_pins), len(col_pins)
        self.closed: set[tuple[int, int]] = set()
        self.keys: set[tuple[int, int]] = set()  # buttons held on a key row (a row like the others)
        self.chatter: dict[tuple[int, int], Callable[[], bool]] = {}
        self._contacts = [0] * self.rows  # contact state, sampled when each row is selected
        self.row_pins = [factory.pin(p, pin_class=_RowPin, matrix=self, index=i) for i, p in enumerate(row_pins)]
        self.col_pins = [factory.pin(p, pin_class=_ColPin, matrix=self, index=i) for i, p in enumerate(col_pins)]
        self.selections = 0

    # -- what the test does ------------------------------------------------
    def set_closed(self, cells: Iterable[tuple[int, int]]) -> None:
        self.closed = set(cells)

    def bounce(self, cell: tuple[int, int], flips: int, seed: int = 0, max_run: int | None = None) -> None:
        """Make `cell` chatter for its next `flips` readings, then settle to
        whatever `closed` says. Readings are random; with `max_run`, no more
        than max_run - 1 equal readings follow each other (a switch chattering
        faster than a debouncer that needs max_run equal scans)."""
        rng = random.Random(seed)
        readings: list[bool] = []
        state = rng.random() < 0.5
        while len(readings) < flips:
            run = rng.randrange(1, max_run) if max_run else 1
            readings.extend([state] * run)
            state = not state if max_run else rng.random() < 0.5
        readings = readings[:flips]
        readings.reverse()

        def contact() -> bool:
            if not readings:
                self.chatter.pop(cell, None)
                return cell in self.closed
            return readings.pop()

        self.chatter[cell] = contact

    # -- the electrical model ----------------------------------------------
    def _row_selected(self, r: int) -> None:
        self.selections += 1
        mask = 0
        for c in range(self.cols):
            fn = self.chatter.get((r, c))
            if (fn() if fn else (r, c) in self.closed or (r, c) in self.keys):
                mask |= 1 << c
        self._contacts[r] = mask
        if not self.diodes:
            for other in range(self.rows):
                if other != r:
                    self._contacts[other] = sum(1 << c for c in range(self.cols) if (other, c) in self.closed)

    def _low_rows(self) -> list[int]:
        return [i for i, p in enumerate(self.row_pins) if p._function == "output" and not p._state]

    def _pulled_low(self, col: int) -> bool:
        low = self._low_rows()
        if not low:
            return False
        if self.diodes:
            return any(self._contacts[r] >> col & 1 for r in low)
        # No diodes: current flows both ways through every closed switch.
        seen_rows, seen_cols = set(low), set()
        frontier_rows = list(low)
        while frontier_rows:
            r = frontier_rows.pop()
            mask = self._contacts[r]
            for c in range(self.cols):
                if mask >> c & 1 and c not in seen_cols:
                    seen_cols.add(c)
                    for r2 in range(self.rows):
                        if r2 not in seen_rows and self._contacts[r2] >> c & 1:
                            seen_rows.add(r2)
                            frontier_rows.append(r2)
        return col in seen_cols


def mock_board(row_pins: Sequence[int] = (4, 5, 6, 7, 8, 9, 10, 11, 12),
               col_pins: Sequence[int] = (13, 14, 15, 16, 17, 18, 19, 20, 21),
               diodes: bool = True, factory: MockFactory | None = None) -> tuple[MockFactory, SwitchMatrix]:
    """A fresh MockFactory with a switch matrix on the given pins."""
    factory = factory or MockFactory()
    return factory, SwitchMatrix(factory, row_pins, col_pins, diodes=diodes)
