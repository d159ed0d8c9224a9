"""The turn not yet committed: what the board showed of it so far.

Two facts, both forgotten when the turn ends: the first moves of a
multiwarcaby two-move turn the board showed complete, in the order shown,
and which of them were made; and a complete move held back while the next
side's fast answer begins (committed once nothing else explains the board).

A first move counts as made when the board showed it complete (its captured
pieces off) and held it for at least the settle time; a shorter touch on the
way is a slide (d3 to c2 across c3 is one move, not d3-c3 then c3-c2). Only
a made first move lets a press on a board one move explains take a pair.
When several pairs give the same board, the record names the pair whose
first move was made first, else the one whose first move was shown first
(quick hands: e4-e5 shown for 150 ms, then b2-a1, is e4-e5 b2-a1)."""

from __future__ import annotations

from collections.abc import Sequence

from damka.engine.move import Move

Turn = tuple[Move, ...]


class PendingTurn:
    def __init__(self) -> None:
        self._shown: dict[Move, int] = {}   # first move -> when the board showed it complete (0, 1, ...)
        self._made: dict[Move, int] = {}    # first move -> when it was made (held for the settle time)
        self._held: tuple[int, Turn] | None = None  # (ply, turn): complete, not yet settled

    @property
    def first_moves(self) -> Turn:
        """The first moves made this turn, oldest first."""
        return tuple(self._made)

    def showed(self, turns: tuple[Turn, ...]) -> None:
        """The board shows one move of a two-move turn complete: remember each candidate's first move."""
        for turn in turns:
            self._shown.setdefault(turn[0], len(self._shown))

    def made(self, turns: tuple[Turn, ...]) -> None:
        """The board held one move of a two-move turn for the settle time: each candidate's first move was made."""
        for turn in turns:
            self._made.setdefault(turn[0], len(self._made))

    def was_made(self, move: Move) -> bool:
        return move in self._made

    def forget(self) -> None:
        """The turn ended, or the board is back at its start: nothing shown counts any more."""
        self._shown = {}
        self._made = {}

    def pick(self, turns: Sequence[Turn]) -> Turn:
        """One of the candidate turns for the record: the one whose first move
        was made earliest this turn, else the one whose first move the board
        showed earliest, else the tracker's first."""
        for order in (self._made, self._shown):
            known = [turn for turn in turns if turn[0] in order]
            if known:
                return min(known, key=lambda turn: order[turn[0]])
        return turns[0]

    def hold(self, held: tuple[int, Turn] | None) -> None:
        """Keep (ply, turn) as the complete move the board shows, not yet settled (None: there is none)."""
        self._held = held

    def take(self) -> tuple[int, Turn] | None:
        """The held move, if any, no longer held."""
        held, self._held = self._held, None
        return held
