"""Search for multiwarcaby: shared pieces, 2-4 sides (or two teams), two moves a turn.

Algorithm: **paranoid** alpha-beta. The side to choose a move (the root side)
maximises its utility; every other side is assumed to minimise it, as one
coalition. Why not max-n: max-n keeps a score vector per node and admits
almost no pruning (only shallow pruning, and only with a bounded sum), so at
the branching factor of this game (tens to thousands of moves: every prefix
of every jump chain is a move) it reaches one ply less than paranoid. In a
capture-maximising game the others' interest really is mostly opposed to
ours: a capture they make is a point they gain, and a capture chance we leave
is taken by whoever moves next. Paranoid is pessimistic in 3-4 player games
(it assumes the others cooperate), which for a side that wants to place well
errs towards safety: it avoids handing out captures.

The two moves of a turn are plain plies: the side does not change between
them, so the node type (max or min) simply follows `side to move == root`.
Depth counts single moves: depth 4 is our turn and the next side's turn.

The tree is searched on bare occupancy bitboards with the tables of
`multiwarcaby_board.Board` (the rules module's own generator), not through
`Variant.play`: building a `Move` and a position object per child would cost
more than the rest of the node. The root maps the chosen board back to one of
`variant.legal_moves(position)`, so the move returned is always legal.

Pruning for the branching factor (a full-width search could not see even one
turn ahead in a second): every child is scored statically (captures made,
plus a threat term), then only the best `width[ply]` children are searched
(beam). Captures sort to the front by their size, quiet steps by what they
set up for the mover's second move or leave for the next side.

Utility for root side R (centi-points):
- two sides: 100 * (captures of R - captures of the other);
- three or four: 100 * s_R - 50 * max(others) - 50 * mean(others): being
  ahead of the leader matters most, the field as a whole a little;
- threat: the next side to move will find captures; every piece that can be
  jumped right now (a neighbour on one side, an empty square beyond) counts
  `THREAT` for that side (more if it has both moves of its turn left).
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Any, Callable

from damka.engine.move import Move
from damka.engine.multiwarcaby_board import Board
from damka.engine.search import INF, SearchLimits, SearchResult, SearchStopped

THREAT = 30  # centi-points per capturable piece for the side about to move
THREAT_TWO_MOVES = 50  # ... when it still has both moves of its turn
# Beam widths by ply below the root (the root itself is searched full width
# once statically, then its best ROOT_WIDTH children in depth).
ROOT_WIDTH = 8
WIDTHS = (5, 4, 3, 3, 3, 3, 3, 3)
# The beams kept for the next, deeper iteration: at most this many nodes'
# (about 800 bytes each, so at most some 25 MB; a search of a second or two
# expands some thousands of nodes).
BEAM_TABLE_SIZE = 30_000

Beam = list[tuple[int, int, tuple[int, ...]]]  # (static value, board, scores) of the children searched, best first


@dataclass(eq=False, slots=True)  # identity hash: nodes are dict keys at the root
class _Node:
    occupied: int
    scores: tuple[int, ...]
    side: int
    second: bool  # the second move of the turn
    turn_start: int  # the board when the turn began (a turn must change it)


class MultiSearcher(SearchLimits):
    """Paranoid beam alpha-beta for one multiwarcaby variant."""

    def __init__(self, variant: Any) -> None:
        self.variant = variant
        self.board = Board(variant.geometry)
        self.n_sides = len(variant.sides)
        self.playable = self.board.playable
        self.up = self.board.up
        self.down = self.board.down
        # The eight directions come in opposite pairs, so `down` holds the same
        # shifts as `up`: one loop over them looks both ways (speed: the threat
        # term is worked out for every child).
        if sorted(self.up) != sorted(self.down) or len(self.up) != 4:
            raise ValueError("multiwarcaby board: expected eight directions in opposite pairs")
        self.shifts = self.up

    # -- entry point -------------------------------------------------------

    # Long on purpose: the paranoid search's node loop, inlined for speed.
    def search(
        self,
        position: Any,
        *,
        max_depth: int = 8,
        time_limit: float | None = None,
        now: Callable[[], float] | None = None,
        stop: Callable[[], bool] | None = None,
        history: Any = (),
        check_every: int = 1,  # a node here costs a whole move generation
        all_root_scores: bool = False,
        max_nodes: int | None = None,
        include: tuple[Move, ...] = (),
    ) -> SearchResult:
        """Search `position` for the side to move (see the module notes).

        `include`: root moves searched in depth even if the static order would
        leave them out of the beam (the coach asks about the move just made).
        `all_root_scores` is accepted for the common interface: the root
        scores of the searched moves are always reported.
        """
        variant = self.variant
        moves = variant.legal_moves(position)
        if not moves:
            raise ValueError("no legal move in this position")
        clock = now or (lambda: 0.0)
        self._now = clock
        self._start = clock()
        self._deadline = self._start + time_limit if time_limit is not None and now is not None else None
        self._stop = stop
        self._check_every = max(1, check_every)
        self._countdown = self._check_every
        self._max_nodes = max_nodes
        self.nodes = 0
        # Each iteration searches the same tree one ply deeper: a node's beam
        # (its best children, in order) is kept for the next, not generated again.
        self._beams: dict[tuple[int, tuple[int, ...], int, bool, int, int], Beam] = {}

        root_side = variant.side_to_move(position)
        self.root_side = root_side
        self._others = tuple(i for i in range(self.n_sides) if i != root_side)
        active = tuple(getattr(position, "active", (True,) * self.n_sides))
        # Turn order skips sides out of play.
        self.next_side = tuple(
            next((j % self.n_sides for j in range(i + 1, i + 1 + self.n_sides) if active[j % self.n_sides]), i)
            for i in range(self.n_sides)
        )
        occupied = variant.occupancy(position)
        scores = tuple(variant.scores(position))
        second = variant.move_in_turn(position) == 1
        turn_start = self._turn_start(position, occupied, second, history)

        # Root children: one per legal move, scored statically.
        by_board: dict[int, Move] = {}
        for move in moves:
            child = self._after(occupied, move)
            kept = by_board.get(child)
            if kept is None or (move.captures and not kept.captures):
                by_board[child] = move
        node = _Node(occupied, scores, root_side, second, turn_start)
        children = self._children(node)
        # Keep only children the rules also list (they should be the same set).
        children = [c for c in children if c[0].occupied in by_board] or [
            (self._child_node(node, board, move), 0) for board, move in by_board.items()
        ]
        children.sort(key=lambda c: c[1], reverse=True)
        if include:
            wanted = {self._after(occupied, move) for move in include}
            front = [c for c in children if c[0].occupied in wanted]
            rest = [c for c in children if c[0].occupied not in wanted]
            children = rest[: max(1, ROOT_WIDTH - len(front))] + front + rest[max(1, ROOT_WIDTH - len(front)):]
        result = SearchResult(move=by_board[children[0][0].occupied], score=children[0][1], depth=1)
        result.root_scores = {by_board[c.occupied]: value for c, value in children}
        if len(by_board) == 1:
            result.elapsed = clock() - self._start
            return result

        for depth in range(2, max_depth + 1):
            try:
                score, best, scores_here = self._root(children, depth)
            except SearchStopped:
                result.stopped = True
                break
            result.move, result.score, result.depth = by_board[best.occupied], score, depth
            # Learner levels pick among these: only moves searched this deep.
            result.root_scores = {by_board[child.occupied]: value for child, value in scores_here.items()}
            # Re-order: searched children by their new scores, then the rest.
            rank = {id(c): v for c, v in scores_here.items()}
            children.sort(key=lambda c: rank.get(id(c[0]), -INF), reverse=True)
            if self._deadline is not None and clock() - self._start > 0.4 * (self._deadline - self._start):
                break  # the next depth costs several times this one
        result.nodes = self.nodes
        result.elapsed = clock() - self._start
        result.pv = (result.move,)
        return result

    # -- helpers for the root -------------------------------------------------

    def _turn_start(self, position: Any, occupied: int, second: bool, history: Any) -> int:
        if not second:
            return occupied
        for name in ("turn_start", "turn_start_occupied", "before"):
            value = getattr(position, name, None)
            if isinstance(value, int):
                return value
        earlier = list(history)
        if earlier:
            previous = earlier[-1]
            if previous is not position:
                return self.variant.occupancy(previous)
            if len(earlier) > 1:
                return self.variant.occupancy(earlier[-2])
        return -1  # unknown: no child is excluded here; the root filter keeps legality

    @staticmethod
    def _after(occupied: int, move: Move) -> int:
        board = occupied ^ (1 << move.start)
        for square in move.captures:
            board ^= 1 << square
        return board | (1 << move.end)

    def _child_node(self, node: _Node, board: int, move: Move) -> _Node:
        gain = len(move.captures)
        scores = list(node.scores)
        scores[node.side] += gain
        if node.second:
            return _Node(board, tuple(scores), self.next_side[node.side], False, board)
        return _Node(board, tuple(scores), node.side, True, node.turn_start)

    # -- evaluation -----------------------------------------------------------

    def utility(self, scores: tuple[int, ...]) -> int:
        mine = scores[self.root_side]
        if self.n_sides == 2:
            return 100 * (mine - scores[1 - self.root_side])
        others = self._others
        best = max(scores[i] for i in others)
        return 100 * mine - 50 * best - 50 * (sum(scores) - mine) // len(others)

    def threat(self, occupied: int) -> int:
        """Pieces that could be jumped now: a piece beside each, an empty square beyond."""
        empty = self.playable & ~occupied
        found = 0
        # speed: one shift pair per direction marks every jumpable piece at once.
        for delta in self.shifts:
            found |= ((occupied << delta) & (empty >> delta)) | ((occupied >> delta) & (empty << delta))
        return (found & occupied).bit_count()

    def static(self, occupied: int, scores: tuple[int, ...], side: int, second: bool) -> int:
        """Utility for the root side of a board with `side` about to move."""
        value = self.utility(scores)
        threat = self.threat(occupied)
        if threat:
            weight = THREAT if second else THREAT_TWO_MOVES
            value += weight * threat if side == self.root_side else -weight * threat
        return value

    # -- the tree -------------------------------------------------------------

    def _children(self, node: _Node) -> list[tuple[_Node, int]]:
        """Every child of `node` with its static value, unsorted (the root's form)."""
        side, second = self._next_turn(node)
        return [(self._node(node, board, scores, side, second), value)
                for value, board, scores in self._expand(node)]

    def _next_turn(self, node: _Node) -> tuple[int, bool]:
        """Who moves after `node`'s move, and whether it is their second move."""
        if node.second:
            return self.next_side[node.side], False
        return node.side, True

    @staticmethod
    def _node(parent: _Node, board: int, scores: tuple[int, ...], side: int, second: bool) -> _Node:
        return _Node(board, scores, side, second, parent.turn_start if second else board)

    def _expand(self, node: _Node) -> list[tuple[int, int, tuple[int, ...]]]:
        """(static value, board, scores) of every child of `node`.

        Kept as bare tuples: only the few children the beam keeps become nodes.
        """
        board = self.board
        occupied = node.occupied
        side = node.side
        base_scores = node.scores
        next_side, next_second = self._next_turn(node)
        # The threat term, inlined (speed: this loop runs for every child).
        playable, shifts = self.playable, self.shifts
        weight = THREAT if next_second else THREAT_TWO_MOVES
        if next_side != self.root_side:
            weight = -weight
        out: list[tuple[int, int, tuple[int, ...]]] = []
        append = out.append
        # Steps: the scores do not change, so neither does the utility.
        utility = self.utility(base_scores)
        forbidden = node.turn_start if node.second else -1  # a turn must change the board
        for child in board.step_children(occupied):
            if child == forbidden:
                continue
            empty = playable & ~child
            found = 0
            for delta in shifts:
                found |= ((child << delta) & (empty >> delta)) | ((child >> delta) & (empty << delta))
            append((utility + weight * (found & child).bit_count(), child, base_scores))
        # Captures.
        # speed: the scores and their utility depend only on how many pieces a
        # capture takes: worked out once per count, not once per capture.
        by_gain: dict[int, tuple[int, tuple[int, ...]]] = {}
        capturers = board.capturers(occupied)
        seen: set[int] = set()
        while capturers:
            low = capturers & -capturers
            capturers ^= low
            start_sq = low.bit_length() - 1
            base = occupied ^ low
            for end, captured in board.capture_states(occupied, start_sq):
                child = (base ^ captured) | (1 << end)
                if child in seen or child == forbidden:
                    continue
                seen.add(child)
                gain = captured.bit_count()
                known = by_gain.get(gain)
                if known is None:
                    known = by_gain[gain] = self._gained(base_scores, side, gain)
                empty = playable & ~child
                found = 0
                for delta in shifts:
                    found |= ((child << delta) & (empty >> delta)) | ((child >> delta) & (empty << delta))
                append((known[0] + weight * (found & child).bit_count(), child, known[1]))
        return out

    def _gained(self, scores: tuple[int, ...], side: int, gain: int) -> tuple[int, tuple[int, ...]]:
        """The utility and the scores after `side` captured `gain` pieces."""
        after = list(scores)
        after[side] += gain
        return self.utility(tuple(after)), tuple(after)

    def _leaf_best(self, node: _Node, maximising: bool, ply: int) -> int | None:
        """The best static value among `node`'s children for who moves there
        (the largest for the root side, else the smallest); None: no child.

        `_expand`'s values without its list (speed: most expansions are one ply
        above the leaves, where only this one number is needed). The few best
        children are kept as the node's beam: the next iteration searches
        them one ply deeper without generating the node's moves again.
        """
        board = self.board
        occupied = node.occupied
        scores = node.scores
        next_side, next_second = self._next_turn(node)
        playable = self.playable
        a, b, c, d = self.shifts  # speed: the four shifts unrolled below
        weight = THREAT if next_second else THREAT_TWO_MOVES
        if next_side != self.root_side:
            weight = -weight
        width = WIDTHS[ply - 1] if ply - 1 < len(WIDTHS) else WIDTHS[-1]
        sign = 1 if maximising else -1
        # The best `width` children so far, the worst first: (sign * value, sign * board, value, board, scores).
        top: list[tuple[int, int, int, int, tuple[int, ...]]] = []
        floor: int | None = None  # the worst key kept, once `width` are kept: a child below it is passed over
        forbidden = node.turn_start if node.second else -1  # a turn must change the board
        utility = self.utility(scores)
        for child in board.step_children(occupied):
            if child == forbidden:
                continue
            empty = playable & ~child
            found = (((child << a) & (empty >> a)) | ((child >> a) & (empty << a))
                     | ((child << b) & (empty >> b)) | ((child >> b) & (empty << b))
                     | ((child << c) & (empty >> c)) | ((child >> c) & (empty << c))
                     | ((child << d) & (empty >> d)) | ((child >> d) & (empty << d)))
            value = utility + weight * (found & child).bit_count()
            key = sign * value
            if floor is None or key > floor or (key == floor and sign * child > top[0][1]):
                floor = _keep(top, width, (key, sign * child, value, child, scores))
        by_gain: dict[int, tuple[int, tuple[int, ...]]] = {}
        capturers = board.capturers(occupied)
        while capturers:
            low = capturers & -capturers
            capturers ^= low
            base = occupied ^ low
            for end, captured in board.capture_states(occupied, low.bit_length() - 1):
                child = (base ^ captured) | (1 << end)
                if child == forbidden:
                    continue
                gain = captured.bit_count()
                known = by_gain.get(gain)
                if known is None:
                    known = by_gain[gain] = self._gained(scores, node.side, gain)
                empty = playable & ~child
                found = (((child << a) & (empty >> a)) | ((child >> a) & (empty << a))
                         | ((child << b) & (empty >> b)) | ((child >> b) & (empty << b))
                         | ((child << c) & (empty >> c)) | ((child >> c) & (empty << c))
                         | ((child << d) & (empty >> d)) | ((child >> d) & (empty << d)))
                value = known[0] + weight * (found & child).bit_count()
                key = sign * value
                if floor is None or key > floor or (key == floor and sign * child > top[0][1]):
                    floor = _keep(top, width, (key, sign * child, value, child, known[1]))
        beam = [(value, child, after) for _, _, value, child, after in sorted(top, reverse=True)]
        if len(self._beams) < BEAM_TABLE_SIZE:
            self._beams[self._beam_key(node, width)] = beam
        return beam[0][0] if beam else None

    def _root(self, children: list[tuple[_Node, int]], depth: int) -> tuple[int, _Node, dict[_Node, int]]:
        alpha, beta = -INF, INF
        best_value, best = -INF, children[0][0]
        values: dict[_Node, int] = {}
        for child, _ in children[:ROOT_WIDTH]:
            value = self._value(child, depth - 1, alpha, beta, 1)
            values[child] = value
            if value > best_value:
                best_value, best = value, child
            if value > alpha:
                alpha = value
        return best_value, best, values

    @staticmethod
    def _beam_key(node: _Node, width: int) -> tuple[int, tuple[int, ...], int, bool, int, int]:
        """What a node's beam depends on: its board, scores, who moves, which move of
        the turn, the board the turn may not return to, and the beam's width."""
        return node.occupied, node.scores, node.side, node.second, node.turn_start if node.second else -1, width

    def _beam(self, node: _Node, maximising: bool, ply: int) -> Beam:
        """The children of `node` searched in depth, best first for who moves
        there (none: `node` has no child); from the table when an earlier
        iteration expanded it at the same ply."""
        width = WIDTHS[ply - 1] if ply - 1 < len(WIDTHS) else WIDTHS[-1]
        key = self._beam_key(node, width)
        beam = self._beams.get(key)
        if beam is None:
            children = self._expand(node)
            # speed: a partial selection of the beam instead of sorting every child.
            beam = heapq.nlargest(width, children) if maximising else heapq.nsmallest(width, children)
            if len(self._beams) < BEAM_TABLE_SIZE:
                self._beams[key] = beam
        return beam

    def _value(self, node: _Node, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        self._countdown -= 1
        if self._countdown <= 0:
            self._tick()
        if depth <= 0 or node.occupied.bit_count() < 2:
            return self.static(node.occupied, node.scores, node.side, node.second)
        maximising = node.side == self.root_side
        if depth == 1:
            # The children's static values are the leaf values: no recursion.
            best = self._leaf_best(node, maximising, ply)
            return self.static(node.occupied, node.scores, node.side, node.second) if best is None else best
        beam = self._beam(node, maximising, ply)
        if not beam:
            return self.static(node.occupied, node.scores, node.side, node.second)
        side, second = self._next_turn(node)
        make = self._node
        if maximising:
            value = -INF
            for _, board, scores in beam:
                value = max(value, self._value(make(node, board, scores, side, second), depth - 1, alpha, beta, ply + 1))
                alpha = max(alpha, value)
                if alpha >= beta:
                    break
            return value
        value = INF
        for _, board, scores in beam:
            value = min(value, self._value(make(node, board, scores, side, second), depth - 1, alpha, beta, ply + 1))
            beta = min(beta, value)
            if alpha >= beta:
                break
        return value


def _keep(top: list[tuple[int, int, int, int, tuple[int, ...]]], width: int,
          entry: tuple[int, int, int, int, tuple[int, ...]]) -> int | None:
    """Keep `entry` if it is among the `width` best in `top` (a heap, the worst
    first); a board reached twice (the same captures by two routes) is kept
    once. The worst key kept once `top` is full (None: not full yet)."""
    full = len(top) >= width
    if (not full or entry > top[0]) and not any(kept[1] == entry[1] for kept in top):
        if full:
            heapq.heapreplace(top, entry)
        else:
            heapq.heappush(top, entry)
    return top[0][0] if len(top) >= width else None
