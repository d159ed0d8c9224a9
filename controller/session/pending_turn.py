"""The turn not yet committed: what the board showed of it so far.

Two facts, both forgotten when the turn ends: the first moves of a
multiwarcaby two-move turn seen complete on the board, in the order they
were seen (when several pairs of moves give the same board, the record names
the pair whose first move came first), and a complete move held back while
the next side's fast answer begins (committed once nothing else explains the
board).
"""

from __future__ import annotations

from collections.abc import Sequence

from damka.engine.move import Move

Turn = tuple[Move, ...]


class PendingTurn:
    def __init__(self) -> None:
        self._first_moves: dict[Move, int] = {}   # first move -> when it was seen (0, 1, ...)
        self._held: tuple[int, Turn] | None = None  # (ply, turn): complete, not yet settled

    @property
    def first_moves(self) -> Turn:
        """The first moves seen complete this turn, oldest first."""
        return tuple(self._first_moves)

    def saw(self, turns: tuple[Turn, ...]) -> None:
        """The board shows one move of a two-move turn: remember each candidate's first move."""
        for turn in turns:
            self._first_moves.setdefault(turn[0], len(self._first_moves))

    def seen(self, move: Move) -> bool:
        return move in self._first_moves

    def forget(self) -> None:
        """The turn ended, or the board is back at its start: nothing seen counts any more."""
        self._first_moves = {}

    def pick(self, turns: Sequence[Turn]) -> Turn:
        """One of the candidate turns for the record: the one whose first move
        was seen complete on the board earliest this turn, if any."""
        seen = [turn for turn in turns if turn[0] in self._first_moves]
        return min(seen, key=lambda turn: self._first_moves[turn[0]]) if seen else turns[0]

    def hold(self, held: tuple[int, Turn] | None) -> None:
        """Keep (ply, turn) as the complete move the board shows, not yet settled (None: there is none)."""
        self._held = held

    def take(self) -> tuple[int, Turn] | None:
        """The held move, if any, no longer held."""
        held, self._held = self._held, None
        return held
