"""Game-tree search for the two-side draughts variants.

Iterative deepening over a negamax principal-variation search (PVS) with
alpha-beta, a transposition table, move ordering (table move, captures by
size, killer moves, history counts) and a capture quiescence: in draughts a
capture is compulsory, so a position with a capture pending is never scored
statically; the search follows the captures until the side to move has a
quiet position. Forward pruning cuts a null-window node that a search of
2/5 of its depth shows clearing beta by a margin (on by default). With
`threat_extension`, a quiet leaf under a capture threat gets one more ply
(off by default: not shown to pay for its cost).

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

import gc
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator

from damka.engine.draughts_position import DraughtsPosition
from damka.engine.evaluate import DraughtsEvaluator
from damka.engine.move import Move

INF = 10**9
WIN = 1_000_000  # a won position scores WIN - plies to the win
WIN_BOUND = WIN - 10_000  # scores beyond this are wins/losses, not evaluations

EXACT, LOWER, UPPER = 0, 1, 2
MAX_PLY = 128
LMR_AFTER = 3  # late move reduction: from the 4th move of a node...
LMR_MIN_DEPTH = 2  # ...with at least this much depth left after the move
TT_LIMIT = 100_000  # entries, about 500 bytes each: cleared past ~50 MB (memory on the Pi)
THREAT_PLIES = 4  # quiet leaves under a capture threat are searched a ply deeper, this many plies at most
PRUNE_MIN_DEPTH = 3  # forward pruning: at null-window nodes with this much depth left...
PRUNE_MARGIN = 10  # ...a search of 2/5 the depth that clears beta by this much a ply cuts the node
EVAL_LIMIT = 200_000  # cached leaf scores, about 250 bytes each: cleared past ~50 MB


class SearchStopped(Exception):
    """Raised inside the search when the deadline passes or `stop()` says so."""


# The young objects a timed search lets pile up before a collector's pass over them: at most
# 10-20 ms of pass left at its deadline (0.3-2 us an object, on a loaded 2-core machine).
YOUNG_PASS = 10_000


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
    _collect_young: bool = False   # the collector is to be on after the search: pass over the young now and then

    def _tick(self) -> None:
        self._countdown = self._check_every
        if self._collect_young and gc.get_count()[0] >= YOUNG_PASS:
            gc.collect(0)   # in the search's time, before its deadline is looked at (`_collect_within_time`)
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


def _no_clock() -> float:
    return 0.0


# A board as the move generator gives it: (mine, theirs, kings) seen from the
# side to move. With that side it is the whole position the search needs.
Board = tuple[int, int, int]
Entry = tuple[int, int, int, "Board | None"]  # depth, score, flag, best child


class TranspositionTable:
    """Search results by position: one dict per side to move, keyed by the
    board tuple the move generator already made (no key is built per node)."""

    __slots__ = ("by_side",)

    def __init__(self) -> None:
        self.by_side: tuple[dict[Board, Entry], dict[Board, Entry]] = ({}, {})

    def __len__(self) -> int:
        return len(self.by_side[0]) + len(self.by_side[1])

    def clear(self) -> None:
        for table in self.by_side:
            table.clear()


def board_of(position: Any) -> tuple[Board, int]:
    """The board (side-to-move relative) and the side to move of a draughts position."""
    if position.turn == 0:
        return (position.white, position.black, position.kings), 0
    return (position.black, position.white, position.kings), 1


def _quiet_key(mine: int, child: Board) -> int:
    """A quiet move's (start, end) as one int, for killers and history: the
    two squares' bits, negative when the move runs towards the lower square."""
    moved = mine ^ child[1]
    start = moved & mine
    return moved if start < moved ^ start else -moved


