"""Every command that reads a file, handed what a path can name instead of the
file it wants: /dev/zero and /dev/urandom (they never end), a FIFO (opening
it waits for a writer), a 20 MB file, TOML or JSON nested thousands deep, a
lesson of thousands of steps. Each answers with ONE line on stderr and exit
2, no traceback, at once and in little memory (docs/files.md lists the caps).

Each case is the console script in its own process, as a person runs it; its
CPU time and peak memory are the kernel's count for that one process
(`os.wait4` in a small launcher that forks it), so a loaded machine slows the wall
clock, not what is asserted.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from damka.base.files import MAX_NESTING
from damka.controller.board.eventlog import MAX_LOG_BYTES
from damka.teaching.lesson_file import MAX_STEPS

CPU_S = 2.0                   # the bound, in CPU seconds (user + system) of the command
MAX_RSS_KB = 100 * 1024       # the bound on peak memory
WALL_DEADLINE_S = 60.0        # a hang (a FIFO waited on) is killed here: generous for a loaded machine
ADDRESS_SPACE = 2 << 30       # an old reader of /dev/zero dies of MemoryError here instead of eating the machine
BIG_BYTES = 20 * 1024 * 1024

# What a path can name, made by the `inputs` fixture (the name is the key).
ZERO, URANDOM, FIFO, BIG, DEEP_TOML, DEEP_JSON, MANY_STEPS = (
    "zero", "urandom", "fifo", "big", "deep-toml", "deep-json", "many-steps")
DEVICES = (ZERO, URANDOM, FIFO)
SETTINGS = (*DEVICES, BIG, DEEP_TOML)

# (command, argv with {file} and {tmp}, the inputs it must refuse).
COMMANDS: list[tuple[str, list[str], tuple[str, ...]]] = [
    ("lessons-check", ["lessons", "check", "{file}"], (*SETTINGS, MANY_STEPS)),
    ("sim-lesson", ["sim", "--lesson", "{file}"], (FIFO, BIG, DEEP_TOML, MANY_STEPS)),  # a file: a name in .toml
    ("puzzles-check", ["puzzles", "check", "{file}"], (*DEVICES, BIG, DEEP_JSON)),
    ("puzzles-show", ["puzzles", "show", "{file}"], (*DEVICES, DEEP_JSON)),
    ("import", ["import", "{file}", "--db", "{tmp}/games.db"], DEVICES),
    ("puzzles-make", ["puzzles", "make", "classic", "--self-play", "0", "--from", "{file}",
                      "--out", "{tmp}/set.json"], DEVICES),
    ("replay", ["replay", "classic", "{file}"], (*DEVICES, BIG)),
    ("sim-script", ["sim", "--headless", "--script", "{file}", "--screenshot", "{tmp}/shot.png"], (*DEVICES, BIG)),
    ("run-config", ["run", "--config", "{file}"], SETTINGS),
    ("doctor-config", ["doctor", "--config", "{file}", "--mock"], SETTINGS),
    ("hall-config", ["hall", "--config", "{file}"], SETTINGS),
    ("dxp-config", ["dxp", "--config", "{file}", "--listen", "0"], SETTINGS),
    ("games-db", ["games", "--db", "{file}"], (*DEVICES, BIG)),
]
CASES = [(command, argv, given) for command, argv, inputs in COMMANDS for given in inputs]


@dataclass(frozen=True)
class Ran:
    code: int | None      # None: killed at the wall deadline
    out: str
    err: str
    cpu_s: float
    max_rss_kb: int
    wall_s: float


def damka_command() -> list[str]:
    script = Path(sys.executable).with_name("damka")
    return [str(script)] if script.exists() else [sys.executable, "-m", "damka"]


# A small Python that forks the command and reports what the kernel counted for it. The
# peak memory Linux reports (ru_maxrss) is carried over an exec from the process that
# forked: a command started straight from this test's worker (150 MB and more after a
# few hundred tests) would report the worker's peak. Forked from this small launcher, it
# starts from the launcher's few MB.
LAUNCHER = """
import os, sys
report, argv = sys.argv[1], sys.argv[2:]
pid = os.fork()
if pid == 0:
    os.execv(argv[0], argv)
_, status, usage = os.wait4(pid, 0)
with open(report, "w") as out:
    out.write(f"{os.waitstatus_to_exitcode(status)} {usage.ru_utime + usage.ru_stime} {usage.ru_maxrss}")
