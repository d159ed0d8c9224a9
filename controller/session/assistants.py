"""The session's assistants: the computer opponent and the coach, with the
work they do off the board's loop.

The computer's turn comes from an `Opponent` thinking in its own thread
(polled), or, without one, at once from a `Chooser`. The coach (learning
mode) gives hints (limited per game) and checks a complete move for a
blunder before it is committed; its searches run in one worker thread. Every
answer is keyed by the game's ply and position: one that arrives after the
game moved on is dropped. The session asks, polls and turns what comes back
into events and words; this module never touches the board or the screen.
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Callable

from damka.controller.players.chooser import Chooser, GreedyChooser
from damka.controller.session.types import Opponent
from damka.controller.words import say
from damka.engine.game import Game
from damka.engine.move import Move
from damka.engine.notation import format_move
from damka.engine.variant import Position, Variant


def planned_positions(variant: Variant, position: Position, moves: tuple[Move, ...]) -> list[tuple[Position, Move]]:
    """Each planned move with the position it is made from (a multiwarcaby turn has two)."""
    out = []
    for move in moves:
        out.append((position, move))
        position = variant.play(position, move)
    return out


def moves_text(variant: Variant, position: Position, moves: tuple[Move, ...]) -> tuple[str, ...]:
    return tuple(format_move(variant, p, m) for p, m in planned_positions(variant, position, moves))


class Assistants:
    """The computer's planned turn, the coach's hint and blunder check."""

    def __init__(self, variant: Variant, *, chooser: Chooser | None = None, opponent: Opponent | None = None,
                 coach: Any = None) -> None:
        self.variant = variant
        self.chooser: Chooser = chooser or GreedyChooser()
        self.opponent = opponent
        self.coach = coach
        self.planned: tuple[Move, ...] | None = None   # the computer's turn; () while it thinks
        self._planned_key: Any = None
        self.hint: tuple[Move, ...] | None = None
        self._hint_job: tuple[Any, Future] | None = None
        self.warning: Any = None                       # the coach's BlunderWarning for the board now
        self.check_key: Any = None
        self._check_job: Future | None = None
        self._jobs: ThreadPoolExecutor | None = None

    # -- the computer -----------------------------------------------------------

    def computer_moves(self, game: Game, computer_turn: bool) -> tuple[Move, ...] | None:
        """None when it is not the computer's turn (any legal move is read), ()
        while it still thinks (no move is accepted), else its turn."""
        if not computer_turn:
            if self._planned_key is not None:
                self.cancel_search()
            return None
        key = (game.ply, game.position)
        if self._planned_key != key:
            self._planned_key = key
            if self.opponent is None:
                self.planned = self.plan(game.position)
            else:
                self.planned = ()
                self.opponent.start(game, whole_turn=True)
        return self.planned

    def searching(self) -> bool:
        """The opponent's search runs (the caller knows whether it is the computer's turn)."""
        return self.opponent is not None and self._planned_key is not None and self.planned == ()

    def cancel_search(self) -> None:
        """Forget the computer's move (a take-back, a new game, a player out)."""
        if self.searching():
            self.opponent.cancel()  # type: ignore[union-attr]
        self._planned_key = None
        self.planned = None

    def poll_computer(self, game: Game) -> tuple[Move, ...] | None:
        """The computer's turn if its search has just answered, else None."""
        answer = self.opponent.poll()  # type: ignore[union-attr]
        if answer is None:
            self._planned_key = None  # cancelled under us: ask again at the next look
            self.planned = None
            return None
        if not isinstance(answer, (tuple, Move)):
            return None  # still thinking
        moves = answer if isinstance(answer, tuple) else (answer,)
        if not moves or moves[0] not in self.variant.legal_moves(game.position):
            moves = self.plan(game.position)  # never stuck on a stale answer
        self.planned = moves
        return moves

    def plan(self, position: Position) -> tuple[Move, ...]:
        """The chooser's move, or both moves of a multiwarcaby turn."""
        variant = self.variant
        moves = []
        for _ in range(variant.moves_per_turn):
            if not variant.legal_moves(position):
                break
            move = self.chooser.choose(variant, position)
            moves.append(move)
            position = variant.play(position, move)
            if not variant.turn_goes_on(position):
                break  # the turn is over, or the game: no second move after the end
        return tuple(moves)

    # -- hints --------------------------------------------------------------------

    @property
    def hints_left(self) -> int | None:
        return None if self.coach is None else self.coach.hints_left

    def ask_hint(self, game: Game) -> str:
        """Start a hint (or give the chooser's at once); the words for the screen."""
        if self.coach is None:
            self.hint = self.plan(game.position)
            return ""
        if self.coach.hints_left == 0:
            return say("session.no_hints_left")
        if self._hint_job is None:
            self._hint_job = ((game.ply, game.position), self._submit(self.coach.hint, game.copy()))
        return say("session.thinking")

    def poll_hint(self, game: Game) -> tuple[Move | None, str] | None:
        """(the hint move, or None with the reason) once the coach answered; None before."""
        if self._hint_job is None or not self._hint_job[1].done():
            return None
        key, job = self._hint_job
        self._hint_job = None
        if key != (game.ply, game.position):
            return None  # the game moved on meanwhile
        try:
            move = job.result()
        except Exception as error:  # noqa: BLE001 - no hint is better than a crashed board
            return None, say("session.no_hint", error=error)
        self.hint = (move,)
        return move, ""

    def forget_hint(self) -> None:
        self.hint = None
        self._hint_job = None

    # -- the blunder check ----------------------------------------------------------

    def check(self, key: Any, before: Game, move: Move) -> bool:
        """Start (or read) the coach's verdict on `move` from `before`; True once
        there is one (`warning` then holds it, or None)."""
        if self.check_key != key:
            self.clear_check()
            self.check_key = key
            self._check_job = self._submit(self.coach.check_blunder, before, move)
            return False
        return self._check_job is None

    def poll_check(self, key: Any) -> Any:
        """The coach's warning once its check is done and still about `key`, else None."""
        if self._check_job is None or not self._check_job.done():
            return None
        job, self._check_job = self._check_job, None
        try:
            warning = job.result()
        except Exception:  # noqa: BLE001 - a failed check warns of nothing
            warning = None
        if warning is None or self.check_key != key:
            return None
        self.warning = warning
        return warning

    def clear_check(self) -> None:
        if self._check_job is not None:
            self._check_job.cancel()  # not started yet: never runs (a running one is left to finish)
        self.check_key = None
        self._check_job = None
        self.warning = None

    @property
    def coach_busy(self) -> bool:
        return self._hint_job is not None or self._check_job is not None

    # -- the worker ----------------------------------------------------------------

    def _submit(self, work: Callable[..., Any], *args: Any) -> Future:
        if self._jobs is None:
            self._jobs = ThreadPoolExecutor(max_workers=1, thread_name_prefix="damka-coach")
        return self._jobs.submit(work, *args)

    def notices(self) -> list[str]:
        """What an external engine (opponent or coach) has to say: it was given up."""
        out: list[str] = []
        for helper in (self.opponent, self.coach):
            if helper is not None:
                out.extend(helper.take_notices())
        return out

    def close(self) -> None:
        """Stop what runs off the loop (the computer's search, the coach's) and
        any external engine process."""
        self.cancel_search()
        for helper in (self.opponent, self.coach):
            if helper is not None:
                helper.close_engine()
        if self._jobs is not None:
            self._jobs.shutdown(wait=False, cancel_futures=True)
            self._jobs = None
