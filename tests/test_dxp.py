"""DXP: the board (virtual, 10x10) against pydraughts' DXP implementation on
127.0.0.1, played to the end, both sides' PDN the same game; the peer's
take-back and a drop; malformed, truncated and illegal messages are refused
(log line, message) and never bring the board down."""

from __future__ import annotations

import logging
import random
import threading
import queue
from pathlib import Path

import pytest

from damka.dxp.feature import dxp_of
from damka.dxp import protocol as dxp
from damka.dxp.link import DxpLink
from damka.controller import events as ev
from damka.dxp.game import board_letters
from damka.dxp.start import follow, initiate, make_app, start_letters
from damka.controller.store.store import Store
from damka.controller.store.pdn import export_pdn
from damka.controller.board.board_map import BoardMap
from damka.engine import pdn
from damka.engine.variants import find_variant
from damka.sim.virtual_board import VirtualBoard, carry_out

draughts = pytest.importorskip("draughts", reason="pydraughts (the dev extra) is the independent DXP peer")
from draughts.engine import DXPEngine  # noqa: E402  (pydraughts imports its engines in this order)
import draughts.PDN  # noqa: E402
from waiting import DEADLINE_S, wait_on_board, wait_until


# -- the messages ------------------------------------------------------------------

SAMPLES = [
    dxp.GameRequest("Tornado voor Windows 4.0", "W", 60, 65),
    dxp.GameRequest("Peer", "Z", 5, 0, start_letters()[1], "W"),
    dxp.GameAccept("Damka", 0), dxp.GameAccept("Scan", 2),
    dxp.MoveMessage(12, 32, 28), dxp.MoveMessage(3, 28, 19, (23, 33)),
    dxp.GameEnd(3, 1), dxp.Chat("What do you think about move 35?"),
    dxp.BackRequest(5, "Z"), dxp.BackAccept(0),
]


def test_every_message_reads_back_as_written() -> None:
    for message in SAMPLES:
        assert dxp.parse(dxp.format_message(message)) == message
    assert dxp.format_message(dxp.MoveMessage(1, 32, 28)) == "M0001322800"
    assert dxp.format_message(dxp.GameRequest("Tornado voor Windows 4.0", "W", 60, 65)) == \
        "R01Tornado voor Windows 4.0        W060065A"


@pytest.mark.parametrize("text, words", [
    ("", "empty"), ("X12", "unknown message kind"), ("M00013228", "11"), ("M0001322801", "13"),
    ("M00a1322800", "time"), ("M000132280233", "15"), ("E5", "3"), ("E41", "reason must be 0-3"),
    ("BxyzW", "move number"), ("B005Q", "W or Z"), ("K", "2"), ("Aname", "34"),
    ("R01" + "x" * 32 + "Q060065A", "follower colour"), ("R01" + "x" * 32 + "W060065C", "setup"),
    ("R01" + "x" * 32 + "W060065BW" + "q" * 50, "board letters"), ("M\x00\x01", "printable"),
])
def test_malformed_messages_say_what_is_wrong(text: str, words: str) -> None:
    with pytest.raises(dxp.DxpError, match=words):
        dxp.parse(text)


def test_fuzzed_messages_only_ever_give_a_message_or_a_dxp_error() -> None:
    rng = random.Random(16)
    texts = [dxp.format_message(m) for m in SAMPLES]
    alphabet = "RAMECBKWZewzAB0123456789 x\x00\xff-"
    for _ in range(5000):
        text = list(rng.choice(texts))
        for _ in range(rng.randint(1, 4)):
            kind = rng.randrange(3)
            spot = rng.randrange(len(text) + 1)
            if kind == 0 and text:
                del text[min(spot, len(text) - 1):]                      # truncated
            elif kind == 1:
                text.insert(spot, rng.choice(alphabet))
            elif text:
                text[min(spot, len(text) - 1)] = rng.choice(alphabet)
        try:
            dxp.parse("".join(text))
        except dxp.DxpError:
            pass
    framer = dxp.Framer()
    assert framer.feed(b"M0001322800\x00E3") == ["M0001322800"]
    assert framer.feed(b"1\x00") == ["E31"]
    out = framer.feed(b"C" + b"a" * 2000)
    assert len(out) == 1 and isinstance(out[0], dxp.DxpError)
    assert framer.feed(b"tail\x00K0\x00") == ["K0"]       # the over-long message's tail is dropped


