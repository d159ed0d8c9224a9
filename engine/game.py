"""A game in progress: a stack of immutable positions and the moves between.

Taking a move back is popping the stack (the board's take-back uses it);
nothing is recomputed. The game knows whose turn it is, the scores and the
result, which is either read off the position by the variant's rules or set
from outside (agreement, resignation, time).
"""

from __future__ import annotations

from collections import Counter

from damka.engine.errors import IllegalMoveError
from damka.engine.move import Move
from damka.engine.variant import Position, Result, Variant


class Game:
    """Moves applied to a variant's position, with cheap take-back."""

    def __init__(self, variant: Variant, position: Position | None = None) -> None:
        self.variant = variant
        start = variant.start_position() if position is None else position
        self._positions: list[Position] = [start]
        self._moves: list[Move] = []
        self._seen: Counter = Counter({variant.repetition_key(start): 1})
        self._declared: list[Result | None] = [None]
        self._outcome: tuple[Result | None] | None = None  # the current position's, once asked (speed)

    # -- state --------------------------------------------------------------

    @property
    def position(self) -> Position:
        return self._positions[-1]

    @property
    def start(self) -> Position:
        return self._positions[0]

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(self._moves)

    @property
    def positions(self) -> tuple[Position, ...]:
        """Every position so far, the start first and the current one last."""
        return tuple(self._positions)

    @property
    def ply(self) -> int:
        return len(self._moves)

    @property
    def turn(self) -> int:
        """Index of the side to move."""
        return self.variant.side_to_move(self.position)

    @property
    def move_in_turn(self) -> int:
        return self.variant.move_in_turn(self.position)

    @property
    def scores(self) -> tuple[int, ...]:
        return self.variant.scores(self.position)

    @property
    def result(self) -> Result | None:
        declared = self._declared[-1]
        if declared is not None:
            return declared
        if self._outcome is None:
            key = self.variant.repetition_key(self.position)
            self._outcome = (self.variant.outcome(self.position, self._seen[key]),)
        return self._outcome[0]

    @property
    def is_over(self) -> bool:
        return self.result is not None

    # -- moves --------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Legal moves now; none once the game is over."""
        if self.is_over:
            return []
        return self.variant.legal_moves(self.position)

    def push(self, move: Move) -> Position:
        """Play `move`; IllegalMoveError if it is not legal here."""
        result = self.result
        if result is not None:
            raise IllegalMoveError(f"the game is over ({result.reason}); no more moves can be made")
        legal = self.variant.legal_moves(self.position)
        try:
            chosen = legal[legal.index(move)]
        except ValueError:
            raise IllegalMoveError(f"{move!r} is not a legal move in this position") from None
        # Keep the caller's route when it is a legal route of the same move.
        return self.push_unchecked(move if move.path else chosen)

    def push_unchecked(self, move: Move) -> Position:
        """Play a move already known to be legal (tracker, search). Never
        after the end: a move known legal in the position is still no move
        once the game is over (IllegalMoveError naming the end)."""
        result = self.result
        if result is not None:
            raise IllegalMoveError(f"the game is over ({result.reason}); no more moves can be made")
        position = self.variant.play(self.position, move)
        self._positions.append(position)
        self._moves.append(move)
        self._seen[self.variant.repetition_key(position)] += 1
        self._declared.append(self._declared[-1])
        self._outcome = None
        return position

    def pop(self) -> Move:
        """Take the last move back and return it."""
        if not self._moves:
            raise IllegalMoveError("there is no move to take back")
        position = self._positions.pop()
        key = self.variant.repetition_key(position)
        self._seen[key] -= 1
        if not self._seen[key]:
            del self._seen[key]
        self._declared.pop()
        self._outcome = None
        return self._moves.pop()

    def amend(self, position: Position) -> None:
        """Replace the current position without a move: a player going out
        (multiwarcaby's `drop_side`). The repetition count follows; taking
        back the move before it undoes the change as well, so callers that
        must keep it allow no take-back past it."""
        key = self.variant.repetition_key(self._positions[-1])
        self._seen[key] -= 1
        if not self._seen[key]:
            del self._seen[key]
        self._positions[-1] = position
        self._seen[self.variant.repetition_key(position)] += 1
        self._outcome = None

    def declare(self, result: Result) -> None:
        """End the game from outside the rules: agreement, resignation, time."""
        self._declared[-1] = result

    def copy(self) -> "Game":
        clone = Game.__new__(Game)
        clone.variant = self.variant
        clone._positions = list(self._positions)
        clone._moves = list(self._moves)
        clone._seen = Counter(self._seen)
        clone._declared = list(self._declared)
        clone._outcome = self._outcome
        return clone
