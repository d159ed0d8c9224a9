"""The multiwarcaby position and its position string.

A position is a small immutable value: the occupancy bitboard (all pieces are
shared, so that is the whole board), whose turn it is and which of its two
moves, the small points, the board at the start of the turn (for the rule that
a turn must change the board), which sides are still in play, and the two
counters the end rules need. The string form is described in
`docs/multiwarcaby-position.md`:

    MW9:S2:T1.1:P0,0:K0:Q0:O1ooooooo1/ooooooooo/.../1ooooooo1
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from damka.engine.errors import PositionError
from damka.engine.geometry import Geometry
from damka.engine.reasons import Reason

# The error for a field of a position string: (field key, what is wrong) -> PositionError.
Failure = Callable[[str, str], PositionError]

TEAM_LETTERS = "AB"


@dataclass(frozen=True, slots=True)
class MultiwarcabyPosition:
    """One moment of a multiwarcaby game.

    `calm_turns`: how many turns in a row, up to the current one, started with
    their side unable to capture within its two moves (the current turn is not
    counted yet). `quiet_turns`: how many whole turns in a row were played
    without a capture.
    """

    occupied: int
    side: int = 0
    move_in_turn: int = 0
    scores: tuple[int, ...] = (0, 0)
    turn_start: int = 0  # the board when the current turn began (== occupied on its first move)
    active: tuple[bool, ...] = (True, True)
    calm_turns: int = 0
    quiet_turns: int = 0

    def __repr__(self) -> str:
        return (
            f"MultiwarcabyPosition(occupied={self.occupied:#x}, side={self.side}, "
            f"move_in_turn={self.move_in_turn}, scores={self.scores}, turn_start={self.turn_start:#x}, "
            f"active={self.active}, calm_turns={self.calm_turns}, quiet_turns={self.quiet_turns})"
        )


@dataclass(frozen=True)
class PositionFormat:
    """What a variant's position strings look like: the board tag, the region of
    the 9x9 board it lists, and the sides."""

    tag: str  # "MW9" or "MW7"
    geometry: Geometry
    files: tuple[int, int]
    ranks: tuple[int, int]
    sides: int
    teams: bool

    @property
    def sides_field(self) -> str:
        return "SAB" if self.teams else f"S{self.sides}"

    def side_label(self, side: int) -> str:
        return TEAM_LETTERS[side] if self.teams else str(side + 1)

    # -- writing --------------------------------------------------------------

    def board_text(self, occupied: int) -> str:
        rows = []
        for rank in range(self.ranks[1], self.ranks[0] - 1, -1):
            row, run = [], 0
            for file in range(self.files[0], self.files[1] + 1):
                if occupied >> self.geometry.index(file, rank) & 1:
                    if run:
                        row.append(str(run))
                        run = 0
                    row.append("o")
                else:
                    run += 1
            if run:
                row.append(str(run))
            rows.append("".join(row))
        return "/".join(rows)

    def format(self, position: MultiwarcabyPosition) -> str:
        fields = [
            self.tag,
            self.sides_field,
            f"T{self.side_label(position.side)}.{position.move_in_turn + 1}",
            "P" + ",".join(str(score) for score in position.scores),
        ]
        out = [self.side_label(i) for i, active in enumerate(position.active) if not active]
        if out:
            fields.append("X" + ",".join(out))
        fields += [f"K{position.calm_turns}", f"Q{position.quiet_turns}", "O" + self.board_text(position.occupied)]
        if position.move_in_turn:
            fields.append("B" + self.board_text(position.turn_start))
        return ":".join(fields)

    # -- reading --------------------------------------------------------------

    # Long on purpose: each field of the position string checked in order, each error naming it.
    def parse(self, text: str) -> MultiwarcabyPosition:
        fields = text.strip().split(":")
        if fields[0].upper() != self.tag:
            raise PositionError(Reason("mw.board_tag", text=fields[0], tag=self.tag))
        seen: dict[str, tuple[int, str, str]] = {}
        for number, item in enumerate(fields[1:], 2):
            key = item[:1].upper()
            if not key or key not in "STPXKQOB":
                raise PositionError(Reason("mw.unknown_field", number=number, item=item))
            if key in seen:
                raise PositionError(Reason("mw.field_twice", number=number, item=item, key=key))
            seen[key] = (number, item[1:], item)
        for key, missing in (("S", "mw.no_sides"), ("T", "mw.no_turn"), ("P", "mw.no_scores"), ("O", "mw.no_board")):
            if key not in seen:
                raise PositionError(Reason(missing))

        def fail(key: str, problem: str) -> PositionError:
            number, _, item = seen[key]
            return PositionError(Reason("mw.field", number=number, item=item, problem=problem))

        if seen["S"][1].upper() != self.sides_field[1:]:
            raise fail("S", Reason("mw.sides", sides=self.sides_field))
        side, move_in_turn = self._parse_turn(seen["T"][1], fail)
        scores = self._parse_numbers(seen["P"][1], fail, "P")
        if len(scores) != self.sides:
            raise fail("P", Reason("mw.scores", sides=self.sides, count=len(scores)))
        active = [True] * self.sides
        if "X" in seen:
            for label in seen["X"][1].split(","):
                index = self._side_index(label.strip())
                if index is None:
                    raise fail("X", Reason("mw.not_side", label=label))
                active[index] = False
        if not active[side]:
            raise fail("T", Reason("mw.mover_out"))
        calm = self._parse_count(seen, "K", fail)
        quiet = self._parse_count(seen, "Q", fail)
        occupied = self._parse_board(seen["O"][1], fail, "O")
        if move_in_turn:
            if "B" not in seen:
                raise fail("T", Reason("mw.needs_start"))
            turn_start = self._parse_board(seen["B"][1], fail, "B")
            if turn_start == occupied:
                raise fail("B", Reason("mw.start_same"))
            if turn_start.bit_count() < occupied.bit_count():
                raise fail("B", Reason("mw.start_fewer"))
        else:
            if "B" in seen:
                raise fail("B", Reason("mw.start_first"))
            turn_start = occupied
        return MultiwarcabyPosition(
            occupied=occupied,
            side=side,
            move_in_turn=move_in_turn,
            scores=tuple(scores),
            turn_start=turn_start,
            active=tuple(active),
            calm_turns=calm,
            quiet_turns=quiet,
        )

    def _side_index(self, label: str) -> int | None:
        labels = [self.side_label(i) for i in range(self.sides)]
        label = label.upper()
        return labels.index(label) if label in labels else None

    def _parse_turn(self, value: str, fail: Failure) -> tuple[int, int]:
        label, dot, move = value.partition(".")
        side = self._side_index(label)
        if side is None:
            names = ", ".join(self.side_label(i) for i in range(self.sides))
            raise fail("T", Reason("mw.turn_side", label=label, names=names))
        if not dot or move not in ("1", "2"):
            raise fail("T", Reason("mw.turn_form"))
        return side, int(move) - 1

    @staticmethod
    def _parse_numbers(value: str, fail: Failure, key: str) -> list[int]:
        parts = value.split(",")
        if not all(part.strip().isdigit() for part in parts):
            raise fail(key, Reason("mw.numbers"))
        return [int(part) for part in parts]

    @staticmethod
    def _parse_count(seen: Mapping[str, tuple[int, str, str]], key: str, fail: Failure) -> int:
        if key not in seen:
            return 0
        value = seen[key][1]
        if not value.isdigit():
            raise fail(key, Reason("mw.count"))
        return int(value)

    def _parse_board(self, value: str, fail: Failure, key: str) -> int:
        height = self.ranks[1] - self.ranks[0] + 1
        width = self.files[1] - self.files[0] + 1
        rows = value.split("/")
        if len(rows) != height:
            raise fail(key, Reason("mw.ranks", height=height, count=len(rows)))
        occupied = 0
        for row_number, row in enumerate(rows):
            rank = self.ranks[1] - row_number
            file = self.files[0]
            for char in row:
                if char in "oO":
                    if file <= self.files[1]:
                        occupied |= 1 << self.geometry.index(file, rank)
                    file += 1
                elif char in "123456789":
                    file += int(char)
                else:
                    raise fail(key, Reason("mw.board_char", rank=rank + 1, char=char))
            if file - self.files[0] != width:
                raise fail(key, Reason("mw.rank_length", rank=rank + 1, row=row, count=file - self.files[0], width=width))
        return occupied


def with_side_out(position: MultiwarcabyPosition, side: int, next_side: int) -> MultiwarcabyPosition:
    """`position` with `side` out of play; if it was to move, `next_side` starts a fresh turn."""
    active = tuple(flag and index != side for index, flag in enumerate(position.active))
    if position.side != side:
        return replace(position, active=active)
    return replace(
        position, active=active, side=next_side, move_in_turn=0, turn_start=position.occupied
    )