def test_a_move_message_names_only_a_legal_move() -> None:
    variant = find_variant("international")
    start = variant.start_position()
    move = dxp.find_move(variant, start, dxp.MoveMessage(0, 32, 28))
    assert dxp.move_message(variant, move) == dxp.MoveMessage(0, 32, 28)
    for bad, words in [(dxp.MoveMessage(0, 33, 27), "not legal"), (dxp.MoveMessage(0, 19, 23), "not legal"),
                       (dxp.MoveMessage(0, 0, 99), "outside 1-50"), (dxp.MoveMessage(0, 32, 28, (30,)), "not legal")]:
        with pytest.raises(dxp.DxpError, match=words):
            dxp.find_move(variant, start, bad)


# -- a whole game against pydraughts' DXP client ----------------------------------------


def listen() -> tuple[list[DxpLink], int, threading.Thread]:
    links: list[DxpLink] = []
    bound: list[int] = []
    ready = threading.Event()
    thread = threading.Thread(target=lambda: links.append(DxpLink.listen(0, timeout=20, ready=ready, bound=bound)),
                              daemon=True)
    thread.start()
    assert ready.wait(DEADLINE_S)
    return links, bound[0], thread


def on_board(app) -> VirtualBoard:
    variant = app.session.variant
    board = VirtualBoard(BoardMap(variant).names(variant.occupancy(variant.start_position())), files=10, ranks=10)
    board.connect(app)
    board.advance(1000)
    return board


def make(board: VirtualBoard, app, move) -> None:
    name = app.session.variant.geometry.name
    carry_out(board, name(move.start), [name(s) for s in move.path], [name(s) for s in sorted(move.captures)],
              step_ms=150)
    board.advance(2500)


def wait_for_peer(app, board: VirtualBoard) -> None:
    wait_on_board(board, lambda: app.session.planned or app.session.game.is_over, "a move from the DXP peer")


class PydraughtsPeer(threading.Thread):
    """pydraughts' DXPEngine (the initiator) playing random moves of its own."""

    def __init__(self, port: int, seed: int, max_plies: int) -> None:
        super().__init__(daemon=True)
        self.engine = DXPEngine(options={"engine-opened": True, "ip": "127.0.0.1", "port": port, "initial-time": 600})
        self.engine.receiver.receive_thread.daemon = True  # (pydraughts' reader spins on a closed socket)
        self.board = draughts.Board(variant="standard")
        self.rng = random.Random(seed)
        self.max_plies = max_plies
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            while not self.board.is_over() and len(self.board.move_stack) < self.max_plies:
                reply = self.engine.play(self.board)       # sends our last move, waits for the board's
                if reply.move is None:
                    return
                self.board.push(reply.move)
                if self.board.is_over():
                    return
                move = self.rng.choice(self.board.legal_moves())
                self.board.push(move)
                if self.board.is_over():
                    self.engine.sender.send_move(move)     # the last move: nothing comes back
        except BaseException as error:  # noqa: BLE001 - reported by the test
            self.error = error


def test_a_whole_game_against_pydraughts_dxp_both_pdns_the_same(tmp_path: Path) -> None:
    links, port, listener = listen()
    peer = PydraughtsPeer(port, seed=3, max_plies=400)
    peer.start()
    listener.join(20)
    link = links[0]
    request, peer_side = follow(link, timeout=DEADLINE_S)
    assert peer_side == 1 and request.minutes == 10          # pydraughts plays black; 600 s a side
    store = Store(tmp_path / "games.db")
    app = make_app(link, request, peer_side, store=store)
    assert app.setup.time_control == "10+0"
    board = on_board(app)
    rng = random.Random(5)
    session = app.session
    while not session.game.is_over and session.game.ply < 400:
        ply = session.game.ply
        if session.game.turn == peer_side:
            wait_for_peer(app, board)
            if session.game.is_over:
                break
            make(board, app, session.planned[0])              # the peer's move, lit and carried out
        else:
            make(board, app, rng.choice(session.game.legal_moves()))
        assert session.game.ply == ply + 1
    peer.join(30)
    peer.engine.sender.disconnect()
    assert peer.error is None and not peer.is_alive()
    assert session.game.is_over, f"no result after {session.game.ply} plies"
    dxp_of(app).pump()
    assert dxp_of(app).refused == []
    ours = export_pdn(store.load_game(app.game_id))
    theirs_path = tmp_path / "theirs.pdn"
    draughts.PDN.PDNWriter(str(theirs_path), board=peer.board)
    our_moves = read_moves(ours)
    their_moves = read_moves(theirs_path.read_text())
    assert our_moves == their_moves and len(our_moves) == session.game.ply > 20
    # Damka's own reader agrees on the game it wrote.
    games = pdn.read_games(ours)
    assert list(games[0].moves) == list(session.game.moves)
    link.close()
    store.close()


