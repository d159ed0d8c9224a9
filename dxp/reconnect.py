"""After a drop: the handshake of a new connection that may continue the game.

`Reconnection` belongs to one `DxpGame` and owns the new connection whose
handshake is not done yet (the candidate); it works on the board's loop
thread and acts on the game through its public methods (`say`, `send`,
`refuse`, `adopt`, ...). The `Redialer` finds a new connection off the loop;
here its handshake is done: as follower the peer's GAMEREQ must continue the game
(`resume.resume_fit`), as initiator the board sends its position and
waits for GAMEACC. A connection that fails its handshake is closed and the
search goes on.
"""

from __future__ import annotations

import logging
import queue
import time
from typing import TYPE_CHECKING, Any

from damka.controller.words import say
from damka.dxp import protocol as dxp
from damka.dxp.door import Arrival
from damka.dxp.link import Dropped, DxpLink
from damka.dxp.resume import Fit, position_letters, resume_fit

if TYPE_CHECKING:
    from damka.dxp.game import DxpGame

log = logging.getLogger("damka.dxp")

NAME = "Damka"
HANDSHAKE_S = 30.0         # a new connection that brings no GAMEREQ / GAMEACC in this time is closed


class Reconnection:
    """The handshake of the new connection after a drop (it owns that connection until adopted)."""

    def __init__(self, game: DxpGame) -> None:
        self.game = game
        self.candidate: DxpLink | None = None   # a new connection whose handshake is not done
        self._until = 0.0

    def pump(self) -> None:
        """New connections from the redialer, and the candidate's messages (on the loop thread)."""
        game = self.game
        if game.redial is not None:
            for item in game.redial.poll():
                if isinstance(item, DxpLink):
                    self._new_candidate(item)
                elif isinstance(item, Arrival):          # the follower's: the connection came with a GAMEREQ
                    self._new_candidate(item.link)
                    if self.candidate is item.link:
                        self._candidate_item(item.link, item.request)
                elif not game.ended:
                    game.say(item)
        candidate = self.candidate
        if candidate is None:
            return
        while self.candidate is candidate:
            try:
                message = candidate.incoming.get_nowait()
            except queue.Empty:
                break
            self._candidate_item(candidate, message)
        if self.candidate is candidate and time.monotonic() > self._until:
            self._drop_candidate(f"no {'GAMEACC' if game.initiator else 'GAMEREQ'} in {HANDSHAKE_S:.0f} s")

    def release(self, link: DxpLink) -> None:
        """`link` is the game's now (adopted): no longer a candidate."""
        if self.candidate is link:
            self.candidate = None

    def close(self) -> None:
        if self.candidate is not None:
            self.candidate.close()

    def _new_candidate(self, link: DxpLink) -> None:
        game = self.game
        if game.ended or game.link is not None:
            link.close()
            return
        self.candidate, self._until = link, time.monotonic() + HANDSHAKE_S
        if game.initiator:
            colour, letters = position_letters(game.session.variant, game.game_now().position)
            minutes, moves = game.request_time()
            link.send(dxp.GameRequest(NAME, dxp.COLOURS[game.peer_side], minutes, moves, letters, colour))
            game.say(say("dxp.asking", address=link.peer, peer=game.peer_name))

    def _candidate_item(self, link: DxpLink, item: Any) -> None:
        initiator = self.game.initiator
        if isinstance(item, Dropped):
            self._drop_candidate(item.reason)
        elif initiator and isinstance(item, dxp.GameAccept):
            if item.accepted:
                self.game.adopt(link)
            else:
                self._drop_candidate(say("dxp.refused_to_go_on", peer=item.name or link.peer, code=item.code))
        elif not initiator and isinstance(item, dxp.GameRequest):
            if not self.reconnect(link, item):
                self._drop_candidate(say("dxp.other_game"))
        elif not isinstance(item, dxp.DxpError):
            log.warning("DXP: %s before the handshake of the new connection refused", type(item).__name__)

    def _drop_candidate(self, why: str) -> None:
        if self.candidate is not None:
            self.candidate.close()
        self.candidate = None
        log.warning("DXP: new connection closed: %s", why)
        self.game.say(say("dxp.new_closed", peer=self.game.peer_name, why=why))
        self.game.look_for_peer()

    def reconnect(self, link: DxpLink, request: dxp.GameRequest) -> bool:
        """Go on with a new connection whose GAMEREQ continues this game (see
        `resume.py`): GAMEACC 0, and a move lost in the drop sent again or
        lit; GAMEACC 1 (False) for another game."""
        game = self.game
        variant = game.session.variant
        shown = (request.to_move, request.board) if request.board is not None else \
            position_letters(variant, variant.start_position())
        now = game.game_now()   # a take-back of the peer's still being carried out: the game as the peer has it
        fit = resume_fit(variant, now, game.peer_side, shown)
        if request.version > dxp.VERSION:
            link.send(dxp.GameAccept(NAME, 1))
            game.refuse(say("dxp.later_version", version=request.version, ours=dxp.VERSION))
            return False
        if fit is None or dxp.COLOURS.index(request.follower_colour) == game.peer_side:
            link.send(dxp.GameAccept(NAME, 1))
            game.refuse(say("dxp.other_position"))
            return False
        link.send(dxp.GameAccept(NAME, 0))
        game.adopt(link)
        if fit.fit is Fit.RESEND and fit.move is not None:
            game.send(dxp.move_message(variant, fit.move))
            log.info("DXP: the board's last move sent again (the peer had not got it)")
        elif fit.fit is Fit.DELIVER and fit.move is not None:
            game.opponent.deliver(now, fit.move)
            log.info("DXP: the peer's move that was lost in the drop is lit")
        return True
