"""How long `damka` takes to start, beside Python itself.

    .venv/bin/python benchmarks/startup.py              # 15 rounds
    .venv/bin/python benchmarks/startup.py --rounds 31

Every command, a GUI starting `damka hub` and the board's boot pay the start-up
before anything happens (3-4 times more on a Pi), so the command line imports
only the module of the command being run. Each round runs every case once, one
after the other, so a busy moment of the machine falls on all of them alike;
the median wall time of each case is printed with its ratio to `python -c pass`
(the same interpreter, so the same site-packages), and the median CPU time
(user + system) of the process, which a busy machine inflates much less than
the wall time. The target is `damka --help` under 0.15 s of wall time.

- `python -c pass`: the interpreter alone
- `damka --help`: the list of commands
- `damka perft classic 1`: a command that loads the rules of every variant
- `damka hub`: from start to the end of its answer to `hub` (the `wait` line),
  what a draughts GUI waits for
"""

from __future__ import annotations

import argparse
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

TARGET = 0.15  # seconds for `damka --help`


def damka_script() -> str:
    """The `damka` console script of the interpreter running this benchmark."""
    beside = Path(sys.executable).with_name("damka")
    found = str(beside) if beside.exists() else shutil.which("damka")
    if not found:
        raise SystemExit("no `damka` command: install the package first (python3 bootstrap.py)")
    return found


Case = Callable[[], float]  # runs once; returns the wall seconds


def children_cpu() -> float:
    """CPU seconds (user + system) of the finished child processes so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_to_exit(argv: list[str]) -> Case:
    """A case that runs `argv` to its end."""
    def case() -> float:
        started = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        return time.perf_counter() - started
    return case


def hub_answer(damka: str) -> Case:
    """A case that starts `damka hub`, sends `hub` and stops the clock at its `wait`."""
    def case() -> float:
        started = time.perf_counter()
        with subprocess.Popen([damka, "hub"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) as engine:
            assert engine.stdin is not None and engine.stdout is not None
            engine.stdin.write("hub\n")
            engine.stdin.flush()
            for line in engine.stdout:
                if line.strip() == "wait":
                    break
            else:
                raise SystemExit("damka hub ended without answering `hub`")
            seconds = time.perf_counter() - started
            engine.stdin.write("quit\n")
            engine.stdin.close()
        return seconds
    return case


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Start-up time of damka commands beside `python -c pass`.")
    parser.add_argument("--rounds", type=int, default=15, help="runs of each case; the median is shown (default 15)")
    args = parser.parse_args(argv)
    damka = damka_script()
    cases: dict[str, Case] = {
        "python -c pass": run_to_exit([sys.executable, "-c", "pass"]),
        "damka --help": run_to_exit([damka, "--help"]),
        "damka perft classic 1": run_to_exit([damka, "perft", "classic", "1"]),
        "damka hub (to its answer)": hub_answer(damka),
    }
    samples: dict[str, list[float]] = {name: [] for name in cases}
    cpu: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(args.rounds):
        for name, case in cases.items():
            before = children_cpu()
            samples[name].append(case())
            cpu[name].append(children_cpu() - before)
    base = statistics.median(samples["python -c pass"])
    print(f"{'what':<28}{'median s':>10}{'x python':>10}{'min s':>8}{'max s':>8}{'cpu s':>8}")
    for name, times in samples.items():
        median = statistics.median(times)
        print(f"{name:<28}{median:>10.3f}{median / base:>10.1f}{min(times):>8.3f}{max(times):>8.3f}"
              f"{statistics.median(cpu[name]):>8.3f}")
    help_median = statistics.median(samples["damka --help"])
    verdict = "reached" if help_median < TARGET else "MISSED"
    print(f"target: damka --help under {TARGET} s: {verdict} ({help_median:.3f} s)")
    return 0 if help_median < TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
