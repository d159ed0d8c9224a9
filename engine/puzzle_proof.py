"""Proving a puzzle: the one move that wins material by force, within a horizon.

A position is a puzzle when the side to move has exactly one move that wins
at least `GAIN` pieces (or the game) against every defence within `depth`
plies, and every other move wins less. The proof is a full-width minimax of
the piece balance: no evaluation and no pruning that could miss a defence
(alpha-beta only, which never changes the minimax value), with every capture
sequence followed to its end at the horizon (captures are compulsory, so a
line never stops with a piece hanging). Within its horizon the proof is
exact; a search two plies deeper must agree (`CONFIRM_PLIES`), so a defence
just beyond the horizon that wins the material back does not pass.

Pieces are counted, men and kings alike: "win two pieces" is what a child
sees on the board. A game won within the horizon counts more than any
material. Positions of variants where capturing is optional (classic's
free-capture option) are not proved: a player may stop capturing, so the
piece count at the horizon would not be forced.

Difficulty (1-5) grows with the plies the proof needed, with a sacrifice in
the solution (the other side captures at once) and with the choice: how many
wrong moves look playable at a glance (they lose nothing once their own
captures are over). The rating is the difficulty on a player's scale.

Everything here is pure: no I/O, no clock; `max_nodes` bounds the work.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Hashable

from damka.engine.move import Move

GAIN = 2              # pieces the solution must win
WON = 100             # a game won within the horizon: more than any piece count
CONFIRM_PLIES = 2     # the deeper search that must agree
MAX_DEPTH = 7         # plies, the solution being the first
EXACT, LOWER, UPPER = 0, 1, 2


class ProofTooCostly(Exception):
    """The node budget ran out before the proof was complete."""


@dataclass(frozen=True)
class Proof:
    """Why a position is a puzzle: its only winning move and what it takes to see it."""

    solution: Move
    depth: int                  # plies the proof needed (the solution is ply 1)
    gain: int                   # pieces won at that depth (WON: the game)
    line: tuple[Move, ...]      # the solution and the best defence, to the horizon
    tempting: int               # wrong moves that look playable at a glance
    sacrifice: bool             # the other side captures at once after the solution
    nodes: int

    @property
    def difficulty(self) -> int:
        """1 (a first puzzle) to 5 (a club player thinks)."""
        score = 1 + (self.depth - 1) // 2 + (1 if self.tempting >= 3 else 0) + (1 if self.sacrifice else 0)
        return max(1, min(5, score))

    @property
    def rating(self) -> int:
        return 600 + 200 * self.difficulty


class MaterialProver:
    """Full-width minimax of the piece balance for one variant (keeps no state between positions)."""

    def __init__(self, variant: Any, *, max_nodes: int = 400_000) -> None:
        if getattr(variant, "free_capture", False):
            raise ValueError(f"{variant.name} with optional captures: the piece count at the horizon is not forced")
        if getattr(variant, "search_kind", "") != "alphabeta":
            raise ValueError(f"{variant.name}: puzzles are proved for two-sided draughts only")
        self.variant = variant
        self.max_nodes = max_nodes
        self.nodes = 0
        self._table: dict[tuple[Hashable, int], tuple[int, int]] = {}
        self._best: dict[Hashable, Move] = {}   # the move that last cut or won at a position: tried first

    # -- the proof ------------------------------------------------------------------

    def prove(self, position: Any, *, max_depth: int = MAX_DEPTH) -> Proof | None:
        """The proof that `position` is a puzzle, or None (no unique winning move, or not within `max_depth`).

        ProofTooCostly when the node budget runs out first."""
        self.nodes = 0
        self._table.clear()
        self._best.clear()
        moves = self.variant.legal_moves(position)
        if len(moves) < 2:
            return None
        base = self.balance(position)
        target = base + GAIN
        for depth in range(1, max_depth + 1):
            winners = self._winners(position, moves, depth, target)
            if not winners:
                continue
            if len(winners) > 1 or self._winners(position, moves, depth + CONFIRM_PLIES, target) != winners:
                return None
            solution = winners[0]
            child = self.variant.play(position, solution)
            value = -self.value(child, depth - 1, -10 * WON, 10 * WON)
            replies = self.variant.legal_moves(child)
            return Proof(
                solution=solution,
                depth=depth,
                gain=WON if value >= WON // 2 else value - base,
                line=(solution, *self.line(child, depth - 1)),
                tempting=sum(1 for move in moves if move != solution and self._glance(position, move) >= base),
                sacrifice=bool(replies) and replies[0].is_capture,
                nodes=self.nodes,
            )
        return None

    def _winners(self, position: Any, moves: list[Move], depth: int, target: int) -> list[Move]:
        """The moves that reach `target` (side to move's balance) against every defence within `depth` plies.

        Stops at the second: two winners are no puzzle, whatever the rest do."""
        winners: list[Move] = []
        for move in moves:
            if -self.value(self.variant.play(position, move), depth - 1, -target, -target + 1) >= target:
                winners.append(move)
                if len(winners) > 1:
                    break
        return winners

    def _glance(self, position: Any, move: Move) -> int:
        """The balance after `move` once the captures it starts are over."""
        return -self.value(self.variant.play(position, move), 0, -10 * WON, 10 * WON)

    def line(self, position: Any, depth: int) -> tuple[Move, ...]:
        """The best play from `position` to the horizon (captures followed to their end)."""
        moves: list[Move] = []
        while True:
            legal = self.variant.legal_moves(position)
            if not legal or (depth <= 0 and not legal[0].is_capture):
                return tuple(moves)
            best = max(legal, key=lambda move: -self.value(self.variant.play(position, move), depth - 1,
                                                           -10 * WON, 10 * WON))
            moves.append(best)
            position = self.variant.play(position, best)
            depth -= 1

    # -- the search -----------------------------------------------------------------

    def balance(self, position: Any) -> int:
        """The side to move's pieces minus the other side's."""
        mine, theirs = (position.white, position.black) if position.turn == 0 else (position.black, position.white)
        return mine.bit_count() - theirs.bit_count()

    def value(self, position: Any, depth: int, alpha: int, beta: int) -> int:
        """Minimax piece balance for the side to move, `depth` plies and then every capture to its end."""
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise ProofTooCostly
        moves = self.variant.legal_moves(position)
        if not moves:
            return -WON  # no legal move: the side to move has lost
        if depth <= 0 and not moves[0].is_capture:
            return self.balance(position)
        placement = self.variant.repetition_key(position)
        key = (placement, max(depth, 0))
        entry = self._table.get(key)
        if entry is not None:
            score, flag = entry
            if flag == EXACT or (flag == LOWER and score >= beta) or (flag == UPPER and score <= alpha):
                return score
        first = self._best.get(placement)
        if first is not None and first in moves and moves[0] != first:
            moves.remove(first)
            moves.insert(0, first)
        original_alpha = alpha
        best = -10 * WON
        for move in moves:
            score = -self.value(self.variant.play(position, move), depth - 1, -beta, -alpha)
            if score > best:
                best = score
                self._best[placement] = move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        flag = LOWER if best >= beta else UPPER if best <= original_alpha else EXACT
        self._table[key] = (best, flag)
        return best
