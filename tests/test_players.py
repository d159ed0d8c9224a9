"""The one `Opponent` base class: what a player must say (start, poll, cancel)
and what it may (with defaults), so no part of the board probes a player with
getattr. A player written from the base alone plays a seat beside the others."""

from __future__ import annotations

import pytest

from damka.controller.app import App
from damka.controller.players.computer import ComputerOpponent
from damka.controller.players import Opponent, Thinking
from damka.controller.players.seat_opponents import SeatOpponents, far_seats, remote_players
from damka.controller.game.setup import GameSetup
from damka.engine.game import Game
from damka.engine.variants import find_variant
from damka.web.remote import RemoteOpponent
from damka.dxp.game import DxpOpponent


class Silent(Opponent):
    """Only what a player must have: it never answers."""

    def start(self, game, *, whole_turn: bool = False) -> None:
        self.asked = game.ply

    def poll(self):
        return Thinking(0.0)

    def cancel(self) -> None:
        pass


class FarAway(Silent):
    label = "friend"
    remote = True
    claimed = False


def test_a_player_without_poll_cannot_be_made() -> None:
    class Half(Opponent):
        def start(self, game, *, whole_turn: bool = False) -> None: ...

        def cancel(self) -> None: ...

    with pytest.raises(TypeError, match="poll"):
        Half()


def test_every_kind_of_player_is_an_opponent() -> None:
    variant = find_variant("classic")
    players = [ComputerOpponent(variant), RemoteOpponent(variant), DxpOpponent(),
               SeatOpponents({0: Silent(), 1: Silent()})]
    assert all(isinstance(player, Opponent) for player in players)


def test_a_player_with_only_the_musts_plays_a_seat_beside_the_computer() -> None:
    variant = find_variant("classic")
    computer = ComputerOpponent(variant, "beginner", seed=1)
    seats = SeatOpponents({0: Silent(), 1: computer})
    assert seats.engine_name == "" and seats.take_notices() == [] and not seats.remote
    assert seats.label_for(0) == "computer" and not seats.away_for(0)
    seats.start(Game(variant))
    assert isinstance(seats.poll(), Thinking)
    seats.close_engine()
    seats.close()        # the computer's search ends; the silent player had nothing to close
    assert computer.join(5.0)


def test_a_remote_player_from_the_base_is_asked_and_waited_for() -> None:
    far = FarAway()
    assert remote_players(far) == [far] and far_seats(far, frozenset({1})) == frozenset({1})
    app = App(setup=GameSetup("classic", mode="computer", colours="first"), offer_resume=False)
    app.new_game(GameSetup("classic", mode="computer", colours="first"), remote=far)
    assert app.remote_sides() == frozenset({1})
    assert app.remote_line().startswith("Waiting for the remote player to come back")
