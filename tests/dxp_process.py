"""`damka dxp` in a process of its own (tests/dxp_rig.py), the lines it prints
read by a thread: shared by the DXP resume and abuse tests. It holds no tests."""

from __future__ import annotations

import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RIG = ROOT / "tests" / "dxp_rig.py"


class BoardProcess:
    """One board process: `wait_for` a line it prints, its log, its memory."""

    def __init__(self, tmp: Path, name: str, seed: int, *args: str) -> None:
        self.pdn = tmp / f"{name}.pdn"
        self.log = tmp / f"{name}-{seed}.log"
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        self.proc = subprocess.Popen([sys.executable, str(RIG), "--seed", str(seed), "--pdn", str(self.pdn),
                                      "--db", str(tmp / f"{name}.db"), *args],
                                     cwd=ROOT, stdout=subprocess.PIPE, stderr=self.log.open("w"), text=True)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))

    def wait_for(self, test, timeout: float = 60.0) -> str:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                line = self.lines.get(timeout=0.1)
            except queue.Empty:
                assert self.proc.poll() is None or not self.lines.empty(), \
                    f"board exited ({self.proc.returncode}): {self.seen[-5:]}; log: {self.tail()}"
                continue
            self.seen.append(line)
            if test(line):
                return line
        raise AssertionError(f"not seen in time; last lines: {self.seen[-8:]}; log: {self.tail()}")

    def tail(self) -> str:
        return self.log.read_text()[-1500:]

    def log_lines(self, words: str) -> list[str]:
        return [line for line in self.log.read_text().splitlines() if words in line]

    def rss_kb(self) -> int:
        status = Path(f"/proc/{self.proc.pid}/status").read_text()
        return int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmRSS:")))

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(60)