def read_moves(text: str) -> list[str]:
    """The moves of a PDN game as pydraughts' reader sees them (an independent reader)."""
    game = draughts.PDN.PDNReader(pdn_text=text).games[0]
    return [move.replace("-", "x") if False else move for move in game.moves]


# -- refusals, take-backs, drops ---------------------------------------------------------


def raw_peer(port: int) -> DxpLink:
    return DxpLink.connect("127.0.0.1", port)


def start_raw_game(tmp_path: Path, caplog):
    links, port, listener = listen()
    peer = raw_peer(port)
    peer.send(dxp.GameRequest("Fuzzer", "W", 0, 0))        # the board plays white, no clock
    listener.join(DEADLINE_S)
    request, peer_side = follow(links[0], timeout=DEADLINE_S)
    assert isinstance(peer.incoming.get(timeout=DEADLINE_S), dxp.GameAccept)
    app = make_app(links[0], request, peer_side)
    return app, on_board(app), peer


def next_of(link: DxpLink, kind: type, board: VirtualBoard | None = None):
    """The next `kind` message that came in on `link` (others are skipped). With
    `board`, the board's loop runs meanwhile (it pumps its own link and answers)."""
    def look() -> list:
        while True:
            try:
                item = link.incoming.get_nowait()
            except queue.Empty:
                return []
            if isinstance(item, kind):
                return [item]

    what = f"a {kind.__name__}"
    found = wait_until(look, what) if board is None else wait_on_board(board, look, what)
    return found[0]


def test_garbage_truncated_and_illegal_messages_are_refused_and_the_game_goes_on(tmp_path: Path, caplog) -> None:
    caplog.set_level(logging.WARNING, logger="damka.dxp")
    app, board, peer = start_raw_game(tmp_path, caplog)
    session = app.session
    variant = session.variant
    make(board, app, next(m for m in session.game.legal_moves()))
    sent = next_of(peer, dxp.MoveMessage)
    assert dxp.find_move(variant, variant.start_position(), sent) == session.game.moves[0]
    rng = random.Random(7)
    junk = [b"M00013228\x00", b"M0001322801\x00", b"Q\x00", b"\x00", b"E9\x00", b"M0001312600\x00",
            b"M0000322800\x00", b"B999Z\x00", b"K0\x00", b"R01" + b"x" * 40 + b"\x00", b"\xff\xfe\x00",
            b"C" + b"z" * 3000 + b"\x00"]
    junk += [bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40))) + b"\x00" for _ in range(200)]
    for data in junk:
        peer.send_raw(data)
    wait_on_board(board, lambda: len(dxp_of(app).refused) >= len(junk) - 5, "every bad message refused")
    assert session.game.ply == 1 and not session.planned and not session.game.is_over
    assert len(dxp_of(app).refused) >= len(junk) - 5                  # (random junk may merge into one message)
    assert any("not legal" in text for text in dxp_of(app).refused)   # 31-26 is not a black move here
    assert any("refused" in record.getMessage() for record in caplog.records)
    # A right move is still taken after all that.
    legal = session.game.legal_moves()[0]
    peer.send(dxp.move_message(variant, legal))
    wait_for_peer(app, board)
    assert session.planned == (legal,)
    make(board, app, legal)
    assert session.game.ply == 2
    peer.close()


