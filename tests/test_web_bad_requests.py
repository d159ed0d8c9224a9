"""Odd requests get a 4xx saying what, never a 500; the Host must be the board's (real uvicorn)."""

from __future__ import annotations

import http.client
import socket

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")

from damka.config import parse_config  # noqa: E402
from web_support import Served, request, served  # noqa: E402,F401  (fixture)


def get(served: Served, path: str, host: str | None = None) -> tuple[int, str]:
    conn = http.client.HTTPConnection("127.0.0.1", served.web.port, timeout=10)
    conn.putrequest("GET", path, skip_host=host is not None)
    if host is not None:
        conn.putheader("Host", host)
    conn.endheaders()
    response = conn.getresponse()
    text = response.read().decode(errors="replace")
    conn.close()
    return response.status, text


def test_deep_json_and_huge_integers_are_400_not_500(served) -> None:
    deep = b"[" * 20_000 + b"]" * 20_000
    status, answer = request(served, "POST", "/api/login", raw=deep, code=served.code)
    assert status == 400 and "bad JSON" in answer["error"], (status, answer)
    huge = b'{"x": ' + b"9" * 5000 + b"}"
    status, answer = request(served, "POST", "/api/login", raw=huge, code=served.code)
    assert status == 400 and "bad JSON" in answer["error"], (status, answer)
    status, answer = request(served, "POST", "/api/arbiter/add_time", {"side": 0, "ms": 10 ** 4000}, code=served.code)
    assert 400 <= status < 500, (status, answer)


def test_a_game_id_too_big_for_the_database_is_404(served) -> None:
    for path in ("/api/games/99999999999999999999999", "/api/games/99999999999999999999999.pdn",
                 "/api/games/0", "/api/games/9223372036854775808"):
        status, text = get(served, path)
        assert status == 404 and "no stored game" in text, (path, status, text)


def test_a_missing_game_does_not_show_where_the_database_is(served) -> None:
    status, text = get(served, "/api/games/12345")
    assert status == 404 and "no stored game 12345" in text
    assert str(served.store.path) not in text and "games.db" not in text and "/" not in text.split("error")[1]


def test_the_content_type_is_parsed_not_searched(served) -> None:
    for content_type in ("text/plain; x=application/json", "application/jsonx", "text/application/json"):
        status, answer = request(served, "POST", "/api/login", {}, code=served.code, content_type=content_type)
        assert status == 415, (content_type, status, answer)
    for content_type in ("application/json", "Application/JSON; charset=utf-8"):
        status, answer = request(served, "POST", "/api/login", {}, code=served.code, content_type=content_type)
        assert status == 200, (content_type, status, answer)


def test_only_the_boards_own_names_are_answered(served) -> None:
    port = served.web.port
    for host in ("evil.example", f"evil.example:{port}", "rebind.attacker.test", ""):
        status, text = get(served, "/api/state", host=host)
        assert status == 400 and "Host" in text, (host, status, text)
    status, _ = get(served, "/api/events", host="evil.example")
    assert status == 400
    for host in (f"localhost:{port}", f"127.0.0.1:{port}", f"[::1]:{port}", socket.gethostname(),
                 f"{socket.gethostname()}.local:{port}", "192.168.1.20"):
        status, text = get(served, "/api/state", host=host)
        assert status == 200, (host, status, text)


def test_more_names_come_from_the_config(tmp_path) -> None:
    assert parse_config({"web": {"hosts": ["damka.club.lan"]}}).web.hosts == ("damka.club.lan",)
    served = Served(tmp_path, hosts=("damka.club.lan",))
    try:
        assert get(served, "/api/state", host="damka.club.lan:8080")[0] == 200
        assert get(served, "/api/state", host="other.club.lan")[0] == 400
    finally:
        served.close()
