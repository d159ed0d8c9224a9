"""DXP on a hostile network, on 127.0.0.1: `damka dxp --listen` (tests/dxp_rig.py:
the command's own arguments and app, on a virtual board, in its own process)
meets stray connections (a port scan, a health check), a peer that connects
and never speaks, and a flood of malformed messages. The board keeps
listening, keeps playing, keeps its memory, and says each kind of trouble a
few times, not once per connection or message."""

from __future__ import annotations

import queue
import random
import socket
import threading
import time
from pathlib import Path

from damka.dxp.feature import dxp_of
from damka.dxp import protocol as dxp
from damka.dxp.link import DxpLink
from dxp_process import BoardProcess
from waiting import wait_on_board

FLOOD_S = 300  # reading and refusing 4.2 MB of bad messages: about 20 s on a quiet machine; 120 s was too few at load 11


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def rig_listening(tmp: Path, port: int) -> BoardProcess:
    """`damka dxp --listen PORT` in its own process, 300 plies at most."""
    return BoardProcess(tmp, "board", 1, "--listen", str(port), "--limit", "300")


def knock(port: int, timeout: float = 30.0) -> None:
    """Connect and close at once (a port scan), retrying until the port is open."""
    end = time.monotonic() + timeout
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=2).close()
            return
        except OSError:
            assert time.monotonic() < end, f"nothing listens on {port}"
            time.sleep(0.05)


