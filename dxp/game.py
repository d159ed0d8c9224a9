"""A board game against a DXP peer (another program over DamExchange).

The peer sits in the computer's seat: `DxpOpponent` (`seat.py`) is an
`Opponent`, so the session lights the peer's move on the board and accepts it
only when the person carries it out exactly, as it does the computer's. The
rest of the protocol is `DxpGame`, which listens to the game's events and
pumps the link on the board's loop thread (after every App input and tick:
`feature.DxpFeature.after_input`):

- the person's moves are sent when committed (`MoveCommitted`);
- the game's end on the board is sent (`GAMEEND`), the peer's ends the game
  (it resigns, claims a win or a draw);
- a take-back: the peer's `BACKREQ` is carried out on the board (the board
  then guides the pieces back) and accepted, or refused when the position is
  not in the game; a take-back on the board is asked of the peer;
- a malformed message, an illegal move, a move out of turn: refused with one
  `damka.dxp` log line and a message on the screen, the board plays on; a
  flood of them is summarised on one screen line and rate-limited in the log
  (`refusals.py`), and one pump handles at most PUMP_MAX messages, so the
  board's loop stays responsive;
- a dropped connection: said on the screen; the game waits and is stored,
  the clock held (`on_link` tells `DxpFeature`, `clock_hold.py`); a take-back
  of the peer's being carried out is finished.
  With a `Redialer` the board looks for the peer again (the follower listens
  again, the initiator calls again with back-off) and the game goes on over
  the new connection (`reconnect` / `adopt`: a GAMEREQ with the position,
  see `resume.py`); or it is adjudicated (`adjudicate`).

How the App is told (the hooks, the adjudication menu, `--resume`): `feature.py`.
"""

from __future__ import annotations

import logging
import queue
import time
from typing import Any, Callable

from damka.controller.words import say
from damka.dxp import protocol as dxp
from damka.dxp.link import Dropped, DxpLink
from damka.dxp.redial import Redialer
from damka.controller import events as ev
from damka.dxp.reconnect import NAME, Reconnection
from damka.controller.clock.clock import Clock
from damka.dxp.refusals import Chats, Refusals, clean_chat  # noqa: F401 (clean_chat: the chat's text)
from damka.dxp.resume import position_letters, time_left
from damka.controller.game.factory import BuiltGame
from damka.dxp.seat import DxpOpponent
from damka.engine.game import Game
from damka.engine.variant import Result, Variant

log = logging.getLogger("damka.dxp")

VARIANT = "international"  # the one game DXP (version 1) names
LINE_CHARS = 120           # the most of any line about the peer
PUMP_MAX = 200             # messages handled per pump: the rest wait for the next (the loop goes on)


def time_control_text(minutes: int, moves: int) -> str:
    """The GAMEREQ time as a Damka time control: `moves/minutes`, or the whole game."""
    if minutes <= 0:
        return ""
    return f"{moves}/{minutes}" if moves > 0 else f"{minutes}+0"


def board_letters(variant: Variant, game: Game) -> tuple[str, str]:
    """The side to move (W/Z) and the 50 board letters of `game`'s position."""
    return position_letters(variant, game.position)


