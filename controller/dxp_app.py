"""The board's App around a game against a DXP peer.

The peer's messages are handled after every input and tick, on the loop
thread. While the connection is down the in-game menu also offers the
arbiter's way out: adjudicate the game (white wins, draw, black wins), stored
with the reason and kept in the arbiter log. `resume_stored(game_id)` takes
up a stored unfinished DXP game in a new process (after the board itself
restarted): the board guides the pieces to the stored position and the
peer is looked for (`DxpGame.look_for_peer`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from damka.controller.dxp_clock import DxpClockHold, held_when_stored
from damka.controller.dxp_game import VARIANT, DxpGame
from damka.controller.game_factory import BuiltGame
from damka.controller.app import App
from damka.controller.app_menus import AppState
from damka.controller.clock import State
from damka.controller.menus import Row, game_actions_menu
from damka.controller.recorder import Recorder
from damka.controller.resume import COMPUTER_TAG, stored_computer_sides
from damka.controller.session.types import POLL_MS
from damka.controller.store import StoredGame
from damka.controller.view_builder import with_notice
from damka.controller.views import GameView, View
from damka.hardware.interfaces import Button, ButtonPress

ROLE_TAG = "DamkaDxp"          # the board's role in the game: initiator or follower
ADJUDICATE = {"adjudicate-white": 0, "adjudicate-draw": None, "adjudicate-black": 1}


class DxpResumeError(ValueError):
    """The stored game cannot be resumed over DXP (the text says why)."""


class DxpApp(DxpClockHold, App):
    """The board's App with its game against a DXP peer (its clock held while
    the peer is gone: `dxp_clock.py`)."""

    def __init__(self, dxp_game: DxpGame, **options: Any) -> None:
        self.dxp = dxp_game
        dxp_game.on_link = self._on_link
        super().__init__(**options)
        self._watch_arbiter()

    def _start(self, built: BuiltGame, recorder: Any) -> None:
        self.dxp.attach(built)
        super()._start(built, recorder)

    def _recorder_for(self, built: BuiltGame, game_id: int | None = None) -> Recorder | None:
        recorder = super()._recorder_for(built, game_id)
        if recorder is not None:
            recorder.tags[ROLE_TAG] = "initiator" if self.dxp.initiator else "follower"
        return recorder

    def handle(self, event: Any) -> None:
        super().handle(event)
        self.dxp.pump()
        self._keep_held()

    def tick(self, now_ms: int) -> None:
        super().tick(now_ms)
        self.dxp.pump()
        self._keep_held()

    def view(self) -> View:
        """The App's view, with what the DXP game says about the peer (chat, a
        refusal, the connection lost) on the game screen's message lines."""
        view = super().view()
        if isinstance(view, GameView):
            for text, alert in self.dxp.screen_lines():
                if text in view.messages:     # just said: the session's message line shows it too
                    view = replace(view, alert=view.alert or alert)
                else:
                    view = with_notice(view, text, alert=alert)
        return view

    def next_deadline(self) -> int | None:
        """The link is polled every POLL_MS even when the game itself waits for nothing."""
        deadline = super().next_deadline()
        poll = self.now + POLL_MS
        return poll if deadline is None else min(deadline, poll)

    # -- the peer gone: the menu adjudicates -------------------------------------------

    def _on_button(self, press: ButtonPress) -> None:
        if (press.button is Button.MENU and self.state is AppState.GAME and self.overlay is None
                and self.dxp.dropped and self.session is not None and self.session.result is None):
            state = self.clock.state if self.clock is not None else None
            menu = game_actions_menu(clock_running=state is State.RUNNING, clock_paused=state is State.PAUSED,
                                     can_take_back=False)
            extra = [Row("adjudicate-white", "Adjudicate: white wins"), Row("adjudicate-draw", "Adjudicate: draw"),
                     Row("adjudicate-black", "Adjudicate: black wins")]
            menu.rows[1:1] = extra
            menu.description = f"connection to {self.dxp.peer_name} lost"
            self.overlay = menu
            return
        super()._on_button(press)

    def _act(self, action: Any) -> None:
        if action.name in ADJUDICATE:
            self.adjudicate(ADJUDICATE[action.name])
            return
        super()._act(action)

    def adjudicate(self, winner: int | None, reason: str = "") -> None:
        """End the waiting game as the arbiter decides (`winner` None: a draw);
        stored with the reason (the result's and the arbiter log's)."""
        session = self.session
        if session is None or session.result is not None:
            return
        what = "draw" if winner is None else f"{session.variant.player_name(winner)} wins"
        why = reason or f"adjudicated ({what}): the connection to {self.dxp.peer_name} was lost ({self.dxp.dropped})"
        self.dxp.ended = True
        if self.dxp.redial is not None:
            self.dxp.redial.close()
        self._declare_end(None if winner is None else 1 - winner, why)

    # -- a stored game taken up again ----------------------------------------------------

    def resume_stored(self, stored: StoredGame) -> None:
        """Play on the stored unfinished DXP game: the board guides the pieces
        to its position; the game goes on when the peer is back."""
        if stored.finished is not None:
            raise DxpResumeError(f"--resume {stored.id}: that game is finished ({stored.finished})")
        peer_side = stored_peer(stored)[0]
        if peer_side != self.dxp.peer_side:
            raise DxpResumeError(f"--resume {stored.id}: the peer played side {peer_side}")
        self._resume_offer = stored
        self._resume()
        self.hold_clock(restart=held_when_stored(stored.clock_state))   # until the peer is back
        self.dxp.look_for_peer()


def stored_peer(stored: StoredGame) -> tuple[int, str, bool | None]:
    """The stored DXP game's peer side, peer name and whether the board was the initiator (None: not stored)."""
    sides = sorted(stored_computer_sides(stored))
    if stored.variant != VARIANT or len(sides) != 1:
        raise DxpResumeError(f"--resume {stored.id}: not a DXP game (a {stored.variant} game in mode {stored.mode})")
    role = stored.tags.get(ROLE_TAG)
    return sides[0], stored.players[sides[0]], None if role is None else role == "initiator"
