"""A seat played from the web page: an `Opponent` that answers with the page's move.

The session treats the seat exactly as the computer's: it asks the opponent
for the turn (`start`), polls it from the board's loop, and once the answer
is there lights that move for the person at the table and accepts only it.
The answer here is whatever a player chose on the page (`submit`, run on the
board's thread through the web driver). A multiwarcaby turn is two moves: the
first is kept until the second comes, and only the whole turn is answered.
"""

from __future__ import annotations

import hmac
import secrets
import threading
from dataclasses import dataclass, field
from typing import Any

from damka.controller.players import Opponent, Thinking
from damka.controller.words import say
from damka.engine.game import Game
from damka.engine.move import Move
from damka.engine.notation import format_move
from damka.engine.variant import Position, Variant


class RemoteMoveError(ValueError):
    """A move the page may not make now: the message says why."""


@dataclass(frozen=True)
class SeatKey:
    """What binds a remote seat to the page that set the game up: `token` is
    given to that page alone (in the answer to its new-game request, kept in
    its sessionStorage) and sent back with its moves and offers; `public`
    names the seat in the picture every page sees, so a page knows whether
    the seat is its own without the token ever being shown."""

    token: str = field(default_factory=lambda: secrets.token_urlsafe(18), repr=False)
    public: str = field(default_factory=lambda: secrets.token_hex(4))

    def matches(self, given: Any) -> bool:
        return isinstance(given, str) and bool(given) and hmac.compare_digest(given.encode(), self.token.encode())


class RemoteOpponent(Opponent):
    """Waits for the page's move; `poll()` says "thinking" until then."""

    label = "remote player"
    remote = True    # played from afar: a draw or a take-back is asked of it (controller/app/offer_desk.py)

    def __init__(self, variant: Variant, seats: frozenset[int] | None = None, key: SeatKey | None = None,
                 *, claimed: bool = True) -> None:
        """`seats`: the sides played from the page (any seat; None: the App
        gives it the seats its setup gives the computer); `key`: the page
        that plays them (a new one by default); `claimed` False: no page holds
        the seat yet (a resumed game: the old token is gone) until `claim`."""
        self.variant = variant
        self.key = key or SeatKey()
        self.claimed = claimed
        if seats is not None and not all(0 <= seat < len(variant.sides) for seat in seats):
            raise RemoteMoveError(f"remote seat: {sorted(seats)} is not a seat of {len(variant.sides)} sides")
        self.seats = frozenset(seats) if seats else None
        self._lock = threading.Lock()
        self._game_key: tuple[int, Any] | None = None   # (ply, position) of the turn asked for
        self._position: Position | None = None
        self._chosen: list[Move] = []
        self._answer: tuple[Move, ...] | None = None
        self._answered = False                          # the session has the turn: wait for the next start

    # -- what the session calls ----------------------------------------------

    def start(self, game: Game, *, whole_turn: bool = False) -> None:
        with self._lock:
            self._game_key = (game.ply, game.position)
            self._position = game.position
            self._chosen = []
            self._answer = None
            self._answered = False

    def poll(self) -> tuple[Move, ...] | Thinking | None:
        with self._lock:
            if self._game_key is None:
                return None                      # cancelled: the session asks again
            if self._answer is None:
                return Thinking(0.0)
            self._answered = True
            return self._answer

    def cancel(self) -> None:
        with self._lock:
            self._game_key = None
            self._chosen = []
            self._answer = None

    def close(self) -> None:
        self.cancel()

    # -- what the page calls ---------------------------------------------------

    def claim(self) -> SeatKey:
        """The seat for a new page: a fresh key (the old page's token stops working)."""
        self.key = SeatKey()
        self.claimed = True
        return self.key

    @property
    def waiting(self) -> bool:
        """The session waits for this seat's move (and it was not given yet)."""
        return self._game_key is not None and self._answer is None and not self._answered

    @property
    def moves_chosen(self) -> int:
        """Moves of the turn the page has chosen so far (the first of two in multiwarcaby)."""
        with self._lock:
            return len(self._chosen)

    def position_now(self) -> Position | None:
        """The position the page chooses its next move in (after a first move of the turn)."""
        with self._lock:
            if self._game_key is None or self._answer is not None or self._answered:
                return None
            position = self._position
            for move in self._chosen:
                position = self.variant.play(position, move)
            return position

    def legal(self) -> list[dict[str, Any]]:
        """The moves the page may choose now: text, start, end, captures (square names)."""
        position = self.position_now()
        if position is None:
            return []
        moves = self.variant.legal_moves(position)
        geometry = self.variant.geometry
        return [{"text": format_move(self.variant, position, move, moves), "from": geometry.name(move.start),
                 "to": geometry.name(move.end), "path": [geometry.name(s) for s in move.path],
                 "captures": sorted(geometry.name(s) for s in move.captures)} for move in moves]

    def submit(self, text: str) -> tuple[Move, ...] | None:
        """The page's move (its PDN text, as `legal` gives it). The whole turn
        once it is complete (None while a multiwarcaby turn waits for its
        second move); RemoteMoveError naming the reason if it is not legal now."""
        position = self.position_now()
        if position is None:
            raise RemoteMoveError(say("web.not_remote_turn"))
        moves = self.variant.legal_moves(position)
        by_text = {format_move(self.variant, position, move, moves): move for move in moves}
        move = by_text.get(str(text).strip())
        if move is None:
            shown = ", ".join(sorted(by_text)[:12])
            raise RemoteMoveError(say("web.not_legal", move=repr(text), legal=shown))
        with self._lock:
            self._chosen.append(move)
            after = self.variant.play(position, move)
            more = len(self._chosen) < self.variant.moves_per_turn and self.variant.turn_goes_on(after)
            if more:
                return None
            self._answer = tuple(self._chosen)
            return self._answer
