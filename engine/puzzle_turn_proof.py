"""Proving a multiwarcaby puzzle: the one two-move turn that wins two points by force.

All pieces are shared, so "winning two men" cannot mean taking the other
side's men. It means points: a turn *wins* what it captures minus the most
the other player can capture in the whole turn that answers it (both of its
moves, every answer tried). A position is a puzzle when exactly one turn wins
at least `GAIN` points that way and every other turn wins less. Turns are
told apart by the board they leave: the same two captures in the other order
are the same answer.

The horizon is the answer's whole turn (four single moves). Looking one turn
further cannot spoil the solution: the mover's next turn only adds to its
points, so what the solution wins is a floor. It can only make another turn
look as good; that is not searched (the cost would be every answer's every
next turn), and docs/puzzles.md says so.

Work is on occupancy bitboards (`multiwarcaby_board.Board`): the board is all
a turn depends on. The answer's best turn is cached per board. Pure: no I/O,
no clock; `max_nodes` bounds the boards looked at.
"""

from __future__ import annotations

from typing import Any

from damka.engine.move import Move
from damka.engine.puzzle_proof import GAIN, Proof, ProofTooCostly

PLIES = 4   # the turn and the answer's turn, in single moves


class TurnProver:
    """The exact best turn of a two-sided multiwarcaby position, against every answer."""

    def __init__(self, variant: Any, *, max_nodes: int = 400_000) -> None:
        if getattr(variant, "family", "") != "multiwarcaby" or len(variant.sides) != 2:
            raise ValueError(f"{variant.name}: turn puzzles are proved for two-sided multiwarcaby only")
        self.variant = variant
        self.board = variant.board
        self.max_nodes = max_nodes
        self.nodes = 0
        self._answers: dict[int, int] = {}

    def balance(self, position: Any) -> int:
        """0: the points so far change nothing about which turn wins (the maker's level-material test passes)."""
        return 0

    # -- the proof ------------------------------------------------------------------

    def prove(self, position: Any, *, max_depth: int = PLIES) -> Proof | None:
        """The proof that `position` (a turn's first move) is a puzzle, or None.

        ProofTooCostly when more than `max_nodes` boards would be looked at."""
        self.nodes = 0
        self._answers.clear()
        if position.move_in_turn != 0 or sum(position.active) != 2 or max_depth < PLIES:
            return None
        start = position.occupied
        if not self.board.can_capture_in_turn(start):
            return None
        turns = self.scoring_turns(start)
        winners: list[tuple[int, int]] = []   # (points won, board)
        for after, taken in sorted(turns.items(), key=lambda item: -item[1]):
            if self.max_one(after) > taken - GAIN:      # one capture of the answer already takes it back
                continue
            answer = self.answer(after, limit=taken - GAIN)
            if taken - answer >= GAIN:
                winners.append((taken - answer, after))
                if len(winners) > 1:
                    return None
        if not winners:
            return None
        gain, after = winners[0]
        first, second = self.moves_to(position, after)
        line = (first, second, *self.answer_moves(self.variant.play(self.variant.play(position, first), second)))
        return Proof(solution=first, depth=PLIES, gain=gain, line=line,
                     tempting=sum(1 for board, taken in turns.items() if board != after and taken >= GAIN),
                     sacrifice=False, nodes=self.nodes)

    def scoring_turns(self, start: int) -> dict[int, int]:
        """Every board a turn from `start` can leave that took `GAIN` pieces or more, with the pieces taken."""
        total = start.bit_count()
        turns: dict[int, int] = {}
        for first in self.children(start):
            taken = total - first.bit_count()
            seconds = self.children(first) if taken >= GAIN else self.capture_children(first)
            for second in seconds:
                if second != start and total - second.bit_count() >= GAIN:
                    turns[second] = total - second.bit_count()
        return turns

    def answer(self, occupied: int, limit: int = 1 << 30) -> int:
        """The most pieces a whole turn from `occupied` can capture (stops early once over `limit`)."""
        known = self._answers.get(occupied)
        if known is not None:
            return known
        total = occupied.bit_count()
        best = self.max_one(occupied)               # a capture, or nothing, then a capture
        for first in self.children(occupied):
            if best > limit:
                return best                         # not cached: it may be more
            best = max(best, total - first.bit_count() + self.max_one(first))
        self._answers[occupied] = best
        return best

    def max_one(self, occupied: int) -> int:
        """The most pieces one capture from `occupied` takes."""
        board = self.board
        capturers = board.capturers(occupied)
        best = 0
        while capturers:
            low = capturers & -capturers
            capturers ^= low
            for _, captured in board.capture_states(occupied, low.bit_length() - 1):
                best = max(best, captured.bit_count())
        return best

    def children(self, occupied: int) -> set[int]:
        self._count()
        return self.board.children(occupied)

    def capture_children(self, occupied: int) -> set[int]:
        """The boards after each capture from `occupied`."""
        self._count()
        board = self.board
        result: set[int] = set()
        capturers = board.capturers(occupied)
        while capturers:
            low = capturers & -capturers
            capturers ^= low
            for end, captured in board.capture_states(occupied, low.bit_length() - 1):
                result.add(((occupied ^ low) ^ captured) | (1 << end))
        return result

    def _count(self) -> None:
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise ProofTooCostly

    # -- moves for the set ----------------------------------------------------------

    def moves_to(self, position: Any, after: int) -> tuple[Move, Move]:
        """Two legal moves from `position` that leave the board `after` (captures first when both orders work)."""
        variant = self.variant
        options = []
        for first in variant.legal_moves(position):
            middle = variant.play(position, first)
            for second in variant.legal_moves(middle):
                if variant.play(middle, second).occupied == after:
                    options.append((not first.is_capture, first, second))
                    break
        options.sort(key=lambda option: option[0])
        return options[0][1], options[0][2]

    def answer_moves(self, position: Any) -> tuple[Move, ...]:
        """The answer's best turn from `position` as two moves (one when its first move ends the game)."""
        variant = self.variant
        total = position.occupied.bit_count()
        best = -1
        line: tuple[Move, ...] = ()
        for first in variant.legal_moves(position):
            middle = variant.play(position, first)
            if middle.move_in_turn == 0:
                continue
            for second in variant.legal_moves(middle):
                taken = total - variant.play(middle, second).occupied.bit_count()
                if taken > best:
                    best, line = taken, (first, second)
        return line