def next_of(link: DxpLink, kind: type, timeout: float = 30.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            item = link.incoming.get(timeout=max(0.01, end - time.monotonic()))
        except queue.Empty:
            break
        if isinstance(item, kind):
            return item
    raise AssertionError(f"no {kind.__name__} from the board")


def start_game(rig: BoardProcess, port: int) -> DxpLink:
    """The real peer asks for a game (the board plays white) and gets GAMEACC 0."""
    rig.wait_for(lambda line: "waiting for a DXP peer" in line)
    end = time.monotonic() + 30
    while True:
        try:
            peer = DxpLink.connect("127.0.0.1", port)
            break
        except OSError:
            assert time.monotonic() < end, f"nothing listens on {port}"
            time.sleep(0.05)
    peer.send(dxp.GameRequest("Peer", "W", 0, 0))
    assert next_of(peer, dxp.GameAccept).accepted
    rig.wait_for(lambda line: line.startswith("game "))
    return peer


def test_stray_and_silent_connections_leave_the_listener_listening(tmp_path: Path) -> None:
    port = free_port()
    rig = rig_listening(tmp_path, port)
    silent: list[socket.socket] = []
    try:
        knock(port)                                           # a port scan...
        for _ in range(20):
            knock(port)                                       # ...and a health check every so often
        for _ in range(3):                                    # programs that connect and never speak
            silent.append(socket.create_connection(("127.0.0.1", port), timeout=5))
        with socket.create_connection(("127.0.0.1", port), timeout=5) as junk:
            junk.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n\x00")  # a web health check: not DXP, then gone
        peer = start_game(rig, port)                          # the real peer, while the silent ones still hold on
        assert rig.proc.poll() is None
        rig.wait_for(lambda line: line.startswith("ply 1"))   # the game is on: the board's first move
        assert next_of(peer, dxp.MoveMessage)
        # Said once (then at most once a minute with a count), not once per connection.
        assert len(rig.log_lines("closed without a game")) <= 1, rig.tail()
        assert len(rig.log_lines("DXP")) < 10, rig.tail()
        peer.close()
    finally:
        for sock in silent:
            sock.close()
        rig.kill()


def test_a_connection_that_never_sends_a_game_request_is_closed_and_the_door_stays_open() -> None:
    from damka.dxp.door import DxpDoor
    from damka.dxp.link import DxpServer

    now = [0.0]
    door = DxpDoor(DxpServer("127.0.0.1", 0), handshake_s=30.0, clock=lambda: now[0])
    try:
        silent = socket.create_connection(("127.0.0.1", door.server.port), timeout=5)
        try:
            door.next(0.3)                                    # it is waiting: no game request yet
        except TimeoutError:
            pass
        assert door.turned_away.total == 0
        now[0] = 31.0                                         # 30 s of silence
        try:
            door.next(0.3)
        except TimeoutError:
            pass
        assert door.turned_away.total == 1
        silent.settimeout(5)
        assert silent.recv(10) == b""                         # the board hung up on it
        silent.close()
        peer = DxpLink.connect("127.0.0.1", door.server.port)  # the port is still open
        peer.send(dxp.GameRequest("Peer", "Z", 0, 0))
        arrival = door.next(10)
        assert arrival.request.name == "Peer"
        arrival.link.close()
        peer.close()
    finally:
        door.close()


def flood(total: int, seed: int = 5) -> bytes:
    """`total` bytes of malformed and refused DXP messages: garbage, truncated and
    illegal moves, unknown kinds, over-long runs without a NUL."""
    rng = random.Random(seed)
    kinds = [lambda: bytes(rng.randrange(1, 256) for _ in range(rng.randrange(1, 30))) + b"\x00",
             lambda: b"M00013228\x00", lambda: b"M0001312600\x00", lambda: b"Q12345\x00", lambda: b"E9\x00",
             lambda: b"K0\x00"]
    out = bytearray()
    while len(out) < total:
        out += b"C" + b"x" * 1500 + b"\x00" if rng.random() < 0.001 else rng.choice(kinds)()
    return bytes(out)


def test_a_flood_of_malformed_messages_keeps_memory_logs_and_screen_bounded(tmp_path: Path) -> None:
    port = free_port()
    rig = rig_listening(tmp_path, port)
    try:
        peer = start_game(rig, port)
        board_move = next_of(peer, dxp.MoveMessage)           # the board played: now it waits for the peer
        rig.wait_for(lambda line: line.startswith("ply 1"))
        before = rig.rss_kb()
        data = flood(4_200_000)
        sent = threading.Thread(target=peer.send_raw, args=(data,), daemon=True)
        sent.start()
        highest = before
        end = time.monotonic() + FLOOD_S
        while sent.is_alive():                                # the board reads as fast as it handles, no faster
            assert time.monotonic() < end, f"the flood was not read in {FLOOD_S} s"
            highest = max(highest, rig.rss_kb())
            sent.join(0.2)
        # A right move after it all is still taken: everything before it was read and handled.
        from damka.engine.variants import find_variant
        variant = find_variant("international")
        position = variant.start_position()
        first = dxp.find_move(variant, position, board_move)
        reply = variant.legal_moves(variant.play(position, first))[0]
        peer.send(dxp.move_message(variant, reply))
        rig.wait_for(lambda line: line.startswith("ply 2"), timeout=FLOOD_S)
        highest = max(highest, rig.rss_kb())
        grown_mb = (highest - before) / 1024
        assert grown_mb < 8, f"memory grew {grown_mb:.1f} MB under a 4.2 MB flood"
        screens = [line for line in rig.seen if line.startswith("screen ") and "ignored" in line]
        assert screens and "bad messages from Peer" in screens[-1], rig.seen[-5:]
        counts = [int(line.split("ignored ")[1].split(" ")[0].replace(",", "")) for line in screens]
        assert max(counts) > 10_000                            # one line, counting, not one line per message
        said = [line for line in rig.seen if line.startswith("said ") and ("refused" in line or "ignored" in line)]
        assert len(said) < 200, f"{len(said)} messages shown about refusals"
        peer.close()                                           # the peer goes: the log says how many were not logged
        rig.wait_for(lambda line: line.startswith("screen") and "lost" in line)
        end = time.monotonic() + 30
        while not rig.log_lines("more not logged"):
            assert time.monotonic() < end, rig.tail()
            time.sleep(0.05)
        refused_lines = rig.log_lines("refused")
        assert len(refused_lines) < 100, f"{len(refused_lines)} log lines about refusals"
        assert len(rig.log_lines("DXP")) < 200, f"{len(rig.log_lines('DXP'))} DXP log lines"
        print(f"flood: memory {before / 1024:.1f} -> {highest / 1024:.1f} MB, {len(refused_lines)} log lines, "
              f"{len(said)} screen messages, {max(counts):,} counted")
    finally:
        rig.kill()


def connect_when_open(port: int, timeout: float = 20.0) -> socket.socket:
    end = time.monotonic() + timeout
    while True:
        try:
            return socket.create_connection(("127.0.0.1", port), timeout=2)
        except OSError:
            assert time.monotonic() < end, f"nothing listens on {port}"
            time.sleep(0.05)


def test_after_a_drop_strays_and_a_silent_connection_do_not_keep_the_peer_out() -> None:
    from damka.controller import events as ev
    from damka.dxp.game import board_letters
    from tests.test_dxp import make
    from tests.test_dxp_clock import follower_game

    app, board, peer, port, redial = follower_game()
    said: list[str] = []
    app.bus.subscribe(lambda event: said.append(event.text), ev.MessageShown)
    session = app.session
    make(board, app, session.game.legal_moves()[0])
    next_of(peer, dxp.MoveMessage)
    peer.close()                                                  # the peer drops
    wait_on_board(board, lambda: any("listening again" in text for text in said), "listening again")
    silent = connect_when_open(port)                              # connects and never speaks
    for _ in range(5):
        connect_when_open(port).close()                           # a port scan meanwhile
    sock = connect_when_open(port)                                # the peer, well within the 30 s the silent one may wait
    sock.settimeout(None)
    back = DxpLink(sock, "the peer")
    colour, letters = board_letters(session.variant, session.game)
    back.send(dxp.GameRequest("Peer", "W", 0, 0, letters, colour))

    def answered() -> dxp.Message | None:
        try:
            return back.incoming.get_nowait()
        except queue.Empty:
            return None
    answer = wait_on_board(board, answered, f"the peer let in (the screen said {said[-3:]})")
    assert isinstance(answer, dxp.GameAccept) and answer.accepted
    wait_on_board(board, lambda: not dxp_of(app).dropped, "the game goes on")
    assert sum("new connection closed" in text for text in said) <= 1, said   # not a line per stray
    silent.close()
    back.close()
    redial.close()


def test_a_refused_game_request_may_be_followed_by_another_on_the_same_connection() -> None:
    from damka.dxp.door import DxpDoor
    from damka.dxp.link import DxpServer
    from damka.dxp.start import follow_at, start_letters

    door = DxpDoor(DxpServer("127.0.0.1", 0))
    try:
        silent = socket.create_connection(("127.0.0.1", door.server.port), timeout=5)
        peer = DxpLink.connect("127.0.0.1", door.server.port)
        colour, letters = start_letters()
        peer.send(dxp.GameRequest("Peer", "W", 0, 0, "e" + letters[1:], colour))   # a position the board cannot set up
        peer.send(dxp.GameRequest("Peer", "W", 0, 0))
        link, request, peer_side = follow_at(door, timeout=20)
        assert [next_of(peer, dxp.GameAccept).code, next_of(peer, dxp.GameAccept).code] == [1, 0]
        assert request.board is None and peer_side == 1
        silent.settimeout(5)
        assert silent.recv(10) == b""          # the game is agreed: the connection still waiting is closed
        silent.close()
        link.close()
        peer.close()
    finally:
        door.close()
