"""The web page's cost and speed: commit-to-page latency with 20 pages watching, and the
tracker's latency with and without the server running beside it.

    python benchmarks/web_latency.py [--pages 20] [--moves 60] [--pause 0.3] [--rounds 6]

A real server on 127.0.0.1 serves the App on the virtual board (tests/web_rig.py);
20 watchers read its server-sent events over HTTP (as EventSource does). For every
committed move: wall time from the MoveCommitted event on the board's thread to
its arrival at each watcher (p50/p99). Then benchmarks/tracker_latency.py's
measurement (wall time of the snapshot that completes a move) runs alone, then in
alternating rounds beside a second game in the same process, with and without
the server pushing that game to the 20 watchers; the rounds' samples are pooled.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from damka.controller import events as ev  # noqa: E402
from damka.controller.game.setup import GameSetup  # noqa: E402
from web_support import Served  # noqa: E402


def watcher(port: int, seen: dict[int, float], stop: threading.Event) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", "/api/events")
    response = conn.getresponse()
    kind = ""
    while not stop.is_set():
        line = response.fp.readline()
        if not line:
            return
        text = line.decode().rstrip("\n")
        if text.startswith("event: "):
            kind = text[7:]
        elif text.startswith("data: ") and kind == "event":
            data = json.loads(text[6:])
            if data.get("type") == "MoveCommitted":
                seen.setdefault(data["ply"], time.time() * 1000)


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def play(served: Served, moves: int, pause: float) -> int:
    served.rig.do(lambda: served.app.new_game(GameSetup("classic", time_control="10+5")))
    served.rig.set_up()
    plies = 0
    while plies < moves:
        move = served.rig.do(lambda: None if served.app.session.game.is_over else served.app.session.game.legal_moves()[0])
        if move is None:
            served.rig.do(lambda: served.app.new_game(GameSetup("classic", time_control="10+5")))
            served.rig.set_up()
            continue
        served.rig.play(move)
        plies += 1
        time.sleep(pause)
    return plies


def page_latency(pages: int, moves: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        served = Served(Path(tmp))
        committed: dict[int, float] = {}
        served.rig.do(lambda: served.app.bus.subscribe(lambda e: committed.setdefault(e.ply, time.time() * 1000),
                                                       ev.MoveCommitted))
        stop = threading.Event()
        seen = [dict() for _ in range(pages)]
        threads = [threading.Thread(target=watcher, args=(served.web.port, s, stop), daemon=True) for s in seen]
        for t in threads:
            t.start()
        time.sleep(0.5)
        play(served, moves, 0.05)
        time.sleep(0.5)
        stop.set()
        latencies = [s[ply] - at for s in seen for ply, at in committed.items() if ply in s]
        missing = sum(1 for s in seen for ply in committed if ply not in s)
        print(f"commit-to-page, {pages} pages, {len(committed)} moves: p50 {percentile(latencies, .5):.1f} ms, "
              f"p99 {percentile(latencies, .99):.1f} ms, max {max(latencies):.1f} ms, missing {missing}")
        served.close()


def tracker_latency(pages: int, pause: float, rounds: int) -> None:
    import types

    import tracker_latency as tl
    from damka.controller.session import Mode

    # Wall time, not the process's CPU time: with the server in the process, what
    # counts is how long the board waits (the GIL), and the server's own CPU is not the board's.
    tl.time = types.SimpleNamespace(process_time_ns=time.perf_counter_ns)

    def run() -> list[float]:
        samples: list[float] = []
        for seed in range(6):
            samples += tl.commit_latencies(tl.play("classic", seed, 200, Mode.CASUAL))
        return samples

    alone = run()
    print(f"tracker latency (classic, wall ms per completing snapshot): alone p50 {statistics.median(alone):.3f} "
          f"p99 {percentile(alone, .99):.3f} ({len(alone)} commits)")
    # Rounds alternate without and with the server, so a busy spell of the machine
    # falls on both sides; the pooled samples give the p99 (one round's p99 rests
    # on a dozen samples: that is the noise earlier single runs showed).
    pooled: dict[bool, list[float]] = {False: [], True: []}
    for index in range(rounds):
        for server in (False, True) if index % 2 == 0 else (True, False):
            samples = beside_a_game(run, pages, pause, server=server)
            pooled[server] += samples
            print(f"  round {index + 1}/{rounds} {'with' if server else 'without'} the server: "
                  f"p50 {statistics.median(samples):.3f} p99 {percentile(samples, .99):.3f}", file=sys.stderr, flush=True)
    without, with_server = pooled[False], pooled[True]
    p50 = statistics.median(without), statistics.median(with_server)
    p99 = percentile(without, .99), percentile(with_server, .99)
    print(f"  beside a second game (a move every {pause * 1000:.0f} ms), {rounds} rounds each way, "
          f"{len(without)} and {len(with_server)} commits:")
    print(f"    no server: p50 {p50[0]:.3f} p99 {p99[0]:.3f}; the server pushing that game to {pages} pages: "
          f"p50 {p50[1]:.3f} p99 {p99[1]:.3f} (the server's own cost: {(p50[1] / p50[0] - 1) * 100:+.0f}% at p50, "
          f"{(p99[1] / p99[0] - 1) * 100:+.0f}% at p99)")


def beside_a_game(run, pages: int, pause: float, *, server: bool) -> list[float]:
    """The tracker measured while another game is played in this process (the
    pushed game; on the board it is the same game), with or without the server."""
    with tempfile.TemporaryDirectory() as tmp:
        served = Served(Path(tmp), web=server)
        pages_process = None
        if server:
            # The pages are phones and laptops: they read in a process of their own.
            pages_process = multiprocessing.Process(target=watchers, args=(served.web.port, pages), daemon=True)
            pages_process.start()
        game = threading.Thread(target=play, args=(served, 100_000, pause), daemon=True)
        game.start()
        time.sleep(0.5)
        result = run()
        if pages_process is not None:
            pages_process.terminate()
        served.close()
    return result


def watchers(port: int, pages: int) -> None:
    """`pages` watchers reading the event stream (in a process of their own)."""
    stop = threading.Event()
    threads = [threading.Thread(target=watcher, args=(port, {}, stop), daemon=True) for _ in range(pages)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=20)
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--pause", type=float, default=0.3,
                        help="seconds between the pushed game's moves while the tracker is measured (default 0.3: "
                             "about ten times a person's speed)")
    parser.add_argument("--rounds", type=int, default=6, help="alternating rounds without and with the server")
    parser.add_argument("--skip-pages", action="store_true", help="only the tracker latency part")
    args = parser.parse_args()
    if args.pages < 1 or args.moves < 1 or args.rounds < 1 or args.pause <= 0:
        parser.error("--pages, --moves and --rounds must be at least 1, --pause above 0")
    if not args.skip_pages:
        page_latency(args.pages, args.moves)
    tracker_latency(args.pages, args.pause, args.rounds)


if __name__ == "__main__":
    main()
