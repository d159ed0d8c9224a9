"""The hall's broker security on a real Mosquitto with the project's ACL (deploy/mosquitto/), and a
board sending garbage: counted and flagged, never a crash, never another board's game."""

from __future__ import annotations

import json
import logging
import threading
from pathlib import Path

import pytest

pytest.importorskip("paho.mqtt", reason="paho-mqtt missing: pip install 'damka[hall]'")

from hall_rig import DEADLINE_S, Broker, wait_for  # noqa: E402

from damka.controller.store import Store  # noqa: E402
from damka.controller.store_pdn import export_pdn  # noqa: E402
from damka.hall import views  # noqa: E402
from damka.hall.broker import BrokerSettings, mqtt_client  # noqa: E402
from damka.hall.publisher import BoardPublisher  # noqa: E402
from damka.hall.service import HallService  # noqa: E402
from damka.hall.simboard import parse_specs, play  # noqa: E402


class Client:
    """A plain MQTT client: connects (or is refused), collects what it receives."""

    def __init__(self, broker: Broker, user: str | None, password: str | None = None, name: str = "t") -> None:
        settings = BrokerSettings("127.0.0.1", broker.port, username=user or "",
                                  password=password if password is not None else broker.passwords.get(user or "", ""))
        self.client = mqtt_client(f"test-{name}", settings)
        self.client.reconnect_delay_set(5, 5)
        self.got: list[tuple[str, bytes]] = []
        self.result: list = []
        self.ready = threading.Event()
        self.client.on_connect = lambda c, u, f, reason, p: (self.result.append(reason), self.ready.set())
        self.client.on_message = lambda c, u, m: self.got.append((m.topic, m.payload))
        self.client.on_subscribe = lambda *args: self.ready.set()
        self.client.connect_async("127.0.0.1", broker.port)
        self.client.loop_start()

    def refused(self) -> bool:
        return bool(self.result) and self.result[0].is_failure

    def subscribe(self, pattern: str) -> None:
        self.ready.clear()
        self.client.subscribe(pattern, qos=1)
        assert self.ready.wait(DEADLINE_S)

    def publish(self, topic: str, payload: str | bytes) -> None:
        self.client.publish(topic, payload, qos=1).wait_for_publish(5)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@pytest.fixture
def broker(tmp_path: Path):
    running = Broker(tmp_path, ["b1", "b2"]).start()
    yield running
    running.stop()


def test_a_board_writes_only_its_own_topics(broker: Broker) -> None:
    spectator = Client(broker, "spectator", name="spectator")
    b1 = Client(broker, "b1", name="b1")
    try:
        assert spectator.ready.wait(DEADLINE_S) and not spectator.refused()
        spectator.subscribe("damka/#")
        assert wait_for(lambda: bool(b1.result)) and not b1.refused()
        b1.publish("damka/h/b2/move", '{"game":1,"seq":1}')       # another board's moves
        b1.publish("damka/h/b2/state", '{"online":true}')
        b1.publish("damka/h/b1/cmd", '{"cmd":"pause"}')            # commands: the arbiter's only
        b1.publish("damka/h/b2/cmd", '{"cmd":"pause"}')
        b1.publish("damka/h/b1/state", '{"control":true}')        # its own: goes through
        assert wait_for(lambda: any(t == "damka/h/b1/state" for t, _ in spectator.got))
        assert [t for t, _ in spectator.got] == ["damka/h/b1/state"]
        spectator.publish("damka/h/b1/cmd", '{"cmd":"pause"}')     # spectators read only
        arbiter = Client(broker, "arbiter", name="arbiter")
        assert arbiter.ready.wait(DEADLINE_S) and not arbiter.refused()
        arbiter.publish("damka/h/b1/cmd", '{"cmd":"pause"}')
        assert wait_for(lambda: len(spectator.got) == 2)
        assert spectator.got[1] == ("damka/h/b1/cmd", b'{"cmd":"pause"}')  # the arbiter's, once; not the spectator's
        arbiter.close()
    finally:
        spectator.close()
        b1.close()


def test_anonymous_and_wrong_password_are_refused(broker: Broker) -> None:
    anonymous = Client(broker, None, name="anon")
    wrong = Client(broker, "b1", "not-the-password", name="wrong")
    try:
        assert anonymous.ready.wait(DEADLINE_S) and anonymous.refused()
        assert wrong.ready.wait(DEADLINE_S) and wrong.refused()
    finally:
        anonymous.close()
        wrong.close()


def test_malformed_and_out_of_turn_data_is_counted_and_ignored(tmp_path: Path, broker: Broker) -> None:
    hall = HallService("h", broker.settings("arbiter"), tmp_path / "hall.sqlite").start()
    store = Store(tmp_path / "b2.sqlite")
    good = BoardPublisher("h", "b2", broker.settings("b2"), store.path)
    good.attach(store)
    good.start()
    bad = Client(broker, "b1", name="b1")
    try:
        assert hall.connected.wait(DEADLINE_S) and wait_for(lambda: bool(bad.result))
        ids = play(store, parse_specs("classic:3", 12))
        opened = json.loads(good.reader.conn.execute("SELECT payload FROM outbox WHERE seq = 1").fetchone()[0])
        first = json.loads(good.reader.conn.execute("SELECT payload FROM outbox WHERE seq = 2").fetchone()[0])
        garbage = [b"not json", b"[1,2]", b'{"game":"x","seq":1}', b"x" * 70_000,
                   json.dumps({**opened, "variant": "no-such-game"}).encode()]
        for payload in garbage:
            bad.publish("damka/h/b1/move", payload)
        # b1 copies b2's opening and plays its first move twice: the second is out of turn
        bad.publish("damka/h/b1/game", json.dumps({**opened, "game": 5, "seq": 1}))
        bad.publish("damka/h/b1/move", json.dumps({**first, "game": 5, "seq": 2}))
        bad.publish("damka/h/b1/move", json.dumps({**first, "game": 5, "seq": 3, "ply": 2}))
        total = good.reader.conn.execute("SELECT count(*) FROM outbox").fetchone()[0]
        assert wait_for(lambda: hall.record.counts["bad"] >= 6 and hall.record.counts["applied"] >= total + 2), \
            hall.record.counts
        with hall.lock:
            data = views.hall_data(hall.record)
            b2_games = [k for k in hall.record.game_keys() if k[0] == "b2"]
            assert hall.record.game_pdn(b2_games[0][1], b2_games[0][2]) == export_pdn(store.load_game(ids[0]))
        flags = {b["board"]: b for b in data["boards"]}
        assert "problem" in flags["b1"]["flags"] and flags["b1"]["bad"] == 6 and "out of turn" in flags["b1"]["problem"]
        assert flags["b2"]["flags"] == [] and flags["b2"]["bad"] == 0
    finally:
        bad.close()
        good.close()
        store.close()
        hall.close()


def test_passwords_are_never_logged(tmp_path: Path, broker: Broker, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    settings = broker.settings("b1")
    wrong = BrokerSettings("127.0.0.1", broker.port, username="b1", password="s3cret-wrong-pw")
    store = Store(tmp_path / "b1.sqlite")
    publisher = BoardPublisher("h", "b1", wrong, store.path)
    publisher.start()
    wait_for(lambda: "refused" in caplog.text)
    publisher.close()
    store.close()
    assert "refused" in caplog.text
    assert settings.password not in repr(settings) + str(settings)
    assert "s3cret-wrong-pw" not in caplog.text and "s3cret-wrong-pw" not in repr(wrong)