class DxpGame:
    """The protocol around one board game: moves out, the peer's messages in."""

    def __init__(self, link: DxpLink | None, peer_side: int, peer_name: str = "DXP peer", *,
                 initiator: bool = False, time: tuple[int, int] = (0, 0), redial: Redialer | None = None,
                 now_s: Callable[[], float] = time.monotonic) -> None:
        """`initiator`: the board sent the game request (and sends it again to
        resume); `time`: the request's (minutes, moves); `redial`: how a new
        connection is found after a drop (None: the game just waits)."""
        self.link = link
        self.peer_side = peer_side
        self.peer_name = peer_name
        self.initiator = initiator
        self.time = time
        self.redial = redial
        self.reconnection = Reconnection(self)   # a new connection's handshake after a drop
        self._outbox: list[dxp.Message] = []  # queued by the board's events, sent by pump
        self._end_after_move: int | None = None  # the peer's GAMEEND reason, waiting for its last move
        self.opponent = DxpOpponent()
        self.session: Any = None   # Any: the game's Session, set by attach() before any message is handled
        self.refusals = Refusals(now_s)   # what was refused: counted, the latest kept, floods summarised
        self.chat = Chats(now_s)          # the peer's chat: logged and announced at a limited rate
        self.dropped = ""                 # why the connection ended ("" while it is up)
        self.ended = False                # a GAMEEND was sent or received
        self._back_pending = False
        self.back_target: int | None = None  # the peer's accepted take-back, until the board shows it
        self._unsubscribe: Any = None
        self.clock: Clock | None = None   # the game's clock (the resume GAMEREQ's time left)
        self.on_link: Callable[[bool], None] | None = None  # told when the peer is lost (False) / back (True)
        # What the board's screen shows about the peer (chat, a refusal, the search for it), kept
        # until the game moves on: the session rewrites its own message line on every update.
        self.line = ""
        self.line_alert = False
        self._drop_line = ""              # while the connection is down

    @property
    def refused(self) -> list[str]:
        """The latest refusals, oldest first (`refusals.count`: all of them)."""
        return self.refusals.texts

    def screen_lines(self) -> list[tuple[str, bool]]:
        """(text, alert) lines for the board's screen: the dropped connection
        (until the peer is back), then the latest thing said about the peer."""
        gone = self.link is None and not self.ended and self.session is not None and self.session.result is None
        drop = self._drop_line or say("dxp.not_connected", peer=self.peer_name)
        lines = [(drop, True)] if gone else []
        if self.line and self.line != drop:
            lines.append((self.line, self.line_alert))
        return lines

    # -- wiring ---------------------------------------------------------------

    def attach(self, built: BuiltGame) -> None:
        """Make `built`'s session play against the peer."""
        if self._unsubscribe is not None:
            self._unsubscribe()
        self.session = built.session
        self.clock = built.clock
        built.session.opponent = self.opponent
        self._unsubscribe = built.session.bus.subscribe(self._on_event)

    def say(self, text: str, alert: bool = False) -> None:
        """Say `text` about the peer: on the screen (kept until the game moves on) and as an event."""
        text = text[:LINE_CHARS]
        self.line, self.line_alert = text, alert
        if self.session is not None:
            self.session.say(text)

    def send(self, message: dxp.Message) -> None:
        if self.link is not None and not self.link.closed:
            self.link.send(message)

    # -- the board's events ------------------------------------------------------

    def _flush(self) -> None:
        """Send what the board's events queued: after the App stored them, so
        the peer never has a move the board's store lacks (a board killed
        between the two would resume a move behind the peer). With no link,
        what the board did is in the position the next handshake shows, so
        it is dropped; except for the initiator whose GAMEREQ is already
        out: a move made since goes after the peer's GAMEACC."""
        if self.link is None:
            if not (self.initiator and self.reconnection.candidate is not None):
                self._outbox.clear()
            return
        while self._outbox:
            self.send(self._outbox.pop(0))

    def _on_event(self, event: ev.GameEvent) -> None:
        if isinstance(event, ev.MoveCommitted):
            self.line, self.line_alert = "", False      # the game moved on: what was said has had its day
            self.refusals.calm()
        if isinstance(event, ev.MoveCommitted) and event.side != self.peer_side and not event.redo:
            self._outbox.append(dxp.move_message(self.session.variant, event.move))
        elif isinstance(event, ev.GameOver) and not self.ended:
            self.ended = True
            reason = self._reason(event.result)
            self._outbox.append(dxp.GameEnd(reason))
            log.info("DXP: the board ended the game (reason %d, said by the board)", reason)
        elif isinstance(event, ev.TakenBack) and self.back_target is not None:
            if event.ply <= self.back_target:
                self.back_target = None  # the board shows the peer's take-back
        elif isinstance(event, ev.TakenBack) and not self._back_pending:
            game = self.session.game
            self._back_pending = True
            self._outbox.append(dxp.BackRequest(game.ply // 2 + 1, dxp.COLOURS[game.position.turn]))

    def _reason(self, result: Result | None) -> int:
        """GAMEEND's reason, said by us: 1 we lose, 2 draw, 3 we win, 0 unknown."""
        if result is None:
            return 0
        if result.winner is None:
            return 2 if result.is_draw else 0
        return 1 if result.winner == self.peer_side else 3

    # -- the peer's messages -----------------------------------------------------------

    def pump(self) -> None:
        """Handle every message that has arrived, and a new connection after a
        drop (on the board's loop thread)."""
        if self.session is None:
            return
        self._flush()
        self.reconnection.pump()
        self._deferred_end()
        for _ in range(PUMP_MAX):
            if self.link is None:
                break
            try:
                item = self.link.incoming.get_nowait()
            except queue.Empty:
                break
            try:
                self._handle(item)
            except Exception as error:  # noqa: BLE001 - a message must never bring the board down
                self.refuse(say("dxp.not_handled", error=error))
        self._flush()

    def refuse(self, why: str, full: str = "", logged: bool = False) -> None:
        """Refuse `why` from the peer: in the log (unless `logged` already) and on the
        screen, a flood summarised (`Refusals`)."""
        peer = f"{self.peer_name} ({self.link.peer})" if self.link is not None else self.peer_name
        line, announce = self.refusals.add(why, peer, full or say("dxp.refused", peer=self.peer_name, why=why), logged)
        if announce:
            self.say(line, alert=True)
        else:
            self.line, self.line_alert = line[:LINE_CHARS], True    # on the screen, no new message event

    def _handle(self, item: Any) -> None:
        if isinstance(item, dxp.DxpError):
            self.refuse(str(item), say("dxp.bad_message", peer=self.peer_name, item=item), logged=True)  # by the link
        elif isinstance(item, Dropped):
            self.refusals.flush()
            self.dropped = item.reason
            self.link = None
            if self.ended:
                return  # the game is over: nothing waits for the peer
            self._back_pending = False  # the answer to the board's BACKREQ is lost with the link
            # Its move still lit is forgotten: it is played again over the new connection
            # (DXP: after GAMEACC the side to move moves); no move is asked for meanwhile.
            self.opponent.away = True
            self.opponent.forget()
            self.session.assistants.cancel_search()
            finish = say("dxp.finish_putting_back") if self.back_target is not None else ""
            self._drop_line = say("dxp.drop", peer=self.peer_name, reason=item.reason, finish=finish)[:LINE_CHARS]
            self.say(self._drop_line, alert=True)
            self._link_changed(False)
            self.look_for_peer()
        elif isinstance(item, dxp.MoveMessage):
            self._peer_move(item)
        elif isinstance(item, dxp.GameEnd):
            self._peer_end(item)
        elif isinstance(item, dxp.BackRequest):
            self._peer_back(item)
        elif isinstance(item, dxp.BackAccept):
            if not self._back_pending:
                self.refuse(say("dxp.backacc_unasked"))
            elif not item.accepted:
                self.say(say("dxp.takeback_refused", peer=self.peer_name))
            self._back_pending = False
        elif isinstance(item, dxp.Chat):
            line, announce = self.chat.add(self.peer_name, item.text)
            if announce:
                self.say(line)
            else:
                self.line, self.line_alert = line[:LINE_CHARS], False   # on the screen, no new message event
        else:
            self.refuse(say("dxp.mid_game", message=type(item).__name__))

    def _peer_move(self, message: dxp.MoveMessage) -> None:
        game = self.game_now()
        if game.is_over or self.ended:
            self.refuse(say("dxp.move_after_end"))
            return
        if game.turn != self.peer_side:
            self.refuse(say("dxp.out_of_turn", move=f"{message.start}-{message.end}"))
            return
        try:
            move = dxp.find_move(self.session.variant, game.position, message)
        except dxp.DxpError as error:
            self.refuse(str(error))
            return
        self.opponent.deliver(game, move)
        self.refusals.calm()
        if self.line_alert:
            self.line, self.line_alert = "", False   # a right move came: the refusal before it has had its day

    def _peer_end(self, message: dxp.GameEnd) -> None:
        if not self.ended and self._peer_move_pending():
            # The peer's last move is still lit (its GAMEEND came right after
            # it): the person carries it out first; the end is acted on then.
            self._end_after_move = message.reason
            self.say(say("dxp.ends_game", peer=self.peer_name))
            return
        if self.ended:   # the board ended it first: this is the peer's answer
            log.info("DXP: %s answered the board's end of the game (reason %d, said by %s)",
                     self.peer_name, message.reason, self.peer_name)
            return
        self.ended = True
        self.send(dxp.GameEnd({0: 0, 1: 3, 2: 2, 3: 1}[message.reason]))  # the same end, said by us
        self._declare(message.reason)
        log.info("DXP: %s ended the game (reason %d)", self.peer_name, message.reason)

    def _peer_move_pending(self) -> bool:
        game = self.session.game
        return not game.is_over and game.turn == self.peer_side and bool(self.session.planned or self.opponent.holding)

    def _deferred_end(self) -> None:
        """The peer's GAMEEND that waited for its last move to be carried out."""
        reason = self._end_after_move
        if reason is not None and not self._peer_move_pending():
            self._end_after_move = None
            if not self.ended:   # (a game over by the rules already answered with our GAMEEND)
                self._peer_end(dxp.GameEnd(reason))

    def _declare(self, reason: int) -> None:
        session = self.session
        if session.game.result is not None:
            return
        if reason == 1:
            session.declare_loss(self.peer_side, say("dxp.resigned", peer=self.peer_name))
        elif reason == 3:
            session.declare_loss(1 - self.peer_side, say("dxp.claimed", peer=self.peer_name))
        elif reason == 2:
            session.declare(Result((0.5, 0.5), (1, 1), say("dxp.draw_agreed")))
        else:
            session.declare(Result((0.0, 0.0), (1, 1), say("dxp.ended", peer=self.peer_name)))

    def _peer_back(self, message: dxp.BackRequest) -> None:
        """Accept a take-back to a position of this game; the person then puts
        the pieces back (the board reads it as the take-back it is)."""
        game = self.session.game
        target = (message.move - 1) * 2 + (0 if message.colour == "W" else 1)
        if not 0 <= target < game.ply or game.is_over:
            self.send(dxp.BackAccept(2))
            self.refuse(say("dxp.takeback_elsewhere", move=f"{message.move}{message.colour}"))
            return
        self.opponent.forget()
        self.back_target = target
        self.send(dxp.BackAccept(0))
        undo = game.ply - target
        self.session.guide_take_back(undo, say("dxp.takes_back", peer=self.peer_name, count=undo))

    def game_now(self) -> Game:
        """The game as the peer sees it: at the take-back's target while the board catches up."""
        game = self.session.game
        if self.back_target is None or self.back_target >= game.ply:
            return game
        earlier = game.copy()
        while earlier.ply > self.back_target:
            earlier.pop()
        return earlier

    # -- the peer lost and found again (the handshake: reconnect.py) -----------------

    def look_for_peer(self) -> None:
        """Start looking for the peer again (after a drop, or a resumed game with no link yet)."""
        if not self.ended and self.link is None:
            self.opponent.away = True           # no move is asked for until it is back
            if self.redial is not None:
                self.redial.want()

    def reconnect(self, link: DxpLink, request: dxp.GameRequest) -> bool:
        """Go on with a new connection whose GAMEREQ continues this game (`Reconnection.reconnect`)."""
        return self.reconnection.reconnect(link, request)

    def adopt(self, link: DxpLink) -> None:
        """Play on over `link` (its handshake done)."""
        self.reconnection.release(link)
        self.link, self.dropped, self._drop_line = link, "", ""
        self.opponent.away = False
        self.opponent.forget()                  # the peer plays its move again on the new connection
        self.session.assistants.cancel_search()
        log.info("DXP: %s is back (%s): the game goes on", self.peer_name, link.peer)
        self.say(say("dxp.back", peer=self.peer_name))
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

    def close(self) -> None:
        if self.redial is not None:
            self.redial.close()
        self.reconnection.close()
        if self.link is not None:
            self.link.close()
    def adjudicate(self, result: Result) -> None:
        """End the game as the arbiter decides (after a drop, nobody to play)."""
        self.ended = True
        if self.redial is not None:
            self.redial.close()
        self.session.declare(result)
