"""The coach: hints on request (a limited number per game) and a warning
when the move just made loses material by force.

`hint(game)` is the best move at a modest depth (the "club" level's by
default, without its noise or deliberate mistakes: a learner should get a
good, explainable move, never a wrong one, and not a deep engine line),
and counts against the game's hint limit, a game setting.

`check_blunder(game, move)` runs when the player has made a move on the
board but not yet pressed the clock (or the done button): `game` is the game
*before* the move. It searches, with a material-only evaluation and a short
depth, the position after the move and the position before it, and warns
when the move loses material by force within a few plies although another
move would not. Losing material when every move loses it is no blunder, so
that is not flagged. In multiwarcaby the "material" is the small points, and
the check compares the move with the best alternative by the multiwarcaby
search (our turn and the next side's turn).

Both use a node budget, not the clock, so they answer in a bounded time on
the Pi and the same way every time (tests rely on that).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Any, Callable

from damka.controller.words import say
from damka.engine.evaluate import MaterialEvaluator
from damka.engine.game import Game
from damka.engine.levels import Level, choose_move, find_level
from damka.engine.move import Move
from damka.engine.search import WIN_BOUND, Searcher

DEFAULT_HINT_LIMIT = 3
BLUNDER_DEPTH = 6  # plies: the move, the reply, and two more exchanges
BLUNDER_NODES = 40_000  # budget per search (a fraction of a second on the Pi)
THRESHOLD = 80  # centi-men: a man lost, allowing for nothing else
MULTI_THRESHOLD = 200  # centi-points: two pieces handed over in multiwarcaby


@dataclass(frozen=True)
class BlunderWarning:
    """The move just made loses material by force."""

    move: Move
    loss: int  # centi-men (draughts) or centi-points (multiwarcaby) lost against the best move
    line: tuple[Move, ...]  # the forcing line after the move, when known
    better: Move | None  # a move that keeps the material

    @property
    def men(self) -> float:
        return self.loss / 100

    @property
    def text(self) -> str:
        """The warning as a sentence, in the board's language."""
        if self.men == int(self.men):
            return say("coach.loses", count=int(self.men))
        return say("coach.loses_part", men=f"{self.men:g}")


class HintLimitReached(Exception):
    """No hints are left in this game."""


class Coach:
    """Hints and blunder warnings for one game's settings.

    Damka's own coach thinks in the loop's thread; a coach that asks an
    external engine (`hub_coach.HubCoach`) overrides `engine_name`,
    `take_notices` and `close_engine`."""

    @property
    def engine_name(self) -> str:
        """An external engine's name while it coaches, for the title ("": Damka's own)."""
        return ""

    def __init__(
        self,
        variant: Any,
        *,
        hint_limit: int | None = DEFAULT_HINT_LIMIT,
        hint_level: Level | str = "club",
        hint_time: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
        blunder_depth: int = BLUNDER_DEPTH,
        blunder_nodes: int = BLUNDER_NODES,
    ) -> None:
        self.variant = variant
        self.hint_limit = hint_limit
        level = find_level(hint_level) if isinstance(hint_level, str) else hint_level
        # A hint is the level's best move: its depth, never its noise or deliberate mistakes
        # (the club level's 2% would make about one hint in 50 a wrong one).
        self.hint_level = replace(level, noise=0, blunder_rate=0.0)
        self.hint_time = hint_time
        self.clock = clock
        self.blunder_depth = blunder_depth
        self.blunder_nodes = blunder_nodes
        self.hints_used = 0
        # None: a game of n sides (MultiSearcher per check); else the draughts material searcher,
        # without forward pruning: a blunder check must see every refutation.
        self._material = (None if variant.search_kind == "multi"
                          else Searcher(variant, evaluate=MaterialEvaluator(variant), forward_pruning=False))

    def take_notices(self) -> list[str]:
        """Lines for the screen since last asked (an engine that failed): none here."""
        return []

    def close_engine(self) -> None:
        """Stop an external engine's process: Damka's own coach has none."""

    # -- hints ------------------------------------------------------------------

    def new_game(self) -> None:
        self.hints_used = 0

    @property
    def hints_left(self) -> int | None:
        """None: no limit."""
        if self.hint_limit is None:
            return None
        return max(0, self.hint_limit - self.hints_used)

    def hint(self, game: Game) -> Move:
        """The suggested move; HintLimitReached when the game's hints are used up.

        Blocking (up to `hint_time`); the controller runs it like the
        opponent's search when it must not wait."""
        if self.hints_left == 0:
            raise HintLimitReached(say("coach.no_hints_left", limit=self.hint_limit))
        if game.is_over:
            raise ValueError(say("coach.game_over"))
        result = choose_move(self.variant, game.position, self.hint_level, time_limit=self.hint_time,
                             now=self.clock, history=game.positions[:-1])
        self.hints_used += 1
        return result.move

    # -- blunders -----------------------------------------------------------------

    def check_blunder(self, game: Game, move: Move) -> BlunderWarning | None:
        """A warning when `move` (legal in `game.position`, not yet pushed)
        loses material by force that another move would keep; else None."""
        position = game.position
        legal = self.variant.legal_moves(position)
        if move not in legal or len(legal) == 1:
            return None  # not ours to judge, or there was no choice
        if self._material is None:
            return self._check_multi(position, move)
        return self._check_draughts(self._material, game, move)

    def _check_draughts(self, searcher: Searcher, game: Game, move: Move) -> BlunderWarning | None:
        history = game.positions[:-1]
        best = searcher.search(game.position, max_depth=self.blunder_depth, max_nodes=self.blunder_nodes,
                               history=history, all_root_scores=True)
        scores = best.root_scores
        if move not in scores:
            return None
        best_score = max(scores.values())
        loss = best_score - scores[move]
        if abs(best_score) > WIN_BOUND or abs(scores[move]) > WIN_BOUND:
            loss = min(loss, 10_000)  # a lost game counts as a lot of material, not infinity
        material_now = searcher.evaluate(game.position)
        # Lost by force against what the position holds now, and not forced on us.
        if loss < THRESHOLD or material_now - scores[move] < THRESHOLD:
            return None
        better = max(scores, key=scores.__getitem__)
        after = self.variant.play(game.position, move)
        line: tuple[Move, ...] = ()
        if self.variant.legal_moves(after):
            reply = searcher.search(after, max_depth=self.blunder_depth - 1, max_nodes=self.blunder_nodes // 2,
                                    history=game.positions)
            line = reply.pv
        return BlunderWarning(move, loss, line, better)

    def _check_multi(self, position: Any, move: Move) -> BlunderWarning | None:
        from damka.engine.multisearch import MultiSearcher

        searcher = MultiSearcher(self.variant)
        result = searcher.search(position, max_depth=4, max_nodes=self.blunder_nodes // 100, include=(move,))
        scores = result.root_scores
        if move not in scores:
            return None
        best = max(scores, key=scores.__getitem__)
        loss = scores[best] - scores[move]
        if loss < MULTI_THRESHOLD:
            return None
        return BlunderWarning(move, loss, (), best)
