"""Multiwarcaby: shared pieces, two moves a turn, 2-4 players or two teams.

`multiwarcaby` is the 9x9 game (76 pieces, every square but the corners and
the centre); `multiwarcaby7` the small board, the central 7x7 (`b2`-`h8`, 44
pieces) of the same physical board, for two players. RULES.md has the rules;
the decisions this module takes to make them exact:

- A turn is two moves by the side to move; a move is a step in any of the
  eight directions or a capture (a chain of jumps that may stop after any
  jump). The second move may not put back the board the turn started from.
- Each captured piece is a small point for the side that captured it.
- The game ends (checked by `outcome`):
  fewer than two pieces are left; fewer than two sides are in play;
  at the start of a turn, that side and the sides of the previous turns of
  one full round (one turn of each side in play) could not capture within
  their two moves; at the start of a turn, `quiet_rounds` full rounds of
  turns have passed without a capture (default 3); or no legal move (cannot
  happen from the start position, kept for hand-made positions). Agreement is
  the caller's: `Game.declare(variant.result_for(position, "agreement"))`.
- Results: two sides (players or teams): more small points wins, 1 game
  point; a loss or a draw 0. Three or four players: places by small points
  (ties share a place, the next place is skipped: 1, 1, 3), and `points` are
  the small points, which is what the match standing adds up.
- A player out of play (flag fallen with 3-4 players): `drop_side`. They keep
  their points and are skipped; the rounds shrink to the sides still in play.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import Any, Callable, Hashable

from damka.engine.errors import PositionError
from damka.engine.geometry import Geometry, iter_bits
from damka.engine.move import Move
from damka.engine.multiwarcaby_board import Board, capture_routes
from damka.engine.multiwarcaby_position import MultiwarcabyPosition, PositionFormat, with_side_out
from damka.engine.option_spec import OptionSpec, check_options
from damka.engine.reasons import Reason
from damka.engine.variant import Result, Variant

BOARD9 = Board(Geometry.rectangle(9, 9, dark_only=False))
BOARD7 = Board(Geometry.rectangle(9, 9, dark_only=False, files=(1, 7), ranks=(1, 7)))

PLAYER_NAMES = ("1", "2", "3", "4")
TEAM_NAMES = ("team A", "team B")
DEFAULT_QUIET_ROUNDS = 3


def _first(sides: int) -> OptionSpec:
    return OptionSpec("first", int, 0, "FirstSide", "the side that moves first (1 = the first side)",
                      minimum=0, maximum=sides - 1, one_based=True)


QUIET_ROUNDS = OptionSpec("quiet_rounds", int, DEFAULT_QUIET_ROUNDS, "QuietRounds",
                          "full rounds without a capture that end the game", minimum=1, off=True)


_THREAT_CACHES: dict[Board, Callable[[int], bool]] = {}


def _threat_cache(board: Board) -> Callable[[int], bool]:
    # Speed: the end rule asks the same question of a board at the start and
    # at the end of each turn; one small cache per board answers it once.
    if board not in _THREAT_CACHES:
        _THREAT_CACHES[board] = lru_cache(maxsize=4096)(board.can_capture_in_turn)
    return _THREAT_CACHES[board]


class MultiwarcabyVariant(Variant):
    """Rules shared by both boards; subclasses set the board and the setup."""

    family = "multiwarcaby"
    moves_per_turn = 2
    shows_scores = True
    search_kind = "multi"
    uniform_piece = "o"
    board: Board
    tag: str
    region: tuple[tuple[int, int], tuple[int, int]]  # (files, ranks) the position string lists
    holes: tuple[str, ...]  # the empty squares of the start position

    def __init__(
        self,
        *,
        sides: int = 2,
        teams: bool = False,
        first: int = 0,
        quiet_rounds: int | None = DEFAULT_QUIET_ROUNDS,
    ) -> None:
        self.geometry = self.board.geometry
        self.teams = teams
        self.sides = TEAM_NAMES if teams else PLAYER_NAMES[:sides]
        if not 0 <= first < len(self.sides):
            raise ValueError(f"option first (--first, tag FirstSide) cannot be {first + 1} with "
                             f"{len(self.sides)} sides; allowed: 1-{len(self.sides)} (the side to start)")
        self.first = first
        self.quiet_rounds = quiet_rounds
        files, ranks = self.region
        self.position_format = PositionFormat(self.tag, self.geometry, files, ranks, len(self.sides), teams)
        self._can_capture = _threat_cache(self.board)

    # -- naming ---------------------------------------------------------------

    def player_name(self, side: int) -> str:
        name = self.sides[side]
        return name[:1].upper() + name[1:] if self.teams else f"Player {name}"

    def record_tags(self) -> dict[str, str]:
        return {"Sides": str(len(self.sides)), "MovesPerTurn": str(self.moves_per_turn)}

    # -- positions ----------------------------------------------------------

    def start_position(self) -> MultiwarcabyPosition:
        occupied = self.board.playable & ~self.geometry.mask_of(self.holes)
        count = len(self.sides)
        return MultiwarcabyPosition(
            occupied=occupied,
            side=self.first,
            scores=(0,) * count,
            turn_start=occupied,
            active=(True,) * count,
        )

    def parse_position(self, text: str) -> MultiwarcabyPosition:
        position = self.position_format.parse(text)
        # The pieces are shared and never crowned (RULES.md): the one thing no game reaches is
        # more pieces than it starts with, since pieces only ever leave.
        count, start = position.occupied.bit_count(), self.start_position().occupied.bit_count()
        if count > start:
            raise PositionError(Reason("position.too_many", count=count, start=start))
        return position

    def format_position(self, position: MultiwarcabyPosition) -> str:
        return self.position_format.format(position)

    def side_to_move(self, position: MultiwarcabyPosition) -> int:
        return position.side

    def move_in_turn(self, position: MultiwarcabyPosition) -> int:
        return position.move_in_turn

    def scores(self, position: MultiwarcabyPosition) -> tuple[int, ...]:
        return position.scores

    def occupancy(self, position: MultiwarcabyPosition) -> int:
        return position.occupied

    def piece_at(self, position: MultiwarcabyPosition, square: int) -> str | None:
        return "o" if square >= 0 and position.occupied >> square & 1 else None

    def repetition_key(self, position: MultiwarcabyPosition) -> Hashable:
        # No rule counts repetitions; this is what a player would call "the same position".
        return (position.occupied, position.side, position.move_in_turn, position.turn_start, position.active)

    def next_side(self, position: MultiwarcabyPosition, side: int | None = None) -> int:
        """The side in play that moves after `side` (default: the side to move)."""
        side = position.side if side is None else side
        count = len(self.sides)
        for offset in range(1, count + 1):
            candidate = (side + offset) % count
            if position.active[candidate]:
                return candidate
        return side

    def drop_side(self, position: MultiwarcabyPosition, side: int) -> MultiwarcabyPosition:
        """Take `side` out of play (3-4 players: their flag fell). They keep
        their small points and are skipped from now on; if it was their turn,
        the next side in play starts a fresh turn on the board as it stands."""
        if len(self.sides) < 3:
            raise ValueError("with two sides a side out of play ends the game: declare the result instead")
        if not 0 <= side < len(self.sides):
            raise ValueError(f"side {side!r} is not a side of this game (0-{len(self.sides) - 1})")
        if not position.active[side]:
            raise ValueError(f"side {self.sides[side]!r} is already out of play")
        return with_side_out(position, side, self.next_side(position, side))

    # -- moves --------------------------------------------------------------

    def legal_moves(self, position: MultiwarcabyPosition) -> list[Move]:
        moves: list[Move] = []
        for start in iter_bits(position.occupied):
            moves += self.legal_moves_from(position, start)
        return moves

    def legal_moves_from(self, position: MultiwarcabyPosition, start: int) -> list[Move]:
        # Speed: no compulsory capture, so one piece's moves need no other piece's routes (reading a record).
        board = self.board
        occupied = position.occupied
        if not occupied >> start & 1:
            return []
        empty = board.playable & ~occupied
        moves = [Move(start, (target,)) for target in iter_bits(board.neighbours[start] & empty)]
        for path, captured in capture_routes(board, occupied, start):
            moves.append(Move(start, path, frozenset(iter_bits(captured))))
        if position.move_in_turn:
            moves = [move for move in moves if self._after(occupied, move) != position.turn_start]
        return moves

    @staticmethod
    def _after(occupied: int, move: Move) -> int:
        captured = 0
        for square in move.captures:
            captured |= 1 << square
        return ((occupied & ~(1 << move.start)) & ~captured) | (1 << move.end)

    def play(self, position: MultiwarcabyPosition, move: Move) -> MultiwarcabyPosition:
        occupied = self._after(position.occupied, move)
        scores = position.scores
        if move.captures:
            side = position.side
            scores = scores[:side] + (scores[side] + len(move.captures),) + scores[side + 1:]
        if position.move_in_turn == 0:
            return replace(
                position, occupied=occupied, scores=scores, move_in_turn=1, turn_start=position.occupied
            )
        # The turn ends: bring the end-rule counters up to date and pass the turn.
        start = position.turn_start
        captured_in_turn = occupied.bit_count() < start.bit_count()
        return replace(
            position,
            occupied=occupied,
            scores=scores,
            side=self.next_side(position),
            move_in_turn=0,
            turn_start=occupied,
            calm_turns=0 if self._can_capture(start) else position.calm_turns + 1,
            quiet_turns=0 if captured_in_turn else position.quiet_turns + 1,
        )

    def perft(self, position: MultiwarcabyPosition, depth: int) -> int:
        """Leaves of the tree of single moves (half-turns), a node being a
        distinct resulting board at its parent. The end rules do not prune
        the tree (perft measures move generation)."""
        return self.board.perft(position.occupied, position.turn_start, bool(position.move_in_turn), depth)

    # -- end of game --------------------------------------------------------

    def can_capture_in_turn(self, position: MultiwarcabyPosition) -> bool:
        """Whether the side to move, at the start of its turn, could capture within its two moves."""
        return self._can_capture(position.occupied)

    def outcome(self, position: MultiwarcabyPosition, repetitions: int = 1) -> Result | None:
        occupied = position.occupied
        if occupied.bit_count() < 2:
            return self.result_for(position, "fewer than two pieces left")
        in_play = sum(position.active)
        if in_play < 2:
            return self.result_for(position, "only one side left in play")
        steps = self.board.step_count(occupied)
        if position.move_in_turn and self.board.is_one_step(occupied, position.turn_start):
            steps -= 1  # the step back is not allowed
        if steps == 0 and not self.board.capturers(occupied):
            return self.result_for(position, "no legal move")
        if position.move_in_turn:
            return None
        if self.quiet_rounds is not None and position.quiet_turns >= self.quiet_rounds * in_play:
            rounds = "round" if self.quiet_rounds == 1 else "rounds"
            return self.result_for(position, f"{self.quiet_rounds} full {rounds} without a capture")
        if position.calm_turns + 1 >= in_play and not self._can_capture(occupied):
            return self.result_for(position, "a full round in which no side could capture")
        return None

    def result_for(self, position: MultiwarcabyPosition, reason: str) -> Result:
        """The result by the small points now (also for an agreed end)."""
        scores = position.scores
        if len(scores) == 2:
            if scores[0] == scores[1]:
                return Result((0.0, 0.0), (1, 1), reason, None)
            side = 0 if scores[0] > scores[1] else 1
            points = (1.0, 0.0) if side == 0 else (0.0, 1.0)
            return Result(points, (1, 2) if side == 0 else (2, 1), reason, side)
        places = tuple(1 + sum(other > score for other in scores) for score in scores)
        winner = places.index(1) if places.count(1) == 1 else None
        return Result(tuple(float(score) for score in scores), places, reason, winner)


class Multiwarcaby(MultiwarcabyVariant):
    """The 9x9 game: 76 pieces, 2-4 players or two teams of two."""

    name = "multiwarcaby"
    aliases = ("mw", "mw9", "multiwarcaby9")
    title = "Multiwarcaby"
    board = BOARD9
    tag = "MW9"
    region = ((0, 8), (0, 8))
    holes = ("a1", "i1", "a9", "i9", "e5")

    option_specs = (
        OptionSpec("sides", int, 2, "Sides", "number of players", minimum=2, maximum=4),
        OptionSpec("teams", bool, False, "Teams", "two teams of two (sides then 2 or 4)"),
        _first(4),
        QUIET_ROUNDS,
    )

    @classmethod
    def create(cls, **options: Any) -> "Multiwarcaby":
        """Options: `sides=2..4` (default 2), `teams=True` (two teams of two;
        `sides` then may be left out, or 2 or 4), `first` (index of the side
        that starts, default 0), `quiet_rounds` (the backstop, default 3; None: off)."""
        values = check_options(cls.option_specs, options, cls.name)
        teams, sides = values["teams"], values["sides"]
        if teams and sides == 3:
            raise ValueError("teams=True is two teams of two: sides must be 2 (the teams) or 4 (the players)")
        variant = cls(sides=2 if teams else sides, teams=teams, first=values["first"],
                      quiet_rounds=values["quiet_rounds"])
        if teams:
            variant.title = "Multiwarcaby (two teams)"
        elif sides > 2:
            variant.title = f"Multiwarcaby ({sides} players)"
        return variant

    def option_values(self) -> dict[str, object]:
        return {"sides": len(self.sides), "teams": self.teams, "first": self.first, "quiet_rounds": self.quiet_rounds}

    def casual_time_preset(self) -> str:
        return f"multiwarcaby-{len(self.sides)}"


class Multiwarcaby7(MultiwarcabyVariant):
    """The small board: the central 7x7 (b2-h8) of the 9x9 board, 44 pieces, two players."""

    name = "multiwarcaby7"
    aliases = ("mw7", "multiwarcaby-small")
    title = "Multiwarcaby (small board)"
    board = BOARD7
    tag = "MW7"
    region = ((1, 7), (1, 7))
    holes = ("b2", "h2", "b8", "h8", "e5")

    option_specs = (_first(2), QUIET_ROUNDS)

    @classmethod
    def create(cls, **options: Any) -> "Multiwarcaby7":
        """Options: `first` (0 or 1), `quiet_rounds` (default 3; None: off).
        `sides=2` and `teams=False` are accepted; the small board is for two players."""
        if options.get("sides", 2) != 2:
            raise ValueError(f"sides={options['sides']!r}: the small board is for two players")
        if options.get("teams", False) is not False:
            raise ValueError("teams: the small board is for two players, not teams")
        options = {key: value for key, value in options.items() if key not in ("sides", "teams")}
        values = check_options(cls.option_specs, options, cls.name)
        return cls(first=values["first"], quiet_rounds=values["quiet_rounds"])

    def casual_time_preset(self) -> str:
        return "multiwarcaby7"


VARIANTS: tuple[type[MultiwarcabyVariant], ...] = (Multiwarcaby, Multiwarcaby7)
