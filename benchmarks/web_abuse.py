"""One address attacks the board's page; everyone else must not notice (issue 23).

    python benchmarks/web_abuse.py [--idle 250] [--slow 250] [--streams 250] [--tries 20] [--moves 30]

A real server on 127.0.0.1 serves the App on the virtual board (tests/web_rig.py).
An attacker in a process of its own, from 127.0.0.2, holds `--idle` sockets that
send nothing, `--slow` sockets that send a header line every 4 s (slowloris) and
`--streams` event streams it never reads, opening new ones as the server closes
them (every 0.5 s: the server's hang-up is seen with poll's POLLRDHUP, without
reading; the first version looked with a peek that took an unread 429 for an
open socket, so refused sockets were not opened again). Meanwhile a phone at 127.0.0.3 asks for the page's state and opens an event
stream `--tries` times (each must answer within 2 s), and the board plays: its
commit latency (a move carried out and the clock pressed, until the session has
committed it) is measured in rounds alternating with and without the attack.
The server's memory (this process's resident size) is read before an attack of
`--memory-s` seconds with the board standing still and after it ends (while the
board plays, the feed's history of 4000 items fills, whatever the attack).

The machine's own share: the same attacker, aimed at a stand-in server in a
process of its own (an asyncio listener with the same caps: 64 sockets, 10 s
to send a request, 429 beyond), in rounds of their own. What the attack costs
the board there is what the attacking process and the kernel's TCP work cost a
loaded machine, whatever our server does; the rest is the server's.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import multiprocessing
import os
import select
import socket
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from damka.controller.game.setup import GameSetup  # noqa: E402
from web_support import Served  # noqa: E402

ATTACKER, PHONE = "127.0.0.2", "127.0.0.3"


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def cpu_s(stat: str) -> float:
    """CPU seconds (user and system) of a thread or process, from its /proc/.../stat file."""
    fields = Path(stat).read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def attack(port: int, idle: int, slow: int, streams: int) -> None:
    """The attacker's process: keep `idle`, `slow` and `streams` sockets open from one address."""
    kinds = {"idle": (idle, b""), "slow": (slow, b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n"),
             "stream": (streams, b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")}
    held: dict[str, list[socket.socket]] = {kind: [] for kind in kinds}
    last_line = time.monotonic()
    while True:
        for kind, (count, first) in kinds.items():
            # Closed by the server (refused with a 429 it never reads, timed out, dropped): the peer's
            # hang-up is seen without reading, so the event streams stay unread.
            poller = select.poll()
            for sock in held[kind]:
                poller.register(sock, select.POLLRDHUP | select.POLLHUP | select.POLLERR)
            gone = {fd for fd, _ in poller.poll(0)}
            for sock in held[kind]:
                if sock.fileno() in gone:
                    sock.close()
            held[kind] = [sock for sock in held[kind] if sock.fileno() != -1]
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


def stand_in(ports: "multiprocessing.Queue[int]") -> None:
    """A server in a process of its own with the page's caps, for the attacker to aim at instead."""
    async def serve() -> None:
        open_sockets = [0]

        async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            if open_sockets[0] >= 64:
                writer.write(b"HTTP/1.1 429 Too Many Requests\r\nconnection: close\r\ncontent-length: 0\r\n\r\n")
                writer.close()
                return
            open_sockets[0] += 1
            try:
                await asyncio.wait_for(reader.read(1 << 20), 10)
            except (OSError, TimeoutError):
                pass
            finally:
                open_sockets[0] -= 1
                writer.transport.abort()
        server = await asyncio.start_server(handle, "127.0.0.1", 0, backlog=128)
        ports.put(server.sockets[0].getsockname()[1])
        await server.serve_forever()
    asyncio.run(serve())


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
    parser.add_argument("--no-control", action="store_true",
                        help="leave out the rounds with the attack aimed at a stand-in server")
    args = parser.parse_args()
    ports: multiprocessing.Queue = multiprocessing.Queue()
    stand = multiprocessing.Process(target=stand_in, args=(ports,), daemon=True)
    stand.start()
    stand_port = ports.get(timeout=30)
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
        pooled: dict[str, list[float]] = {"quiet": [], "attacked": [], "control": []}
        kinds = ["quiet", "attacked"] + ([] if args.no_control else ["control"])
        answered: list[float] = []
        server_stat = f"/proc/self/task/{served.web.thread_id}/stat"
        busy = {kind: [0.0, 0.0, 0.0] for kind in pooled}  # CPU s of the server's thread, wall s, attacker's CPU s
        for index in range(args.rounds):
            for kind in kinds[index % len(kinds):] + kinds[:index % len(kinds)]:    # each kind in turn first
                attacker = None
                if kind != "quiet":
                    target = served.web.port if kind == "attacked" else stand_port
                    attacker = multiprocessing.Process(target=attack, daemon=True,
                                                       args=(target, args.idle, args.slow, args.streams))
                    attacker.start()
                    time.sleep(3)                           # its sockets are open (or refused)
                if kind == "attacked":
                    for _ in range(max(1, args.tries // args.rounds)):
                        answered.append(phone_try(served.web.port))
                cpu, wall = cpu_s(server_stat), time.monotonic()
                attacker_cpu = cpu_s(f"/proc/{attacker.pid}/stat") if attacker is not None else 0.0
                pooled[kind] += commit_latencies(served, args.moves)
                busy[kind][0] += cpu_s(server_stat) - cpu
                busy[kind][1] += time.monotonic() - wall
                if attacker is not None:
                    busy[kind][2] += cpu_s(f"/proc/{attacker.pid}/stat") - attacker_cpu
                    attacker.terminate()
                    attacker.join(10)
        limits = served.web.limits
        served.close()
    stand.terminate()
    quiet, attacked, control = pooled["quiet"], pooled["attacked"], pooled["control"]
    ok = sum(t <= 2 for t in answered)
    print(f"attacker at {ATTACKER}: {args.idle} idle, {args.slow} slow, {args.streams} event streams; "
          f"refused {limits.refused}, closed for slowness {limits.timed_out}")
    print(f"phone at {PHONE}: {ok} of {len(answered)} tries answered within 2 s "
          f"(slowest {max(answered):.2f} s)")
    q99, a99 = percentile(quiet, .99), percentile(attacked, .99)
    print(f"commit latency, {len(quiet)} and {len(attacked)} moves: quiet p50 {percentile(quiet, .5):.1f} "
          f"p99 {q99:.1f} ms; attacked p50 {percentile(attacked, .5):.1f} p99 {a99:.1f} ms "
          f"({(a99 / q99 - 1) * 100:+.0f}% at p99)")
    if control:
        c99 = percentile(control, .99)
        print(f"the same attack on a stand-in server in another process (the machine's share), {len(control)} moves: "
              f"p50 {percentile(control, .5):.1f} p99 {c99:.1f} ms ({(c99 / q99 - 1) * 100:+.0f}% at p99)")
    print("while the board plays, the server's thread used " + ", ".join(
        f"{kind} {100 * cpu / wall:.1f}%" for kind, (cpu, wall, _) in busy.items() if wall)
        + " of a core; the attacking process " + ", ".join(
        f"{kind} {100 * other / wall:.1f}%" for kind, (_, wall, other) in busy.items() if wall and kind != "quiet"))
    print(f"server memory: {memory_before:.0f} MB before, {memory_after:.0f} MB after "
          f"({(memory_after / memory_before - 1) * 100:+.1f}%)")


if __name__ == "__main__":
    main()
