"""The hall through faults, every process real: Mosquitto, `damka hall`, boards publishing recorded games
(damka.hall.simboard: the real store, outbox and publisher). The broker is stopped mid-round and
restarted, one board and the hall are SIGKILLed and restarted, and while the hall is down a board's
account tries to take the hall's session; afterwards the hall has every move once, its live PDN of the
round is the boards' own exports, and every board's outbox is confirmed by the hall."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("paho.mqtt", reason="paho-mqtt missing: pip install 'damka[hall]'")
pytest.importorskip("uvicorn", reason="uvicorn missing: pip install 'damka[hall]'")

from hall_rig import DEADLINE_S, Broker, free_port, wait_for  # noqa: E402

from damka.controller.store.store import Store  # noqa: E402
from damka.controller.store.pdn import export_pdn  # noqa: E402
from damka.hall.broker import mqtt_client  # noqa: E402

ROUND = {"b1": "classic:11", "b2": "multiwarcaby/sides=4:12,classic:18", "b3": "russian:13,american:14",
         "b4": "international:15", "b5": "multiwarcaby:16", "b6": "classic81:17"}
BIG_ROUND = {f"r{i:02d}": ["classic", "russian", "multiwarcaby/sides=4", "international", "american",
                           "multiwarcaby"][i % 6] + f":{i}" for i in range(20)}


class Round:
    def __init__(self, folder: Path, boards: dict[str, str], plies: int, delay: float) -> None:
        self.folder, self.boards, self.plies, self.delay = folder, boards, plies, delay
        self.broker = Broker(folder, list(boards)).start()
        self.web = free_port()
        (folder / "hall.pw").write_text(self.broker.passwords["hall"] + "\n")
        (folder / "hall.toml").write_text(
            f'[hall]\nname = "h"\ndb = "hall.sqlite"\n[broker]\nport = {self.broker.port}\n'
            f'username = "hall"\npassword_file = "hall.pw"\n[web]\nbind = "127.0.0.1"\nport = {self.web}\n')
        self.hall: subprocess.Popen | None = None
        self.procs: dict[str, subprocess.Popen] = {}

    def start_hall(self) -> None:
        self.hall = subprocess.Popen([sys.executable, "-m", "damka", "hall", "--config", str(self.folder / "hall.toml")],
                                     stdout=subprocess.DEVNULL, stderr=open(self.folder / "hall.log", "a"))
        wait_for(lambda: self.get("/api/hall") is not None, "the hall page to come up")

    def start_board(self, name: str) -> None:
        env = dict(os.environ, BOARD_PW=self.broker.passwords[name])
        self.procs[name] = subprocess.Popen(
            [sys.executable, "-m", "damka.hall.simboard", "--store", str(self.folder / f"{name}.sqlite"),
             "--hall", "h", "--board", name, "--port", str(self.broker.port), "--user", name,
             "--password-env", "BOARD_PW", "--games", self.boards[name], "--plies", str(self.plies),
             "--delay", str(self.delay), "--linger", "60"],
            env=env, stdout=subprocess.PIPE, stderr=open(self.folder / f"{name}.log", "a"), text=True)

    def get(self, path: str) -> str | None:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.web}{path}", timeout=2) as response:
                return response.read().decode()
        except OSError:
            return None

    def applied(self) -> int:
        """Messages the hall has applied so far (0 while its page does not answer)."""
        page = self.get("/api/hall")
        return json.loads(page)["counts"]["applied"] if page else 0

    def expected(self) -> str:
        parts = []
        for name in sorted(self.boards):
            with Store(self.folder / f"{name}.sqlite", readonly=True) as store:
                parts += [export_pdn(store.load_game(s.id)) for s in sorted(store.list_games(), key=lambda s: s.id)]
        return "\n".join(parts)

    def take_halls_session(self, account: str) -> None:
        """A board's account logs in with the hall's client id and a persistent session, and leaves again."""
        client = mqtt_client("damka-hall-h", self.broker.settings(account), clean=False)
        client.reconnect_delay_set(5, 5)
        connected = threading.Event()
        client.on_connect = lambda c, u, f, reason, p: connected.set() if not reason.is_failure else None
        client.connect_async("127.0.0.1", self.broker.port)
        client.loop_start()
        try:
            assert connected.wait(DEADLINE_S), "the board's account could not log in"
        finally:
            client.disconnect()
            client.loop_stop()

    def outboxes(self) -> tuple[int, int]:
        """(messages in every board's outbox, those the hall has not confirmed)."""
        total = unconfirmed = 0
        for name in self.boards:
            with Store(self.folder / f"{name}.sqlite", readonly=True) as store:
                rows = store._query("SELECT count(*), coalesce(sum(sent < 2), 0) FROM outbox")[0]
            total, unconfirmed = total + rows[0], unconfirmed + rows[1]
        return total, unconfirmed

    def close(self) -> None:
        for proc in [*self.procs.values(), self.hall]:
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait()
        self.broker.stop()


def run_with_faults(folder: Path, boards: dict[str, str], plies: int, delay: float) -> None:
    rnd = Round(folder, boards, plies, delay)
    started = time.monotonic()
    try:
        rnd.start_hall()
        for name in boards:
            rnd.start_board(name)
        wait_for(lambda: rnd.applied() >= 2 * len(boards), "the round under way at the hall")
        assert all(proc.poll() is None for proc in rnd.procs.values()), "the round ended before the faults"
        rnd.broker.stop()                      # the broker goes down mid-round ...
        time.sleep(1.0)                        # (how long it is down: the boards play on meanwhile)
        rnd.broker.start()                     # ... and comes back
        victim = sorted(boards)[1]
        assert rnd.procs[victim].poll() is None, "the board to kill had already finished"
        rnd.procs[victim].send_signal(signal.SIGKILL)  # a board dies mid-game ...
        rnd.procs[victim].wait()
        rnd.start_board(victim)                # ... and is restarted: its outbox delivers
        time.sleep(0.4)                        # (the restarted board's outbox delivering)
        assert any(proc.poll() is None for proc in rnd.procs.values()), "the round ended before the hall's kill"
        rnd.hall.send_signal(signal.SIGKILL)   # the hall dies ...
        rnd.hall.wait()
        rnd.take_halls_session(sorted(boards)[0])   # a board's account tries to take the hall's queue
        time.sleep(0.5)                        # (how long the hall is down)
        rnd.start_hall()                       # ... and is restarted on its own record
        for name, proc in rnd.procs.items():
            out, _ = proc.communicate(timeout=120)
            assert "delivered" in out, f"board {name}: {out!r}"
        expected = rnd.expected()
        try:
            wait_for(lambda: rnd.get("/round.pdn") == expected, "the hall's PDN to equal the boards'")
        except AssertionError:
            got = (rnd.get("/round.pdn") or "").splitlines()
            first = next((i for i, (a, b) in enumerate(zip(got, expected.splitlines())) if a != b), len(got))
            pytest.fail(f"the hall's PDN differs from the boards' at line {first}: "
                        f"{got[first:first + 2]} != {expected.splitlines()[first:first + 2]}")
        data = json.loads(rnd.get("/api/hall"))
        assert len(data["boards"]) == len(boards) and data["counts"]["bad"] == 0
        total, unconfirmed = rnd.outboxes()
        assert total > 0 and unconfirmed == 0                 # the hall confirmed every message: 0 lost
        print(f"\n{len(boards)} boards through faults: {expected.count('[Event ')} games, {total} messages, "
              f"{unconfirmed} lost, {data['counts']['bad']} bad, {time.monotonic() - started:.0f} s")  # (pytest -s)
        for board in data["boards"]:
            with Store(folder / f"{board['board']}.sqlite", readonly=True) as store:
                last = store.load_game(store.list_games()[0].id if len(store.list_games()) == 1
                                       else max(s.id for s in store.list_games()))
            state = board["state"]
            assert (state["ply"], state["position"]) == (last.game.ply, last.game.variant.format_position(
                last.game.position)), board["board"]
            assert not board["online"]        # every board said goodbye when it closed
        csv_text = rnd.get("/results.csv")
        assert len(csv_text.splitlines()) == 1 + expected.count("[Event ")
    finally:
        rnd.close()


def test_round_through_broker_board_and_hall_restarts(tmp_path: Path) -> None:
    run_with_faults(tmp_path, ROUND, plies=80, delay=0.03)


@pytest.mark.slow
def test_twenty_boards_through_faults(tmp_path: Path) -> None:
    run_with_faults(tmp_path, BIG_ROUND, plies=120, delay=0.03)
