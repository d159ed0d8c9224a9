"""A page's command and the picture it changed come by different roads (the
answer over HTTP, the picture over server-sent events), either first. The
answer says which command it was (`command`) and every picture how many
commands it shows (`commands`), so a page knows the first picture that shows
what it did (web/static/app.js `notice`). A real server on 127.0.0.1, the App
on the virtual board; HTTP client, no browser."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")

from web_support import request, served  # noqa: E402,F401  (fixture)
from waiting import wait_until  # noqa: E402


def pictures(served) -> list[dict]:
    return [item.data for item in list(served.web.feed.history) if item.kind == "state"]


def test_the_first_picture_that_counts_a_command_shows_what_it_did(served) -> None:
    for names in (["Ala", "Ola"], ["Ewa", "Iza"]):
        status, answer = request(served, "POST", "/api/game/new",
                                 {"game": {"variant": "classic", "players": names}}, code=served.code)
        assert status == 200, answer
        number = answer["command"]
        first = wait_until(lambda: next((p for p in pictures(served) if p["commands"] >= number), None),
                           "a picture that counts the command")
        assert [side["name"] for side in first["game"]["sides"]] == names
        assert all(p["commands"] < number for p in pictures(served) if p["seq"] < first["seq"])

