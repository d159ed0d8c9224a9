#!/usr/bin/env python3
"""Load on the tournament hall: N simulated boards through one Mosquitto at 10x human speed.

    python benchmarks/hall_load.py                  # 200 boards, 60 s
    python benchmarks/hall_load.py --boards 50 --seconds 20 --speed 10

Each board is a real store with the real outbox and publisher (its own MQTT
connection and account, the project's ACL), committing a move every
HUMAN_MOVE_S / speed seconds (jittered) in a 2-player or 4-player game. The
boards run in --procs worker processes; the hall (`HallService`, the same as
`damka hall` without its page) runs in a process of its own so its CPU is its
own. Prints commit-to-hall latency (the move's store time to the hall's
commit of it) p50/p99/max, messages per second, the hall's CPU, and messages
lost (outbox rows never applied by the hall: must be 0).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import random
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HUMAN_MOVE_S = 15.0   # a move every 15 s on average at a human tournament pace (both players together)
VARIANTS = ["classic", "russian", "multiwarcaby/sides=4", "international", "american", "multiwarcaby"]


def hall_process(settings, db: str, stop, out: str) -> None:
    from damka.hall.service import HallService

    latencies: list[float] = []

    def applied(board: str, info: dict) -> None:
        data = json.loads(info["payload"])
        if data.get("kind") == "move":
            latencies.append(info["t"] - datetime.fromisoformat(data["time"]).timestamp())

    service = HallService("bench", settings, Path(db), on_applied=applied).start()
    stop.wait()
    cpu = os.times()
    result = {"applied": service.record.counts["applied"], "duplicate": service.record.counts["duplicate"],
              "bad": service.record.counts["bad"], "received": service.received, "latencies": latencies,
              "cpu_s": cpu.user + cpu.system}
    service.close()
    Path(out).write_text(json.dumps(result))


def boards_process(names: list[str], passwords: dict[str, str], port: int, folder: str, seconds: float,
                   speed: float, done, out: str, hall: str = "bench") -> None:
    from damka.controller.store.store import Store
    from damka.engine.game import Game
    from damka.engine.variant import Result
    from damka.engine.variants import find_variant
    from damka.hall.broker import BrokerSettings
    from damka.hall.publisher import BoardPublisher
    from damka.hall.simboard import choose, parse_specs

    rng = random.Random(names[0])
    boards = []
    for index, name in enumerate(names):
        path = Path(folder) / f"{name}.sqlite"
        store = Store(path)
        publisher = BoardPublisher(hall, name, BrokerSettings("127.0.0.1", port, username=name,
                                                                  password=passwords[name]), path)
        publisher.attach(store)
        publisher.start()
        boards.append({"store": store, "pub": publisher, "game": None, "gid": 0, "seed": index,
                       "spec": parse_specs(f"{VARIANTS[index % len(VARIANTS)]}:{index}")[0],
                       "due": time.monotonic() + rng.uniform(0, HUMAN_MOVE_S / speed)})
    connect_by = time.monotonic() + 30  # latency is measured on connected boards (a board's boot is not the hall's)
    while time.monotonic() < connect_by and not all(b["pub"].connected.is_set() for b in boards):
        time.sleep(0.05)
    now = time.monotonic()
    for b in boards:
        b["due"] = now + rng.uniform(0, HUMAN_MOVE_S / speed)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        board = min(boards, key=lambda b: b["due"])
        time.sleep(max(0.0, board["due"] - time.monotonic()))
        store = board["store"]
        if board["game"] is None or board["game"].is_over or board["game"].ply >= 60:
            if board["game"] is not None:
                n = len(board["game"].variant.sides)
                store.finish(board["gid"], board["game"].result or Result((0.5,) * n, (1,) * n, "adjudicated"))
            variant = find_variant(board["spec"].variant, **dict(board["spec"].options))
            board["game"], board["seed"] = Game(variant), board["seed"] + 1000
            board["gid"] = store.new_game(variant, players=[f"{names[0]}-{s}" for s in range(len(variant.sides))])
        game = board["game"]
        game.push(choose(game, board["seed"]))
        store.record_plies(board["gid"], game, [game.ply])
        board["due"] += rng.uniform(0.5, 1.5) * HUMAN_MOVE_S / speed
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and any(b["pub"].reader.pending() for b in boards):
        time.sleep(0.1)
    rows = sum(b["pub"].reader.conn.execute("SELECT count(*) FROM outbox").fetchone()[0] for b in boards)
    pending = sum(b["pub"].reader.pending() for b in boards)
    for b in boards:
        b["pub"].close()
        b["store"].close()
    Path(out).write_text(json.dumps({"rows": rows, "pending": pending}))
    done.set()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--boards", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--speed", type=float, default=10.0, help="times human speed")
    parser.add_argument("--procs", type=int, default=4, help="worker processes for the boards")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from damka.hall.local_broker import Broker, mosquitto_binary

    if mosquitto_binary() is None:
        print("mosquitto is not installed: apt install mosquitto", file=sys.stderr)
        return 2
    folder = Path(tempfile.mkdtemp(prefix="hall_load_"))
    names = [f"b{i:04d}" for i in range(args.boards)]
    broker = Broker(folder, names, hall="bench")
    broker.start()
    ctx = mp.get_context("spawn")
    stop = ctx.Event()
    hall = ctx.Process(target=hall_process, args=(broker.settings("hall"), str(folder / "hall.sqlite"), stop,
                                                  str(folder / "hall.json")))
    hall.start()
    time.sleep(1.0)
    workers, dones = [], []
    started = time.monotonic()
    for k in range(args.procs):
        chunk = names[k::args.procs]
        done = ctx.Event()
        proc = ctx.Process(target=boards_process, args=(chunk, {n: broker.passwords[n] for n in chunk}, broker.port,
                                                        str(folder), args.seconds, args.speed, done,
                                                        str(folder / f"boards{k}.json")))
        proc.start()
        workers.append(proc)
        dones.append(done)
    for proc in workers:
        proc.join()
    elapsed = time.monotonic() - started
    time.sleep(2.0)  # the last acknowledged messages reach the hall
    stop.set()
    hall.join()
    ticks = os.sysconf("SC_CLK_TCK")
    fields = Path(f"/proc/{broker.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
    broker_cpu = (int(fields[11]) + int(fields[12])) / ticks
    broker.stop()
    boards = [json.loads((folder / f"boards{k}.json").read_text()) for k in range(args.procs)]
    h = json.loads((folder / "hall.json").read_text())
    rows = sum(b["rows"] for b in boards)
    lat = h["latencies"]
    print(f"boards {args.boards}, {args.speed:g}x human speed, {args.seconds:g} s of play ({elapsed:.1f} s in all)")
    print(f"messages committed {rows}, applied by the hall {h['applied']} (duplicates dropped {h['duplicate']}, "
          f"bad {h['bad']}), received {h['received']} incl. state/status/clock")
    print(f"messages lost: {rows - h['applied']}   still in outboxes: {sum(b['pending'] for b in boards)}")
    print(f"throughput: {h['applied'] / args.seconds:.1f} logged messages/s, {h['received'] / args.seconds:.1f} "
          f"messages/s received by the hall")
    print(f"commit-to-hall latency over {len(lat)} moves: p50 {percentile(lat, .5) * 1000:.1f} ms, "
          f"p99 {percentile(lat, .99) * 1000:.1f} ms, max {max(lat, default=float('nan')) * 1000:.1f} ms")
    print(f"hall CPU: {h['cpu_s']:.2f} s over {elapsed + 3:.0f} s = {100 * h['cpu_s'] / (elapsed + 3):.1f}% of one core")
    print(f"broker (mosquitto) CPU: {broker_cpu:.2f} s = {100 * broker_cpu / (elapsed + 3):.1f}% of one core")
    return 0 if rows == h["applied"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
