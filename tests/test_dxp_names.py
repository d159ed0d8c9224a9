"""DXP against its reference: a peer's name may hold bytes above ASCII
(Scan takes "Müller"), and a game request for a later protocol version is
refused with code 1 (as Scan does), over a real connection."""

from __future__ import annotations

import socket

from damka.dxp import protocol as dxp
from damka.dxp.door import DxpDoor
from damka.dxp.link import DxpLink, DxpServer
from damka.dxp.start import follow_at
from tests.test_dxp_abuse import next_of


def raw_request(name: bytes, version: int = 1) -> bytes:
    return b"R%02d" % version + name.ljust(32) + b"W000000A\x00"


def test_a_peer_named_mueller_in_utf8_is_answered_and_its_name_read() -> None:
    door = DxpDoor(DxpServer("127.0.0.1", 0))
    try:
        with socket.create_connection(("127.0.0.1", door.server.port), timeout=5) as peer:
            peer.sendall(raw_request("Müller".encode("utf-8")))
            link, request, peer_side = follow_at(door, timeout=20)
            peer.settimeout(20)
            answer = peer.recv(100)
            assert answer.startswith(b"A") and answer.endswith(b"0\x00")   # GAMEACC, accepted
            assert request.name == "Müller" and peer_side == 1
            link.close()
    finally:
        door.close()


def test_a_latin1_name_is_read_too() -> None:
    message = dxp.parse(raw_request("Müller".encode("latin-1"))[:-1].decode("latin-1"))
    assert isinstance(message, dxp.GameRequest) and message.name == "Müller"


def test_a_game_request_for_version_2_is_refused_with_code_1_and_another_may_follow() -> None:
    door = DxpDoor(DxpServer("127.0.0.1", 0))
    try:
        peer = DxpLink.connect("127.0.0.1", door.server.port)
        peer.send(dxp.GameRequest("Peer", "W", 0, 0, version=2))
        peer.send(dxp.GameRequest("Peer", "W", 0, 0))
        link, request, _ = follow_at(door, timeout=20)
        assert [next_of(peer, dxp.GameAccept).code, next_of(peer, dxp.GameAccept).code] == [1, 0]
        assert request.version == 1
        link.close()
        peer.close()
    finally:
        door.close()


def test_control_bytes_are_still_refused() -> None:
    for text in ("R01Mu\x01ler", "CHello\x7f", "M\x00\x01"):
        try:
            dxp.parse(text)
        except dxp.DxpError as error:
            assert "printable" in str(error)
        else:
            raise AssertionError(f"{text!r} was read")


def test_a_resume_request_for_version_2_is_refused_with_code_1() -> None:
    from damka.dxp.feature import dxp_of
    from damka.dxp.game import board_letters
    from tests.test_dxp_clock import answer, call_again, follower_game, play_two_plies
    from waiting import wait_on_board

    app, board, peer, port, redial = follower_game(minutes=5)
    try:
        play_two_plies(app, board, peer)
        peer.close()
        wait_on_board(board, lambda: dxp_of(app).dropped, "the drop")
        again = call_again(board, port)
        colour, letters = board_letters(app.session.variant, app.session.game)
        again.send(dxp.GameRequest("Peer", "W", 5, 0, letters, colour, version=2))
        assert answer(board, again, dxp.GameAccept).code == 1
        assert dxp_of(app).dropped                                   # still waiting for the peer
        again.close()
    finally:
        redial.close()
