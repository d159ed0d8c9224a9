"""The DXP peer's seat: its moves, delivered through the session's `Opponent` interface.

`DxpGame` (game.py) hands each move the peer sends to `deliver`; the session
asks for it with `start`/`poll` as it asks the computer, lights it and
accepts it only when the person carries it out exactly. While the connection
is down the seat is `away`: the screen does not ask for a move.
"""

from __future__ import annotations

from typing import Any

from damka.controller.players import Opponent, Thinking
from damka.engine.game import Game
from damka.engine.move import Move


class DxpOpponent(Opponent):
    """The peer's moves, delivered through the session's opponent interface."""

    label = "other program"

    def __init__(self) -> None:
        self.away = False   # the connection is down: no move will come until the peer is back
        self._asked: tuple[int, Any] | None = None
        self._moves: dict[tuple[int, Any], Move] = {}
        self._since = 0.0

    def start(self, game: Game, *, whole_turn: bool = False) -> None:
        self._asked = (game.ply, game.position)

    def keeps_own_clock_for(self, seat: int) -> bool:
        return True   # the peer's own clock stopped when it sent the move

    def deliver(self, game: Game, move: Move) -> None:
        self._moves[(game.ply, game.position)] = move

    def poll(self) -> Move | tuple[Move, ...] | Thinking | None:
        if self._asked is None:
            return None
        move = self._moves.pop(self._asked, None)
        if move is None:
            return Thinking(0.0)
        self._asked = None
        return (move,)

    def stop(self) -> None:
        """'Move now' cannot hurry a peer."""

    def cancel(self) -> None:
        self._asked = None

    def forget(self) -> None:
        self._moves.clear()

    @property
    def holding(self) -> bool:
        """A move of the peer's has come that the session has not taken yet."""
        return bool(self._moves)
