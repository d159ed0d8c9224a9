"""What a refused file costs each command that reads one, and what the largest
files the caps let through cost (docs/files.md).

    .venv/bin/python benchmarks/bounded_readers.py

Each case is the `damka` console script in its own process; its CPU time
(user + system) and peak memory are the kernel's count for that process
(`os.wait4`), printed beside `python -c pass` run the same way (the
interpreter's own start-up). The issue's bound for a refused file: under 2 s
and 100 MB. A case still running after 60 s is killed and shown as such.

Refused: /dev/zero, /dev/urandom, a FIFO, a 20 MB file, TOML nested 5,000
deep, JSON nested 200,000 deep, a lesson of 5,000 steps. Read (the worst the
caps allow): a 1 MB lesson of 180 steps with 100 right and 100 wrong answers
each; a set of 2,000 multiwarcaby puzzles (the slowest to check).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEADLINE_S = 60.0


def damka() -> list[str]:
    beside = Path(sys.executable).with_name("damka")
    return [str(beside)] if beside.exists() else [sys.executable, "-m", "damka"]


def measure(argv: list[str], folder: Path) -> tuple[int | None, float, int, float, str]:
    """(exit code or None if killed, CPU s, peak RSS kB, wall s, last stderr line)."""
    env = {**os.environ, "DAMKA_HOME": str(folder), "HOME": str(folder), "SDL_VIDEODRIVER": "dummy"}
    env.pop("DISPLAY", None)
    with open(folder / "err.txt", "wb") as err:
        start = time.monotonic()
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err, cwd=folder,
                                env=env)
    killer = threading.Timer(DEADLINE_S, proc.kill)
    killer.start()
    try:
        _, status, usage = os.wait4(proc.pid, 0)
    finally:
        killer.cancel()
    proc.returncode = code = os.waitstatus_to_exitcode(status)
    wall = time.monotonic() - start
    lines = (folder / "err.txt").read_text(errors="replace").splitlines()
    return (None if code == -9 and wall >= DEADLINE_S else code, usage.ru_utime + usage.ru_stime,
            usage.ru_maxrss, wall, lines[-1] if lines else "")


def make_inputs(folder: Path) -> dict[str, str]:
    fifo = folder / "fifo.toml"
    os.mkfifo(fifo)
    big = folder / "big.toml"
    with open(big, "w", encoding="utf-8") as handle:   # a good sensor log, 20 MB
        start = 0
        while handle.tell() < 20 * 1024 * 1024:
            handle.write("".join(f"{t} up c3\n{t + 100} down c3\n" for t in range(start, start + 400_000, 200)))
            start += 400_000
    (folder / "deep.toml").write_text("variant = " + "{a = " * 5000 + "1" + "}" * 5000 + "\n")
    (folder / "deep.json").write_text("[" * 200_000 + "]" * 200_000)
    head = 'variant = "classic"\ntitle = { en = "x", pl = "y" }\n'
    step = '[[step]]\nposition = "W:Wc3:Bh8"\nsay = { en = "x", pl = "y" }\nright = [RIGHT]\n' \
           'well_done = { en = "x", pl = "y" }\n'
    (folder / "steps.toml").write_text(head + step.replace("RIGHT", '"c3-d4"') * 5000)
    wrong = '[[step.wrong]]\nmove = "c3-b4"\nen = "a"\npl = "b"\n' * 100
    (folder / "full.toml").write_text(head + (step.replace("RIGHT", ", ".join(['"c3-d4"'] * 100)) + wrong) * 180)
    shipped = json.loads((ROOT / "teaching" / "sets" / "multiwarcaby.json").read_text())
    shipped["puzzles"] = [dict(shipped["puzzles"][n % len(shipped["puzzles"])], id=f"p{n}") for n in range(2000)]
    (folder / "full.json").write_text(json.dumps(shipped))
    return {"/dev/zero": "/dev/zero", "/dev/urandom": "/dev/urandom", "FIFO": str(fifo), "20 MB": str(big),
            "TOML 5,000 deep": str(folder / "deep.toml"), "JSON 200,000 deep": str(folder / "deep.json"),
            "5,000 steps": str(folder / "steps.toml"), "lesson at the caps": str(folder / "full.toml"),
            "set at the caps": str(folder / "full.json")}


COMMANDS = [
    ("lessons check", ["lessons", "check", "{f}"],
     ("/dev/zero", "/dev/urandom", "FIFO", "20 MB", "TOML 5,000 deep", "5,000 steps", "lesson at the caps")),
    ("puzzles show", ["puzzles", "show", "{f}"],
     ("/dev/zero", "/dev/urandom", "FIFO", "20 MB", "JSON 200,000 deep", "set at the caps")),
    ("import", ["import", "{f}", "--db", "{tmp}/games.db"], ("/dev/zero", "/dev/urandom", "FIFO")),
    ("replay", ["replay", "classic", "{f}"], ("/dev/zero", "/dev/urandom", "FIFO", "20 MB")),
    ("run --config", ["run", "--config", "{f}"], ("/dev/zero", "/dev/urandom", "FIFO", "20 MB", "TOML 5,000 deep")),
    ("hall --config", ["hall", "--config", "{f}"], ("/dev/zero", "FIFO", "20 MB", "TOML 5,000 deep")),
    ("games --db", ["games", "--db", "{f}"], ("/dev/zero", "FIFO", "20 MB")),
]


def main() -> int:
    folder = Path(tempfile.mkdtemp(prefix="damka-readers-"))
    try:
        inputs = make_inputs(folder)
        _, cpu, rss, wall, _ = measure([sys.executable, "-c", "pass"], folder)
        print(f"{'python -c pass':40} {cpu:6.2f} s CPU {rss / 1024:6.0f} MB {wall:6.2f} s wall")
        for name, argv, given in COMMANDS:
            for what in given:
                line = [*damka(), *(arg.format(f=inputs[what], tmp=folder) for arg in argv)]
                code, cpu, rss, wall, said = measure(line, folder)
                shown = "KILLED" if code is None else f"exit {code}"
                print(f"{name + ' ' + what:40} {cpu:6.2f} s CPU {rss / 1024:6.0f} MB {wall:6.2f} s wall  "
                      f"{shown}  {said[:90]}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
