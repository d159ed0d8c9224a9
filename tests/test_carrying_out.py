"""An outside program's move is timed by its own clock, which stopped when it
sent the move: the time people take to carry it out on the board counts for
nobody (the board's clock stops, the screen says "carrying out"), for a DXP
peer and a Hub engine at the board. Damka's own computer is timed as before.
Real sockets and processes; the board's time is the virtual board's."""

from __future__ import annotations

import sys

from damka.controller.app import App
from damka.controller.clock.records import State
from damka.controller.game.setup import GameSetup
from damka.dxp import protocol as dxp
from tests.test_dxp import make as make_dxp, next_of, wait_for_peer
from tests.test_dxp_clock import follower_game
from tests.test_hub_opponent import idle, make, on_board

HUB = f"{sys.executable} -m damka hub"
CARRY_MS = 60_000   # people slow to carry the move out


def test_a_dxp_peer_is_not_charged_while_its_move_is_carried_out() -> None:
    app, board, peer, _port, redial = follower_game(minutes=5)
    try:
        session = app.session
        make_dxp(board, app, session.game.legal_moves()[0])          # the board (white) moves
        next_of(peer, dxp.MoveMessage)
        board.advance(4_000)                                          # the peer thinks: its time
        reply = session.game.legal_moves()[0]
        peer.send(dxp.move_message(session.variant, reply))
        wait_for_peer(app, board)                                     # its move is lit
        at_arrival = app.clock_ms()
        assert at_arrival[1] <= 300_000 - 4_000
        assert app.clock.state is State.PAUSED and "carrying out" in app.view().status
        board.advance(CARRY_MS)
        assert app.clock_ms() == at_arrival                           # nobody's time runs
        make_dxp(board, app, reply)
        assert session.game.ply == 2 and app.clock.state is State.RUNNING
        assert app.clock_ms()[1] == at_arrival[1]                     # the peer was not charged
        assert app.clock_ms()[0] > at_arrival[0] - 5_000              # nor the person for the carrying out
        assert "carrying out" not in app.view().status
    finally:
        peer.close()
        redial.close()


def hub_app(engines: bool) -> App:
    setup = GameSetup("classic", mode="computer", colours="first", level="casual", time_control="5+0",
                      engines=(("classic", "DamkaHub", HUB),) if engines else ())
    return App(setup=setup, start_game=True, seed=7)


def carry_out_the_computers_move(app: App) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The person's first move, the computer's answer lit, people slow to carry it
    out: the clock (ms left per side) when the answer was lit and after it was carried out."""
    board = on_board(app)
    session = app.session
    make(board, app, session.game.legal_moves()[0])
    idle(app, board)
    assert session.planned, "the computer's move is lit"
    lit = app.clock_ms()
    outside = bool(session.opponent.engine_name)
    assert ("carrying out" in app.view().status) is outside
    board.advance(CARRY_MS)
    make(board, app, session.planned[0])
    assert session.game.ply == 2
    return lit, app.clock_ms()


def test_a_hub_engine_at_the_board_is_not_charged_while_its_move_is_carried_out() -> None:
    app = hub_app(engines=True)
    try:
        assert app.session.opponent.engine_name == "DamkaHub"
        lit, after = carry_out_the_computers_move(app)
        assert after[1] == lit[1] and app.session.opponent.engine_moves == 1
    finally:
        app.session.close()


def test_damkas_own_computer_is_timed_as_before() -> None:
    app = hub_app(engines=False)
    try:
        lit, after = carry_out_the_computers_move(app)
        assert after[1] <= lit[1] - CARRY_MS                          # its clock ran while people carried out
    finally:
        app.session.close()
