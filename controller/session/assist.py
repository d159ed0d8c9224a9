"""The session's part that talks to its assistants: the computer's turn,
hints, the coach's blunder check, and the take-back button.

A mixin of `Session` (it works on the session's own state): kept in its own
module so the turn flow in `session.py` reads on its own. The searching
itself is `controller/assistants.py`'s, off the board's loop.
"""

from __future__ import annotations

from damka.controller import events as ev
from damka.controller import wording
from damka.controller.session.assistants import moves_text
from damka.controller.session.types import Mode, Phase
from damka.controller.takeback_guide import TakebackGuide, takeback_guide
from damka.controller.tracker import Reading
from damka.engine.move import Move
from damka.engine.notation import format_move


class SessionAssist:
    # -- computer, hints, take-back requests ----------------------------------

    def _is_computer_turn(self) -> bool:
        return (self.mode is Mode.COMPUTER and self.phase is Phase.PLAYING and not self.game.is_over
                and self.game.turn in self.settings.computer_sides)

    def _computer_moves(self) -> tuple[Move, ...] | None:
        return self.assistants.computer_moves(self.game, self._is_computer_turn())

    def _poll_thinking(self) -> None:
        """Pick up what was worked out off the loop: the computer's move, a hint, a blunder check."""
        for text in self.assistants.notices():
            self.bus.publish(ev.EngineFellBack(self.now, self.game.ply, text))
            self._say(text)
        if self.thinking:
            moves = self.assistants.poll_computer(self.game)
            if moves:
                self.bus.publish(ev.ComputerPlanned(self.now, self.game.ply,
                                                    moves_text(self.variant, self.game.position, moves)))
                self._reread()
                self._refresh_frame()  # lit now, whatever input or tick picked it up
                self._say(self._turn_prompt())
        answer = self.assistants.poll_hint(self.game)
        if answer is not None:
            self._hint_ready(*answer)
        warning = self.assistants.poll_check((self.game.ply, self.occupancy))
        if warning is not None:
            legal = warning.move in self.variant.legal_moves(self.game.position)
            text = format_move(self.variant, self.game.position, warning.move) if legal else ""
            self.bus.publish(ev.BlunderWarned(self.now, self.game.ply, text, warning.loss))
            self._say(wording.warning_text(warning))

    def _ask_hint(self) -> None:
        if self.mode is Mode.TOURNAMENT or self.game.is_over or self._is_computer_turn():
            self._say("no hints now")
            return
        text = self.assistants.ask_hint(self.game)
        if self.coach is None and self.assistants.hint:
            self._show_hint()
        elif text:
            self._say(text)

    def _hint_ready(self, move: Move | None, error: str) -> None:
        if move is None:
            self._say(error)
            return
        self._show_hint()
        self._refresh_frame()

    def _show_hint(self) -> None:
        moves = moves_text(self.variant, self.game.position, self.assistants.hint or ())
        left = self.hints_left
        self.bus.publish(ev.HintShown(self.now, self.game.ply, moves, left))
        self._hint_text = "hint: " + " ".join(moves) + (wording.hints_left_text(left) if self.coach else "")
        self._say(self._hint_text)

    def _coach_checks(self) -> bool:
        return (self.coach is not None and self.mode is Mode.LEARNING and self.phase is Phase.PLAYING
                and not self.game.is_over and not self._is_computer_turn())

    def _check_move(self, reading: Reading) -> bool:
        """Start (or read) the coach's verdict on the complete move the board
        shows; True once there is a verdict (`warning` then holds it, or None)."""
        turn = self._pick(reading.turns)
        before = self.game.copy()
        for move in turn[:-1]:
            before.push_unchecked(move)
        return self.assistants.check((self.game.ply, self.occupancy), before, turn[-1])

    def ask_takeback(self, moves: int | None = None) -> None:
        """The take-back button, from outside (an accepted take-back request,
        `controller/app_offers.py`): `moves` back (None: as the button does);
        the LEDs guide the pieces back until the board shows that position."""
        self._restore_to = None if moves is None else max(0, self.game.ply - moves)
        self._ask_takeback()
        self._refresh_frame()

    def _ask_takeback(self) -> None:
        if self.mode is Mode.TOURNAMENT and self.phase is not Phase.OVER:
            self._say("no take-back in tournament play")
            return
        if not self.game.ply:
            self._say("there is no move to take back")
            return
        # The button says what the board means: in multiwarcaby the earlier
        # position is often also a legal turn of the next side.
        plies = self.tracker.takeback_plies(self.game, self.occupancy)
        if self._restore_to is None and self.takeback_needs_consent:
            self._ask_consent(plies or None)
            return
        if plies and (self._restore_to is None or self.game.ply - plies >= self._restore_to):
            self._take_back(plies)
            return
        self._guide_takeback()

    # -- a take-back made at the board, with a seat played from afar ------------

    @property
    def takeback_needs_consent(self) -> bool:
        """A take-back made at the board (the pieces put back, the button) is
        asked of the far side first: the opponent plays a seat from afar
        (its `remote` flag) and the App gave the hook that asks it. Against the
        computer or with everyone at the table the board takes back at once."""
        return self.takeback_consent is not None and bool(getattr(self.opponent, "remote", False))

    def _board_takes_back(self, plies: int) -> None:
        """The board shows the position `plies` plies back and settled there."""
        if self._restore_to is None and self.takeback_needs_consent:
            self._ask_consent(plies)
        else:
            self._take_back(plies)

    def _ask_consent(self, plies: int | None) -> None:
        """Ask the far side (once) for `plies` back (None: the board's last turn);
        the position waits for the answer: `takeback_answered`."""
        if self._consent is not None:
            return
        try:
            self._consent = self.takeback_consent(plies)  # type: ignore[misc]
        except ValueError as error:  # cannot be asked now (another offer waits): play goes on
            self._takeback_refused(f"no take-back: {error}")
            return
        moves = f"{self._consent} move{'s' if self._consent != 1 else ''}"
        self._restore_request = False
        self.say(f"take-back of {moves} asked of the {self.opponent.label}: waiting for the answer")
        self._refresh_frame()

    def takeback_answered(self, accept: bool, moves: int, reason: str) -> None:
        """The far side's answer to a take-back asked from the board (the App's
        offer): accepted, the moves are taken back (the LEDs guide the pieces
        back if the board no longer shows the position); declined, the LEDs
        guide the pieces forward to the game's position and play goes on."""
        self._consent = None
        if accept:
            self.ask_takeback(moves)
        else:
            self._takeback_refused(reason)

    def _takeback_refused(self, reason: str) -> None:
        self._consent = None
        self._restore_request = False
        if self.occupancy != self._reference() and self.phase is Phase.PLAYING:
            self._restore_board = True           # guided forward: _board_restored says when it is done
            self._out_message = reason
        self.say(f"{reason}: {self._prompt()}" if not self._restore_board else
                 f"{reason}: put the pieces back as the LEDs show")
        self._refresh_frame()

    def guide_take_back(self, plies: int, reason: str) -> None:
        """Ask the person to take back `plies` plies (a peer's or an arbiter's
        take-back): `reason` is shown and the LEDs guide the pieces back to
        that position; when the board shows it, the session takes the moves
        back as for the take-back button. ValueError for a ply count the game
        does not have."""
        if not 0 < plies <= self.game.ply:
            raise ValueError(f"take-back of {plies} plies: the game has {self.game.ply}")
        self._restore_to = self.game.ply - plies   # kept while the pieces go back one move at a time
        self._guide_takeback(reason)
        self._refresh_frame()

    def _takeback_ply(self) -> int:
        """The ply a TAKE_BACK request guides to: the position asked
        for (`ask_takeback`, `guide_take_back`), else the last turn start (against the
        computer, the one before your own last move)."""
        if self._restore_to is not None:
            return min(self._restore_to, self.game.ply)
        turns_back = 2 if self.mode is Mode.COMPUTER and not self._is_computer_turn() else 1
        return self.record.turn_start_ply(turns_back)

    def _takeback_target(self) -> int:
        """The occupancy a TAKE_BACK request guides to."""
        return self.tracker.occupancy_of(self.game.positions[self._takeback_ply()])

    @property
    def takeback_guide(self) -> TakebackGuide | None:
        """The take-back under way, for the screen and the voice: the turns
        taken back and the pieces still to put back or take off (None: no
        take-back is being guided)."""
        if not self._restore_request or self.phase is Phase.SETUP or self._consent is not None:
            return None
        ply = self._takeback_ply()
        return takeback_guide(self.variant, self.board, self.occupancy, self.game.positions[ply],
                              self.committed[ply:])

    def _guide_takeback(self, reason: str = "") -> None:
        """A take-back request begins: say what to do (the screen, and the voice once)."""
        self._restore_request = True
        guide = self.takeback_guide
        if guide is None:
            return
        text = wording.takeback_text(self.variant, guide)
        self.bus.publish(ev.TakebackGuided(self.now, self.game.ply, guide))
        self.say(f"{reason}: {text}" if reason else text)
