"""DXP after a drop, on 127.0.0.1 (the board in-process on a virtual board, a
raw DXP peer on a socket): the board's clock stops while the peer is gone
(its times do not move, also when the person moves meanwhile) and runs again
when the peer is back, both logged as the App's clock commands; a clock the
arbiter paused by hand stays paused; the resume GAMEREQ carries the peer's
time left (after a drop and with `--resume`); a take-back of the peer's that
is still being carried out when the link drops is finished, and the resume
fits the game at its target."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from damka.dxp.feature import dxp_of, feature_of
from damka.dxp import protocol as dxp
from damka.dxp.link import DxpLink
from damka.dxp.redial import Redialer
from damka.controller import events as ev
from damka.controller.clock.records import State
from damka.dxp.clock_hold import BACK_BY, DROP_BY
from damka.dxp.game import board_letters
from damka.dxp.resume import time_left
from damka.dxp.start import follow, initiate, make_app, resume_app
from damka.controller.store.store import Store
from damka.controller.board.board_map import BoardMap
from damka.sim.virtual_board import VirtualBoard
from tests.test_dxp import connected_to_a_peer, listen, make, next_of, on_board, raw_peer, wait_for_peer
from waiting import DEADLINE_S, wait_on_board, wait_until as waited


def follower_game(minutes: int = 0, **app_options):
    """The board (follower, white) against a raw peer; the board listens again after a drop.
    `app_options`: the App's, as the board config gives them (`carrying_out`)."""
    links, port, listener = listen()
    peer = raw_peer(port)
    peer.send(dxp.GameRequest("Peer", "W", minutes, 0))
    listener.join(10)
    request, peer_side = follow(links[0], timeout=DEADLINE_S)
    assert next_of(peer, dxp.GameAccept).accepted
    redial = Redialer.listening("127.0.0.1", port, give_up_s=2 * DEADLINE_S)
    app = make_app(links[0], request, peer_side, redial=redial, **app_options)
    return app, on_board(app), peer, port, redial


def wait_until(board, test, what: str) -> None:
    """Real time for the socket, board time for the loop (which pumps the link), until `test` holds."""
    wait_on_board(board, test, what)


def ticked(app, test):
    """`test`, looked at after each tick of `app` (20 ms on, no board): for `wait_until`."""
    def look():
        app.tick(app.now + 20)
        return test()
    return look


def play_two_plies(app, board, peer, think_ms: int = 0) -> None:
    """The board's move, the peer's answer (it thinks `think_ms` on the board's clock)."""
    session = app.session
    make(board, app, session.game.legal_moves()[0])
    next_of(peer, dxp.MoveMessage)
    reply = session.game.legal_moves()[0]
    board.advance(think_ms)
    peer.send(dxp.move_message(session.variant, reply))
    wait_for_peer(app, board)
    make(board, app, reply)


def call_again(board, port: int) -> DxpLink:
    """The peer calls the board again (once the board listens again)."""
    def call() -> DxpLink | None:
        try:
            return raw_peer(port)
        except OSError:
            return None

    return wait_on_board(board, call, "the board to listen again")


def answer(board, link: DxpLink, kind: type):
    """The board's next `kind` message on `link` (the board's loop runs meanwhile)."""
    return next_of(link, kind, board)


def come_back(app, board, port: int) -> DxpLink:
    """The peer calls again with the board's position (the GAMEREQ a resume sends)."""
    again = call_again(board, port)
    colour, letters = board_letters(app.session.variant, app.session.game)
    again.send(dxp.GameRequest("Peer", "W", 5, 0, letters, colour))
    assert answer(board, again, dxp.GameAccept).accepted
    wait_until(board, lambda: not dxp_of(app).dropped, "the board takes the peer back")
    return again


@pytest.mark.parametrize("paused_by_hand", [False, True])
def test_the_clock_stops_while_the_peer_is_gone_and_runs_again_when_it_is_back(paused_by_hand: bool) -> None:
    app, board, peer, port, redial = follower_game(minutes=5)
    acted: list[tuple[str, str]] = []
    app.bus.subscribe(lambda event: acted.append((event.who, event.action)), ev.ArbiterActed)
    play_two_plies(app, board, peer, think_ms=10_000)
    board.advance(3_000)
    assert app.clock.state is State.RUNNING and app.clock_ms()[0] < 300_000 - 2_000  # the board's time runs
    if paused_by_hand:
        app.pause_clock("arbiter console")
    peer.close()
    wait_until(board, lambda: dxp_of(app).dropped, "the drop")
    assert app.clock.state is State.PAUSED
    assert ((DROP_BY, "pause") in acted) is not paused_by_hand
    at_drop = app.clock_ms()
    board.advance(30_000)
    assert app.clock_ms() == at_drop                                # nobody's time runs while the peer is gone
    make(board, app, app.session.game.legal_moves()[0])             # the person moves meanwhile
    board.advance(30_000)
    assert app.session.game.ply == 3 and app.clock.state is State.PAUSED and app.clock_ms() == at_drop
    again = come_back(app, board, port)
    if paused_by_hand:
        assert app.clock.state is State.PAUSED and (BACK_BY, "resume") not in acted
        assert app.clock_ms() == at_drop
    else:
        assert app.clock.state is State.RUNNING and (BACK_BY, "resume") in acted
        board.advance(4_000)
        black = app.clock_ms()[1]
        assert black < at_drop[1] - 3_000 and app.clock_ms()[0] == at_drop[0]  # the peer's time runs again
    again.close()
    redial.close()


def listen_once(port: int) -> tuple[list[DxpLink], threading.Thread]:
    links: list[DxpLink] = []
    ready = threading.Event()
    thread = threading.Thread(target=lambda: links.append(DxpLink.listen(port, timeout=20, ready=ready)), daemon=True)
    thread.start()
    assert ready.wait(DEADLINE_S)
    return links, thread


