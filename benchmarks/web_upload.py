"""A 125,000-record PDN upload through the board's page: does the board loop ever stand still? (issue 23)

    python benchmarks/web_upload.py [--records 125000] [--quiet-s 5]

A real server on 127.0.0.1 serves the App on the virtual board (tests/web_rig.py),
whose loop runs every 5 ms. The longest time between two runs of the loop is
measured for `--quiet-s` seconds with no upload (the machine's own hiccups),
then while the same file of one-move games (1.25 MB at 125,000; tags alone are not
a game since issue 36) is uploaded twice, to an archive whose budget takes them all, a phone asking for the page's state meanwhile. Prints the longest pause
(the target: never over 200 ms), the pauses over 100 ms, how long each import
took, the games each stored (the second must add 0) and the server's memory.
The machine's own share: a process of its own doing nothing but the same 5 ms
loop, meanwhile, and its longest pause (a loaded machine stops any process
now and then, whatever the upload does).
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from damka.controller.store.budget import ArchiveBudget  # noqa: E402
from upload_rig import Pauses, get, one_move_records, upload  # noqa: E402
from web_abuse import rss_mb  # noqa: E402
from web_support import Served  # noqa: E402


def ticker(stop: "multiprocessing.synchronize.Event", out: "multiprocessing.Queue[tuple[float, int]]") -> None:
    """The control: a loop every 5 ms in a process of its own; its longest pause and pauses over 100 ms."""
    longest, over, last = 0.0, 0, time.monotonic()
    while not stop.is_set():
        time.sleep(0.005)
        now = time.monotonic()
        longest, over, last = max(longest, now - last), over + (now - last > 0.1), now
    out.put((longest, over))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=125_000)
    parser.add_argument("--quiet-s", type=float, default=5.0, help="seconds measured with no upload first")
    args = parser.parse_args()
    text = one_move_records(args.records)
    with tempfile.TemporaryDirectory() as tmp:
        served = Served(Path(tmp), archive=ArchiveBudget(games=max(args.records, ArchiveBudget().games)))
        quiet = Pauses(served)
        time.sleep(args.quiet_s)
        quiet_longest = quiet.stop(served)
        memory_before = rss_mb()
        pages: list[float] = []
        stop = threading.Event()

        def phone() -> None:
            while not stop.is_set():
                started = time.monotonic()
                get(served, "/api/state", timeout=30)
                pages.append(time.monotonic() - started)
                stop.wait(0.1)

        watcher = threading.Thread(target=phone, daemon=True)
        stop_ticker, control = multiprocessing.Event(), multiprocessing.Queue()
        tick = multiprocessing.Process(target=ticker, args=(stop_ticker, control), daemon=True)
        tick.start()
        pauses = Pauses(served)
        watcher.start()
        took = []
        try:
            runs = []
            for _ in range(2):
                started = time.monotonic()
                runs.append(upload(served, text))
                took.append(time.monotonic() - started)
        finally:
            stop.set()
            watcher.join(30)
        longest = pauses.stop(served)
        stop_ticker.set()
        control_longest, control_over = control.get(timeout=30)
        tick.join(10)
        games = served.rig.do(lambda: served.store.count_games())
        memory_after = rss_mb()
        served.close()
    first, second = runs
    print(f"{args.records} one-move records ({len(text) / 1e6:.2f} MB), uploaded twice")
    print(f"longest board-loop pause during the uploads: {longest * 1000:.0f} ms "
          f"(target 200 ms; {quiet_longest * 1000:.0f} ms in {args.quiet_s:g} s with no upload); "
          f"pauses over 100 ms: {len(pauses.gaps)} {[gap for gap, _ in pauses.gaps[:10]]}")
    print(f"the machine's share: a 5 ms loop in a process of its own meanwhile paused at most "
          f"{control_longest * 1000:.0f} ms, {control_over} times over 100 ms")
    print(f"first upload: {first['stored']} games stored, {first.get('known', 0)} known, {took[0]:.0f} s; "
          f"second: {second['stored']} games added, {second.get('known', 0)} known, {took[1]:.0f} s; "
          f"{games} games in the store")
    print(f"phone: {len(pages)} answers, slowest {max(pages):.2f} s; "
          f"server memory {memory_before:.0f} MB before, {memory_after:.0f} MB after")


if __name__ == "__main__":
    main()
