#!/usr/bin/env python3
"""One board account storms the hall's broker for 60 s while two honest boards play (issue 36).

    python benchmarks/hall_storm.py                   # 60 s of storm
    python benchmarks/hall_storm.py --seconds 20

A real Mosquitto with the shipped config and ACL (hall/local_broker.py), a
real `damka hall` (its own process: service and page), two honest boards
playing at 10x human speed (benchmarks/hall_load.py's board workers, real
store, outbox and publisher), and one process logged in with a third board's
password (it sits on that board's SD card) publishing, as fast as the broker
takes them (400 game opens a second, as issue 36 measured): game opens with
60 KB tags, moves far ahead of their games, and for every tenth game a large
retained state of its own and one under another hall's name. Meanwhile the page's `/api/hall`
is polled 4 times a second, and the broker's and the hall's memory sampled.
Afterwards `/round.pdn` is fetched once (time, size, the hall's memory while
serving it).

Prints: what the storm sent; the broker's memory (start, peak); the hall's
database (before, after: growth); `/api/hall` p50/p99/max; the times the hall
lost its broker connection; the honest boards' moves lost (in their stores but
not in the hall: must be 0); `/round.pdn` size and time, the hall's memory.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hall_load import boards_process, percentile  # noqa: E402  (the honest boards: hall_load's own workers)

TAG_BYTES = 60_000
STATE_BYTES = 100_000
STATE_EVERY = 10
OTHER_HALL_BYTES = 60_000


def rss_mb(pid: int) -> float:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0.0
    return int(next((line.split()[1] for line in status.splitlines() if line.startswith("VmRSS:")), "0")) / 1024


def templates(folder: Path) -> tuple[dict, dict]:
    """A real game-open and move message, as a board's outbox writes them (the storm then changes ids and seqs)."""
    from damka.controller.store.store import Store
    from damka.engine.game import Game
    from damka.engine.variants import find_variant
    from damka.hall.outbox import Outbox
    from damka.hall.simboard import choose

    store = Store(folder / "template.sqlite")
    store.add_hook(Outbox().hook)
    variant = find_variant("classic")
    gid = store.new_game(variant, players=["Storm", "Storm"], tags={"Event": "x" * TAG_BYTES, "Round": "1"})
    game = Game(variant)
    game.push(choose(game, 1))
    store.record_plies(gid, game, [1])
    store.close()
    rows = sqlite3.connect(folder / "template.sqlite").execute("SELECT payload FROM outbox ORDER BY id").fetchall()
    return json.loads(rows[0][0]), json.loads(rows[1][0])


def storm_process(user: str, password: str, port: int, folder: str, seconds: float, rate: float, out: str) -> None:
    """Publish `rate` game opens a second (each with its move far ahead), at most 500 unacknowledged."""
    from damka.hall.broker import BrokerSettings, mqtt_client
    from damka.hall.topics import encode

    opened, moved = templates(Path(folder))
    client = mqtt_client(f"storm-{user}", BrokerSettings("127.0.0.1", port, username=user, password=password))
    client.max_inflight_messages_set(500)
    outstanding = [0]
    drops = [0]
    lock = threading.Lock()

    def acked(*args: object) -> None:
        with lock:
            outstanding[0] -= 1

    client.on_publish = acked
    stopping = threading.Event()
    client.on_disconnect = lambda *args: None if stopping.is_set() else drops.__setitem__(0, drops[0] + 1)
    connected = threading.Event()
    client.on_connect = lambda *args: connected.set()
    client.connect_async("127.0.0.1", port)
    client.loop_start()
    connected.wait(30)
    sent = {"open": 0, "move": 0, "state": 0, "other_hall": 0}
    began = time.monotonic()
    end = began + seconds
    game = 1_000_000
    while time.monotonic() < end:
        ahead = sent["open"] - (time.monotonic() - began) * rate
        if outstanding[0] >= 500 or ahead > 0:
            time.sleep(0.001 if outstanding[0] >= 500 else ahead / rate)
            continue
        game += 1
        batch = [(f"damka/h/{user}/game", encode({**opened, "game": game, "seq": 1}), False, "open"),
                 (f"damka/h/{user}/move", encode({**moved, "game": game, "seq": 3, "ply": 2 + game % 500}),
                  False, "move")]
        if game % STATE_EVERY == 0:
            state = {"online": True, "game": game, "seq": 3, "pad": "s" * STATE_BYTES}
            batch.append((f"damka/h/{user}/state", encode(state), True, "state"))
            # ... and one as large under another hall's name: a retained message more for the broker to keep
            other = {"online": True, "pad": "o" * OTHER_HALL_BYTES}
            batch.append((f"damka/x{game}/{user}/state", encode(other), True, "other_hall"))
        for topic, payload, retain, kind in batch:
            with lock:
                outstanding[0] += 1
            client.publish(topic, payload, qos=1, retain=retain)
            sent[kind] += 1
    stopping.set()
    client.disconnect()
    client.loop_stop()
    Path(out).write_text(json.dumps({**sent, "disconnects": drops[0]}))


