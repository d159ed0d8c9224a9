"""The App's offers: a draw offered, a take-back asked, and answered by the other player.

`OfferDesk` owns the offers of the game on the board. The board's menu and
the web page both come here, so there is one piece of logic for the handshake (`controller/app/offers.py`
holds its state, one `Offers` per game).

When is there someone to ask? When a seat is played from afar (a remote
player on the page: its opponent says `remote = True`), or the offer comes
from afar (a page watching a game at the table): then the offer waits for the
other party's answer (the board answers in its menu, the page with its
buttons). In the usual local game (both sides at the board, or the computer
as the opponent) the board's menu draws or takes back at once, as ever.

A take-back made at the board by hand in such a game is asked too: the
session calls its `takeback_consent` hook (`board_takeback` here) instead of
taking back, and `answer_offer` hands the answer back to it
(`Session.takeback_answered`: declined, the LEDs guide the pieces forward).

Events (`controller/events.py`) on the game's bus, so the recorder, the web
feed and every `App.bus` listener see them: `OfferMade`, then `OfferAnswered`
(accepted, declined, or lapsed when a move is committed, a move is taken
back or the game ends).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from damka.controller import events as ev
from damka.controller.clock.records import State
from damka.controller.app.menus import Menu, game_actions_menu
from damka.controller.app.offers import Offer, OfferError, Offers, last_turn_moves, offer_text
from damka.controller.players.seat_opponents import far_seats, remote_players
from damka.controller.session.types import Phase
from damka.hardware.interfaces import Button, ButtonPress
from damka.controller.words import say, translate

if TYPE_CHECKING:
    from damka.controller.app.app import App
    from damka.controller.session import Session

# What ends a pending offer unanswered: the position it was made in is gone.
LAPSES = (ev.MoveCommitted, ev.TakenBack, ev.GameOver, ev.NewGame)


class OfferDesk:
    """The offers of the game on the board; it owns them (and the watch that lapses them)."""

    def __init__(self, app: App) -> None:
        self.app = app
        # (the built game, its offers, the unsubscribe of the watch that lapses them)
        self._offers_of: tuple[Any, Offers, Callable[[], None] | None] | None = None

    @property
    def offers(self) -> Offers:
        """The offers of the game on the board (a new game starts with none pending)."""
        if self._offers_of is None or self._offers_of[0] is not self.app.built:
            self._offers_of = (self.app.built, Offers(), None)
        return self._offers_of[1]

    @property
    def pending_offer(self) -> Offer | None:
        return self.offers.pending if self.app.built is not None else None

    def remote_sides(self) -> frozenset[int]:
        """The seats played from afar (a remote player on the page); empty in a game at the table."""
        built = self.app.built
        return far_seats(built.session.opponent, built.computer_sides) if built is not None else frozenset()

    def remote_line(self) -> str:
        """What the board's screen says while a seat played from afar has no page (a resumed game)."""
        if self.app.session is None or self.app.session.result is not None:
            return ""
        if any(not p.claimed for p in remote_players(self.app.session.opponent)):
            return say("offer.remote_away")
        return ""

    # -- the public API --------------------------------------------------------------

    def offer(self, kind: str, side: int | None, where: str, moves: int | None = None) -> None:
        """Offer a draw or ask for a take-back (`kind` "draw" | "takeback") as
        `side` (None: worked out from `where`) from `where` ("board", "page",
        "remote page"); `moves`: a take-back's plies (None: the requester's
        last turn). From the board with no one far away: done at once."""
        session = self._live_session()
        if kind == "takeback" and self.app.setup.mode == "tournament":
            raise OfferError(say("session.no_takeback_tournament"))
        remote = self.remote_sides()
        if where == "board" and not remote:
            self._at_once(kind)
            return
        everyone = frozenset(range(len(session.variant.sides)))
        requester = remote if where == "remote page" else (everyone - remote if where == "board" else frozenset())
        played = [move.side for move in session.committed]
        if kind != "takeback":
            moves = 0
        elif moves is None:
            moves = last_turn_moves(played, requester, session.game.ply)
        elif not 0 < moves <= session.game.ply:
            raise OfferError(say("offer.takeback_too_far", moves=moves, ply=session.game.ply))
        if side is None and len(requester) == 1:
            side = next(iter(requester))
        elif side is None and requester and moves:
            side = played[-moves]
        made = self.offers.make(kind, side, where, session.game.ply, moves)
        self._watch_lapse(session)
        text = offer_text(made, self._side_name(made.side))
        session.bus.publish(ev.OfferMade(self.app.now, session.game.ply, kind, made.side, where, made.moves, text))
        self._offer_menu_changed()

    def answer_offer(self, accept: bool, where: str) -> None:
        """Accept or decline the pending offer from `where` (the other party's
        place): an accepted draw ends the game by agreement, an accepted
        take-back does what the take-back button does (the LEDs guide back)."""
        session = self._live_session()
        offer = self.offers.answer(accept, where)
        self._stop_watching()
        answer = say("offer.accepted" if accept else "offer.declined")
        text = say("offer.answered", offer=offer_text(offer, self._side_name(offer.side)), answer=answer,
                   where=translate(where))
        session.bus.publish(ev.OfferAnswered(self.app.now, session.game.ply, offer.kind, answer, where, offer.where,
                                             text))
        if offer.kind == "takeback" and offer.where == "board":
            who = say("where.remote_player") if self.remote_sides() else translate(where)
            session.takeback_answered(accept, offer.moves, say("offer.takeback_answered", answer=answer, who=who))
        elif accept:
            self._at_once(offer.kind, offer.moves)
        self._offer_menu_changed()

    def board_takeback(self, plies: int | None) -> int:
        """The session's hook (`Session.takeback_consent`): a take-back made at
        the board in a game with a seat played from afar is asked of it (an
        offer from the board); the plies asked. A take-back the board asked for
        already stands; OfferError (a ValueError) when none can be asked now."""
        pending = self.pending_offer
        if pending is not None and pending.kind == "takeback" and pending.where == "board":
            return pending.moves
        self.offer("takeback", None, "board", plies)
        made = self.pending_offer
        assert made is not None  # (offer raised otherwise)
        return made.moves

    def offer_line(self) -> str:
        """What the board's screen says of the pending offer ('' : none)."""
        offer = self.pending_offer
        if offer is None:
            return ""
        text = offer_text(offer, self._side_name(offer.side) if offer.where != "page" else "")
        return say("offer.waiting" if offer.where == "board" else "offer.accept_in_menu", text=text)

    # -- inside ----------------------------------------------------------------------

    def _live_session(self) -> Session:
        session = self.app.session
        if session is None or self.app.built is None:
            raise OfferError(say("command.no_game"))
        if session.result is not None or session.phase is Phase.OVER:
            raise OfferError(say("command.over_already"))
        return session

    def _at_once(self, kind: str, moves: int | None = None) -> None:
        session = self.app.session
        assert session is not None  # (offers are made in a game only)
        if kind == "draw":
            self.app.games.declare_end(None, "agreement")
        elif kind == "takeback" and moves is None:
            self.app.screens.open_overlay(None)
            session.handle(ButtonPress(Button.TAKE_BACK, self.app.now))  # the button itself (in the sensor log)
        elif kind == "takeback":
            self.app.screens.open_overlay(None)
            session.ask_takeback(moves)
        else:
            raise OfferError(say("offer.not_a_kind", kind=repr(kind), kinds="draw, takeback"))

    def _side_name(self, side: int | None) -> str:
        if side is None or self.app.session is None:
            return ""
        players = self.app.game_players
        return players[side] if side < len(players) else self.app.session.variant.player_name(side)

    def _watch_lapse(self, session: Session) -> None:
        def lapse(event: ev.GameEvent) -> None:
            offer = self.offers.lapse()
            self._stop_watching()
            if offer is not None:
                why = say("offer.game_ended" if isinstance(event, ev.GameOver) else "offer.move_made")
                text = say("offer.lapsed", offer=offer_text(offer, self._side_name(offer.side)), why=why)
                session.bus.publish(ev.OfferAnswered(event.time_ms, event.ply, offer.kind, "lapsed", "",
                                                     offer.where, text))
                self._offer_menu_changed()

        assert self._offers_of is not None  # (made by `offers` before any offer)
        built, offers, _ = self._offers_of
        self._offers_of = (built, offers, session.bus.subscribe(lapse, *LAPSES))

    def _stop_watching(self) -> None:
        if self._offers_of is not None and self._offers_of[2] is not None:
            self._offers_of[2]()
            self._offers_of = (self._offers_of[0], self._offers_of[1], None)

    def game_actions(self) -> Menu:
        """The in-game menu (the menu button): with Accept/Decline while an offer waits for the board."""
        offer = self.pending_offer
        remote = bool(self.remote_sides())
        state = self.app.clock.state if self.app.clock is not None else None
        return game_actions_menu(clock_running=state is State.RUNNING, clock_paused=state is State.PAUSED,
                                 can_take_back=self.app.setup.mode != "tournament",
                                 offer=self.offer_line() if offer is not None and offer.where != "board" else "",
                                 asks=remote)

    def _offer_menu_changed(self) -> None:
        """An open in-game menu follows the offer (its Accept/Decline rows come and go)."""
        overlay = self.app.screens.overlay
        if overlay is not None and overlay.name == "game":
            self.app.screens.open_overlay(self.game_actions())