"""


def run_measured(argv: list[str], cwd: Path, env: dict[str, str]) -> Ran:
    """Run `argv` to its end (killed past WALL_DEADLINE_S); its own CPU time and peak memory."""
    out_path, err_path, report = cwd / "out.txt", cwd / "err.txt", cwd / "ran.txt"
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        start = time.monotonic()
        # The shell sets the cap and becomes the command (exec): wait4 counts the command itself.
        capped = ["/bin/sh", "-c", f'ulimit -v {ADDRESS_SPACE // 1024} && exec "$@"', "sh", *argv]
        proc = subprocess.Popen([sys.executable, "-c", LAUNCHER, str(report), *capped], stdin=subprocess.DEVNULL,
                                stdout=out, stderr=err, cwd=cwd, env=env, start_new_session=True)
    killer = threading.Timer(WALL_DEADLINE_S, lambda: os.killpg(proc.pid, 9))
    killer.start()
    try:
        proc.wait()
    finally:
        killer.cancel()
    wall = time.monotonic() - start
    if not report.exists():   # the launcher was killed at the wall deadline
        return Ran(None, out_path.read_text(errors="replace"), err_path.read_text(errors="replace"), 0.0, 0, wall)
    code, cpu_s, max_rss_kb = report.read_text().split()
    return Ran(None if int(code) == -9 and wall >= WALL_DEADLINE_S else int(code),
               out_path.read_text(errors="replace"), err_path.read_text(errors="replace"),
               float(cpu_s), int(max_rss_kb), wall)


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("inputs")
    fifo = folder / "fifo.toml"          # .toml: `sim --lesson` takes a name ending so for a file
    os.mkfifo(fifo)
    big = folder / "big.toml"
    with open(big, "w", encoding="utf-8") as handle:   # 20 MB of a good sensor log: worst for the log readers
        start = 0
        while handle.tell() < BIG_BYTES:
            handle.write("".join(f"{t} up c3\n{t + 100} down c3\n" for t in range(start, start + 400_000, 200)))
            start += 400_000
    assert big.stat().st_size > MAX_LOG_BYTES
    depth = 5000
    deep_toml = folder / "deep.toml"     # 5,000 nested tables in 30 kB
    deep_toml.write_text("variant = " + "{a = " * depth + "1" + "}" * depth + "\n", encoding="utf-8")
    deep_json = folder / "deep.json"     # 400 kB of nested lists
    deep_json.write_text("[" * 200_000 + "]" * 200_000, encoding="utf-8")
    steps = folder / "steps.toml"        # a lesson of small steps, far under the size cap
    step = ('[[step]]\nposition = "W:Wc3:Bh8"\nsay = { en = "Go.", pl = "Idź." }\nright = ["c3-d4"]\n'
            'well_done = { en = "Yes.", pl = "Tak." }\n')
    steps.write_text('variant = "classic"\ntitle = { en = "Many", pl = "Wiele" }\n' + step * 5000, encoding="utf-8")
    assert 5000 > MAX_NESTING and 5000 > MAX_STEPS   # deeper and longer than the caps
    return {ZERO: "/dev/zero", URANDOM: "/dev/urandom", FIFO: str(fifo), BIG: str(big), DEEP_TOML: str(deep_toml),
            DEEP_JSON: str(deep_json), MANY_STEPS: str(steps)}


@pytest.mark.parametrize(("command", "argv", "given"), CASES, ids=[f"{c}-{g}" for c, _, g in CASES])
def test_a_file_that_cannot_be_read_is_one_line_exit_2_at_once(inputs: dict[str, str], tmp_path: Path,
                                                                 command: str, argv: list[str], given: str) -> None:
    env = {**os.environ, "DAMKA_HOME": str(tmp_path), "HOME": str(tmp_path), "SDL_VIDEODRIVER": "dummy",
           "SDL_AUDIODRIVER": "dummy"}
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    file = inputs[given]
    ran = run_measured([*damka_command(), *(arg.format(file=file, tmp=tmp_path) for arg in argv)], tmp_path, env)
    assert ran.code is not None, f"still running after {WALL_DEADLINE_S:.0f} s: {ran.err[-300:]}"
    assert "Traceback" not in ran.err, ran.err[-2000:]
    lines = ran.err.splitlines()
    assert ran.code == 2 and len(lines) == 1, (ran.code, len(lines), ran.err[-600:])
    assert lines[0].startswith("damka ") and file in lines[0], lines[0]
    assert ran.out == ""
    assert ran.cpu_s < CPU_S, f"{ran.cpu_s:.2f} s of CPU"
    assert ran.max_rss_kb < MAX_RSS_KB, f"{ran.max_rss_kb // 1024} MB at the peak"