def test_the_peers_take_back_and_game_end_and_a_dropped_connection(tmp_path: Path) -> None:
    app, board, peer = start_raw_game(tmp_path, None)
    session = app.session
    said: list[str] = []
    app.bus.subscribe(lambda event: said.append(event.text), ev.MessageShown)
    variant = session.variant
    make(board, app, session.game.legal_moves()[0])
    next_of(peer, dxp.MoveMessage)
    reply = session.game.legal_moves()[0]
    peer.send(dxp.move_message(variant, reply))
    wait_for_peer(app, board)
    make(board, app, reply)
    assert session.game.ply == 2
    peer.send(dxp.BackRequest(1, "Z"))                           # back to black's first move
    assert next_of(peer, dxp.BackAccept, board).accepted
    name = variant.geometry.name
    wait_on_board(board, lambda: any("takes back 1 move: taking back" in text and f"back on {name(reply.start)}" in text
                                     for text in said), "the take-back said")
    from damka.hardware.interfaces import Role
    # The LEDs guide to the position asked for (black's man back), not to an earlier turn start.
    assert board.lit(Role.TAKE_AWAY) == {name(reply.end)} and board.lit(Role.PUT_HERE) == {name(reply.start)}
    board.lift(name(reply.end))                                  # the person puts black's man back
    board.drop(name(reply.start))
    board.advance(2500)
    assert session.game.ply == 1 and dxp_of(app).back_target is None and dxp_of(app).refused == []
    other = session.game.legal_moves()[-1]
    peer.send(dxp.move_message(variant, other))                  # the peer plays another move there
    wait_for_peer(app, board)
    assert session.planned == (other,)
    peer.send(dxp.BackRequest(9, "W"))                           # a position the game never had
    assert not next_of(peer, dxp.BackAccept, board).accepted and session.game.ply == 1
    peer.close()                                                 # the peer goes away
    wait_on_board(board, lambda: dxp_of(app).dropped, "the drop noticed")
    assert any("lost" in text for text in said) and not session.game.is_over
    # The peer comes back with the game's position: resumed where it stopped.
    links, port, listener = listen()
    again = raw_peer(port)
    listener.join(DEADLINE_S)
    colour, letters = board_letters(variant, session.game)
    assert not dxp_of(app).reconnect(links[0], dxp.GameRequest("Peer", "W", 0, 0, start_letters()[1], "Z"))
    assert next_of(again, dxp.GameAccept).code == 1                 # another position: refused
    assert dxp_of(app).reconnect(links[0], dxp.GameRequest("Peer", "W", 0, 0, letters, colour))
    assert next_of(again, dxp.GameAccept).accepted and not dxp_of(app).dropped
    assert session.game.turn == 1
    answer = session.game.legal_moves()[0]
    again.send(dxp.move_message(variant, answer))
    wait_for_peer(app, board)
    make(board, app, answer)
    assert session.game.ply == 2 and session.game.moves[-1] == answer
    again.close()
    # Adjudicated by the arbiter: the game ends and is over on the board.
    from damka.engine.variant import Result
    dxp_of(app).adjudicate(Result((0.5, 0.5), (1, 1), "adjudicated: draw"))
    assert session.game.ply == 2
    assert session.game.is_over and session.game.result.reason == "adjudicated: draw"


def connected_to_a_peer() -> tuple[DxpLink, DxpLink, int]:
    """The board's link, connected to a peer listening on a free port of 127.0.0.1, the peer's, the port."""
    bound: list[int] = []
    ready = threading.Event()
    peers: list[DxpLink] = []
    thread = threading.Thread(target=lambda: peers.append(DxpLink.listen(0, timeout=10, ready=ready, bound=bound)),
                              daemon=True)
    thread.start()
    assert ready.wait(DEADLINE_S)
    link = DxpLink.connect("127.0.0.1", bound[0])
    thread.join(5)
    return link, peers[0], bound[0]


def test_the_board_as_initiator_and_a_peer_that_resigns(tmp_path: Path) -> None:
    link, peer, _port = connected_to_a_peer()

    def accept() -> None:
        request = next_of(peer, dxp.GameRequest)
        assert request.follower_colour == "W" and request.minutes == 5   # the peer (follower) plays white
        peer.send(dxp.GameAccept("Peer", 0))

    helper = threading.Thread(target=accept, daemon=True)
    helper.start()
    request, peer_side, name = initiate(link, person_colour="Z", minutes=5, timeout=DEADLINE_S)
    helper.join(5)
    assert peer_side == 0 and name == "Peer"
    app = make_app(link, request, peer_side, name)
    board = on_board(app)
    session = app.session
    first = session.game.legal_moves()[0]
    peer.send(dxp.move_message(session.variant, first))
    wait_for_peer(app, board)
    make(board, app, first)
    peer.send(dxp.GameEnd(1, 1))                                 # the peer resigns
    wait_on_board(board, lambda: session.game.is_over, "the peer's resignation acted on")
    assert session.game.result.winner == 1
    assert next_of(peer, dxp.GameEnd).reason == 3                # the board confirms: it wins
    link.close()
    peer.close()


