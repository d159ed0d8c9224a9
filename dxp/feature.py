"""DXP beside the App: its game told of every game start and input through
the App's listener interface (`controller/app/hooks.py`), no App subclass;
it reads the App from `App.read_model()`.

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
from typing import Mapping

from damka.controller.app import App
from damka.controller.clock.records import State
from damka.controller.app import AppListener
from damka.controller.events import ArbiterActed, GameEvent
from damka.controller.game.factory import BuiltGame
from damka.controller.app.menus import Menu, MenuAction, Row, game_actions_menu
from damka.controller.app.resume import stored_computer_sides
from damka.controller.session.types import POLL_MS
from damka.controller.store.rows import StoredGame
from damka.controller.app.view_builder import with_notice
from damka.controller.app.views import GameView, View
from damka.controller.words import say
from damka.dxp.clock_hold import ClockHold, held_when_stored
from damka.dxp.game import VARIANT, DxpGame

ROLE_TAG = "DamkaDxp"          # the board's role in the game: initiator or follower
ADJUDICATE = {"adjudicate-white": 0, "adjudicate-draw": None, "adjudicate-black": 1}


class DxpResumeError(ValueError):
    """The stored game cannot be resumed over DXP (the text says why)."""


class DxpFeature(AppListener):
    """The App's game against a DXP peer: the protocol (`dxp`), its clock
    held while the peer is gone (`clock_hold`), the adjudication menu."""

    def __init__(self, app: App, game: DxpGame) -> None:
        self.app = app
        self.dxp = game
        self.clock_hold = ClockHold(app, game)
        game.on_link = self.clock_hold.on_link
        app.listen(self)

    # -- the App listener's hooks ----------------------------------------------------------

    def on_event(self, event: GameEvent) -> None:
        if isinstance(event, ArbiterActed):
            self.clock_hold.on_arbiter(event)

    def game_started(self, built: BuiltGame) -> None:
        self.dxp.attach(built)

    def record_tags(self, built: BuiltGame) -> Mapping[str, str]:
        return {ROLE_TAG: "initiator" if self.dxp.initiator else "follower"}

    def after_input(self) -> None:
        self.dxp.pump()
        self.clock_hold.keep()

    def next_deadline(self, now: int) -> int | None:
        """The link is polled every POLL_MS even when the game itself waits for nothing."""
        return now + POLL_MS

    def view(self, view: View) -> View:
        """What the DXP game says about the peer (chat, a refusal, the
        connection lost) on the game screen's message lines."""
        if isinstance(view, GameView):
            for text, alert in self.dxp.screen_lines():
                if text in view.messages:     # just said: the session's message line shows it too
                    view = replace(view, alert=view.alert or alert)
                else:
                    view = with_notice(view, text, alert=alert)
        return view

    def game_menu(self, menu: Menu) -> Menu:
        """The peer gone: the in-game menu adjudicates (and no take-back)."""
        game = self.app.read_model().game
        if not self.dxp.dropped or game is None or game.over:
            return menu
        state = game.clock_state
        menu = game_actions_menu(clock_running=state is State.RUNNING, clock_paused=state is State.PAUSED,
                                 can_take_back=False)
        extra = [Row("adjudicate-white", say("dxp.adjudicate_white")),
                 Row("adjudicate-draw", say("dxp.adjudicate_draw")),
                 Row("adjudicate-black", say("dxp.adjudicate_black"))]
        menu.rows[1:1] = extra
        menu.description = say("dxp.lost", peer=self.dxp.peer_name)
        return menu

    def act(self, action: MenuAction) -> bool:
        if action.name not in ADJUDICATE:
            return False
        self.adjudicate(ADJUDICATE[action.name])
        return True

    # -- the peer gone: the menu adjudicates -------------------------------------------

    def adjudicate(self, winner: int | None, reason: str = "") -> None:
        """End the waiting game as the arbiter decides (`winner` None: a draw);
        stored with the reason (the result's and the arbiter log's)."""
        game = self.app.read_model().game
        if game is None or game.over:
            return
        what = say("command.draw") if winner is None else say("command.wins", side=game.variant.player_name(winner))
        why = reason or say("dxp.adjudicated", what=what, peer=self.dxp.peer_name, why=self.dxp.dropped)
        self.dxp.ended = True
        if self.dxp.redial is not None:
            self.dxp.redial.close()
        self.app.adjudicate(winner, why)

    # -- a stored game taken up again ----------------------------------------------------

    def resume_stored(self, stored: StoredGame) -> None:
        """Play on the stored unfinished DXP game: the board guides the pieces
        to its position; the game goes on when the peer is back."""
        if stored.finished is not None:
            raise DxpResumeError(f"--resume {stored.id}: that game is finished ({stored.finished})")
        peer_side = stored_peer(stored)[0]
        if peer_side != self.dxp.peer_side:
            raise DxpResumeError(f"--resume {stored.id}: the peer played side {peer_side}")
        self.app.take_up(stored)
        self.clock_hold.hold(restart=held_when_stored(stored.clock_state))   # until the peer is back
        self.dxp.look_for_peer()


def feature_of(app: App) -> DxpFeature:
    """The DXP feature of an App that plays a peer (`start.make_app`, `start.resume_app`)."""
    return next(listener for listener in app.listeners if isinstance(listener, DxpFeature))


def dxp_of(app: App) -> DxpGame:
    """The DXP game of an App that plays a peer."""
    return feature_of(app).dxp


def stored_peer(stored: StoredGame) -> tuple[int, str, bool | None]:
    """The stored DXP game's peer side, peer name and whether the board was the initiator (None: not stored)."""
    sides = sorted(stored_computer_sides(stored))
    if stored.variant != VARIANT or len(sides) != 1:
        raise DxpResumeError(f"--resume {stored.id}: not a DXP game (a {stored.variant} game in mode {stored.mode})")
    role = stored.tags.get(ROLE_TAG)
    return sides[0], stored.players[sides[0]], None if role is None else role == "initiator"
