"""DxpGame's part after a drop: looking for the peer and resuming the game.

A mixin of `DxpGame` (it works on the game's own state, on the board's loop
thread). The `Redialer` finds a new connection off the loop; here its
handshake is done: as follower the peer's GAMEREQ must continue the game
(`resume.resume_fit`), as initiator the board sends its position and
waits for GAMEACC. A connection that fails its handshake is closed and the
search goes on.
"""

from __future__ import annotations

import logging
import queue
import time
from typing import Any

from damka.dxp import protocol as dxp
from damka.dxp.door import Arrival
from damka.dxp.link import Dropped, DxpLink
from damka.dxp.resume import Fit, position_letters, resume_fit, time_left

log = logging.getLogger("damka.dxp")

NAME = "Damka"
HANDSHAKE_S = 30.0         # a new connection that brings no GAMEREQ / GAMEACC in this time is closed


class DxpReconnect:
    def look_for_peer(self) -> None:
        """Start looking for the peer again (after a drop, or a resumed game with no link yet)."""
        if not self.ended and self.link is None:
            self.opponent.away = True           # no move is asked for until it is back
            if self.redial is not None:
                self.redial.want()

    def close(self) -> None:
        if self.redial is not None:
            self.redial.close()
        for link in (self._candidate, self.link):
            if link is not None:
                link.close()

    def _pump_redial(self) -> None:
        if self.redial is not None:
            for item in self.redial.poll():
                if isinstance(item, DxpLink):
                    self._new_candidate(item)
                elif isinstance(item, Arrival):          # the follower's: the connection came with a GAMEREQ
                    self._new_candidate(item.link)
                    if self._candidate is item.link:
                        self._candidate_item(item.link, item.request)
                elif not self.ended:
                    self._say(item)
        candidate = self._candidate
        if candidate is None:
            return
        while self._candidate is candidate:
            try:
                item = candidate.incoming.get_nowait()
            except queue.Empty:
                break
            self._candidate_item(candidate, item)
        if self._candidate is candidate and time.monotonic() > self._candidate_until:
            self._drop_candidate(f"no {'GAMEACC' if self.initiator else 'GAMEREQ'} in {HANDSHAKE_S:.0f} s")

    def _new_candidate(self, link: DxpLink) -> None:
        if self.ended or self.link is not None:
            link.close()
            return
        self._candidate, self._candidate_until = link, time.monotonic() + HANDSHAKE_S
        if self.initiator:
            colour, letters = position_letters(self.session.variant, self._game_now().position)
            minutes, moves = self.request_time()
            link.send(dxp.GameRequest(NAME, dxp.COLOURS[self.peer_side], minutes, moves, letters, colour))
            self._say(f"connected to {link.peer}: asking {self.peer_name} to go on from this position")

    def _candidate_item(self, link: DxpLink, item: Any) -> None:
        if isinstance(item, Dropped):
            self._drop_candidate(item.reason)
        elif self.initiator and isinstance(item, dxp.GameAccept):
            if item.accepted:
                self.adopt(link)
            else:
                self._drop_candidate(f"{item.name or link.peer} refused to go on (code {item.code})")
        elif not self.initiator and isinstance(item, dxp.GameRequest):
            if not self.reconnect(link, item):
                self._drop_candidate("its GAMEREQ shows another game")
        elif not isinstance(item, dxp.DxpError):
            log.warning("DXP: %s before the handshake of the new connection refused", type(item).__name__)

    def _drop_candidate(self, why: str) -> None:
        if self._candidate is not None:
            self._candidate.close()
        self._candidate = None
        log.warning("DXP: new connection closed: %s", why)
        self._say(f"{self.peer_name}: new connection closed ({why})")
        self.look_for_peer()

    def reconnect(self, link: DxpLink, request: dxp.GameRequest) -> bool:
        """Go on with a new connection whose GAMEREQ continues this game (see
        `resume.py`): GAMEACC 0, and a move lost in the drop sent again or
        lit; GAMEACC 1 (False) for another game."""
        variant = self.session.variant
        shown = (request.to_move, request.board) if request.board is not None else \
            position_letters(variant, variant.start_position())
        game = self._game_now()   # a take-back of the peer's still being carried out: the game as the peer has it
        fit = resume_fit(variant, game, self.peer_side, shown)
        if fit is None or dxp.COLOURS.index(request.follower_colour) == self.peer_side:
            link.send(dxp.GameAccept(NAME, 1))
            self._refuse("GAMEREQ to resume shows another position")
            return False
        link.send(dxp.GameAccept(NAME, 0))
        self.adopt(link)
        if fit.fit is Fit.RESEND:
            self._send(dxp.move_message(self.session.variant, fit.move))
            log.info("DXP: the board's last move sent again (the peer had not got it)")
        elif fit.fit is Fit.DELIVER:
            self.opponent.deliver(game, fit.move)
            log.info("DXP: the peer's move that was lost in the drop is lit")
        return True

    def adopt(self, link: DxpLink) -> None:
        """Play on over `link` (its handshake done)."""
        if self._candidate is link:
            self._candidate = None
        self.link, self.dropped, self._drop_line = link, "", ""
        self.opponent.away = False
        self.opponent.forget()                  # the peer plays its move again on the new connection
        self.session.assistants.cancel_search()
        log.info("DXP: %s is back (%s): the game goes on", self.peer_name, link.peer)
        self._say(f"{self.peer_name} is back: the game goes on")
        self._link_changed(True)

    def _link_changed(self, up: bool) -> None:
        if self.on_link is not None and not self.ended:
            self.on_link(up)

    def request_time(self) -> tuple[int, int]:
        """The resume GAMEREQ's (minutes, moves): the peer's time left on the
        board's clock (`resume.time_left`); the game request's own time
        when the game has no clock."""
        if self.clock is None:
            return self.time
        return time_left(self.clock.view(self.session.now).sides[self.peer_side])

