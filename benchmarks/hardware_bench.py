"""Hardware benchmarks: scans per second through the mock GPIO matrix, frames
per second over a pty, the delay from a switch change to the host's snapshot, and
the time from a replug to the first fresh snapshot.

    python benchmarks/hardware_bench.py [--seconds S] [--changes N] [--replugs N] [--only scan|link|recovery]

Numbers are for this machine and gpiozero's MockFactory / a pty: on a Pi with
lgpio the scan is bounded by pin access (about 2-5 us each), on a Pico by
MicroPython (a 9x9 scan takes about 1-2 ms).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time


def bench_scan(seconds: float) -> None:
    from damka.hardware.gpio_matrix import GpioMatrix
    from damka.hardware.mock_matrix import mock_board

    factory, switches = mock_board()
    rows = [p.info.name for p in switches.row_pins]
    matrix = GpioMatrix(tuple(int(n[4:]) for n in rows),
                        tuple(int(p.info.name[4:]) for p in switches.col_pins), pin_factory=factory)
    switches.set_closed({(r, c) for r in range(9) for c in range(9) if (r + c) % 2 == 0})
    try:
        for name, step in (("raw scan (9x9 pins)", matrix.scan_raw),
                           ("scan + debounce + snapshot", matrix.scan_once)):
            n, t0 = 0, time.perf_counter()
            while time.perf_counter() - t0 < seconds:
                step()
                n += 1
            rate = n / (time.perf_counter() - t0)
            print(f"mock GPIO matrix, {name}: {rate:,.0f} scans/s ({1e3 / rate:.3f} ms per scan)")
        matrix.start()
        before, t0 = matrix.scans, time.perf_counter()
        time.sleep(seconds)
        print(f"mock GPIO matrix, scanner thread at rate_hz={matrix.rate_hz}: "
              f"{(matrix.scans - before) / (time.perf_counter() - t0):,.0f} scans/s")
        delays = []
        for i in range(30):
            cells = {(i % 9, (i * 5) % 9)}
            want = frozenset(matrix.layout.square(r, c) for r, c in cells)
            switches.set_closed(cells)
            t0 = time.perf_counter()
            while matrix.snapshot().occupied != want:
                time.sleep(0.0002)
            delays.append((time.perf_counter() - t0) * 1e3)
        delays.sort()
        print(f"mock GPIO matrix, switch change -> snapshot (3-scan debounce at {matrix.rate_hz}/s): "
              f"median {statistics.median(delays):.1f} ms, max {delays[-1]:.1f} ms")
    finally:
        matrix.close()


def bench_link(seconds: float, changes: int) -> None:
    from damka.firmware import protocol as P
    from damka.hardware.pty_device import PtyBoard
    from damka.hardware.serial_link import SerialLink

    # Raw codec speed and frame throughput over a pty (host decoding).
    body = P.pack_snapshot(1, [0x155] * 9, 9, 0, [0] * 6)
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds / 2:
        P.decode_frame(P.encode_frame(P.SNAPSHOT, n, body)[:-1])
        n += 1
    print(f"codec: {n / (time.perf_counter() - t0):,.0f} SNAPSHOT encode+decode per second "
          f"({len(P.encode_frame(P.SNAPSHOT, 0, body))} bytes on the wire)")

    with PtyBoard(poll_s=0) as board:  # firmware polling flat out: a snapshot per change
        link = SerialLink(board.port).start()
        try:
            link.wait_synced(3)
            import os

            # Frames/s: flood snapshots straight from the device side.
            frames = [P.encode_frame(P.SNAPSHOT, i, body) for i in range(256)]
            blob = b"".join(frames)
            before, t0 = link.stats.frames_ok, time.perf_counter()
            master = board._fds[0]
            sent = 0
            while time.perf_counter() - t0 < seconds:
                try:
                    sent += os.write(master, blob)
                except BlockingIOError:
                    time.sleep(0.0005)
            time.sleep(0.2)
            got = link.stats.frames_ok - before
            print(f"pty link: {got / (time.perf_counter() - t0 - 0.2):,.0f} frames/s decoded by the host "
                  f"({sent / seconds / 1024:,.0f} KiB/s offered)")
        finally:
            link.close()

    with PtyBoard(poll_s=0.001) as board:  # the firmware's normal loop: scan, sleep 1 ms
        link = SerialLink(board.port).start()
        try:
            link.wait_synced(3)
            delays = []
            layout = link.layout
            for i in range(changes):
                cells = {(i % 9, (i * 4) % 9), (8 - i % 9, 3)}
                want = frozenset(layout.square(r, c) for r, c in cells)
                if want == link.snapshot().occupied:
                    continue
                board.matrix.set(cells)
                t0 = board.matrix.changed_at
                while link.snapshot().occupied != want:
                    time.sleep(0.0002)
                delays.append((time.perf_counter() - t0) * 1e3)
                time.sleep(0.01)
            delays.sort()
            print(f"switch change -> host snapshot over a pty (3-scan debounce, 1 ms poll): "
                  f"median {statistics.median(delays):.1f} ms, p95 {delays[int(len(delays) * 0.95) - 1]:.1f} ms, "
                  f"max {delays[-1]:.1f} ms over {len(delays)} changes")
        finally:
            link.close()


def bench_recovery(replugs: int) -> None:
    """Unplug, wait until the reconnect backoff is at its cap (0.5 s), replug at a
    random moment, time replug -> first fresh snapshot; clean and with 1 % noise."""
    import random

    from damka.hardware.pty_device import PtyBoard
    from damka.hardware.serial_link import SerialLink

    rng = random.Random(1)
    for corrupt in (0.0, 0.01):
        with PtyBoard(corrupt=corrupt, seed=3) as board:
            link = SerialLink(board.port).start()
            try:
                link.wait_synced(3)
                delays = []
                for i in range(replugs):
                    board.matrix.set({(i % 9, (2 * i) % 9)})
                    board.unplug()
                    while link.connected:
                        time.sleep(0.001)
                    time.sleep(1.3 + rng.uniform(0, 0.5))
                    t0 = time.perf_counter()
                    board.replug()
                    if not link.wait_synced(5):
                        print("  the link did not re-sync within 5 s")
                        continue
                    delays.append((time.perf_counter() - t0) * 1e3)
                delays.sort()
                print(f"replug -> first fresh snapshot ({corrupt:.0%} of the bytes corrupted, backoff at its cap): "
                      f"median {statistics.median(delays):.0f} ms, max {delays[-1]:.0f} ms over {len(delays)} replugs")
            finally:
                link.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=1.0, help="time per throughput measurement (default 1)")
    parser.add_argument("--changes", type=int, default=100, help="switch changes timed for latency (default 100)")
    parser.add_argument("--replugs", type=int, default=10, help="unplug/replug cycles timed (default 10)")
    parser.add_argument("--only", choices=("scan", "link", "recovery"), help="run one group")
    args = parser.parse_args(argv)
    if args.only in (None, "scan"):
        bench_scan(args.seconds)
    if args.only in (None, "link"):
        if sys.platform == "win32":
            print("pty link: skipped (POSIX only)")
        else:
            bench_link(args.seconds, args.changes)
    if args.only in (None, "recovery"):
        if sys.platform == "win32":
            print("pty recovery: skipped (POSIX only)")
        else:
            bench_recovery(args.replugs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
