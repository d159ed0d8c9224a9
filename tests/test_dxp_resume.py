"""DXP after a drop: two Damka board processes on 127.0.0.1 (tests/dxp_rig.py,
`damka dxp`'s own arguments and app on a virtual board) play; one is killed
with SIGKILL mid-game and started again with `--resume GAME_ID`; the other
listens again (or calls again) and the game goes on to its end, both sides'
stored PDN the same game with no move lost. In-process: which GAMEREQ
positions continue a game, the adjudication from the menu after a drop
(stored with its reason, in the arbiter log) once the peer did not come back."""

from __future__ import annotations

import random
import socket
from pathlib import Path

import pytest

from damka.dxp import protocol as dxp
from damka.dxp.redial import Redialer
from damka.controller import events as ev
from damka.dxp.resume import Fit, position_letters, resume_fit
from damka.dxp.start import follow, make_app
from damka.controller.store.store import Store
from damka.engine import pdn
from damka.engine.game import Game
from damka.engine.variants import find_variant
from damka.hardware.interfaces import Button
from dxp_process import BoardProcess
from waiting import DEADLINE_S, wait_on_board, wait_until



def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def listening(port: int) -> bool:
    """A socket listens on `port` (read from the kernel's table: a probing
    connection would be taken for the peer)."""
    wanted = f":{port:04X}"
    with open("/proc/net/tcp", encoding="ascii") as table:
        return any(fields[1].endswith(wanted) and fields[3] == "0A" for fields in (line.split() for line in table))


class Board(BoardProcess):
    """One board process playing a game to its end."""

    def finish(self) -> None:
        self.wait_for(lambda line: line in ("over", "timeout"), timeout=120)
        assert self.seen[-1] == "over", self.seen[-8:]
        self.proc.wait(10)


def moves_of(path: Path) -> list[str]:
    games = pdn.read_games(path.read_text())
    assert len(games) == 1
    variant = find_variant("international")
    game = Game(variant)
    texts = []
    for move in games[0].moves:
        texts.append(f"{move.start}-{move.end}-{sorted(move.captures)}")
        game.push(move)                                    # every move legal in turn
    return texts


@pytest.mark.parametrize("killed", ["initiator", "follower"])
def test_a_board_killed_mid_game_resumes_and_the_game_ends_the_same_on_both(tmp_path: Path, killed: str) -> None:
    port = free_port()
    follower = Board(tmp_path, "follower", 11, "--listen", str(port))
    follower.wait_for(lambda line: line.startswith("damka dxp: waiting"))
    wait_until(lambda: listening(port), f"the follower to listen on {port}")  # (it says so just before)
    initiator = Board(tmp_path, "initiator", 12, "--connect", f"127.0.0.1:{port}", "--colour", "black")
    victim = initiator if killed == "initiator" else follower
    at = random.Random(port).randint(6, 20)
    victim.wait_for(lambda line: line.startswith("ply ") and int(line.split()[1]) >= at)
    victim.kill()
    survivor = follower if killed == "initiator" else initiator
    survivor.wait_for(lambda line: "lost" in line)          # the drop said on the survivor's screen
    gone = survivor.wait_for(lambda line: line.startswith("screen ") and "waiting for it to come back" in line)
    assert "carry out" not in gone, gone                    # no move is coming: the screen asks for none
    role = ["--connect", f"127.0.0.1:{port}", "--colour", "black"] if killed == "initiator" else ["--listen", str(port)]
    again = Board(tmp_path, killed, 13, *role, "--resume", "1")
    survivor.wait_for(lambda line: "is back" in line)
    back = survivor.wait_for(lambda line: line.startswith("screen ") and "is back" in line)
    assert "come back" not in back and "lost" not in back, back
    screens = [line for line in survivor.seen if line.startswith("screen ")]
    assert not any("carry out" in line and "come back" in line for line in screens)
    looked = "listening again" if killed == "initiator" else "calling 127.0.0.1"
    assert any(looked in line for line in survivor.seen)   # the search for the peer, on the screen
    again.finish()
    survivor.finish()
    ours, theirs = moves_of(again.pdn), moves_of(survivor.pdn)
    assert ours == theirs and len(ours) > at


def test_which_positions_continue_a_game() -> None:
    variant = find_variant("international")
    game = Game(variant)
    game.push(variant.legal_moves(game.position)[0])           # the board (white) moved; black (the peer) to move
    peer = 1
    assert resume_fit(variant, game, peer, position_letters(variant, game.position)).fit is Fit.SAME
    back = resume_fit(variant, game, peer, position_letters(variant, game.positions[0]))
    assert back.fit is Fit.RESEND and back.move == game.moves[0]  # the peer never got the board's move
    reply = variant.legal_moves(game.position)[3]
    ahead = resume_fit(variant, game, peer, position_letters(variant, variant.play(game.position, reply)))
    assert ahead.fit is Fit.DELIVER and ahead.move == reply      # the peer's move lost in the drop
    other = variant.play(variant.play(game.position, reply), variant.legal_moves(variant.play(game.position, reply))[0])
    assert resume_fit(variant, game, peer, position_letters(variant, other)) is None
    assert resume_fit(variant, game, 0, position_letters(variant, game.positions[0])) is None  # not the board's move


def test_after_a_drop_the_menu_adjudicates_and_the_store_keeps_the_reason(tmp_path: Path) -> None:
    from tests.test_dxp import listen, make, on_board, raw_peer

    links, port, listener = listen()
    peer = raw_peer(port)
    peer.send(dxp.GameRequest("Peer", "W", 0, 0))
    listener.join(10)
    request, peer_side = follow(links[0], timeout=DEADLINE_S)
    store = Store(tmp_path / "games.db")
    redial = Redialer.listening("127.0.0.1", port, give_up_s=1.0)
    app = make_app(links[0], request, peer_side, store=store, redial=redial)
    said: list[str] = []
    app.bus.subscribe(lambda event: said.append(event.text), ev.MessageShown)
    board = on_board(app)
    make(board, app, app.session.game.legal_moves()[0])
    peer.close()                                               # the peer goes and never comes back
    wait_on_board(board, lambda: any("did not come back" in text for text in said), "the give-up said")
    assert any("lost" in text for text in said) and any("listening again" in text for text in said)
    assert any("did not come back in 1 s" in text for text in said)
    board.button(Button.MENU)
    labels = [row.label for row in app.overlay.rows]
    assert "Adjudicate: draw" in labels and "Take back a move" not in labels
    app.tap_menu(labels.index("Adjudicate: white wins"))
    board.advance(100)
    session = app.session
    assert session.game.is_over and session.result.winner == 0 and session.game.ply == 1
    stored = store.load_game(app.game_id)
    assert stored.result.winner == 0 and "connection to Peer was lost" in stored.result.reason
    assert any(action == "result" and "adjudicated" in detail for _, _, action, detail in store.arbiter_log(app.game_id))
    redial.close()
    store.close()
