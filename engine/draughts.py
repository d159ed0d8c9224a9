"""The draughts family: classic (Brazilian), classic81, russian, american,
international and canadian, exactly as RULES.md reads them.

Each variant is a class whose class attributes are its rules; the shared
machinery is `DraughtsVariant`. Construction builds the board geometry; the
`MoveGenerator` (its tables) is built once per rule set and shared
(`shared_generator`); positions are `DraughtsPosition` tuples.

    variant = ClassicDraughts.create(free_capture=True)
    pos = variant.start_position()
    variant.legal_moves(pos)   # [Move(...), ...]
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import Any, ClassVar, Hashable

from damka.engine.draughts_movegen import MoveGenerator
from damka.engine.draughts_position import DraughtsPosition, format_fen, parse_fen
from damka.engine.errors import PositionError
from damka.engine.geometry import Geometry, iter_bits
from damka.engine.move import Move
from damka.engine.option_spec import OptionSpec, check_options
from damka.engine.reasons import Reason
from damka.engine.variant import Result, Variant

__all__ = [
    "AmericanCheckers", "CanadianDraughts", "Classic81", "ClassicDraughts", "DraughtsPosition",
    "DraughtsVariant", "InternationalDraughts", "RussianDraughts", "VARIANTS",
]


@cache  # speed: the tables take milliseconds to build (more on a Pi), only ever read; a few rule sets exist
def shared_generator(geometry: Geometry, *, men_capture_backward: bool, flying_kings: bool, majority: bool,
                     promote_mid_capture: bool, free_capture: bool, promotion: tuple[int, int]) -> MoveGenerator:
    """The move generator of one rule set, built once and shared by every
    variant object of those rules (each new game and each stored game
    replayed builds a variant)."""
    return MoveGenerator(geometry, men_capture_backward=men_capture_backward, flying_kings=flying_kings,
                         majority=majority, promote_mid_capture=promote_mid_capture,
                         free_capture=free_capture, promotion=promotion)


class DraughtsVariant(Variant):
    """Two sides, white (index 0, starts on the low ranks) and black (index 1).

    The rules are the class attributes below; subclasses override them and
    the hooks `make_geometry`, `setup` and `promotion_masks`. `create` sets
    the options of `option_specs` (`draw_moves`, `threefold` everywhere;
    `free_capture`, `symmetric` where the variant takes them) on the
    instance. An option's default is the class attribute of the same name.
    """

    family = "draughts"
    sides = ("white", "black")
    width: ClassVar[int] = 8
    height: ClassVar[int] = 8
    men_ranks: ClassVar[int] = 3  # ranks of men each side starts on
    first_side: ClassVar[int] = 0  # index of the side that moves first
    pairs_from_start: ClassVar[bool] = False  # records number rounds from first_side (see starts_move_number)
    men_capture_backward: ClassVar[bool] = True
    flying_kings: ClassVar[bool] = True
    majority: ClassVar[bool] = True  # must take the sequence capturing the most pieces
    promote_mid_capture: ClassVar[bool] = False  # russian: crown at once and capture on as a king
    draw_moves: ClassVar[int] = 15  # moves *each* without capture or man move before a draw
    threefold: ClassVar[bool] = True  # threefold repetition is a draw
    free_capture: ClassVar[bool] = False
    pdn_points_scale = 2  # PDN's draughts results: 2-0, 1-1, 0-2
    # Options `create` accepts: the rule settings every draughts variant takes,
    # plus each variant's own (`free_capture`, `symmetric`).
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        # At most 1000: a larger count is a typing error (no game runs that long).
        OptionSpec("draw_moves", int, 15, "DrawMoves",
                   "moves each without a capture or a man moved before a draw", minimum=1, maximum=1000),
        OptionSpec("threefold", bool, True, "Threefold", "the same position a third time is a draw"),
    )

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # The defaults are the rules' class attributes (american: 40 moves, international: 25).
        super().__init_subclass__(**kwargs)
        cls.option_specs = tuple(replace(spec, default=getattr(cls, spec.name)) for spec in cls.option_specs)

    def __init__(self, **options: Any) -> None:
        for key, value in options.items():
            setattr(self, key, value)
        self.geometry = self.make_geometry()
        self._generator = shared_generator(
            self.geometry,
            men_capture_backward=self.men_capture_backward,
            flying_kings=self.flying_kings,
            majority=self.majority,
            promote_mid_capture=self.promote_mid_capture,
            free_capture=self.free_capture,
            promotion=self.promotion_masks(),
        )
        self._promotion = self._generator.promotion
        self._start_counts = tuple(men.bit_count() for men in self.setup())   # speed: `impossible` reads many FENs

    @classmethod
    def create(cls, **options: Any) -> "DraughtsVariant":
        """The variant with `options` set; ValueError for one it does not take or a bad value."""
        return cls(**check_options(cls.option_specs, options, cls.name))

    # -- naming ---------------------------------------------------------------

    def player_tag(self, side: int) -> str:
        return self.sides[side].capitalize()

    def side_token(self, side: int) -> str:
        return self.sides[side]

    def clock_labels(self) -> list[str]:
        return [name[0].lower() for name in self.sides]

    def starts_move_number(self, position: DraughtsPosition, start: DraughtsPosition) -> bool:
        # A round begins with the side that moves first (PDN 3.0: `1...` before the other side's
        # move), or, where records number pairs of moves (`pairs_from_start`), with the side to move
        # at the record's start.
        return position.turn == (start.turn if self.pairs_from_start else self.first_side)

    def casual_time_preset(self) -> str:
        return "rapid-100" if self.geometry.width * self.geometry.height >= 100 else "rapid-64"

    # -- hooks --------------------------------------------------------------

    def make_geometry(self) -> Geometry:
        return Geometry.rectangle(self.width, self.height, dark_only=True)

    def setup(self) -> tuple[int, int]:
        """Bitboards of the white and black men at the start."""
        return self._ranks(range(self.men_ranks)), self._ranks(range(self.height - self.men_ranks, self.height))

    def promotion_masks(self) -> tuple[int, int]:
        """The far rank of white and of black."""
        return self._ranks([self.height - 1]), self._ranks([0])

    def _ranks(self, ranks: Any, files: range | None = None) -> int:
        geometry = self.geometry
        files = range(geometry.width) if files is None else files
        bits = 0
        for sq in geometry.squares:
            file, rank = geometry.file_rank(sq)
            if rank in ranks and file in files:
                bits |= 1 << sq
        return bits

    # -- positions ----------------------------------------------------------

    def start_position(self) -> DraughtsPosition:
        white, black = self.setup()
        return DraughtsPosition(white, black, 0, self.first_side, 0)

    def parse_position(self, text: str) -> DraughtsPosition:
        position = parse_fen(text, self.geometry)
        problem = self.impossible(position)
        if problem is not None:
            raise PositionError(problem)
        return position

    def impossible(self, position: DraughtsPosition) -> Reason | None:
        """Why no game of these rules reaches `position`, or None: a man on its own crowning row
        (it would have been crowned there), or a side with more pieces than the game starts with
        (a man never splits; a king is a crowned man). A FEN from outside (a PDN tag, `--fen`, a
        lesson, a puzzle set) is checked here, so a problem of English checkers read as a 10x10
        position is refused, not played."""
        for side, (colour, pieces) in enumerate(zip(("white", "black"), (position.white, position.black))):
            crowned = pieces & ~position.kings & self._promotion[side]
            if crowned:
                square = min(iter_bits(crowned), key=self.geometry.number)
                name = str(self.geometry.number(square)) if self.numeric_notation else self.geometry.name(square)
                return Reason(f"position.{colour}_man_crowned", square=name)
            count, most = pieces.bit_count(), self._start_counts[side]
            if count > most:
                return Reason(f"position.{colour}_too_many", count=count, start=most)
        return None

    def format_position(self, position: DraughtsPosition) -> str:
        return format_fen(position, self.geometry, self.numeric_notation)

    def side_to_move(self, position: DraughtsPosition) -> int:
        return position.turn

    def occupancy(self, position: DraughtsPosition) -> int:
        return position.white | position.black

    def piece_at(self, position: DraughtsPosition, square: int) -> str | None:
        bit = 1 << square
        if position.white & bit:
            return "W" if position.kings & bit else "w"
        if position.black & bit:
            return "B" if position.kings & bit else "b"
        return None

    def repetition_key(self, position: DraughtsPosition) -> Hashable:
        return position[:4]  # the draw counter is not part of the position players see

    # -- moves --------------------------------------------------------------

    @property
    def move_generator(self) -> MoveGenerator:
        """The rule set's bitboard generator: the search walks its children
        directly instead of `legal_moves` and `play` (no `Move` per node)."""
        return self._generator

    def _sides(self, position: DraughtsPosition) -> tuple[int, int]:
        return (position.white, position.black) if position.turn == 0 else (position.black, position.white)

    def legal_moves(self, position: DraughtsPosition) -> list[Move]:
        mine, theirs = self._sides(position)
        generator = self._generator
        moves = [
            Move(start, path, frozenset(iter_bits(cap)))
            for (start, _, cap), (path, _) in generator.captures(mine, theirs, position.kings, position.turn).items()
        ]
        if not moves or self.free_capture:
            quiet = generator.quiet_moves(mine, theirs, position.kings, position.turn)
            moves.extend(Move(start, (end,)) for start, end in quiet)
        return moves

    def capture_required(self, position: DraughtsPosition) -> bool:
        """Whether the side to move must capture (cheap: no sequences are built)."""
        mine, theirs = self._sides(position)
        return not self.free_capture and self._generator.has_capture(mine, theirs, position.kings, position.turn)

    def capturing_pieces(self, position: DraughtsPosition) -> frozenset[int]:
        """The squares of the pieces that start a legal capture: what the board
        shows when a move ignores a compulsory capture (majority rule applied)."""
        mine, theirs = self._sides(position)
        return frozenset(start for start, _, _ in self._generator.captures(mine, theirs, position.kings, position.turn))

    def play(self, position: DraughtsPosition, move: Move) -> DraughtsPosition:
        white, black, kings, turn, quiet = position
        start, end = 1 << move.start, 1 << move.path[-1]
        captured = 0
        for sq in move.captures:
            captured |= 1 << sq
        if kings & start:
            kings = (kings & ~captured) ^ start | end
            quiet = 0 if captured else quiet + 1
        else:
            kings &= ~captured
            promo = self._promotion[turn]
            if end & promo or (
                captured and self.promote_mid_capture and any(promo >> sq & 1 for sq in move.path)
            ):
                kings |= end
            quiet = 0
        if turn == 0:
            return DraughtsPosition(white ^ start | end, black & ~captured, kings, 1, quiet)
        return DraughtsPosition(white & ~captured, black ^ start | end, kings, 0, quiet)

    def perft(self, position: DraughtsPosition, depth: int) -> int:
        mine, theirs = self._sides(position)
        return self._generator.perft(mine, theirs, position.kings, position.turn, depth)

    # -- end of game --------------------------------------------------------

    def has_moves(self, position: DraughtsPosition) -> bool:
        mine, theirs = self._sides(position)
        return self._generator.count(mine, theirs, position.kings, position.turn) > 0

    def outcome(self, position: DraughtsPosition, repetitions: int) -> Result | None:
        if not self.has_moves(position):
            loser = position.turn
            winner = 1 - loser
            points = (1.0, 0.0) if winner == 0 else (0.0, 1.0)
            places = (1, 2) if winner == 0 else (2, 1)
            reason = f"{self.sides[loser]} has no legal move"
            return Result(points, places, reason, winner)
        if position.quiet >= 2 * self.draw_moves:
            return Result((0.5, 0.5), (1, 1), f"{self.draw_moves} moves each without a capture or a man moved")
        if self.threefold and repetitions >= 3:
            return Result((0.5, 0.5), (1, 1), "threefold repetition")
        return None


class ClassicDraughts(DraughtsVariant):
    """Warcaby klasyczne: 8x8, Brazilian rules."""

    name = "classic"
    aliases: tuple[str, ...] = ("brazilian", "warcaby", "klasyczne", "warcaby-klasyczne", "brazilian-draughts")
    title = "Classic draughts (Brazilian rules)"
    pdn_gametype = "26"
    option_specs = DraughtsVariant.option_specs + (
        OptionSpec("free_capture", bool, False, "FreeCapture", "capturing is optional"),
    )


class Classic81(ClassicDraughts):
    """Classic rules on the whole 9x9 board (experimental, the multiwarcaby leaflet)."""

    name = "classic81"
    aliases = ("warcaby81", "classic-81", "81")
    title = "Classic draughts on the 81-square board"
    width = height = 9
    pdn_gametype = "26,W,9,9,A0,0"
    symmetric: ClassVar[bool] = False  # option: Black on White's setup turned 180 degrees
    option_specs = ClassicDraughts.option_specs + (
        OptionSpec("symmetric", bool, False, "Symmetric", "Black's setup is White's turned round"),
    )

    def setup(self) -> tuple[int, int]:
        white = self._ranks(range(3), files=range(8))  # files a-h, ranks 1-3
        if self.symmetric:
            black = self._ranks(range(6, 9), files=range(1, 9))  # files b-i, ranks 7-9
        else:
            black = self._ranks(range(5, 8), files=range(8))  # files a-h, ranks 6-8
        return white, black


class RussianDraughts(DraughtsVariant):
    """Russian draughts: crowning mid-capture, free choice among captures."""

    name = "russian"
    aliases = ("shashki", "russian-draughts")
    title = "Russian draughts"
    pdn_gametype = "25"
    majority = False
    promote_mid_capture = True


class AmericanCheckers(DraughtsVariant):
    """American / English checkers: short kings, men forward only, black first."""

    name = "american"
    aliases = ("checkers", "english", "english-draughts", "american-checkers")
    title = "American checkers (English draughts)"
    pdn_gametype = "21"
    pdn_points_scale = 1  # English/American records score a win 1-0
    numeric_notation = True
    first_side = 1
    # PDN 2.0, the American standard, numbers each pair of moves from the first one and has no
    # `1...`: CheckerBoard writes `1. 27-23 20x27` from a FEN with White to move, and so do we
    # (PDN 3.0 reads it too, and pydraughts reads only that).
    pairs_from_start = True
    men_capture_backward = False
    flying_kings = False
    majority = False
    draw_moves = 40


class InternationalDraughts(DraughtsVariant):
    """International draughts, 10x10 (in Polish usage: warcaby polskie)."""

    name = "international"
    aliases: tuple[str, ...] = ("polish", "10x10", "warcaby-polskie", "polskie", "international-draughts")
    title = "International draughts (10x10)"
    pdn_gametype = "20"
    numeric_notation = True
    width = height = 10
    men_ranks = 4
    draw_moves = 25


class CanadianDraughts(InternationalDraughts):
    """Canadian draughts, 12x12."""

    name = "canadian"
    aliases = ("12x12", "canadian-draughts")
    title = "Canadian draughts (12x12)"
    pdn_gametype = "27"
    width = height = 12
    men_ranks = 5


VARIANTS: tuple[type[DraughtsVariant], ...] = (
    ClassicDraughts, Classic81, RussianDraughts, AmericanCheckers, InternationalDraughts, CanadianDraughts,
)
