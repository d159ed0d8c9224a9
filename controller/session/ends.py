"""The session's clock and the ends of a game from outside the rules.

A flag in an earlier stage is shown and play goes on; in the last stage with
two sides it is a loss on time; with three or four multiwarcaby players the
flagged (or resigning) player is out of play: they keep their points, the
board is guided back to the start of their turn, and the next player moves.
A mixin of `Session` (it works on the session's own state and record).
"""

from __future__ import annotations

from typing import Any

from damka.controller import events as ev
from damka.controller import wording
from damka.controller.clock import Flag, GameOver, SideOut
from damka.controller.session.types import Phase
from damka.engine.variant import Result


class SessionEnds:
    # -- the clock ------------------------------------------------------------

    def _poll_clock(self, now: int) -> None:
        if self._clock.polled:
            self.now = max(self.now, now)
            self.clock_events(self._clock.update(self.now))

    def clock_events(self, events: Any) -> None:
        """Act on clock events (`Flag`, `SideOut`, `GameOver`; others are ignored).

        The session calls this itself for a clock it polls; an owner that
        drains a press-only clock (`clock.update()`) passes the events here."""
        for event in events:
            if isinstance(event, Flag):
                self._on_flag(event)
            elif isinstance(event, SideOut):
                if event.side < len(self.variant.sides):
                    self.drop_side(event.side, event.reason, at_ms=event.at_ms)
            elif isinstance(event, GameOver) and event.loser is not None:
                self._on_game_over(event)
        self._refresh_frame()

    def _on_flag(self, flag: Flag) -> None:
        self.bus.publish(ev.FlagFell(flag.at_ms, self.game.ply, flag.side, flag.stage + 1, flag.final))
        if not flag.final and self.phase is not Phase.OVER:
            name = wording.side_name(self.variant, flag.side, self.players)
            self._notice = f"{name}'s flag fell in stage {flag.stage + 1}: play goes on"
            self._say(self._prompt())

    def _on_game_over(self, over: GameOver) -> None:
        """The clock ended the game: a loss on time with two sides; with three or
        four players the last flag takes its player out and the engine's rules
        (one side left in play) give the result."""
        if self.game.result is not None:
            return
        reason = "on time" if over.reason == "time" else over.reason
        if len(self.variant.sides) > 2:
            self.drop_side(over.loser, over.reason, at_ms=over.at_ms)  # type: ignore[arg-type]
            return
        self.declare_loss(over.loser, reason, at_ms=over.at_ms)  # type: ignore[arg-type]
        self.record.hold("a loss on time")  # the flag stands: a take-back would reopen a game with no time left

    def _stop_clock(self) -> None:
        result = self.game.result
        self._clock.stop(self.now, result.reason if result is not None else "game over")

    # -- ends from outside the rules ----------------------------------------------

    def declare_loss(self, loser: int, reason: str = "on time", *, at_ms: int | None = None) -> None:
        """End a two-side game as a loss for `loser` (on time, resignation)."""
        if self.game.result is not None or len(self.variant.sides) != 2:
            return
        winner = 1 - loser
        points = tuple(1.0 if side == winner else 0.0 for side in range(2))
        places = tuple(1 if side == winner else 2 for side in range(2))
        self.declare(Result(points, places, reason, winner), at_ms=at_ms)

    def declare(self, result: Result, *, at_ms: int | None = None) -> None:
        """End the game from outside the rules (time, agreement, resignation)."""
        if self.game.result is not None:
            return
        self.game.declare(result)
        self.record.hold(f"the {result.reason}" if result.reason else "the end of the game")  # a resignation,
        self._restore_board = False                          # an agreement or the arbiter's word stands
        self.assistants.cancel_search()
        self._finish(at_ms)
        self._stop_clock()
        self._reread()

    def drop_side(self, side: int, reason: str = "time", *, at_ms: int | None = None) -> None:
        """Take `side` out of a 3-4 player multiwarcaby game (its flag fell).

        It keeps its small points and is skipped from now on. If it was to
        move, what it had done on the board this turn does not count: the
        board is guided back to the start of its turn (LEDs and message, and
        presses are refused until it is), then the next player moves."""
        variant = self.variant
        active = getattr(self.game.position, "active", None)
        if self.game.result is not None or active is None or not active[side] or len(variant.sides) < 3:
            return
        # The session commits whole turns; a game resumed in mid-turn has its
        # first move taken back so that the turn is void.
        self.record.void_turn_of(side)
        mid_turn = self.game.turn == side and self.occupancy != self._reference()
        self.record.amend(variant.drop_side(self.game.position, side))  # type: ignore[attr-defined]
        self._first_moves = {}
        self._forget_turn()
        self.assistants.cancel_search()
        why = "on time" if reason == "time" else reason
        self._out_message = self._notice = f"{wording.side_name(variant, side, self.players)} is out ({why})"
        self.bus.publish(ev.SideOut(self.now if at_ms is None else at_ms, self.game.ply, side, why,
                                    self._position_text(), tuple(self.game.scores)))
        if self.game.result is not None:
            self._finish(at_ms)
            self._stop_clock()
        elif mid_turn and self.phase is Phase.PLAYING:
            self._restore_board = True
            self._say(f"{self._out_message}: put the pieces back as they were at the start of the turn")
        else:
            self._say(self._prompt())
        self._reread()
