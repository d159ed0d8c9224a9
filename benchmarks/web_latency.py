"""The web page's cost and speed: commit-to-page latency with 20 pages watching, and the
tracker's latency with and without the server running beside it.

    python benchmarks/web_latency.py [--pages 20] [--moves 60]

A real server on 127.0.0.1 serves the App on the virtual board (tests/web_rig.py);
20 watchers read its server-sent events over HTTP (as EventSource does). For every
committed move: wall time from the MoveCommitted event on the board's thread to
its arrival at each watcher (p50/p99). Then benchmarks/tracker_latency.py's
measurement (CPU time of the snapshot that completes a move) runs alone, and again
while the server pushes a game to the 20 watchers in the same process.
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
from damka.controller.setup import GameSetup  # noqa: E402
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


def tracker_latency(pages: int, pause: float) -> None:
    import types

    import tracker_latency as tl
    from damka.controller.session import Mode

    # Wall time, not the process's CPU time: with the server in the process, what
    # counts is how long the board waits (the GIL), and the server's own CPU is not the board's.
    tl.time = types.SimpleNamespace(process_time_ns=time.perf_counter_ns)

    def run() -> tuple[float, float]:
        samples: list[float] = []
        for seed in range(6):
            samples += tl.commit_latencies(tl.play("classic", seed, 200, Mode.CASUAL))
        return statistics.median(samples), percentile(samples, .99)

    alone = run()
    game_only = beside_a_game(run, pages, pause, server=False)
    served = beside_a_game(run, pages, pause, server=True)
    print(f"tracker latency (classic, wall ms per completing snapshot): alone p50 {alone[0]:.3f} p99 {alone[1]:.3f}")
    print(f"  beside a second game at ten times a person's speed (a move every {pause * 1000:.0f} ms), no server: "
          f"p50 {game_only[0]:.3f} p99 {game_only[1]:.3f}")
    print(f"  the same with the web server pushing that game to {pages} pages: p50 {served[0]:.3f} p99 {served[1]:.3f}"
          f" (the server's own cost: {(served[0] / game_only[0] - 1) * 100:+.0f}% at p50, "
          f"{(served[1] / game_only[1] - 1) * 100:+.0f}% at p99)")


def beside_a_game(run, pages: int, pause: float, *, server: bool) -> tuple[float, float]:
    """The tracker measured while another game is played in this process (the
    pushed game; on the board it is the same game), with or without the server."""
    with tempfile.TemporaryDirectory() as tmp:
        served = Served(Path(tmp), web=server)
        pages_process = None
        if server:
            # The pages are phones and laptops: they read in a process of their own.
            pages_process = multiprocessing.Process(target=watchers, args=(served.web.port, pages), daemon=True)
            pages_process.start()
        game = threading.Thread(target=play, args=(served, 400, pause), daemon=True)
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
    args = parser.parse_args()
    page_latency(args.pages, args.moves)
    tracker_latency(args.pages, args.pause)


if __name__ == "__main__":
    main()