def test_the_resume_gamereq_carries_the_peers_time_left(tmp_path: Path) -> None:
    link, peer, port = connected_to_a_peer()
    answer = threading.Thread(target=lambda: (next_of(peer, dxp.GameRequest), peer.send(dxp.GameAccept("Peer", 0))),
                              daemon=True)
    answer.start()
    request, peer_side, name = initiate(link, person_colour="Z", minutes=5, moves=40, timeout=DEADLINE_S)
    answer.join(5)
    store = Store(tmp_path / "games.db")
    app = make_app(link, request, peer_side, name, initiator=True, store=store,
                   redial=Redialer.calling("127.0.0.1", port, give_up_s=2 * DEADLINE_S, delays=(0.2,)))
    board = on_board(app)
    session = app.session
    for think_ms in (0, 130_000):                                   # the peer (white) thinks 2:10 on its 2nd move
        move = session.game.legal_moves()[0]
        board.advance(think_ms)                                     # (before its move arrives: carrying it out is nobody's time)
        peer.send(dxp.move_message(session.variant, move))
        wait_for_peer(app, board)
        make(board, app, move)
        make(board, app, session.game.legal_moves()[0])             # the board's answer
        next_of(peer, dxp.MoveMessage)
    white = app.clock.view(app.now).sides[0]
    assert 160_000 < white.remaining_ms < 170_000 and white.turns_to_control == 38
    back, listener = listen_once(port)                              # the peer will listen again
    peer.close()
    wait_until(board, lambda: bool(back) and not back[0].incoming.empty(), "the board calls again")
    request = next_of(back[0], dxp.GameRequest)
    assert (request.minutes, request.moves) == (2, 38)              # 2:4x left, rounded down; 38 moves to go
    assert (request.to_move, request.board) == board_letters(session.variant, session.game)
    assert time_left(white) == (2, 38)
    game_id = app.game_id
    board.advance(1_000)
    dxp_of(app).close()
    back[0].close()
    # The board restarted: `--resume` sends the time left as stored (the clock was stopped at the drop).
    back, listener = listen_once(port)
    resumed = resume_app(store, game_id, initiator=True,
                         redial=Redialer.calling("127.0.0.1", port, give_up_s=2 * DEADLINE_S, delays=(0.2,)))
    listener.join(10)
    waited(ticked(resumed, lambda: not back[0].incoming.empty()), "the resumed board's GAMEREQ")
    request = next_of(back[0], dxp.GameRequest)
    assert (request.minutes, request.moves) == (2, 38)
    assert resumed.clock.state is State.PAUSED and feature_of(resumed).clock_hold.restart_when_back
    back[0].send(dxp.GameAccept("Peer", 0))
    waited(ticked(resumed, lambda: not dxp_of(resumed).dropped), "the peer taken back")
    assert resumed.clock.state is State.PAUSED    # the pieces are not put back yet: nobody's time runs
    acted: list[tuple[str, str]] = []
    resumed.bus.subscribe(lambda event: acted.append((event.who, event.action)), ev.ArbiterActed)
    variant = resumed.session.variant
    board = VirtualBoard(BoardMap(variant).names(variant.occupancy(resumed.session.game.position)), files=10, ranks=10)
    board.connect(resumed)                                          # the pieces stand as stored
    wait_on_board(board, lambda: resumed.clock.state is State.RUNNING, "the peer's clock running again")
    assert (BACK_BY, "resume") in acted                             # restarted for the peer's return, logged
    dxp_of(resumed).close()
    back[0].close()
    store.close()


def test_a_take_back_of_the_peers_in_progress_at_a_drop_is_finished_and_the_resume_fits(tmp_path: Path) -> None:
    app, board, peer, port, redial = follower_game()
    session = app.session
    variant = session.variant
    name = variant.geometry.name
    play_two_plies(app, board, peer)
    make(board, app, session.game.legal_moves()[0])                # ply 3: the board (white) moved
    next_of(peer, dxp.MoveMessage)
    target = session.game.copy()
    target.pop()
    target.pop()                                                    # ply 1: black (the peer) to move
    peer.send(dxp.BackRequest(1, "Z"))
    assert next_of(peer, dxp.BackAccept, board).accepted and dxp_of(app).back_target == 1
    white_move = session.game.moves[-1]
    board.lift(name(white_move.end))                                # the person puts white's man back ...
    board.drop(name(white_move.start))
    board.advance(2_500)
    assert session.game.ply == 2 and dxp_of(app).back_target == 1       # ... and black's is still to go back
    peer.close()                                                    # the link drops in the middle of it
    wait_until(board, lambda: dxp_of(app).dropped, "the drop")
    again = call_again(board, port)                                 # the peer is back: at the take-back's target
    colour, letters = board_letters(variant, target)
    again.send(dxp.GameRequest("Peer", "W", 0, 0, letters, colour))
    assert answer(board, again, dxp.GameAccept).accepted            # the same game: it goes on
    wait_until(board, lambda: not dxp_of(app).dropped, "the board takes the peer back")
    black_move = session.game.moves[-1]
    board.lift(name(black_move.end))                                # the person finishes the take-back
    board.drop(name(black_move.start))
    board.advance(2_500)
    assert session.game.ply == 1 and dxp_of(app).back_target is None
    assert board_letters(variant, session.game) == (colour, letters)  # both sides have the same game
    other = session.game.legal_moves()[-1]
    again.send(dxp.move_message(variant, other))                    # and play goes on from there
    wait_for_peer(app, board)
    make(board, app, other)
    assert session.game.ply == 2 and session.game.moves[-1] == other and dxp_of(app).refused == []
    again.close()
    redial.close()
