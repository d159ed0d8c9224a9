"""One address attacks the board's page; everyone else must not notice (issue 23).

    python benchmarks/web_abuse.py [--idle 250] [--slow 250] [--streams 250] [--tries 20] [--moves 30]

A real server on 127.0.0.1 serves the App on the virtual board (tests/web_rig.py).
An attacker in a process of its own, from 127.0.0.2, holds `--idle` sockets that
send nothing, `--slow` sockets that send a header line every 4 s (slowloris) and
`--streams` event streams it never reads, opening new ones as the server closes
them. Meanwhile a phone at 127.0.0.3 asks for the page's state and opens an event
stream `--tries` times (each must answer within 2 s), and the board plays: its
commit latency (a move carried out and the clock pressed, until the session has
committed it) is measured in rounds alternating with and without the attack.
The server's memory (this process's resident size) is read before an attack of
`--memory-s` seconds with the board standing still and after it ends (while the
board plays, the feed's history of 4000 items fills, whatever the attack).
"""

from __future__ import annotations

import argparse
import http.client
import multiprocessing
import socket
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from damka.controller.setup import GameSetup  # noqa: E402
from web_support import Served  # noqa: E402

ATTACKER, PHONE = "127.0.0.2", "127.0.0.3"


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def attack(port: int, idle: int, slow: int, streams: int) -> None:
    """The attacker's process: keep `idle`, `slow` and `streams` sockets open from one address."""
    kinds = {"idle": (idle, b""), "slow": (slow, b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n"),
             "stream": (streams, b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")}
    held: dict[str, list[socket.socket]] = {kind: [] for kind in kinds}
    last_line = time.monotonic()
    while True:
        for kind, (count, first) in kinds.items():
            alive = []
            for sock in held[kind]:
                try:
                    sock.setblocking(False)
                    closed = sock.recv(1, socket.MSG_PEEK) == b"" if kind != "stream" else False
                except BlockingIOError:
                    closed = False
                except OSError:
                    closed = True
                if closed:
                    sock.close()
                else:
                    alive.append(sock)
            held[kind] = alive
            while len(held[kind]) < count:
                try:
                    sock = socket.create_connection(("127.0.0.1", port), timeout=2, source_address=(ATTACKER, 0))
                    if kind == "stream":
                        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
                    if first:
                        sock.sendall(first)
                except OSError:
                    break
                held[kind].append(sock)
        if time.monotonic() - last_line > 4:
            last_line = time.monotonic()
            for sock in held["slow"]:
                try:
                    sock.send(b"X-Slow: 1\r\n")
                except OSError:
                    pass
        time.sleep(0.5)


def phone_try(port: int) -> float:
    """Seconds for the phone's state and the first line of its event stream (inf: not within 2 s)."""
    started = time.monotonic()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2, source_address=(PHONE, 0))
        conn.request("GET", "/api/state")
        response = conn.getresponse()
        response.read()
        if response.status != 200:
            return float("inf")
        conn.request("GET", "/api/events")
        response = conn.getresponse()
        if response.status != 200 or not response.readline().startswith(b"retry:"):
            return float("inf")
        conn.close()
    except OSError:
        return float("inf")
    took = time.monotonic() - started
    return took if took <= 2 else float("inf")


def commit_latencies(served: Served, moves: int) -> list[float]:
    """Wall ms from a move carried out (and the clock pressed) to its commit, `moves` times."""
    samples = []
    for _ in range(moves):
        move = served.rig.do(lambda: None if served.app.session.game.is_over
                             else served.app.session.game.legal_moves()[0])
        if move is None:
            served.rig.do(lambda: served.app.new_game(GameSetup("classic", time_control="10+5")))
            served.rig.set_up()
            continue
        before = served.rig.committed()
        started = time.perf_counter()
        served.rig.play(move)
        while served.rig.committed() == before:
            time.sleep(0.001)
        samples.append((time.perf_counter() - started) * 1000)
    return samples


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--idle", type=int, default=250)
    parser.add_argument("--slow", type=int, default=250)
    parser.add_argument("--streams", type=int, default=250)
    parser.add_argument("--tries", type=int, default=20)
    parser.add_argument("--moves", type=int, default=30, help="moves per round of the commit latency")
    parser.add_argument("--rounds", type=int, default=4, help="rounds each way (with and without the attack)")
    parser.add_argument("--memory-s", type=float, default=20, help="seconds of the attack on a still board")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        served = Served(Path(tmp))
        served.rig.do(lambda: served.app.new_game(GameSetup("classic", time_control="10+5")))
        served.rig.set_up()
        commit_latencies(served, 5)                        # warm up
        memory_before = rss_mb()
        attacker = multiprocessing.Process(target=attack, daemon=True,
                                           args=(served.web.port, args.idle, args.slow, args.streams))
        attacker.start()
        time.sleep(args.memory_s)
        attacker.terminate()
        attacker.join(10)
        deadline = time.monotonic() + 30
        while (served.web.limits.sockets or served.web.limits.streams) and time.monotonic() < deadline:
            time.sleep(0.1)                                 # the server notices every socket gone
        memory_after = rss_mb()
        pooled: dict[bool, list[float]] = {False: [], True: []}
        answered: list[float] = []
        for index in range(args.rounds):
            for attacked in (False, True) if index % 2 == 0 else (True, False):
                attacker = None
                if attacked:
                    attacker = multiprocessing.Process(target=attack, daemon=True,
                                                       args=(served.web.port, args.idle, args.slow, args.streams))
                    attacker.start()
                    time.sleep(3)                           # its sockets are open (or refused)
                    for _ in range(max(1, args.tries // args.rounds)):
                        answered.append(phone_try(served.web.port))
                pooled[attacked] += commit_latencies(served, args.moves)
                if attacker is not None:
                    attacker.terminate()
                    attacker.join(10)
        limits = served.web.limits
        served.close()
    quiet, attacked = pooled[False], pooled[True]
    ok = sum(t <= 2 for t in answered)
    print(f"attacker at {ATTACKER}: {args.idle} idle, {args.slow} slow, {args.streams} event streams; "
          f"refused {limits.refused}, closed for slowness {limits.timed_out}")
    print(f"phone at {PHONE}: {ok} of {len(answered)} tries answered within 2 s "
          f"(slowest {max(answered):.2f} s)")
    q99, a99 = percentile(quiet, .99), percentile(attacked, .99)
    print(f"commit latency, {len(quiet)} and {len(attacked)} moves: quiet p50 {percentile(quiet, .5):.1f} "
          f"p99 {q99:.1f} ms; attacked p50 {percentile(attacked, .5):.1f} p99 {a99:.1f} ms "
          f"({(a99 / q99 - 1) * 100:+.0f}% at p99)")
    print(f"server memory: {memory_before:.0f} MB before, {memory_after:.0f} MB after "
          f"({(memory_after / memory_before - 1) * 100:+.1f}%)")


if __name__ == "__main__":
    main()