class Searcher(SearchLimits):
    """A reusable search for one draughts variant (keeps its transposition table).

    `evaluate(position) -> int` is side-to-move relative; the default is the
    draughts evaluation of `evaluate.py`. Evaluators with a
    `white_score(white, black, kings)` (both of `evaluate.py`'s) are called on
    the search's bitboards; any other is handed a position.

    speed: below the root the search never builds a `Move` or a position: it
    walks the move generator's children (`MoveGenerator.children`, perft's
    generator, which lists them in `legal_moves` order), keys its tables by
    those tuples and keeps the draw counter itself.
    """

    def __init__(self, variant: Any, evaluate: Callable[[Any], int] | None = None, *,
                 threat_extension: bool = False, forward_pruning: bool = True) -> None:
        self.variant = variant
        # Off by default: at 0.1 s a move it cost 1.6x the positions at the
        # same depth and no match showed it stronger (docs/computer.md).
        self.threat_extension = threat_extension
        # On by default: at 0.5 s a move it scored 61.0% against TurboEngine
        # where the search without it scored 57.0% (the same 100 openings; at
        # 0.1 s level or worse; neither outside the noise, docs/computer.md).
        # Off for exact tactics (the coach's blunder check).
        self.forward_pruning = forward_pruning
        self.evaluate = evaluate or DraughtsEvaluator(variant)
        self.legal_moves = variant.legal_moves
        self.play = variant.play
        self.side_to_move = variant.side_to_move
        self.tt = TranspositionTable()
        self._tables = self.tt.by_side
        # Captures are compulsory unless the variant's free-capture option is on.
        self.free_capture = bool(getattr(variant, "free_capture", False))
        generator = variant.move_generator
        self._children = generator.child_makers
        # With optional captures a leaf must stand pat against its captures, so
        # it takes the full path; otherwise a cheap test settles most leaves.
        self._leaf_tests = None if self.free_capture else generator.leaf_tests
        limit = getattr(variant, "draw_moves", None)
        self._draw_plies = 2 * limit if isinstance(limit, int) else INF
        white_score = getattr(self.evaluate, "white_score", None)
        self._score = _board_scorer(self.evaluate, white_score)
        # speed: quiet leaves' scores by board, one dict per side to move, kept
        # across iterations (a board-only evaluation: any other is not cached).
        self._eval_cache: tuple[dict[Board, int], dict[Board, int]] | None = (
            ({}, {}) if white_score is not None else None)

    # -- entry point ----------------------------------------------------------

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
        with _cyclic_gc_paused() as collector_was_on:
            self._collect_young = collector_was_on and time_limit is not None and now is not None
            result = self._search(position, max_depth, time_limit, now, stop, history, check_every,
                                  all_root_scores, max_nodes)
            if collector_was_on and self._deadline is not None and self._time_limit > 0:
                self._collect_within_time(result)
            return result

    def _collect_within_time(self, result: SearchResult) -> None:
        """The collector's first pass over the search's new objects, inside the search's time.

        Once the collector is on again that pass comes anyway, at the next
        allocation: 8-67 ms after a 0.5 s search, time the caller did not
        give. So it runs here, counted in `elapsed`; and a timed search passes
        over its young objects each time they reach `YOUNG_PASS` (`_tick`),
        before it looks at its deadline, so the pass left for the end is a
        short one. A share of the last search's time kept back for the pass,
        as before, overran every new searcher's first search (1.04-1.10 s for
        1 s; it had no last search) and missed by a few percent from search to
        search: the pass costs 0.3-2 us an object, by the machine's load."""
        gc.collect(0)
        result.elapsed = self._now() - self._start

    # Long on purpose: iterative deepening with its time checks and aspiration window in one loop.
    def _search(self, position: Any, max_depth: int, time_limit: float | None, now: Callable[[], float] | None,
                stop: Callable[[], bool] | None, history: Iterable[Any], check_every: int,
                all_root_scores: bool, max_nodes: int | None) -> SearchResult:
        moves = self.legal_moves(position)
        if not moves:
            raise ValueError("no legal move in this position")
        clock = now or _no_clock
        self._now = clock
        self._start = clock()
        self._time_limit = time_limit or 0.0
        self._deadline = self._start + time_limit if time_limit is not None and now is not None else None
        self._stop = stop
        self._check_every = max(1, check_every)
        self._countdown = self._check_every
        self._max_nodes = max_nodes
        self.nodes = 0
        self.killers: list[list[int | None]] = [[None, None] for _ in range(MAX_PLY + 2)]
        self.history_scores: dict[int, int] = {}
        # Boards on the game and search path, counted, by side to move.
        self._paths: tuple[dict[Board, int], dict[Board, int]] = ({}, {})
        for earlier in history:
            board, side = board_of(earlier)
            self._paths[side][board] = self._paths[side].get(board, 0) + 1
        self._partial_best: tuple[Move, int] | None = None
        self._threat_plies = 0
        if len(self.tt) > TT_LIMIT:
            self.tt.clear()
        if self._eval_cache is not None and len(self._eval_cache[0]) + len(self._eval_cache[1]) > EVAL_LIMIT:
            for cache in self._eval_cache:
                cache.clear()

        root, side = board_of(position)
        self._root_board, self._root_side = root, side
        # Each root move with the board and draw counter after it.
        self._root_children: dict[Move, tuple[Board, int]] = {}
        for move in moves:
            child = self.play(position, move)
            self._root_children[move] = (board_of(child)[0], child.quiet)
        ordered = self._order_moves(moves)
        result = SearchResult(move=ordered[0], nodes=0)
        if len(moves) == 1 and not all_root_scores:
            result.pv = (moves[0],)
            result.elapsed = clock() - self._start
            return result

        previous_score = 0
        for depth in range(1, max_depth + 1):
            # Threat extensions stop this far past the iteration's depth.
            self._threat_plies = depth + THREAT_PLIES if self.threat_extension else 0
            try:
                if all_root_scores:
                    score, best, scores = self._root_all(ordered, depth)
                    result.root_scores = scores
                else:
                    score, best = self._root(ordered, depth, previous_score)
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
            # No early stop before the deadline: an unfinished iteration still
            # pays (its first move is the last best, searched deeper; a move
            # that beats it is taken). Stopping at 55% of the time left 40%
            # of every move's time unused (docs/computer.md).
        result.nodes = self.nodes
        result.elapsed = clock() - self._start
        result.pv = self._principal_variation(position, result.move)
        return result

    # -- root -----------------------------------------------------------------

    def _order_moves(self, moves: list[Move]) -> list[Move]:
        """The root moves in the order the tree orders children (table move first)."""
        root, side = self._root_board, self._root_side
        entry = self.tt.by_side[side].get(root)
        by_child = {board: move for move, (board, _) in self._root_children.items()}
        children = [self._root_children[move][0] for move in moves]
        ordered = self._order(children, root[0], root[1], entry[3] if entry else None, 0)
        return [by_child[child] for child in ordered]

    def _root(self, moves: list[Move], depth: int, guess: int) -> tuple[int, Move]:
        # Aspiration window around the last score, widened on failure.
        window = 60
        alpha, beta = (guess - window, guess + window) if depth >= 3 and abs(guess) < WIN_BOUND else (-INF, INF)
        while True:
            score, best = self._root_window(moves, depth, alpha, beta)
            if score <= alpha:
                alpha = -INF
            elif score >= beta:
                beta = INF
            else:
                return score, best

    def _root_window(self, moves: list[Move], depth: int, alpha: int, beta: int) -> tuple[int, Move]:
        best_move = moves[0]
        best = -INF
        self._partial_best = None
        original_alpha = alpha
        root, side = self._root_board, self._root_side
        other = side ^ 1
        path = self._paths[side]
        for index, move in enumerate(moves):
            child, quiet = self._root_children[move]
            path[root] = path.get(root, 0) + 1
            try:
                if index == 0:
                    score = -self._negamax(child, other, quiet, depth - 1, -beta, -alpha, 1)
                else:
                    score = -self._negamax(child, other, quiet, depth - 1, -alpha - 1, -alpha, 1)
                    if alpha < score < beta:
                        score = -self._negamax(child, other, quiet, depth - 1, -beta, -alpha, 1)
            finally:
                _leave(path, root)
            if score > best:
                best, best_move = score, move
                if alpha < score < beta or index == 0:
                    self._partial_best = (move, score)
            if score > alpha:
                alpha = score
            if alpha >= beta:
                break
        flag = EXACT if original_alpha < best < beta else (LOWER if best >= beta else UPPER)
        self.tt.by_side[side][root] = (depth, best, flag, self._root_children[best_move][0])
        return best, best_move

    def _root_all(self, moves: list[Move], depth: int) -> tuple[int, Move, dict[Move, int]]:
        scores: dict[Move, int] = {}
        self._partial_best = None
        root, side = self._root_board, self._root_side
        path = self._paths[side]
        best, best_move = -INF, moves[0]
        for move in moves:
            child, quiet = self._root_children[move]
            path[root] = path.get(root, 0) + 1
            try:
                score = -self._negamax(child, side ^ 1, quiet, depth - 1, -INF, INF, 1)
            finally:
                _leave(path, root)
            scores[move] = score
            if score > best:
                best, best_move = score, move
        return best, best_move, scores

    # -- the tree ---------------------------------------------------------------

    # Long on purpose: the search's node loop, inlined for speed.
    def _negamax(self, board: Board, side: int, quiet: int, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        self._countdown -= 1
        if self._countdown <= 0:
            self._tick()

        path = self._paths[side]
        if board in path:
            return 0  # a repetition inside the search or with the game: a draw
        if quiet >= self._draw_plies:
            return 0

        mine, theirs, kings = board
        if depth <= 0 and self._leaf_tests is not None:
            # speed: a quiet leaf is scored without generating its moves (more
            # than half the nodes) or looking in the table: only whether it
            # has any moves matters.
            state = self._leaf_tests[side](mine, theirs, kings)
            if state == 1 and ply < self._threat_plies and self._leaf_tests[side ^ 1](theirs, mine, kings) == 2:
                # A quiet leaf where the opponent threatens a capture: one
                # more ply, so a piece left hanging (or a shot being set up)
                # is seen rather than scored as if nothing were attacked.
                depth = 1
            elif state != 2:
                if not state:
                    return -(WIN - ply)
                if self._eval_cache is None:
                    return self._score(mine, theirs, kings, side, quiet)
                cache = self._eval_cache[side]
                score = cache.get(board)
                if score is None:
                    score = cache[board] = self._score(mine, theirs, kings, side, quiet)
                return score

        table = self._tables[side]
        entry = table.get(board)
        tt_child = None
        if entry is not None and depth > 0:
            # speed: a cut-off from the table before any move is generated
            # (`_probe` inlined).
            tt_child = entry[3]
            if entry[0] >= depth:
                cut = entry[1]
                if cut > WIN_BOUND:
                    cut -= ply
                elif cut < -WIN_BOUND:
                    cut += ply
                flag = entry[2]
                if flag == EXACT or (flag == LOWER and cut >= beta) or (flag == UPPER and cut <= alpha):
                    return cut

        children = self._children[side](mine, theirs, kings)
        if not children:
            return -(WIN - ply)
        if ply >= MAX_PLY:
            return self._score(mine, theirs, kings, side, quiet)

        # Captures come first in the generator's order; a capture changes `theirs`.
        capture = children[0][0] != theirs
        floor = -INF  # the score the side can always have here (stand pat, free captures)
        if depth <= 0:
            if not capture:
                return self._score(mine, theirs, kings, side, quiet)
            if self.free_capture:
                # Optional captures: the side may decline, so stand pat first.
                stand = self._score(mine, theirs, kings, side, quiet)
                if stand >= beta:
                    return stand
                alpha = max(alpha, stand)
                floor = stand
                children = [child for child in children if child[0] != theirs]
            depth = 0  # captures pending: follow them without spending depth
            if entry is not None:
                tt_child = entry[3]
                settled = _probe(entry, depth, alpha, beta, ply)
                if settled is not None:
                    return settled

        if (depth >= PRUNE_MIN_DEPTH and beta == alpha + 1 and not capture and self.forward_pruning
                and -WIN_BOUND < beta < WIN_BOUND):
            # Forward pruning (Scan's and TurboEngine's stand-in for a null
            # move, which draughts' zugzwangs forbid): a null-window node whose
            # shallow search clears beta by a margin growing with the depth is
            # cut. It makes a ply cheaper, so the search goes deeper in its time.
            margin = PRUNE_MARGIN * depth
            raised = beta + margin
            score = self._negamax(board, side, quiet, depth * 2 // 5, raised - 1, raised, ply)
            if score >= raised:
                return score - margin

        if len(children) > 1:
            children = self._order(children, mine, theirs, tt_child, ply)
        # A forced move (one legal, usually a capture) costs no depth.
        next_depth = depth if len(children) == 1 else depth - 1
        other = side ^ 1
        negamax = self._negamax
        original_alpha = alpha
        best = floor
        best_child = children[0]
        path[board] = path.get(board, 0) + 1
        try:
            for index, child in enumerate(children):
                is_capture = child[0] != theirs
                # The draw counter: reset by a capture or a man's move, else one more.
                child_quiet = quiet + 1 if not is_capture and mine & ~child[1] & kings else 0
                if index == 0:
                    score = -negamax(child, other, child_quiet, next_depth, -beta, -alpha, ply + 1)
                else:
                    # Late quiet moves (ordered after the table move, captures and
                    # killers) are first searched a ply shallower; one that
                    # beats alpha is searched again at full depth.
                    reduce = index >= LMR_AFTER and next_depth >= LMR_MIN_DEPTH and not is_capture
                    score = -negamax(child, other, child_quiet, next_depth - reduce, -alpha - 1, -alpha, ply + 1)
                    if reduce and score > alpha:
                        score = -negamax(child, other, child_quiet, next_depth, -alpha - 1, -alpha, ply + 1)
                    if alpha < score < beta:
                        score = -negamax(child, other, child_quiet, next_depth, -beta, -alpha, ply + 1)
                if score > best:
                    best, best_child = score, child
                    if score > alpha:
                        alpha = score
                        if alpha >= beta:
                            if not is_capture:
                                key = _quiet_key(mine, child)
                                killers = self.killers[ply]
                                if killers[0] != key:
                                    killers[1] = killers[0]
                                    killers[0] = key
                                history = self.history_scores
                                history[key] = history.get(key, 0) + depth * depth
                            break
        finally:
            _leave(path, board)

        flag = EXACT if original_alpha < best < beta else (LOWER if best >= beta else UPPER)
        # Win scores are stored relative to this node, so they stay right
        # when the same position is reached at another depth.
        if best > WIN_BOUND:
            table[board] = (depth, best + ply, flag, best_child)
        elif best < -WIN_BOUND:
            table[board] = (depth, best - ply, flag, best_child)
        else:
            table[board] = (depth, best, flag, best_child)
        return best

    # -- helpers ----------------------------------------------------------------

    def _order(self, children: list[Board], mine: int, theirs: int, tt_child: Board | None, ply: int) -> list[Board]:
        """Table move, captures by size, killers, then history counts (stable)."""
        killers = self.killers[ply] if ply <= MAX_PLY else (None, None)
        k0, k1 = killers[0], killers[1]
        history = self.history_scores

        def rank(child: Board) -> int:
            if child == tt_child:
                return 1 << 30
            captured = theirs ^ child[0]
            if captured:
                return (1 << 24) + (captured.bit_count() << 8)
            moved = mine ^ child[1]  # speed: `_quiet_key` inlined
            start = moved & mine
            key = moved if start < moved ^ start else -moved
            if key == k0:
                return 1 << 22
            if key == k1:
                return (1 << 22) - 1
            return history.get(key, 0)

        return sorted(children, key=rank, reverse=True)

    def _principal_variation(self, position: Any, first: Move) -> tuple[Move, ...]:
        pv = [first]
        seen = {board_of(position)}
        position = self.play(position, first)
        while len(pv) < 32:
            key = board_of(position)
            if key in seen:
                break
            seen.add(key)
            board, side = key
            entry = self.tt.by_side[side].get(board)
            if entry is None or entry[3] is None:
                break
            wanted = entry[3]
            move = next((m for m in self.legal_moves(position)
                         if board_of(self.play(position, m))[0] == wanted), None)
            if move is None:
                break
            pv.append(move)
            position = self.play(position, move)
        return tuple(pv)


@contextmanager
def _cyclic_gc_paused() -> Iterator[bool]:
    """Python's cycle collector off for the length of a search.

    speed: the search makes a tuple per child and per table entry, none in a
    cycle, and the collector, run every few hundred of them, walks the whole
    table each time it reaches the old generation: a quarter of the search's
    time. It is turned back on afterwards, unless it was already off (a
    search in another thread, or the program's choice). Yields whether it was on."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield was_on
    finally:
        if was_on:
            gc.enable()


def _leave(path: dict[Board, int], board: Board) -> None:
    count = path[board] - 1
    if count:
        path[board] = count
    else:
        del path[board]


def _board_scorer(evaluate: Callable[[Any], int],
                  white_score: Callable[[int, int, int], int] | None) -> Callable[[int, int, int, int, int], int]:
    """`score(mine, theirs, kings, side, quiet)`, side-to-move relative.

    speed: an evaluator with `white_score` is called on the bitboards; any
    other gets the position it expects."""
    if white_score is not None:
        def score(mine: int, theirs: int, kings: int, side: int, quiet: int) -> int:
            return white_score(mine, theirs, kings) if side == 0 else -white_score(theirs, mine, kings)
        return score

    def score_position(mine: int, theirs: int, kings: int, side: int, quiet: int) -> int:
        if side == 0:
            return evaluate(DraughtsPosition(mine, theirs, kings, 0, quiet))
        return evaluate(DraughtsPosition(theirs, mine, kings, 1, quiet))
    return score_position


def _probe(entry: Entry, depth: int, alpha: int, beta: int, ply: int) -> int | None:
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


def search(variant: Any, position: Any, **limits: Any) -> SearchResult:
    """One-shot search with a fresh `Searcher` (see `Searcher.search` for the limits)."""
    return Searcher(variant).search(position, **limits)


def think(variant: Any, position: Any, **limits: Any) -> SearchResult:
    """Search with whichever algorithm fits the variant's family."""
    if variant.search_kind == "multi":
        from damka.engine.multisearch import MultiSearcher

        return MultiSearcher(variant).search(position, **limits)
    return search(variant, position, **limits)
