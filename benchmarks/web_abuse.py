"""One address attacks the board's page; everyone else must not notice (issue 23).

    python benchmarks/web_abuse.py [--idle 250] [--slow 250] [--streams 250] [--tries 20] [--moves 30]
    python benchmarks/web_abuse.py --many [--addresses 90] [--many-streams 24] [--slow-addresses 20] [--many-slow 64]

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

Many addresses (`--many`, issue 36): attackers at the loopback addresses 127.0.0.2
to 127.0.0.91 (the source address of each socket is bound; nothing leaves the
machine), in `--procs` processes. A phone paired before (127.0.1.1) asks for its
state and event stream `--tries` times while 90 addresses hold 24 unread event
streams each, then while 20 hold 64 slow sockets each; a phone that never paired
tries 5 times. Then wrong codes come at `--guesses` a second from the 90
addresses (alone, then beside the event streams) and a new phone pairs, as a
person would: the short code, and the long one once the screen shows it.

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
import logging
import multiprocessing
import os
import random
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
MANY = tuple(f"127.0.0.{n}" for n in range(2, 92))         # the many-address attack: loopback only
PAIRED, STRANGER, NEWCOMERS = "127.0.1.1", "127.0.1.3", ("127.0.1.2", "127.0.1.4")


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def cpu_s(stat: str) -> float:
    """CPU seconds (user and system) of a thread or process, from its /proc/.../stat file."""
    fields = Path(stat).read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def attack(port: int, idle: int, slow: int, streams: int, sources: tuple[str, ...] = (ATTACKER,)) -> None:
    """The attacker's process: keep `idle`, `slow` and `streams` sockets open from each address of `sources`."""
    kinds = {"idle": (idle, b""), "slow": (slow, b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n"),
             "stream": (streams, b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")}
    held: dict[tuple[str, str], list[socket.socket]] = {(source, kind): [] for source in sources for kind in kinds}
    last_line = time.monotonic()
    while True:
        for (source, kind), socks in held.items():
            count, first = kinds[kind]
            # Closed by the server (refused with a 429 it never reads, timed out, dropped): the peer's
            # hang-up is seen without reading, so the event streams stay unread.
            poller = select.poll()
            for sock in socks:
                poller.register(sock, select.POLLRDHUP | select.POLLHUP | select.POLLERR)
            gone = {fd for fd, _ in poller.poll(0)}
            for sock in socks:
                if sock.fileno() in gone:
                    sock.close()
            socks[:] = [sock for sock in socks if sock.fileno() != -1]
            while len(socks) < count:
                try:
                    sock = socket.create_connection(("127.0.0.1", port), timeout=2, source_address=(source, 0))
                    if kind == "stream":
                        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
                    if first:
                        sock.sendall(first)
                except OSError:
                    break
                socks.append(sock)
        if time.monotonic() - last_line > 4:
            last_line = time.monotonic()
            for (_, kind), socks in held.items():
                for sock in socks if kind == "slow" else ():
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


def phone_try(port: int, source: str = PHONE) -> float:
    """Seconds for the phone's state and the first line of its event stream (inf: not within 2 s)."""
    started = time.monotonic()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2, source_address=(source, 0))
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


def login(port: int, code: str, source: str) -> tuple[int, str]:
    """A phone's POST /api/login with `code` from `source`: the status and the answer's text (0: no answer)."""
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5, source_address=(source, 0))
        conn.request("POST", "/api/login", body=b"{}", headers={
            "Content-Type": "application/json", "Cookie": "damka_csrf=t", "X-CSRF-Token": "t", "X-Damka-Code": code})
        response = conn.getresponse()
        text = response.read().decode(errors="replace")
        conn.close()
    except OSError as error:
        return 0, str(error)
    return response.status, text


def guess(port: int, rate: float, sources: tuple[str, ...], counts: "multiprocessing.Queue[dict]") -> None:
    """The guessers' process: wrong codes at `rate` a second, from each of `sources` in turn, until terminated;
    the statuses counted every second on `counts`."""
    seen: dict[str, int] = {}
    started = last = due = time.monotonic()
    for n in range(10 ** 9):
        status, text = login(port, f"{n * 7919 % 1_000_000:06d}", sources[n % len(sources)])
        said = {429: " (this board)" if "on this board" in text else " (that address)"}.get(status, "")
        seen[f"{status}{said}"] = seen.get(f"{status}{said}", 0) + 1
        now = time.monotonic()
        if now - last >= 1:
            last = now
            counts.put(dict(seen, elapsed=now - started, guesser=sources[0]))
        due += random.expovariate(rate)    # at random moments, as many phones would (paced evenly, the
        time.sleep(max(0.0, due - time.monotonic()))   # guessers left gaps at the same place each time)


def many_addresses(args: argparse.Namespace) -> None:
    """Issue 36: many addresses at once. A phone paired before the attack must get its state and event
    stream 20 of 20 times within 2 s; a new phone must pair within 10 s while codes are guessed."""
    sources = MANY[:args.addresses]
    logging.getLogger("uvicorn.error").setLevel(logging.ERROR)   # uvicorn's 'Exceeded concurrency limit', each time
    with tempfile.TemporaryDirectory() as tmp:
        served = Served(Path(tmp))
        port = served.web.port
        status, text = login(port, served.code, PAIRED)
        assert status == 200, (status, text)
        phone_try(port, PAIRED)
        served.rig.do(lambda: served.app.new_game(GameSetup("classic", time_control="10+5")))
        served.rig.set_up()
        commit_latencies(served, 5)                        # warm up
        quiet = commit_latencies(served, args.moves)
        print(f"the board's commit latency, quiet, {len(quiet)} moves: p50 {percentile(quiet, .5):.1f} "
              f"p99 {percentile(quiet, .99):.1f} ms")
        memory_before = rss_mb()
        for label, idle, slow, streams, count in (("event streams", 0, 0, args.many_streams, args.addresses),
                                                  ("slow sockets", 0, args.many_slow, 0, args.slow_addresses)
                                                  )[:0 if args.pairing_only else 2]:
            chosen = sources[:count]
            attackers = [multiprocessing.Process(target=attack, daemon=True,
                                                 args=(port, idle, slow, streams, chosen[part::args.procs]))
                         for part in range(min(args.procs, len(chosen)))]
            for attacker in attackers:
                attacker.start()
            time.sleep(args.settle_s)                       # the sockets are open, or refused and opened again
            held = sum(served.web.limits.sockets.values())
            server_stat = f"/proc/self/task/{served.web.thread_id}/stat"
            cpu, wall = cpu_s(server_stat), time.monotonic()
            answered = [phone_try(port, PAIRED) for _ in range(args.tries)]
            stranger = [phone_try(port, STRANGER) for _ in range(5)]
            busy = (cpu_s(server_stat) - cpu) / (time.monotonic() - wall)
            memory = rss_mb()                               # (before the moves: they fill the feed's history)
            attacked = commit_latencies(served, args.moves)
            for attacker in attackers:
                attacker.terminate()
                attacker.join(10)
            ok = sum(t <= 2 for t in answered)
            print(f"{count} addresses x {slow or streams} {label} ({held} sockets held by the server after "
                  f"{args.settle_s:.0f} s): the paired phone {ok} of {len(answered)} within 2 s "
                  f"(slowest {max(answered):.2f} s, median {percentile(answered, .5):.2f} s); a phone never "
                  f"paired {sum(t <= 2 for t in stranger)} of {len(stranger)}; server memory "
                  f"{memory_before:.0f} -> {memory:.0f} MB; the server's thread {100 * busy:.0f}% of a core; "
                  f"the board's commit latency p50 {percentile(attacked, .5):.1f} "
                  f"p99 {percentile(attacked, .99):.1f} ms")
            deadline = time.monotonic() + 30
            while served.web.limits.sockets and time.monotonic() < deadline:
                time.sleep(0.1)
        for label, streams in (("", 0), (f" beside {args.addresses} x {args.many_streams} event streams",
                                         args.many_streams)):
            attackers = [multiprocessing.Process(target=attack, daemon=True,
                                                 args=(port, 0, 0, streams, sources[part::args.procs]))
                         for part in range(args.procs)] if streams else []
            counts: multiprocessing.Queue = multiprocessing.Queue()
            guessers = [multiprocessing.Process(target=guess, daemon=True, args=(
                port, args.guesses / args.guessers, sources[part::args.guessers], counts))
                for part in range(args.guessers)]          # several: one process's pauses leave no gap
            for process in (*attackers, *guessers):
                process.start()
            time.sleep(5)                                  # the board-wide wrong codes are used up
            newcomer = NEWCOMERS[bool(streams)]
            started, tries, status, text = time.monotonic(), 0, 0, ""
            code = served.code
            while time.monotonic() - started < 60:
                tries += 1
                status, text = login(port, code, newcomer)
                if status == 200:
                    break
                long_code = getattr(served.web.access, "long_code", None)
                if status == 429 and long_code and long_code[6:] in served.rig.do(lambda: served.app.banner):
                    code = long_code                       # the person types the long code the screen shows now
                time.sleep(random.uniform(0.5, 1.5))      # a person: about a second, never in step with the guessers
            took = time.monotonic() - started
            for process in (*attackers, *guessers):
                process.terminate()
                process.join(10)
            last: dict[object, dict] = {}                  # each guesser's last count
            while not counts.empty():
                seen = counts.get()
                last[seen.pop("guesser")] = seen
            elapsed = max((seen.pop("elapsed") for seen in last.values()), default=1e-9)
            statuses: dict[str, int] = {}
            for seen in last.values():
                for status_seen, count in seen.items():
                    statuses[status_seen] = statuses.get(status_seen, 0) + count
            print(f"wrong codes at {sum(statuses.values()) / elapsed:.0f} a second from {len(sources)} "
                  f"addresses{label} "
                  f"({', '.join(f'{v} x {k}' for k, v in sorted(statuses.items()))}): a new phone "
                  f"{'paired' if status == 200 else f'not paired ({status}: {text[:120]})'} after {took:.1f} s and "
                  f"{tries} tries")
            deadline = time.monotonic() + 30
            while served.web.limits.sockets and time.monotonic() < deadline:
                time.sleep(0.1)
        served.close()


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
    many = parser.add_argument_group("many addresses (issue 36)")
    many.add_argument("--many", action="store_true", help="the many-address attacks instead of the one-address one")
    many.add_argument("--addresses", type=int, default=90, help="addresses holding event streams (127.0.0.2 on)")
    many.add_argument("--many-streams", type=int, default=24, help="event streams per address")
    many.add_argument("--slow-addresses", type=int, default=20)
    many.add_argument("--many-slow", type=int, default=64, help="slow sockets per address")
    many.add_argument("--procs", type=int, default=3, help="attacking processes")
    many.add_argument("--settle-s", type=float, default=8, help="seconds of the attack before the phone tries")
    many.add_argument("--guesses", type=float, default=36, help="wrong codes a second")
    many.add_argument("--guessers", type=int, default=4, help="guessing processes (the addresses shared out)")
    many.add_argument("--pairing-only", action="store_true", help="only the new phone pairing while codes are guessed")
    args = parser.parse_args()
    if args.many:
        many_addresses(args)
        return
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
