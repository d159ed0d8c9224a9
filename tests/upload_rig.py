"""A PDN upload through the board's page and the board loop's pauses meanwhile: shared by
tests/test_web_import.py and benchmarks/web_upload.py."""

from __future__ import annotations

import http.client
import json
import time

from app_listeners import AfterInput
from web_support import Served, request

ONE_MOVE = '[E "{}"]\n1. 32-28 *\n\n'   # a game of one move (tags alone are not a game: refused)
TAG_ONLY = '[E "{}"]\n\n'                 # ... such as this one
SHORT = "1.32-28 *\n"                     # 125,000 of them: 1.25 MB, under the upload's 2 MiB as JSON


def one_move_records(count: int) -> str:
    """`count` one-move games, all equal (each is kept: a club's archive has repeats)."""
    return SHORT * count


def get(served: Served, path: str, timeout: float = 10) -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", served.web.port, timeout=timeout)
    conn.request("GET", path)
    response = conn.getresponse()
    data = json.loads(response.read())
    conn.close()
    return response.status, data


def upload(served: Served, text: str, name: str = "club.pdn") -> dict:
    """Upload `text` and wait for the import job to end; its last progress."""
    started = time.monotonic()
    status, answer = request(served, "POST", "/api/games/import", {"pdn": text, "name": name}, code=served.code)
    assert status == 200, answer
    assert time.monotonic() - started < 5, "the upload's answer waited for the import"
    deadline = time.monotonic() + 600
    while True:
        status, progress = get(served, "/api/import")
        if progress["state"] != "reading":
            return progress
        assert time.monotonic() < deadline, progress
        time.sleep(0.2)


class Pauses:
    """The longest time between two runs of the board's loop (a pump runs on every tick)."""

    def __init__(self, served: Served) -> None:
        self.longest = 0.0
        self.gaps: list[tuple[float, float]] = []
        self.last: float | None = None
        self.app = served.app
        self._listener = AfterInput(self.tick)
        served.rig.do(lambda: self.app.listen(self._listener))

    def tick(self) -> None:
        now = time.monotonic()
        if self.last is not None:
            self.longest = max(self.longest, now - self.last)
            if now - self.last > 0.1:
                self.gaps.append((round(now - self.last, 3), round(now, 2)))
        self.last = now

    def stop(self, served: Served) -> float:
        served.rig.do(lambda: self.app.unlisten(self._listener))
        return self.longest
