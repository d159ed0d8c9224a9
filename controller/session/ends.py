"""The session's clock verdicts and the ends of a game from outside the rules.

A flag in an earlier stage is shown and play goes on; in the last stage with
two sides it is a loss on time; with three or four multiwarcaby players the
flagged (or resigning) player is out of play: they keep their points, the
board is guided back to the start of their turn, and the next player moves.
A part of `Session` (`core.py`) with no state of its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from damka.controller import events as ev
from damka.controller.words import wording
from damka.controller.clock.records import Flag, GameOver, SideOut
from damka.controller.session.types import Phase
from damka.controller.words import say
from damka.engine.variant import Result

if TYPE_CHECKING:
    from damka.controller.session.core import Session


class Ends:
    def __init__(self, session: Session) -> None:
        self.s = session

    def clock_events(self, events: Any) -> None:
        """Act on clock events (`Flag`, `SideOut`, `GameOver`; others are ignored)."""
        for event in events:
            if isinstance(event, Flag):
                self._on_flag(event)
            elif isinstance(event, SideOut):
                if event.side < len(self.s.variant.sides):
                    self.drop_side(event.side, event.reason, at_ms=event.at_ms)
            elif isinstance(event, GameOver) and event.loser is not None:
                self._on_game_over(event)
        self.s.output.refresh()

    def _on_flag(self, flag: Flag) -> None:
        s = self.s
        s.bus.publish(ev.FlagFell(flag.at_ms, s.game.ply, flag.side, flag.stage + 1, flag.final))
        if not flag.final and s.phase is not Phase.OVER:
            name = wording.side_name(s.variant, flag.side, s.players)
            s.line.set_notice(say("session.flag_fell", side=name, stage=flag.stage + 1))
            s.line.say(s.output.prompt())

    def _on_game_over(self, over: GameOver) -> None:
        """The clock ended the game: a loss on time with two sides; with three or
        four players the last flag takes its player out and the engine's rules
        (one side left in play) give the result."""
        s = self.s
        if s.game.result is not None or over.loser is None:
            return
        reason = "on time" if over.reason == "time" else over.reason
        if len(s.variant.sides) > 2:
            self.drop_side(over.loser, over.reason, at_ms=over.at_ms)
            return
        self.declare_loss(over.loser, reason, at_ms=over.at_ms)
        s.record.hold(say("session.loss_on_time"))  # the flag stands: a take-back would reopen a game with no time left

    def declare_loss(self, loser: int, reason: str = "on time", *, at_ms: int | None = None) -> None:
        """End a two-side game as a loss for `loser` (on time, resignation)."""
        if self.s.game.result is not None or len(self.s.variant.sides) != 2:
            return
        winner = 1 - loser
        points = tuple(1.0 if side == winner else 0.0 for side in range(2))
        places = tuple(1 if side == winner else 2 for side in range(2))
        self.declare(Result(points, places, reason, winner), at_ms=at_ms)

    def declare(self, result: Result, *, at_ms: int | None = None) -> None:
        """End the game from outside the rules (time, agreement, resignation)."""
        s = self.s
        if s.game.result is not None:
            return
        s.game.declare(result)
        s.record.hold(f"the {result.reason}" if result.reason else say("session.end_of_game"))  # a resignation,
        s.restore.done()                                   # an agreement or the arbiter's word stands
        s.assistants.cancel_search()
        s.commits.finish(at_ms)
        s.commits.stop_clock()
        s.reread()

    def drop_side(self, side: int, reason: str = "time", *, at_ms: int | None = None) -> None:
        """Take `side` out of a 3-4 player multiwarcaby game (its flag fell).

        It keeps its small points and is skipped from now on. If it was to
        move, what it had done on the board this turn does not count: the
        board is guided back to the start of its turn (LEDs and message, and
        presses are refused until it is), then the next player moves."""
        s = self.s
        variant = s.variant
        active = getattr(s.game.position, "active", None)
        if s.game.result is not None or active is None or not active[side] or len(variant.sides) < 3:
            return
        # The session commits whole turns; a game resumed in mid-turn has its
        # first move taken back so that the turn is void.
        s.record.void_turn_of(side)
        mid_turn = s.game.turn == side and s.occupancy != s.reference()
        s.record.amend(variant.drop_side(s.game.position, side))  # type: ignore[attr-defined]
        s.pending.forget()
        s.commits.forget_turn()
        s.assistants.cancel_search()
        why = "on time" if reason == "time" else reason
        out = say("session.out", side=wording.side_name(variant, side, s.players), why=wording.reason_text(why))
        s.restore.explain(out)
        s.line.set_notice(out)
        s.bus.publish(ev.SideOut(s.now if at_ms is None else at_ms, s.game.ply, side, why,
                                 s.commits.position_text(), tuple(s.game.scores)))
        if s.game.result is not None:
            s.commits.finish(at_ms)
            s.commits.stop_clock()
        elif mid_turn and s.phase is Phase.PLAYING:
            s.restore.require(out)
            s.line.say(say("session.out_put_back", out=out))
        else:
            s.line.say(s.output.prompt())
        s.reread()
