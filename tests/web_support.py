"""Fixtures shared by the web tests: a served board and a small HTTP client."""

from __future__ import annotations

import http.client
import json
from typing import Any

import pytest

from damka.controller.app import App
from damka.controller.game.setup import GameSetup
from damka.controller.store.store import Store
from damka.web.server import WebConfig, WebServer
from web_rig import BoardRig

PIN = "24681357"


class Served:
    def __init__(self, tmp_path, setup: GameSetup | None = None, start: bool = False, web: bool = True,
                 offer_resume: bool = False, port: int = 0, **options: Any) -> None:
        """`web=False`: the same board with no server (the benchmark's comparison);
        `offer_resume`: the App offers the store's unfinished game (`damka run` after a power cut);
        `port`: a board restarted on the port its page knows (0: any free port);
        `options`: more of WebConfig (its caps and deadlines)."""
        self.store = Store(tmp_path / "games.db")
        self.app = App(store=self.store, offer_resume=offer_resume, setup=setup, start_game=start)
        self.rig = BoardRig(self.app)
        self.options = options
        self.web = WebServer(self.app, WebConfig(port=port, bind="127.0.0.1", pin=PIN, **options)) if web else None
        if self.web is not None:
            self.web.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.web.port}"

    @property
    def code(self) -> str:
        return self.web.access.code

    def restart_server(self) -> None:
        """The web server stops and starts again on its port; the board plays on, the feed is kept."""
        port, feed, access = self.web.port, self.web.feed, self.web.access
        self.web.stop()
        self.web.driver.close()
        self.web = WebServer(self.app, WebConfig(port=port, bind="127.0.0.1", pin=PIN, **self.options), feed=feed)
        self.web.access = access
        self.web.start()

    def close(self) -> None:
        if self.web is not None:
            self.web.close()
        self.rig.stop()
        self.store.close()


@pytest.fixture
def served(tmp_path):
    s = Served(tmp_path)
    yield s
    s.close()


def request(served: Served, method: str, path: str, body: Any = None, *, code: str | None = None,
            csrf: bool = True, origin: str | None = None, raw: bytes | None = None,
            source: str | None = None, content_type: str = "application/json",
            seat: str | None = None) -> tuple[int, dict]:
    """One HTTP request as a page (or an attacker) sends it; (status, JSON answer)."""
    conn = http.client.HTTPConnection("127.0.0.1", served.web.port, timeout=10,
                                      source_address=(source, 0) if source else None)
    headers = {"Content-Type": content_type}
    if csrf:
        headers["Cookie"] = "damka_csrf=tok123"
        headers["X-CSRF-Token"] = "tok123"
    if code is not None:
        headers["X-Damka-Code"] = code
    if origin is not None:
        headers["Origin"] = origin
    if seat is not None:
        headers["X-Damka-Seat"] = seat   # the remote seat's token, as the page that set the game up sends it
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    conn.request(method, path, body=data, headers=headers)
    response = conn.getresponse()
    text = response.read()
    conn.close()
    try:
        answer = json.loads(text)
    except json.JSONDecodeError:
        answer = {"text": text.decode(errors="replace")}
    return response.status, answer
