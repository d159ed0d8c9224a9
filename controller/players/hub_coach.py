"""The coach with an external Hub engine behind it: hints and blunder checks.

`HubCoach` is a `Coach` (same limits, same `BlunderWarning`), so the session
uses it exactly as its own. A hint is the engine's move in `hint_time`; a
blunder check asks the engine for its score of the position before the move
(the best the side can do) and after it, and warns when the move loses at
least `coach.THRESHOLD` against the best (an answer without a score gives no
warning: Scan sends none for a forced move). Whatever goes wrong with the
engine (it cannot start, dies, hangs, answers an illegal move), the engine is
given up, the board is told once (`take_notices()`), and Damka's own coach
answers, now and for the rest of the game.
"""

from __future__ import annotations

import threading
from typing import Any

from damka.bridges.hub_client import HubClient, HubEngineError
from damka.bridges.hub_protocol import HubBoard, HubError, find_dialect
from damka.controller.players.coach import THRESHOLD, BlunderWarning, Coach
from damka.controller.players.hub_opponent import GRACE_S, OPEN_TIMEOUT_S, hub_variant
from damka.controller.words import say
from damka.engine.game import Game
from damka.engine.move import Move

CHECK_TIME_S = 0.3  # each of the two engine searches of a blunder check
FAILED = object()   # what `_engine` gives once the engine is given up (None is an answer)


class HubCoach(Coach):
    """Hints and blunder warnings from an external Hub engine, Damka's own coach behind it."""

    def __init__(self, variant: Any, command: str, *, check_time: float = CHECK_TIME_S, name: str = "",
                 unavailable: str = "", cwd: str = "", **options: Any) -> None:
        """`name`, `unavailable` and `cwd` as for `HubOpponent`."""
        super().__init__(variant, **options)
        self.command = command
        self.cwd = cwd
        self.name = name or (command.split()[0] if command.split() else "engine")
        self.unavailable = unavailable
        self.check_time = check_time
        hub_name = hub_variant(variant)
        self._board = HubBoard(find_dialect(hub_name)) if hub_name else None
        self._client: HubClient | None = None
        self._lock = threading.Lock()
        self.failed = unavailable or ("" if hub_name else say("engine.cannot_name", variant=variant.name))
        self._noticed = False
        self.engine_answers = 0

    def take_notices(self) -> list[str]:
        if self.failed and not self._noticed:
            self._noticed = True
            why = self.unavailable if self.unavailable else say("engine.failed", error=self.failed)
            return [say("engine.coach_given_up", name=self.name, why=why)]
        return []

    @property
    def engine_name(self) -> str:
        """The external engine's name while it coaches ("" once Damka's own coach took over)."""
        return "" if self.failed else self.name

    # -- the engine --------------------------------------------------------------

    def _think(self, game: Game, seconds: float) -> tuple[Move, float | None]:
        """The engine's move and score (men, side to move) for `game`'s position."""
        assert self._board is not None
        board = self._board
        if self._client is None or not self._client.alive:
            self._client = HubClient(self.command, variant=board.dialect.hub_name, cwd=self.cwd, name=self.name)
            self._client.open(OPEN_TIMEOUT_S)
        moves = [board.format_move(move) for move in game.moves]
        reply = self._client.think(board.format_position(game.positions[0]), moves=moves,
                                   level={"move-time": f"{seconds:.3f}"}, timeout=seconds + GRACE_S)
        move = board.parse_move(game.position, reply.move)
        if move not in self.variant.legal_moves(game.position):
            raise HubError(f"move {reply.move!r} is not legal in this game")
        score = (reply.info or {}).get("score")
        return move, None if score is None else float(score)

    def _engine(self, work: Any, *args: Any) -> Any:
        """`work(*args)` with the engine, or FAILED once it has failed (given up
        then); None is an answer ("no warning"), never a failure."""
        if self.failed:
            return FAILED
        with self._lock:
            try:
                answer = work(*args)
            except (HubEngineError, HubError, OSError, ValueError) as error:
                self.failed = str(error) or say("engine.no_answer")
                self.close_engine()
                return FAILED
        self.engine_answers += 1
        return answer

    def close_engine(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            client.close()

    # -- the coach ------------------------------------------------------------------

    def hint(self, game: Game) -> Move:
        if self.hints_left == 0 or game.is_over:
            return super().hint(game)  # the same refusals
        answer = self._engine(self._think, game, self.hint_time)
        if answer is FAILED:
            return super().hint(game)
        self.hints_used += 1
        return answer[0]

    def check_blunder(self, game: Game, move: Move) -> BlunderWarning | None:
        legal = self.variant.legal_moves(game.position)
        if move not in legal or len(legal) == 1:
            return None
        answer = self._engine(self._scores, game, move)
        if answer is FAILED:
            return super().check_blunder(game, move)
        return answer   # (None: the engine sees no blunder, and its word stands)

    def _scores(self, game: Game, move: Move) -> BlunderWarning | None:
        best, best_score = self._think(game, self.check_time)
        after = game.copy()
        after.push(move)
        sign = -1.0   # the move's value is -score of the side to move after it
        while not after.is_over and len(after.legal_moves()) == 1:
            after.push(after.legal_moves()[0])   # a forced reply: engines give it no real score
            sign = -sign
        if after.is_over:
            return None
        reply, reply_score = self._think(after, self.check_time)
        if best_score is None or reply_score is None:
            return None   # no score (Scan's `info pv=...` with nothing in book): no verdict, the engine is fine
        loss = round((best_score - sign * reply_score) * 100)
        if best == move or loss < THRESHOLD:
            return None
        forced = tuple(after.moves[game.ply + 1:])
        return BlunderWarning(move, min(loss, 10_000), forced + (reply,), best)
