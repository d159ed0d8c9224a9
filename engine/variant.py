"""The base of every variant: what the rest of Damka may ask of the rules.

A variant is an object with class-level settings and a few methods. Positions
are immutable and carry everything the rules need (side to move, counters,
scores), so taking a move back is popping a stack and nothing is recomputed.
Two families implement this: `draughts` (two sides, colours, kings) and
`multiwarcaby` (shared pieces, 2-4 sides or teams, two moves a turn).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar, Hashable

from damka.engine.geometry import Geometry
from damka.engine.move import Move
from damka.engine.option_spec import OptionSpec

Position = Any  # each family defines its own immutable position type


@dataclass(frozen=True)
class Result:
    """How a game ended.

    `points` are the game points per side (1 for a win, 1/2 each for a draw in
    two-side draughts); `places` are 1-based finishing places per side (ties
    share a place); `reason` is a short human phrase ("no legal move",
    "threefold repetition", "15 king moves each without capture", "on time").
    """

    points: tuple[float, ...]
    places: tuple[int, ...]
    reason: str
    winner: int | None = None  # side index when exactly one side won

    @property
    def is_draw(self) -> bool:
        return self.winner is None and len(set(self.places)) == 1


class Variant(ABC):
    """Rules of one game. Subclasses set the class attributes."""

    name: str = ""
    aliases: tuple[str, ...] = ()
    title: str = ""
    family: str = ""  # "draughts" or "multiwarcaby"
    geometry: Geometry
    sides: tuple[str, ...] = ("white", "black")  # side names in order of play
    moves_per_turn: int = 1
    numeric_notation: bool = False  # PDN numbers (american, international, canadian)
    pdn_gametype: str = ""  # the GameType tag value
    # Every option `create` takes, declared once: checks, PDN tags, the saved
    # options and the command-line flags are built from these.
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    shows_scores: ClassVar[bool] = False  # small points (captured pieces) are shown per side
    search_kind: ClassVar[str] = "alphabeta"  # which searcher plays it: "alphabeta" or "multi" (n sides, 2 moves)
    uniform_piece: ClassVar[str | None] = None  # the code of every piece when all are alike ("o"), else None
    pdn_points_scale: ClassVar[int] = 1  # PDN writes game points times this (draughts: 2-0, 1-1)

    # -- options and how the sides are named ---------------------------------

    @classmethod
    @abstractmethod
    def create(cls, **options: Any) -> Variant:
        """The variant with these options, each checked against `option_specs`:
        how `find_variant` and a saved game build one. (Any: each option has
        its own type, which its OptionSpec checks at run time.)"""

    @classmethod
    def option_spec(cls, name: str) -> OptionSpec:
        """The declaration of option `name`; KeyError if the variant has none."""
        for spec in cls.option_specs:
            if spec.name == name:
                return spec
        raise KeyError(name)

    @classmethod
    def takes_option(cls, name: str) -> bool:
        """Whether the variant declares option `name` (e.g. `sides`: more than two players)."""
        return any(spec.name == name for spec in cls.option_specs)

    def option_values(self) -> dict[str, object]:
        """Every option's value in this variant (the attribute of the same name)."""
        return {spec.name: getattr(self, spec.name) for spec in self.option_specs}

    def changed_options(self) -> dict[str, object]:
        """The options that differ from their defaults: what `find_variant` needs
        to rebuild this variant, and what the store and the PDN record keep."""
        defaults = {spec.name: spec.default for spec in self.option_specs}
        return {name: value for name, value in self.option_values().items() if value != defaults[name]}

    @property
    def board_size(self) -> tuple[int, int]:
        """(width, height) of the board the game needs."""
        return self.geometry.width, self.geometry.height

    def player_name(self, side: int) -> str:
        """The name to show for a side: "White", "Player 1", "Team A"."""
        name = self.sides[side]
        return name[:1].upper() + name[1:]

    def player_tag(self, side: int) -> str:
        """The PDN tag naming the player of a side: "White", "Black" (draughts), "Player1"..."""
        return f"Player{side + 1}"

    def side_token(self, side: int) -> str:
        """How a side is written in the sensor log: "white", or "1".."4"."""
        return str(side + 1)

    def clock_labels(self) -> list[str]:
        """The labels of the `[%clock ...]` annotation per side: `w`, `b` or `p1=`, `p2=`.."""
        return [f"p{index + 1}=" for index in range(len(self.sides))]

    def record_tags(self) -> dict[str, str]:
        """PDN tags every record of this variant carries beside its options
        (multiwarcaby: Sides and MovesPerTurn, for readers that do not know it)."""
        return {}

    def starts_move_number(self, position: Position, start: Position) -> bool:
        """Whether a record that starts at `start` writes a move number before the move
        played from `position` (multiwarcaby: each turn; draughts: each round)."""
        return self.move_in_turn(position) == 0

    def casual_time_preset(self) -> str:
        """The name of the time control preset for a casual game (controller/clock/timecontrol.py)."""
        return "rapid-64"

    # -- positions ----------------------------------------------------------

    @abstractmethod
    def start_position(self) -> Position:
        """The position the game starts from."""

    @abstractmethod
    def parse_position(self, text: str) -> Position:
        """Read a FEN (draughts) or position string (multiwarcaby); PositionError if bad."""

    @abstractmethod
    def format_position(self, position: Position) -> str:
        """The FEN or position string of `position`; `parse_position` reads it back."""

    @abstractmethod
    def side_to_move(self, position: Position) -> int:
        """Index into `sides` of the side whose move it is."""

    def move_in_turn(self, position: Position) -> int:
        """0 for the first move of a turn, 1 for the second (multiwarcaby)."""
        return 0

    def turn_goes_on(self, position: Position) -> bool:
        """Whether the side to move still owes a move of the turn it began
        (multiwarcaby's second move). A move that ends the game ends the turn
        with it: no second move is asked for after the end."""
        return self.move_in_turn(position) != 0 and self.outcome(position, 1) is None

    @abstractmethod
    def occupancy(self, position: Position) -> int:
        """Bitboard of occupied squares: all that the reed switches can see."""

    @abstractmethod
    def piece_at(self, position: Position, square: int) -> str | None:
        """What stands on `square`: None, or a short code (draughts: 'w', 'W'
        king, 'b', 'B' king; multiwarcaby: 'o')."""

    def scores(self, position: Position) -> tuple[int, ...]:
        """Small points (captured pieces) per side; draughts has none to show."""
        return tuple(0 for _ in self.sides)

    def repetition_key(self, position: Position) -> Hashable:
        """What must be equal for two positions to count as a repetition."""
        return position

    # -- moves --------------------------------------------------------------

    @abstractmethod
    def legal_moves(self, position: Position) -> list[Move]:
        """Every legal move, one per (start, end, captured set)."""

    def legal_moves_from(self, position: Position, start: int) -> list[Move]:
        """The legal moves of the piece on `start` (reading a move needs no
        more). Filtered from all of them: with compulsory capture the other
        pieces decide; a variant without it may override this to be faster."""
        return [move for move in self.legal_moves(position) if move.start == start]

    @abstractmethod
    def play(self, position: Position, move: Move) -> Position:
        """The position after `move` (assumed legal; not checked, for speed)."""

    @abstractmethod
    def perft(self, position: Position, depth: int) -> int:
        """Number of distinct move sequences of length `depth` (leaves), bulk-counted."""

    # -- end of game --------------------------------------------------------

    @abstractmethod
    def outcome(self, position: Position, repetitions: int) -> Result | None:
        """The result if the game is over in `position`, else None.

        `repetitions` is how many times this position (by `repetition_key`)
        has stood on the board in the game so far, this time included.
        """

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"
