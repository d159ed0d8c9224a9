"""`damka hall` while its broker is down says so (once, not a line per try),
keeps trying, and says when it is connected: the real command in a child
process, against a real Mosquitto started only after the hall (and stopped
and started again). Every wait is on a line with a generous deadline."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
import time

import pytest

pytest.importorskip("paho.mqtt", reason="paho-mqtt missing: pip install 'damka[hall]'")
pytest.importorskip("uvicorn", reason="uvicorn missing: pip install 'damka[hall]'")

from damka.hall.local_broker import free_port  # noqa: E402
from hall_rig import Broker  # noqa: E402

DEADLINE_S = 60.0


class Lines:
    """The child's stderr, line by line, read on a thread."""

    def __init__(self, stream) -> None:
        self.queue: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream) -> None:
        for line in stream:
            self.queue.put(line.rstrip("\n"))

    def wait_for(self, words: str) -> str:
        end = time.monotonic() + DEADLINE_S
        while time.monotonic() < end:
            try:
                line = self.queue.get(timeout=0.2)
            except queue.Empty:
                continue
            self.seen.append(line)
            if words in line:
                return line
        raise AssertionError(f"no line with {words!r} in {DEADLINE_S} s; saw {self.seen}")

    def drain(self) -> list[str]:
        while True:
            try:
                self.seen.append(self.queue.get_nowait())
            except queue.Empty:
                return self.seen


def test_the_hall_says_the_broker_is_down_and_when_it_is_connected(tmp_path) -> None:
    broker = Broker(tmp_path, ["board01"], hall="club")  # its port chosen, not started: the broker is down
    config = tmp_path / "hall.toml"
    config.write_text(f'[hall]\nname = "club"\n[broker]\nport = {broker.port}\npassword = '
                      f'"{broker.passwords["hall"]}"\n[web]\nbind = "127.0.0.1"\nport = {free_port()}\n')
    child = subprocess.Popen([sys.executable, "-m", "damka", "hall", "--config", str(config)], cwd=tmp_path,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                             env={**os.environ, "HOME": str(tmp_path)})
    lines = Lines(child.stderr)
    try:
        down = lines.wait_for("does not answer")
        assert f"the broker at 127.0.0.1:{broker.port} does not answer; trying again" in down
        broker.start()
        lines.wait_for(f"connected to the broker at 127.0.0.1:{broker.port}")
        broker.stop()
        lines.wait_for("lost the broker")
        broker.start()
        lines.wait_for("connected to the broker")
    finally:
        child.terminate()
        child.wait(DEADLINE_S)
        broker.stop()
    seen = lines.drain()
    assert len([line for line in seen if "does not answer" in line]) == 1, seen  # said once, not per try
    assert len([line for line in seen if "connected to the broker" in line]) == 2, seen
