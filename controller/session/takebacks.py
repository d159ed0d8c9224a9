"""Take-backs: the button, a take-back asked from outside (an accepted
offer, a peer's or the arbiter's: the LEDs guide the pieces back), and a
take-back made at the board that a seat played from afar must agree to.

A part of `Session` (`core.py`); it owns the take-back's state
(`takeback_flow.py`). The record's side of a take-back is `commits.py`'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from damka.controller import events as ev
from damka.controller.words import wording
from damka.controller.session.takeback_flow import TakebackFlow
from damka.controller.session.types import Mode, Phase
from damka.controller.board.takeback_guide import TakebackGuide, takeback_guide
from damka.controller.words import say

if TYPE_CHECKING:
    from damka.controller.session.core import Session


class Takebacks:
    def __init__(self, session: Session) -> None:
        self.s = session
        self.flow = TakebackFlow()

    def ask(self, moves: int | None = None) -> None:
        """The take-back button, from outside: `moves` back (None: as the button does)."""
        s = self.s
        self.flow.aim(None if moves is None else max(0, s.game.ply - moves))
        self.button()
        s.output.refresh()

    def button(self) -> None:
        """The take-back button (or a take-back asked from outside, aimed first)."""
        s = self.s
        if s.mode is Mode.TOURNAMENT and s.phase is not Phase.OVER:
            s.line.say(say("session.no_takeback_tournament"))
            return
        if not s.game.ply:
            s.line.say(say("session.nothing_to_take_back"))
            return
        # The button says what the board means: in multiwarcaby the earlier
        # position is often also a legal turn of the next side.
        plies = s.tracker.takeback_plies(s.game, s.occupancy)
        if self.flow.to is None and s.takeback_needs_consent:
            self._ask_consent(plies or None)
            return
        if plies and (self.flow.to is None or s.game.ply - plies >= self.flow.to):
            s.commits.take_back(plies)
            return
        self._guide()

    def board_takes_back(self, plies: int) -> None:
        """The board shows the position `plies` plies back and settled there."""
        if self.flow.to is None and self.s.takeback_needs_consent:
            self._ask_consent(plies)
        else:
            self.s.commits.take_back(plies)

    def _ask_consent(self, plies: int | None) -> None:
        """Ask the far side (once) for `plies` back (None: the board's last turn);
        the position waits for the answer: `answered`."""
        s = self.s
        if self.flow.waiting:
            return
        try:
            asked = self.flow.ask(plies)
        except ValueError as error:  # cannot be asked now (another offer waits): play goes on
            self._refused(say("session.no_takeback", error=error))
            return
        moves = say("session.moves", count=asked)
        label = s.opponent.label if s.opponent is not None else ""
        s.say(say("session.takeback_asked", moves=moves, who=label))
        s.output.refresh()

    def answered(self, accept: bool, moves: int, reason: str) -> None:
        """The far side's answer to a take-back asked from the board: accepted,
        the moves are taken back (the LEDs guide the pieces back if the board
        no longer shows the position); declined, the LEDs guide the pieces
        forward to the game's position and play goes on."""
        self.flow.answered()
        if accept:
            self.ask(moves)
        else:
            self._refused(reason)

    def _refused(self, reason: str) -> None:
        s = self.s
        self.flow.refused()
        if s.occupancy != s.reference() and s.phase is Phase.PLAYING:
            s.restore.require(reason)           # guided forward: the turn flow says when it is done
        s.say(f"{reason}: {s.output.prompt()}" if not s.restore.active else
              say("session.put_back_leds", reason=reason))
        s.output.refresh()

    def guide_back(self, plies: int, reason: str) -> None:
        """Ask the person to take back `plies` plies (a peer's or an arbiter's
        take-back): `reason` is shown and the LEDs guide the pieces back to
        that position; when the board shows it, the session takes the moves
        back as for the take-back button. ValueError for a ply count the game
        does not have."""
        s = self.s
        if not 0 < plies <= s.game.ply:
            raise ValueError(say("session.takeback_too_far", plies=plies, ply=s.game.ply))
        self.flow.aim(s.game.ply - plies)   # kept while the pieces go back one move at a time
        self._guide(reason)
        s.output.refresh()

    def target_ply(self) -> int:
        """The ply a take-back guides to: the position asked for, else the last
        turn start (against the computer, the one before your own last move)."""
        s = self.s
        turns_back = 2 if s.mode is Mode.COMPUTER and not s.assist.computer_turn() else 1
        return self.flow.target_ply(s.game.ply, lambda: s.record.turn_start_ply(turns_back))

    def target(self) -> int:
        """The occupancy a take-back guides to."""
        s = self.s
        return s.tracker.occupancy_of(s.game.positions[self.target_ply()])

    def guide(self) -> TakebackGuide | None:
        """The take-back under way, for the screen and the voice: the turns
        taken back and the pieces still to put back or take off (None: no
        take-back is being guided)."""
        s = self.s
        if not self.flow.requested or s.phase is Phase.SETUP or self.flow.waiting:
            return None
        ply = self.target_ply()
        return takeback_guide(s.variant, s.board, s.occupancy, s.game.positions[ply], s.committed[ply:])

    def _guide(self, reason: str = "") -> None:
        """A take-back request begins: say what to do (the screen, and the voice once)."""
        s = self.s
        self.flow.request()
        guide = self.guide()
        if guide is None:
            return
        text = wording.takeback_text(s.variant, guide)
        s.bus.publish(ev.TakebackGuided(s.now, s.game.ply, guide))
        s.say(f"{reason}: {text}" if reason else text)