def get(url: str, timeout: float = 60.0) -> tuple[float, bytes]:
    began = time.monotonic()
    with urllib.request.urlopen(url, timeout=timeout) as response:
        body = response.read()
    return time.monotonic() - began, body


def db_mb(path: Path) -> float:
    return sum(p.stat().st_size for p in path.parent.glob(path.name + "*")) / 2 ** 20


def honest_moves(folder: Path, names: list[str]) -> tuple[int, int]:
    """Moves in the honest boards' stores, and of those the hall has (its games of those boards)."""
    hall = sqlite3.connect(folder / "hall.sqlite")
    total = found = 0
    for name in names:
        board = sqlite3.connect(folder / f"{name}.sqlite")
        for gid, count in board.execute("SELECT game_id, count(*) FROM moves GROUP BY game_id"):
            total += count
            row = hall.execute("SELECT count(*) FROM moves JOIN hall_games ON moves.game_id = hall_games.game_id"
                               " WHERE board = ? AND board_game = ?", (name, gid)).fetchone()
            found += min(row[0], count)
        board.close()
    hall.close()
    return total, found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--rate", type=float, default=400.0, help="the storm's game opens a second (issue 36: 400)")
    parser.add_argument("--speed", type=float, default=10.0, help="the honest boards' pace, times human speed")
    args = parser.parse_args()
    from damka.hall.local_broker import Broker, free_port, mosquitto_binary

    if mosquitto_binary() is None:
        print("mosquitto is not installed: apt install mosquitto", file=sys.stderr)
        return 2
    folder = Path(tempfile.mkdtemp(prefix="hall_storm_"))
    honest = ["b01", "b02"]
    broker = Broker(folder, [*honest, "storm"]).start()
    web = free_port()
    (folder / "hall.pw").write_text(broker.passwords["hall"] + "\n")
    (folder / "hall.toml").write_text(
        f'[hall]\nname = "h"\ndb = "hall.sqlite"\n[broker]\nport = {broker.port}\npassword_file = "hall.pw"\n'
        f'[web]\nbind = "127.0.0.1"\nport = {web}\n')
    log = open(folder / "hall.log", "w")
    hall = subprocess.Popen([sys.executable, "-m", "damka", "hall", "--config", str(folder / "hall.toml")],
                            stdout=subprocess.DEVNULL, stderr=log)
    api = f"http://127.0.0.1:{web}/api/hall"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            get(api, 2)
            break
        except OSError:
            time.sleep(0.1)
    ctx = mp.get_context("spawn")
    done = ctx.Event()
    boards = ctx.Process(target=boards_process, args=(honest, {n: broker.passwords[n] for n in honest}, broker.port,
                                                      str(folder), args.seconds, args.speed, done,
                                                      str(folder / "boards.json"), "h"))
    boards.start()
    time.sleep(3.0)   # the honest boards connect and play a little: the hall's quiet baseline
    quiet = [get(api)[0] for _ in range(20)]
    db_before, broker_start, hall_start = db_mb(folder / "hall.sqlite"), rss_mb(broker.process.pid), rss_mb(hall.pid)
    storm = ctx.Process(target=storm_process, args=("storm", broker.passwords["storm"], broker.port, str(folder),
                                                    args.seconds, args.rate, str(folder / "storm.json")))
    storm.start()
    latencies: list[float] = []
    errors = 0
    broker_peak = hall_peak = 0.0
    while storm.is_alive():
        try:
            latencies.append(get(api, 30)[0])
        except OSError:
            errors += 1
        broker_peak = max(broker_peak, rss_mb(broker.process.pid))
        hall_peak = max(hall_peak, rss_mb(hall.pid))
        time.sleep(0.25)
    storm.join()
    boards.join()
    settle, last = time.monotonic() + 120, None   # what the broker still queues for the hall reaches it
    while time.monotonic() < settle:
        try:
            counts = json.loads(get(api, 30)[1])["counts"]
        except OSError:
            counts = None
        broker_peak = max(broker_peak, rss_mb(broker.process.pid))
        if counts is not None and counts == last:
            break
        last = counts
        time.sleep(2.0)
    db_after = db_mb(folder / "hall.sqlite")
    pdn_memory = [rss_mb(hall.pid)]
    sampling = threading.Event()

    def sample() -> None:
        while not sampling.is_set():
            pdn_memory.append(rss_mb(hall.pid))
            time.sleep(0.05)
    sampler = threading.Thread(target=sample)
    sampler.start()
    try:
        pdn_s, pdn = get(f"http://127.0.0.1:{web}/round.pdn", 120)
    except OSError as exc:
        pdn_s, pdn = float("nan"), str(exc).encode()
    sampling.set()
    sampler.join()
    hall.terminate()
    hall.wait(20)
    broker_end = rss_mb(broker.process.pid)
    broker.stop()
    log.close()
    sent = json.loads((folder / "storm.json").read_text())
    board_result = json.loads((folder / "boards.json").read_text())
    total, found = honest_moves(folder, honest)
    said = (folder / "hall.log").read_text()
    lost_lines = said.count("lost the broker")
    print(f"storm {args.seconds:g} s from one board account: {sent['open']:,} game opens with {TAG_BYTES // 1000} KB"
          f" tags, {sent['move']:,} moves far ahead, {sent['state']:,} retained states of {STATE_BYTES // 1000} KB"
          f" and {sent['other_hall']:,} retained states of {OTHER_HALL_BYTES // 1000} KB under other halls' names"
          f" (its connection dropped {sent['disconnects']} times)")
    print(f"broker (mosquitto, shipped config) memory: {broker_start:.1f} MB at the start, peak {broker_peak:.1f} MB,"
          f" {broker_end:.1f} MB at the end")
    print(f"hall database: {db_before:.1f} MB -> {db_after:.1f} MB (growth {db_after - db_before:.1f} MB)")
    print(f"/api/hall: quiet p50 {percentile(quiet, .5) * 1000:.0f} ms; under the storm over {len(latencies)} polls"
          f" p50 {percentile(latencies, .5) * 1000:.0f} ms, p99 {percentile(latencies, .99) * 1000:.0f} ms,"
          f" max {max(latencies, default=float('nan')) * 1000:.0f} ms, {errors} failed")
    print(f"hall: memory {hall_start:.0f} MB at the start, peak {hall_peak:.0f} MB during the storm;"
          f" lost its broker connection {lost_lines} times; {len(said.splitlines())} log lines"
          f" ({said.count('refused')} of refusals); its counts {last}")
    print(f"honest boards: {total} moves stored, {found} in the hall, {total - found} lost;"
          f" {board_result['pending']} messages still unconfirmed in their outboxes")
    print(f"/round.pdn afterwards: {len(pdn) / 2 ** 20:.1f} MB ({len(pdn):,} bytes) in {pdn_s:.2f} s;"
          f" hall memory {pdn_memory[0]:.0f} MB"
          f" before, peak {max(pdn_memory):.0f} MB while serving it")
    met = (broker_peak < 100 and db_after - db_before < 10 and percentile(latencies, .99) < 0.2 and total == found)
    print(f"issue 36's targets (broker under 100 MB, hall database under +10 MB, /api/hall p99 under 200 ms,"
          f" 0 moves lost): {'met' if met else 'NOT MET'}   (folder {folder})")
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
