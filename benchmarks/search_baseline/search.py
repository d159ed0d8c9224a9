"""Game-tree search for the two-side draughts variants.

Iterative deepening over a negamax principal-variation search (PVS) with
alpha-beta, a transposition table, move ordering (table move, captures by
size, killer moves, history counts) and a capture quiescence: in draughts a
capture is compulsory, so a position with a capture pending is never scored
statically; the search follows the captures until the side to move has a
quiet position.

Time: the engine owns no clock. The caller passes `now` (a callable giving
seconds, `time.monotonic` on the board, a fake in tests) and a `time_limit`;
the search looks at `now()` every `check_every` nodes and, once the deadline
is passed, unwinds and returns the best move of the last finished iteration
(or the best so far of the unfinished one when it has already searched the
previous best move). A `stop` callable (the controller's cancel) is polled at
the same points. Whatever happens the result's move is one of
`variant.legal_moves(position)`.

Multiwarcaby (shared pieces, 2-4 sides, two moves a turn) is searched by
`multisearch.py`; `think()` here picks the right one for a variant.

Size: the alpha-beta search is one unit whose parts (ordering, transposition
table, quiescence, reductions) share the node loop; `_negamax` is long on
purpose: it is the hot path, inlined for speed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Hashable, Iterable

from .evaluate import DraughtsEvaluator
from damka.engine.move import Move

INF = 10**9
WIN = 1_000_000  # a won position scores WIN - plies to the win
WIN_BOUND = WIN - 10_000  # scores beyond this are wins/losses, not evaluations

EXACT, LOWER, UPPER = 0, 1, 2
MAX_PLY = 128
LMR_AFTER = 3  # late move reduction: from the 4th move of a node...
LMR_MIN_DEPTH = 2  # ...with at least this much depth left after the move
TT_LIMIT = 100_000  # entries, about 500 bytes each: cleared past ~50 MB (memory on the Pi)


class SearchStopped(Exception):
    """Raised inside the search when the deadline passes or `stop()` says so."""


class SearchLimits:
    """The stop check both searches share: deadline, stop request, node budget.

    Read every `_check_every` nodes only, so the clock costs nothing per node."""

    nodes: int
    _countdown: int
    _check_every: int
    _deadline: int | float | None
    _now: Callable[[], float]
    _stop: Callable[[], bool] | None
    _max_nodes: int | None

    def _tick(self) -> None:
        self._countdown = self._check_every
        if self._deadline is not None and self._now() >= self._deadline:
            raise SearchStopped
        if self._stop is not None and self._stop():
            raise SearchStopped
        if self._max_nodes is not None and self.nodes >= self._max_nodes:
            raise SearchStopped


@dataclass
class SearchResult:
    """What a search found: the move to play and how it got there."""

    move: Move
    score: int = 0  # side-to-move relative, centi-men (WIN - n: wins in n plies)
    depth: int = 0  # the last completed iteration
    nodes: int = 0
    elapsed: float = 0.0
    pv: tuple[Move, ...] = ()
    root_scores: dict[Move, int] = field(default_factory=dict)  # only with all_root_scores
    stopped: bool = False  # the time or a stop ended the search

    @property
    def is_win(self) -> bool:
        return self.score > WIN_BOUND

    @property
    def is_loss(self) -> bool:
        return self.score < -WIN_BOUND


def _no_clock() -> float:
    return 0.0


class Searcher(SearchLimits):
    """A reusable search for one variant (keeps its transposition table).

    `evaluate(position) -> int` is side-to-move relative; the default is the
    draughts evaluation of `evaluate.py`.
    """

    def __init__(self, variant: Any, evaluate: Callable[[Any], int] | None = None) -> None:
        self.variant = variant
        self.evaluate = evaluate or DraughtsEvaluator(variant)
        self.legal_moves = variant.legal_moves
        self.play = variant.play
        self.side_to_move = variant.side_to_move
        self.tt: dict[Hashable, tuple[int, int, int, Move | None]] = {}
        # Captures are compulsory unless the variant's free-capture option is on.
        self.free_capture = bool(getattr(variant, "free_capture", False))
        self._draw_check = _draw_checker(variant)
        # Cheap tests (no move lists) for the leaves; with optional captures a
        # leaf must stand pat against its captures, so it takes the full path.
        self._capture_required = getattr(variant, "capture_required", None)
        self._has_moves = getattr(variant, "has_moves", None)
        self._quiet_leaf = (self._capture_required is not None and self._has_moves is not None
                            and not self.free_capture) or None

    # -- entry point ----------------------------------------------------------

    # Long on purpose: iterative deepening with its time checks and aspiration window in one loop.
    def search(
        self,
        position: Any,
        *,
        max_depth: int = 64,
        time_limit: float | None = None,
        now: Callable[[], float] | None = None,
        stop: Callable[[], bool] | None = None,
        history: Iterable[Any] = (),
        check_every: int = 64,
        all_root_scores: bool = False,
        max_nodes: int | None = None,
    ) -> SearchResult:
        """Search `position` and return the best move found.

        `history`: the game's earlier positions (for repetition draws).
        `all_root_scores`: score every root move exactly (no PVS window at the
        root); slower, used by the learner levels that pick among near-best
        moves.
        """
        moves = self.legal_moves(position)
        if not moves:
            raise ValueError("no legal move in this position")
        clock = now or _no_clock
        self._now = clock
        self._start = clock()
        self._deadline = self._start + time_limit if time_limit is not None and now is not None else None
        self._stop = stop
        self._check_every = max(1, check_every)
        self._countdown = self._check_every
        self._max_nodes = max_nodes
        self.nodes = 0
        self.killers: list[list[Move | None]] = [[None, None] for _ in range(MAX_PLY + 2)]
        self.history_scores: dict[tuple[int, int], int] = {}
        repetition_key = self.variant.repetition_key
        self._path: dict[Hashable, int] = {}  # keys on the game and search path, counted
        for earlier in history:
            key = repetition_key(earlier)
            self._path[key] = self._path.get(key, 0) + 1
        self._partial_best: tuple[Move, int] | None = None
        self._repetition_key = repetition_key
        if len(self.tt) > TT_LIMIT:
            self.tt.clear()

        ordered = self._order(position, moves, self._tt_move(position), 0)
        result = SearchResult(move=ordered[0], nodes=0)
        if len(moves) == 1 and not all_root_scores:
            result.pv = (moves[0],)
            result.elapsed = clock() - self._start
            return result

        previous_score = 0
        for depth in range(1, max_depth + 1):
            try:
                if all_root_scores:
                    score, best, scores = self._root_all(position, ordered, depth)
                    result.root_scores = scores
                else:
                    score, best = self._root(position, ordered, depth, previous_score)
            except SearchStopped:
                result.stopped = True
                partial = self._partial_best
                # The unfinished iteration searched the previous best move
                # first; a move that then scored better inside the window is
                # better at the new depth too.
                if partial is not None and depth > 1 and not all_root_scores:
                    result.move, result.score = partial
                break
            previous_score = score
            result.move, result.score, result.depth = best, score, depth
            ordered.remove(best)
            ordered.insert(0, best)
            if abs(score) > WIN_BOUND and depth >= WIN - abs(score):
                break  # a forced win or loss seen to its end: deeper adds nothing
            if self._deadline is not None and clock() - self._start > 0.55 * (self._deadline - self._start):
                break  # the next iteration would not finish: keep the time
        result.nodes = self.nodes
        result.elapsed = clock() - self._start
        result.pv = self._principal_variation(position, result.move)
        return result

    # -- root -----------------------------------------------------------------

    def _root(self, position: Any, moves: list[Move], depth: int, guess: int) -> tuple[int, Move]:
        # Aspiration window around the last score, widened on failure.
        window = 60
        alpha, beta = (guess - window, guess + window) if depth >= 3 and abs(guess) < WIN_BOUND else (-INF, INF)
        while True:
            score, best = self._root_window(position, moves, depth, alpha, beta)
            if score <= alpha:
                alpha = -INF
            elif score >= beta:
                beta = INF
            else:
                return score, best

    def _root_window(self, position: Any, moves: list[Move], depth: int, alpha: int, beta: int) -> tuple[int, Move]:
        best_move = moves[0]
        best = -INF
        self._partial_best = None
        original_alpha = alpha
        side = self.side_to_move(position)
        for index, move in enumerate(moves):
            child = self.play(position, move)
            sign = 1 if self.side_to_move(child) != side else -1
            self._enter(self._repetition_key(position))
            try:
                if index == 0:
                    score = self._child_score(child, sign, depth - 1, alpha, beta, 1)
                else:
                    score = self._child_score(child, sign, depth - 1, alpha, alpha + 1, 1)
                    if alpha < score < beta:
                        score = self._child_score(child, sign, depth - 1, alpha, beta, 1)
            finally:
                self._leave(self._repetition_key(position))
            if score > best:
                best, best_move = score, move
                if alpha < score < beta or index == 0:
                    self._partial_best = (move, score)
            if score > alpha:
                alpha = score
            if alpha >= beta:
                break
        flag = EXACT if original_alpha < best < beta else (LOWER if best >= beta else UPPER)
        self._store(position, depth, best, flag, best_move)
        return best, best_move

    def _root_all(self, position: Any, moves: list[Move], depth: int) -> tuple[int, Move, dict[Move, int]]:
        scores: dict[Move, int] = {}
        side = self.side_to_move(position)
        self._partial_best = None
        best, best_move = -INF, moves[0]
        for move in moves:
            child = self.play(position, move)
            sign = 1 if self.side_to_move(child) != side else -1
            self._enter(self._repetition_key(position))
            try:
                score = self._child_score(child, sign, depth - 1, -INF, INF, 1)
            finally:
                self._leave(self._repetition_key(position))
            scores[move] = score
            if score > best:
                best, best_move = score, move
        return best, best_move, scores

    def _child_score(self, child: Any, sign: int, depth: int, alpha: int, beta: int, ply: int) -> int:
        # sign 1: the other side moves next (negamax); -1: the same side again.
        if sign == 1:
            return -self._negamax(child, depth, -beta, -alpha, ply)
        return self._negamax(child, depth, alpha, beta, ply)

    # -- the tree ---------------------------------------------------------------

    # Long on purpose: the search's node loop, inlined for speed.
    def _negamax(self, position: Any, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        self._countdown -= 1
        if self._countdown <= 0:
            self._tick()

        key = self._repetition_key(position)
        if key in self._path:
            return 0  # a repetition inside the search or with the game: a draw
        if self._draw_check is not None and self._draw_check(position):
            return 0

        entry = self.tt.get(key)
        tt_move = None
        if entry is not None and depth > 0:
            # speed: a cut-off from the table before any move is generated.
            tt_move = entry[3]
            cut = _probe(entry, depth, alpha, beta, ply)
            if cut is not None:
                return cut

        if depth <= 0 and self._quiet_leaf is not None and not self._capture_required(position):
            # speed: a quiet leaf is scored without generating its moves (about
            # half the nodes; a third faster): only whether it has any matters.
            return self.evaluate(position) if self._has_moves(position) else -(WIN - ply)

        moves = self.legal_moves(position)
        if not moves:
            return -(WIN - ply)
        if ply >= MAX_PLY:
            return self.evaluate(position)

        capture = moves[0].captures or any(m.captures for m in moves)
        floor = -INF  # the score the side can always have here (stand pat, free captures)
        if depth <= 0:
            if not capture:
                return self.evaluate(position)
            if self.free_capture:
                # Optional captures: the side may decline, so stand pat first.
                stand = self.evaluate(position)
                if stand >= beta:
                    return stand
                alpha = max(alpha, stand)
                floor = stand
                moves = [m for m in moves if m.captures]
            depth = 0  # captures pending: follow them without spending depth
            if entry is not None:
                tt_move = entry[3]
                cut = _probe(entry, depth, alpha, beta, ply)
                if cut is not None:
                    return cut

        if len(moves) > 1:
            moves = self._order(position, moves, tt_move, ply)
        # A forced move (one legal, usually a capture) costs no depth.
        next_depth = depth if len(moves) == 1 else depth - 1
        side = self.side_to_move(position)
        original_alpha = alpha
        best = floor
        best_move = moves[0]
        self._enter(key)
        try:
            for index, move in enumerate(moves):
                child = self.play(position, move)
                sign = 1 if self.side_to_move(child) != side else -1
                if index == 0:
                    score = self._child_score(child, sign, next_depth, alpha, beta, ply + 1)
                else:
                    # Late quiet moves (ordered after the table move, captures and
                    # killers) are first searched a ply shallower; one that
                    # beats alpha is searched again at full depth.
                    reduce = index >= LMR_AFTER and next_depth >= LMR_MIN_DEPTH and not move.captures
                    score = self._child_score(child, sign, next_depth - reduce, alpha, alpha + 1, ply + 1)
                    if reduce and score > alpha:
                        score = self._child_score(child, sign, next_depth, alpha, alpha + 1, ply + 1)
                    if alpha < score < beta:
                        score = self._child_score(child, sign, next_depth, alpha, beta, ply + 1)
                if score > best:
                    best, best_move = score, move
                    if score > alpha:
                        alpha = score
                        if alpha >= beta:
                            if not move.captures:
                                killers = self.killers[ply]
                                if killers[0] is None or (killers[0].start, killers[0].path[-1]) != (move.start, move.end):
                                    killers[1] = killers[0]
                                    killers[0] = move
                                hkey = (move.start, move.end)
                                self.history_scores[hkey] = self.history_scores.get(hkey, 0) + depth * depth
                            break
        finally:
            self._leave(key)

        flag = EXACT if original_alpha < best < beta else (LOWER if best >= beta else UPPER)
        self._store(position, depth, best, flag, best_move, ply, key)
        return best

    # -- helpers ----------------------------------------------------------------

    def _enter(self, key: Hashable) -> None:
        self._path[key] = self._path.get(key, 0) + 1

    def _leave(self, key: Hashable) -> None:
        count = self._path[key] - 1
        if count:
            self._path[key] = count
        else:
            del self._path[key]

    def _store(self, position: Any, depth: int, score: int, flag: int, move: Move | None,
               ply: int = 0, key: Hashable | None = None) -> None:
        # Win scores are stored relative to this node, so they stay right
        # when the same position is reached at another depth.
        if score > WIN_BOUND:
            score += ply
        elif score < -WIN_BOUND:
            score -= ply
        self.tt[key if key is not None else self._repetition_key(position)] = (depth, score, flag, move)

    def _tt_move(self, position: Any) -> Move | None:
        entry = self.tt.get(self._repetition_key(position))
        return entry[3] if entry else None

    def _order(self, position: Any, moves: list[Move], tt_move: Move | None, ply: int) -> list[Move]:
        killers = self.killers[ply] if ply <= MAX_PLY else (None, None)
        history = self.history_scores
        # speed: compare (start, end, captures) tuples, not Move.__eq__ (a call and two tuples each).
        tt_key = (tt_move.start, tt_move.path[-1], tt_move.captures) if tt_move is not None else None
        k0 = (killers[0].start, killers[0].path[-1]) if killers[0] is not None else None
        k1 = (killers[1].start, killers[1].path[-1]) if killers[1] is not None else None

        def rank(move: Move) -> int:
            start, end, captures = move.start, move.path[-1], move.captures
            if tt_key is not None and tt_key[0] == start and tt_key[1] == end and tt_key[2] == captures:
                return 1 << 30
            if captures:
                return (1 << 24) + (len(captures) << 8)
            pair = (start, end)
            if pair == k0:
                return 1 << 22
            if pair == k1:
                return (1 << 22) - 1
            return history.get(pair, 0)

        return sorted(moves, key=rank, reverse=True)

    def _principal_variation(self, position: Any, first: Move) -> tuple[Move, ...]:
        pv = [first]
        seen = {self._repetition_key(position)}
        position = self.play(position, first)
        while len(pv) < 32:
            key = self._repetition_key(position)
            if key in seen:
                break
            seen.add(key)
            entry = self.tt.get(key)
            if entry is None or entry[3] is None:
                break
            move = entry[3]
            if move not in self.legal_moves(position):
                break
            pv.append(move)
            position = self.play(position, move)
        return tuple(pv)


def _probe(entry: tuple[int, int, int, Move | None], depth: int, alpha: int, beta: int, ply: int) -> int | None:
    """The table's score when it settles the node at this depth and window, else None."""
    e_depth, score, flag, _ = entry
    if e_depth < depth:
        return None
    if score > WIN_BOUND:
        score -= ply
    elif score < -WIN_BOUND:
        score += ply
    if flag == EXACT or (flag == LOWER and score >= beta) or (flag == UPPER and score <= alpha):
        return score
    return None


def _draw_checker(variant: Any) -> Callable[[Any], bool] | None:
    """A cheap test for the draw-by-counter rule, if the positions carry one.

    The draughts positions count plies without capture or man move (`quiet`)
    and the variant sets the limit (`draw_moves` each); reading the counter
    avoids calling `outcome`, which would generate the moves a second time.
    """
    sample = variant.start_position()
    limit = getattr(variant, "draw_moves", None)
    if isinstance(getattr(sample, "quiet", None), int) and isinstance(limit, int):
        plies = 2 * limit
        return lambda position: position.quiet >= plies
    return None


def search(variant: Any, position: Any, **limits: Any) -> SearchResult:
    """One-shot search with a fresh `Searcher` (see `Searcher.search` for the limits)."""
    return Searcher(variant).search(position, **limits)


def think(variant: Any, position: Any, **limits: Any) -> SearchResult:
    """Search with whichever algorithm fits the variant's family."""
    if variant.search_kind == "multi":
        from damka.engine.multisearch import MultiSearcher

        return MultiSearcher(variant).search(position, **limits)
    return search(variant, position, **limits)
