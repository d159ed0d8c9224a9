"""The turn not yet committed: what the board showed of it so far.

Two facts, both forgotten when the turn ends: the first moves of a
multiwarcaby two-move turn made on the board, in the order they were made
(when several pairs of moves give the same board, the record names the pair
whose first move came first), and a complete move held back while the next
side's fast answer begins (committed once nothing else explains the board).

A first move counts as made when the board showed it complete (its captured
pieces off) and held it for at least the settle time; a shorter touch on the
way is a slide (d3 to c2 across c3 is one move, not d3-c3 then c3-c2).
"""

from __future__ import annotations

from collections.abc import Sequence

from damka.engine.move import Move

Turn = tuple[Move, ...]


class PendingTurn:
    def __init__(self) -> None:
        self._first_moves: dict[Move, int] = {}   # first move -> when it was made (0, 1, ...)
        self._held: tuple[int, Turn] | None = None  # (ply, turn): complete, not yet settled

    @property
    def first_moves(self) -> Turn:
        """The first moves made this turn, oldest first."""
        return tuple(self._first_moves)

    def made(self, turns: tuple[Turn, ...]) -> None:
        """The board held one move of a two-move turn for the settle time: remember each candidate's first move."""
        for turn in turns:
            self._first_moves.setdefault(turn[0], len(self._first_moves))

    def was_made(self, move: Move) -> bool:
        return move in self._first_moves

    def forget(self) -> None:
        """The turn ended, or the board is back at its start: nothing made counts any more."""
        self._first_moves = {}

    def pick(self, turns: Sequence[Turn]) -> Turn:
        """One of the candidate turns for the record: the one whose first move
        was made on the board earliest this turn, if any."""
        seen = [turn for turn in turns if turn[0] in self._first_moves]
        return min(seen, key=lambda turn: self._first_moves[turn[0]]) if seen else turns[0]

    def hold(self, held: tuple[int, Turn] | None) -> None:
        """Keep (ply, turn) as the complete move the board shows, not yet settled (None: there is none)."""
        self._held = held

    def take(self) -> tuple[int, Turn] | None:
        """The held move, if any, no longer held."""
        held, self._held = self._held, None
        return held
