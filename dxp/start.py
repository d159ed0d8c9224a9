"""Starting a board game against a DXP peer: the GAMEREQ / GAMEACC handshake.

As follower (`damka dxp --listen`) the board waits for the peer's game
request and accepts it when it is a game the board can set up (international
draughts from the start position; DXP version 1 has no game type, so other
variants are refused); as initiator (`--connect`) it sends one. Either way
the result is an `App` with the DXP feature (feature.py) whose game has the
peer in the computer's seat and the clock from the request's time.
"""

from __future__ import annotations

import logging
import queue
import time
from typing import Any

from damka.controller.words import say
from damka.dxp import protocol as dxp
from damka.dxp.door import DxpDoor
from damka.dxp.link import Dropped, DxpLink
from damka.dxp.redial import Redialer
from damka.controller.app import App
from damka.dxp.feature import DxpFeature, stored_peer
from damka.dxp.game import VARIANT, DxpGame, board_letters, time_control_text
from damka.dxp.reconnect import NAME
from damka.dxp.resume import time_of
from damka.controller.game.setup import GameSetup
from damka.controller.store.store import Store
from damka.engine.game import Game
from damka.engine.variants import find_variant

log = logging.getLogger("damka.dxp")


class DxpStartError(RuntimeError):
    """No game came of the handshake (the text says why)."""


def start_letters() -> tuple[str, str]:
    variant = find_variant(VARIANT)
    return board_letters(variant, Game(variant))


def next_item(link: DxpLink, end: float, waiting_for: str) -> object:
    """The next message from the peer before monotonic time `end` (`waiting_for`: the catalogue key
    of what is awaited); DxpStartError naming it when none comes or the peer leaves."""
    try:
        item = link.incoming.get(timeout=max(0.0, end - time.monotonic()))
    except queue.Empty:
        raise DxpStartError(say("dxp.no_answer", peer=link.peer, waiting=say(waiting_for))) from None
    if isinstance(item, Dropped):
        raise DxpStartError(say("dxp.left", peer=link.peer, waiting=say(waiting_for), reason=item.reason))
    return item


def next_request(link: DxpLink, timeout: float) -> dxp.GameRequest:
    """The peer's GAMEREQ; anything else before it is refused with a log line."""
    end = time.monotonic() + timeout
    while True:
        item = next_item(link, end, "dxp.game_request")
        if isinstance(item, dxp.GameRequest):
            return item
        if not isinstance(item, dxp.DxpError):  # (malformed ones are logged by the link)
            log.warning("DXP: %s before a game request refused", type(item).__name__)


def answer(link: DxpLink, request: dxp.GameRequest) -> int | None:
    """Accept `request` (GAMEACC 0) when the board can play it: the peer's side;
    None (GAMEACC 1 sent, logged) when not: the board starts games from the start position only."""
    colour, letters = start_letters()
    if request.version > dxp.VERSION:
        link.send(dxp.GameAccept(NAME, 1))
        log.warning("DXP: game request refused: it asks for DXP version %d, the board speaks version %d",
                    request.version, dxp.VERSION)
        return None
    if request.board is not None and (request.board, request.to_move) != (letters, colour):
        link.send(dxp.GameAccept(NAME, 1))
        log.warning("DXP: game request refused: the board starts games from the start position only")
        return None
    link.send(dxp.GameAccept(NAME, 0))
    person = dxp.COLOURS.index(request.follower_colour)
    log.info("DXP: playing %s (%s) from %s", request.name or "the peer", dxp.COLOURS[1 - person], link.peer)
    return 1 - person


def follow(link: DxpLink, *, timeout: float = 60.0) -> tuple[dxp.GameRequest, int]:
    """Accept the peer's game request (refusing what the board cannot play); (request, peer side)."""
    while True:
        request = next_request(link, timeout)
        peer_side = answer(link, request)
        if peer_side is not None:
            return request, peer_side


def follow_at(door: DxpDoor, *, timeout: float | None = None) -> tuple[DxpLink, dxp.GameRequest, int]:
    """Wait at `door` for a game the board can play: (link, request, peer side).
    Connections without a GAMEREQ are closed by the door; one whose request is
    refused (GAMEACC 1) may send another; the door stays open. When the game
    is agreed the other waiting connections are closed. TimeoutError after `timeout` s."""
    end = None if timeout is None else time.monotonic() + timeout
    while True:
        arrival = door.next(None if end is None else max(0.001, end - time.monotonic()))
        peer_side = answer(arrival.link, arrival.request)
        if peer_side is not None:
            door.turn_away_waiting("the board is playing another peer")
            return arrival.link, arrival.request, peer_side
        door.readmit(arrival.link)


def initiate(link: DxpLink, *, person_colour: str = "W", minutes: int = 0, moves: int = 0,
             timeout: float = 60.0) -> tuple[dxp.GameRequest, int, str]:
    """Ask the peer for a game with the board's person as `person_colour`; (request, peer side, peer name)."""
    peer_colour = dxp.COLOURS[1 - dxp.COLOURS.index(person_colour)]
    request = dxp.GameRequest(NAME, peer_colour, minutes, moves)   # the follower (the peer) plays the other colour
    link.send(request)
    end = time.monotonic() + timeout
    while True:
        item = next_item(link, end, "dxp.game_answer")
        if isinstance(item, dxp.GameAccept):
            if not item.accepted:
                raise DxpStartError(say("dxp.refused_game", peer=item.name or link.peer, code=item.code))
            return request, 1 - dxp.COLOURS.index(person_colour), item.name or "DXP peer"


def make_app(link: DxpLink, request: dxp.GameRequest, peer_side: int, peer_name: str = "", *,
             initiator: bool = False, redial: Redialer | None = None, **app_options: Any) -> App:
    """The board's App, its game against the peer already set up (waiting for the pieces).
    `redial`: how the peer is found again after a drop (None: the game waits)."""
    name = peer_name or request.name or "DXP peer"
    game = DxpGame(link, peer_side, name, initiator=initiator, time=(request.minutes, request.moves), redial=redial)
    setup = GameSetup(VARIANT, mode="computer", colours="second" if peer_side == 0 else "first",
                      time_control=time_control_text(request.minutes, request.moves))
    players = ["Board", name] if peer_side == 1 else [name, "Board"]
    app = App(setup=setup, offer_resume=False, players=players, **app_options)
    DxpFeature(app, game)
    app.new_game(setup)
    return app


def resume_app(store: Store, game_id: int, *, initiator: bool, redial: Redialer | None,
               **app_options: Any) -> App:
    """The stored unfinished DXP game `game_id` taken up again (a new process
    after the board restarted): the board guides the pieces to its position
    and looks for the peer (`redial`); the game goes on when the peer's
    GAMEREQ (or its GAMEACC to ours) continues it. DxpResumeError/StoreError
    say what is wrong with the stored game."""
    stored = store.load_game(game_id)
    peer_side, name, _ = stored_peer(stored)
    game = DxpGame(None, peer_side, name, initiator=initiator, time=time_of(stored.time_control or ""),
                   redial=redial)
    game.dropped = say("dxp.not_yet")
    app = App(store=store, setup=GameSetup(VARIANT), offer_resume=False, **app_options)
    DxpFeature(app, game).resume_stored(stored)
    return app