def test_the_end_of_game_log_says_who_ended_it(tmp_path: Path, caplog) -> None:
    caplog.set_level(logging.INFO, logger="damka.dxp")
    app, board, peer = start_raw_game(tmp_path, caplog)
    app.resign("board", side=0)                       # the board's person (white) resigns
    assert next_of(peer, dxp.GameEnd, board).reason == 1        # the board says it loses
    peer.send(dxp.GameEnd(3, 1))                                # the peer's answer: it wins
    ended = lambda: [r.getMessage() for r in caplog.records if "end" in r.getMessage()]  # noqa: E731
    wait_on_board(board, lambda: any("answered" in line for line in ended()), "the peer's answer logged")
    lines = ended()
    assert any("the board ended the game" in line for line in lines), lines
    assert not any("Fuzzer ended the game" in line for line in lines), lines
    peer.close()


# -- what the board's screen says about the peer ------------------------------------------


def screen(app) -> str:
    """The board's game screen in words: the status and every message line."""
    view = app.view()
    return " | ".join([view.status, *view.messages])


def wait_screen(app, board: VirtualBoard, words: str) -> str:
    """The screen, once it says `words` (the board's loop running meanwhile)."""
    return wait_on_board(board, lambda: screen(app) if words in screen(app) else "", f"{words!r} on the screen")


def test_the_board_s_screen_shows_the_peer_s_chat_refusals_and_a_dropped_connection(tmp_path: Path) -> None:
    from damka.hardware.interfaces import Role
    app, board, peer = start_raw_game(tmp_path, None)
    session = app.session
    variant = session.variant
    peer.send(dxp.Chat("good luck\x07\x1b[2J " + "and have fun " * 20))           # control characters, far too long
    shown = wait_screen(app, board, "Fuzzer says: good luck")
    chat = next(line for line in app.view().messages if line.startswith("Fuzzer says"))
    assert len(chat) <= len("Fuzzer says: ") + 80 and chat.endswith("...")
    assert "\x07" not in shown and "\x1b" not in shown
    make(board, app, session.game.legal_moves()[0])                       # the board's move: the chat has had its day
    next_of(peer, dxp.MoveMessage)
    assert "Fuzzer says" not in screen(app)
    peer.send_raw(b"M0001312600\x00")                                     # 31-26 is not black's move here
    shown = wait_screen(app, board, "refused")
    assert "Fuzzer" in shown and "not legal" in shown and app.view().alert
    peer.send_raw(b"M00013228\x00")                                       # a truncated message: what and why
    shown = wait_screen(app, board, "bad message refused")
    assert "at least 11 characters long, got 9" in shown
    reply = session.game.legal_moves()[0]
    peer.send(dxp.move_message(variant, reply))
    wait_for_peer(app, board)
    assert "carry out the lit move" in screen(app) and board.lit(Role.COMPUTER_TO)
    peer.close()                                                          # the peer goes away
    shown = wait_screen(app, board, "waiting for it to come back")
    assert "connection to Fuzzer lost" in shown and app.view().alert
    assert "carry out" not in shown and "thinking" not in shown, shown    # no move is coming: none asked for
    board.advance(1000)                                                   # a second of the board loop: still nothing asked
    assert "carry out" not in screen(app) and not board.lit(Role.COMPUTER_TO) and not board.lit(Role.COMPUTER_FROM)
    # The peer comes back with the game's position: the screen says so and asks for its move again.
    links, port, listener = listen()
    again = raw_peer(port)
    listener.join(DEADLINE_S)
    colour, letters = board_letters(variant, session.game)
    assert dxp_of(app).reconnect(links[0], dxp.GameRequest("Peer", "W", 0, 0, letters, colour))
    assert next_of(again, dxp.GameAccept).accepted
    shown = wait_screen(app, board, "is back")
    assert "come back" not in shown and "lost" not in shown and not app.view().alert
    again.send(dxp.move_message(variant, reply))
    wait_for_peer(app, board)
    assert "carry out the lit move" in screen(app)
    make(board, app, reply)
    assert session.game.ply == 2 and "is back" not in screen(app)
    again.close()
