"""The tournament hall on a real Mosquitto: every move of every board reaches the hall once, in order,
and the hall's PDN of the round is each board's own PDN export (docs/hall.md)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

pytest.importorskip("paho.mqtt", reason="paho-mqtt missing: pip install 'damka[hall]'")

from hall_rig import DEADLINE_S, Broker, wait_for  # noqa: E402

from damka.controller.store.store import Store  # noqa: E402
from damka.controller.store.pdn import export_pdn  # noqa: E402
from damka.hall import views  # noqa: E402
from damka.hall.publisher import BoardPublisher  # noqa: E402
from damka.hall.service import HallService  # noqa: E402
from damka.hall.simboard import parse_specs, play  # noqa: E402

ROUND = {  # board -> its games (variant[/options]:seed), several variants, 4-player multiwarcaby
    "b1": "classic:1,russian:2", "b2": "international:3", "b3": "multiwarcaby/sides=4:4",
    "b4": "american:5,classic81:6", "b5": "multiwarcaby:7", "b6": "canadian:8",
}


class Board:
    """A board of the round in this process: its store, its publisher, its games."""

    def __init__(self, folder: Path, broker: Broker, name: str) -> None:
        self.name, self.path = name, folder / f"{name}.sqlite"
        self.store = Store(self.path)
        self.publisher = BoardPublisher("h", name, broker.settings(name), self.path)
        self.publisher.attach(self.store)
        self.publisher.start()
        self.ids: list[int] = []

    def play(self, plies: int = 30, delay: float = 0.0) -> None:
        self.ids = play(self.store, parse_specs(ROUND[self.name], plies), delay=delay)

    def close(self) -> None:
        self.publisher.close()
        self.store.close()


def expected_pdn(boards: list[Board]) -> str:
    """The round as the boards export it, board by board, game by game (the hall's order)."""
    return "\n".join(export_pdn(b.store.load_game(gid)) for b in sorted(boards, key=lambda b: b.name)
                     for gid in sorted(b.ids))


def outbox_rows(boards: list[Board]) -> int:
    return sum(b.publisher.reader.conn.execute("SELECT count(*) FROM outbox").fetchone()[0] for b in boards)


@pytest.fixture
def broker(tmp_path: Path):
    running = Broker(tmp_path, list(ROUND)).start()
    yield running
    running.stop()


def test_round_reaches_the_hall_once_in_order(tmp_path: Path, broker: Broker) -> None:
    hall = HallService("h", broker.settings("hall"), tmp_path / "hall.sqlite").start()
    boards = [Board(tmp_path, broker, name) for name in ROUND]
    try:
        threads = [threading.Thread(target=b.play) for b in boards]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        total = outbox_rows(boards)
        assert wait_for(lambda: hall.record.counts["applied"] >= total), hall.record.counts
        with hall.lock:
            assert views.round_pdn(hall.record) == expected_pdn(boards)
            data = views.hall_data(hall.record)
            csv_text = views.results_csv(hall.record)
        assert hall.record.counts["applied"] == total and hall.record.counts["bad"] == 0
        assert [b["board"] for b in data["boards"]] == sorted(ROUND) and all(b["online"] for b in data["boards"])
        assert "multiwarcaby" in csv_text and len(csv_text.splitlines()) == 1 + sum(len(b.ids) for b in boards)
        assert data["standings"] and data["standings"][0]["points"] >= data["standings"][-1]["points"]
    finally:
        for b in boards:
            b.close()
        hall.close()


def test_socket_closed_again_and_again_loses_nothing(tmp_path: Path, broker: Broker) -> None:
    hall = HallService("h", broker.settings("hall"), tmp_path / "hall.sqlite").start()
    board = Board(tmp_path, broker, "b3")
    stop = threading.Event()

    def cut() -> None:
        while not stop.wait(0.15):
            sock = board.publisher.client.socket()
            if sock is not None:
                try:
                    sock.close()  # the network drops under paho: it reconnects, the outbox sends again
                except OSError:
                    pass

    cutter = threading.Thread(target=cut)
    cutter.start()
    try:
        board.play(plies=60, delay=0.01)
        stop.set()
        cutter.join()
        total = outbox_rows([board])
        assert wait_for(lambda: hall.record.counts["applied"] >= total), hall.record.counts
        with hall.lock:
            assert views.round_pdn(hall.record) == expected_pdn([board])
        assert hall.record.counts["applied"] == total
    finally:
        stop.set()
        board.close()
        hall.close()


def test_outbox_is_written_with_the_move_and_kept_while_offline(tmp_path: Path, broker: Broker) -> None:
    """No broker reachable: the board plays on; the outbox holds every message; later they all arrive."""
    broker.stop()
    board = Board(tmp_path, broker, "b1")
    board.play(plies=10)
    moves = board.store._query("SELECT count(*) FROM moves")[0][0]
    sent, pending = board.publisher.sent, board.publisher.reader.pending()
    assert sent == 0 and pending == moves + 2 * len(board.ids)  # each game: open, its moves, its result
    board.close()
    broker.start()
    hall = HallService("h", broker.settings("hall"), tmp_path / "hall.sqlite").start()
    board = Board(tmp_path, broker, "b1")  # restarted: what it had not sent goes now
    board.ids = [s.id for s in board.store.list_games()]
    try:
        assert wait_for(lambda: hall.record.counts["applied"] >= pending), hall.record.counts
        with hall.lock:
            assert views.round_pdn(hall.record) == expected_pdn([board])
    finally:
        board.close()
        hall.close()


def test_the_app_on_a_virtual_board_publishes_through_its_recorder(tmp_path: Path, broker: Broker) -> None:
    """`damka run`'s path: App + virtual board, the recorder's writes carry the outbox, the bus the clock."""
    from app_rig import on_board
    from damka.sim.virtual_board import carry_out

    from damka.controller.app import App
    from damka.controller.game.setup import GameSetup
    from damka.hall.config import BoardHall
    from damka.hall.publisher import start_publisher

    hall = HallService("h", broker.settings("hall"), tmp_path / "hall.sqlite").start()
    clocks: list[bytes] = []
    watcher = mqtt_watch(broker, "damka/h/b1/clock", clocks)
    with Store(tmp_path / "b1.sqlite") as store:
        app = App(store=store, setup=GameSetup("russian", mode="tournament", time_control="5+0"), start_game=True)
        publisher = start_publisher(BoardHall("h", "b1", broker.settings("b1")), store, app)
        try:
            board = on_board(app)
            board.press(1)
            for _ in range(6):
                move = app.session.game.legal_moves()[0]
                mover = app.session.variant.side_to_move(app.session.game.position)
                name = app.session.variant.geometry.name
                carry_out(board, name(move.start), [name(s) for s in move.path], [name(s) for s in move.captures])
                board.press(mover)  # the mover's clock button ends the turn
                board.advance(500)
            assert app.session.game.ply == 6
            total = 7  # the game opened, six moves
            assert wait_for(lambda: hall.record.counts["applied"] >= total), hall.record.counts
            with hall.lock:
                assert views.round_pdn(hall.record) == export_pdn(store.load_game(app.game_id))
                assert "%clock" in views.round_pdn(hall.record)
            assert wait_for(lambda: len(clocks) >= 6) and b'"event":"pressed"' in clocks[-1]
        finally:
            publisher.close()
            watcher.disconnect()
            watcher.loop_stop()
            hall.close()


def mqtt_watch(broker: Broker, pattern: str, into: list[bytes]):
    """A spectator's client collecting the payloads of `pattern`."""
    from damka.hall.broker import mqtt_client

    client = mqtt_client("watch", broker.settings("spectator"))
    ready = threading.Event()
    client.on_connect = lambda c, *a: (c.subscribe(pattern, qos=1), None)
    client.on_subscribe = lambda *a: ready.set()
    client.on_message = lambda c, u, m: into.append(m.payload)
    client.connect_async("127.0.0.1", broker.port)
    client.loop_start()
    assert ready.wait(DEADLINE_S)
    return client
