"""Seats answered by different players: one opponent per seat the board does not play.

In a game of three or four multiwarcaby players a seat may be played from
the web page (`web/remote.py` RemoteOpponent) while other seats are the
computer's (`controller/players/computer.py`) and the rest are at the table. The
session knows one `Opponent` for every seat it does not read from the board
(`SessionSettings.computer_sides`); `SeatOpponents` is that one opponent,
handing each turn to the player of the seat to move, so the session's turn
flow stays as it is (the planned move lit, only it accepted):

    opponent = SeatOpponents({1: remote, 2: computer})
    opponent.start(game, whole_turn=True)     # asks the player of game.turn

It is `remote` when a seat is played from afar, with those seats as `seats`
(`App.remote_sides`): a draw or a take-back made at the board is asked of them.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from damka.controller.players import Opponent
from damka.engine.game import Game

if TYPE_CHECKING:
    from damka.controller.session import Session


class SeatOpponents(Opponent):
    """Routes each turn to the opponent of the seat to move."""

    def __init__(self, by_seat: Mapping[int, Opponent]) -> None:
        if not by_seat:
            raise ValueError("seat opponents: no seat given")
        self.by_seat = dict(by_seat)
        self.seats = frozenset(seat for seat, each in self.by_seat.items() if each.remote)
        self.remote = bool(self.seats)
        self._active: Opponent | None = None

    def _players(self) -> list[Opponent]:
        return list({id(each): each for each in self.by_seat.values()}.values())

    @property
    def label(self) -> str:
        """Who is asked of an offer: the remote player when there is one."""
        remote = [self.by_seat[seat] for seat in sorted(self.seats or ())]
        return (remote or self._players())[0].label

    def label_for(self, seat: int) -> str:
        """Who plays `seat` ("remote player", "computer"), for the turn prompt."""
        player = self.by_seat.get(seat)
        return player.label if player is not None else self.label

    def keeps_own_clock_for(self, seat: int) -> bool:
        player = self.by_seat.get(seat)
        return player is not None and player.keeps_own_clock_for(seat)

    @property
    def engine_name(self) -> str:
        return next((name for name in (p.engine_name for p in self._players()) if name), "")

    # -- what the session calls ----------------------------------------------------

    def start(self, game: Game, *, whole_turn: bool = False) -> None:
        player = self.by_seat.get(game.turn)
        if player is None:
            raise ValueError(f"seat opponents: seat {game.turn} is not one of {sorted(self.by_seat)}")
        if self._active is not None and self._active is not player:
            self._active.cancel()
        self._active = player
        player.start(game, whole_turn=whole_turn)

    def poll(self) -> Any:
        return self._active.poll() if self._active is not None else None

    def cancel(self) -> None:
        if self._active is not None:
            self._active.cancel()

    def take_notices(self) -> list[str]:
        return [text for p in self._players() for text in p.take_notices()]

    def close_engine(self) -> None:
        for player in self._players():
            player.close_engine()

    def close(self) -> None:
        for player in self._players():
            player.close()


def engine_seats(computers: int, colours: str, sides: int, taken: frozenset[int],
                 draw: Callable[[Sequence[int], int], list[int]] | None = None) -> frozenset[int]:
    """The computer's seats beside the seats `taken` from afar: `computers` of
    the others (at least one stays at the table); which ones as
    `GameSetup.computer_seats` chooses (`colours` first: the people take the
    lowest seats left, second: from the next one, lot: `draw`, a `random.sample`)."""
    others = [seat for seat in range(sides) if seat not in taken]
    wanted = max(0, min(computers, len(others) - 1))
    if not wanted:
        return frozenset()
    people = len(others) - wanted
    if colours == "first":
        humans = others[:people]
    elif colours == "second":
        humans = (others[1:] + others[:1])[:people]
    else:
        humans = (draw or random.sample)(others, people)
    return frozenset(seat for seat in others if seat not in humans)


def remote_players(opponent: Opponent | None) -> list[Opponent]:
    """The players from afar among the session's opponent (one, or a `SeatOpponents`' seats)."""
    if opponent is None:
        return []
    players = list(opponent.by_seat.values()) if isinstance(opponent, SeatOpponents) else [opponent]
    return list({id(p): p for p in players if p.remote}.values())


def far_seats(opponent: Opponent | None, computer_sides: frozenset[int]) -> frozenset[int]:
    """The seats played from afar (empty in a game at the table): the remote
    player's own `seats`, else (a remote given no seats) the computer's."""
    if opponent is None or not opponent.remote:
        return frozenset()
    return frozenset(opponent.seats or computer_sides)


def seat_remote(session: Session, remote: Opponent, far: frozenset[int], engine: frozenset[int]) -> None:
    """The remote player takes the seats `far` of `session`; the computer the
    session was built with keeps `engine` (one opponent routing each turn), or
    gives way entirely (closed) when it has no seat left."""
    searcher = session.opponent
    if engine and searcher is not None:
        session.opponent = SeatOpponents({**{seat: remote for seat in far}, **{seat: searcher for seat in engine}})
        return
    if searcher is not None:
        searcher.close()
    session.opponent = remote
