"""The page's access rules against a real server on 127.0.0.1 (HTTP client, no browser)."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")

from web_support import PIN, request, served  # noqa: E402,F401  (fixture)
from waiting import wait_until  # noqa: E402

ENDPOINTS = [
    ("/api/game/new", {"game": {"variant": "classic"}}),
    ("/api/game/action", {"action": "resign"}),
    ("/api/game/action", {"action": "draw"}),          # an offer
    ("/api/game/action", {"action": "accept"}),        # an answer to the board's offer
    ("/api/game/move", {"move": "c3-d4"}),
    ("/api/game/claim", {}),                           # the remote seat for this page
    ("/api/code/rotate", {}),
    ("/api/arbiter/add_time", {"side": 0, "ms": 60000}),
    ("/api/arbiter/set_time", {"side": 0, "ms": 60000}),
    ("/api/arbiter/pause", {}),
    ("/api/arbiter/resume", {}),
    ("/api/arbiter/undo", {}),
    ("/api/arbiter/result", {"winner": 0}),
    ("/api/games/import", {"pdn": '[GameType "20"]\n1. 32-28 *\n'}),
    ("/api/board/settings", {"settings": {"brightness": "255"}}),
    ("/api/board/clock", {"action": "pause"}),
]


def picture(served) -> tuple:
    """What a change would show: the app's state, its game, the code, the stored games, the board's settings."""
    return served.rig.do(lambda: (served.app.state, id(served.app.built), served.web.access.code,
                                  len(served.store.list_games()), served.app.pending_offer,
                                  served.app.board_settings))


def test_every_state_changing_endpoint_refuses_no_code_wrong_code_cross_site_and_get(served) -> None:
    before = picture(served)
    for index, (path, body) in enumerate(ENDPOINTS):
        source = f"127.0.0.{10 + index}"  # each from its own address: the slow-down of wrong codes is tested below
        status, answer = request(served, "POST", path, body, source=source)
        assert status == 401 and "code" in answer["error"].lower() or "PIN" in answer["error"], (path, answer)
        status, answer = request(served, "POST", path, body, code="000000" if served.code != "000000" else "1",
                                 source=source)
        assert status == 403, (path, answer)
        status, answer = request(served, "POST", path, body, code=PIN, origin="http://evil.example", source=source)
        assert status == 403 and "cross-site" in answer["error"], (path, answer)
        status, answer = request(served, "POST", path, body, code=PIN, csrf=False, source=source)
        assert status == 403 and "CSRF" in answer["error"], (path, answer)
        status, answer = request(served, "GET", path + "?code=" + PIN, source=source)
        assert status == 405, (path, status, answer)
    assert picture(served) == before


def test_the_pairing_code_is_not_the_arbiter_pin(served) -> None:
    served.rig.do(lambda: served.app.new_game(served.app.setup.__class__("classic", time_control="5+3")))
    for index, (path, body) in enumerate(ENDPOINTS):
        if path.startswith("/api/arbiter/") or path == "/api/code/rotate":
            status, answer = request(served, "POST", path, body, code=served.code, source=f"127.0.0.{10 + index}")
            assert status == 403 and "arbiter PIN" in answer["error"], (path, answer)
    assert served.rig.do(lambda: served.app.session.result) is None


def test_game_actions_that_cannot_be_done_now_say_why(served) -> None:
    """The App's own refusals reach the page: no game yet, then a game already over."""
    for action in ("resign", "draw", "takeback", "accept", "pause"):
        status, answer = request(served, "POST", "/api/game/action" if action != "pause" else "/api/board/clock",
                                 {"action": action}, code=served.code)
        assert status == 409 and answer["error"] == "there is no game on the board", (action, answer)
    status, answer = request(served, "POST", "/api/game/action", {"action": "resume"}, code=served.code)
    assert status == 409 and answer["error"] == "there is no stored game to resume"
    served.rig.do(lambda: served.app.new_game(served.app.setup.__class__("classic")))
    served.rig.do(lambda: served.app.declare_result(None, "agreement", "test"))
    for action in ("resign", "draw", "takeback"):
        status, answer = request(served, "POST", "/api/game/action", {"action": action}, code=served.code)
        assert status == 409 and answer["error"] == "the game is over already", (action, answer)


def test_arbiter_requests_that_cannot_be_done_get_a_clear_4xx(served) -> None:
    status, answer = request(served, "POST", "/api/arbiter/undo", {}, code=PIN)
    assert status == 409 and answer["error"] == "there is no game on the board"
    served.rig.do(lambda: served.app.new_game(served.app.setup.__class__("classic", time_control="5+3")))
    status, answer = request(served, "POST", "/api/arbiter/set_time", {"side": 5, "ms": 1000}, code=PIN)
    assert status == 400 and "side: 5 is not a side" in answer["error"]
    status, answer = request(served, "POST", "/api/arbiter/add_time", {"side": 0, "ms": "lots"}, code=PIN)
    assert status == 400 and answer["error"].startswith("ms: 'lots'")
    status, answer = request(served, "POST", "/api/arbiter/explode", {}, code=PIN)
    assert status == 404 and "unknown arbiter action" in answer["error"]
    status, answer = request(served, "POST", "/api/arbiter/resume", {}, code=PIN)
    assert status == 409 and "only a paused clock" in answer["error"]


def test_a_hundred_wrong_codes_in_a_row_are_slowed_down(served) -> None:
    statuses = []
    started = time.monotonic()
    for _ in range(100):
        status, _answer = request(served, "POST", "/api/login", {}, code="999999x")
        statuses.append(status)
    print(f"100 wrong codes: {statuses.count(403)} checked, {statuses.count(429)} refused unchecked "
          f"in {time.monotonic() - started:.2f} s")
    assert statuses.count(429) >= 90
    status, answer = request(served, "POST", "/api/login", {}, code=served.code)
    assert status == 429 and "try again" in answer["error"]       # even the right code waits now
    status, answer = request(served, "POST", "/api/login", {}, code=served.code, source="127.0.0.2")
    assert status == 200 and answer["role"] == "player"          # another client is not locked out


def test_malformed_requests_get_a_clear_4xx_and_change_nothing(served) -> None:
    before = picture(served)
    status, answer = request(served, "POST", "/api/game/new", raw=b"{not json", code=PIN)
    assert status == 400 and "bad JSON" in answer["error"]
    status, answer = request(served, "POST", "/api/game/new", raw=b"[1, 2]", code=PIN)
    assert status == 400 and "JSON object" in answer["error"]
    status, answer = request(served, "POST", "/api/game/new", raw=b"{" + b" " * 100_000 + b"}", code=PIN)
    assert status == 413 and "too large" in answer["error"]
    status, answer = request(served, "POST", "/api/game/new", {"game": {"variant": "chess"}}, code=PIN)
    assert status == 400 and "unknown 'chess'" in answer["error"] and "classic" in answer["error"]
    status, answer = request(served, "POST", "/api/game/new", {"game": {"variant": "classic", "time_control": "5+x"}},
                             code=PIN)
    assert status == 400 and answer["error"].startswith("time control:"), answer
    status, answer = request(served, "POST", "/api/game/new", {"game": {"variant": "classic", "sides": "7"}}, code=PIN)
    assert status == 400 and "sides" in answer["error"]
    status, answer = request(served, "POST", "/api/game/action", {"action": "explode"}, code=PIN)
    assert status == 400 and "action" in answer["error"]
    status, answer = request(served, "POST", "/api/game/new", {"game": {}}, code=PIN, content_type="text/plain")
    assert status == 415
    status, answer = request(served, "POST", "/api/games/import", {"pdn": "1. 99-98 *"}, code=PIN)
    assert status == 400 and "PDN not imported" in answer["error"]
    assert picture(served) == before


def test_an_illegal_remote_move_is_refused_with_the_reason_and_changes_nothing(served) -> None:
    status, answer = request(served, "POST", "/api/game/new", {"game": {"variant": "classic", "mode": "remote"}},
                             code=served.code)
    assert status == 200
    seat = answer["seat_token"]
    served.rig.set_up()
    status, answer = request(served, "POST", "/api/game/move", {"move": "c3-d4"}, code=served.code, seat=seat)
    assert 400 <= status < 500 and "not the remote seat's turn" in answer["error"]
    move = served.rig.do(lambda: served.app.session.game.legal_moves()[0])
    served.rig.play(move)
    wait_until(lambda: served.rig.do(lambda: served.web.driver.current_remote().waiting), "the remote seat's turn")
    status, answer = request(served, "POST", "/api/game/move", {"move": "a1-h8"}, code=served.code, seat=seat)
    assert status == 400 and "not a legal move" in answer["error"] and "legal:" in answer["error"]
    assert served.rig.do(lambda: served.app.session.planned) in (None, ())


def test_the_remote_seats_move_needs_its_seat_token_besides_the_code(served) -> None:
    status, answer = request(served, "POST", "/api/game/new", {"game": {"variant": "classic", "mode": "remote",
                                                                        "remote_seat": 0}}, code=served.code)
    seat = answer["seat_token"]
    served.rig.set_up()
    before = picture(served)
    for code, given, expected in ((None, seat, 401), ("000000" if served.code != "000000" else "1", seat, 403),
                                  (served.code, None, 403), (served.code, "not-the-token", 403), (PIN, None, 403)):
        status, answer = request(served, "POST", "/api/game/move", {"move": "c3-d4"}, code=code, seat=given,
                                 source="127.0.0.50")
        assert status == expected, (code, given, answer)
    assert picture(served) == before and served.rig.do(lambda: served.app.session.planned) in (None, ())


def test_a_request_too_large_and_a_board_that_does_not_answer_are_said_in_the_boards_language(
        served, monkeypatch) -> None:
    """A person at the page reads these (a PDN file too big to upload, a board
    busy or stuck): on a Polish board, in Polish."""
    from damka.controller.app.board_settings import BoardSettings
    from damka.web import driver
    served.rig.do(lambda: served.app.set_board_settings(BoardSettings(language="pl")))
    status, answer = request(served, "POST", "/api/games/import", raw=b"{" + b" " * (3 << 20) + b"}", code=PIN)
    assert (status, answer["error"]) == (413, "za duże: plansza przyjmuje najwyżej 2048 KiB naraz")
    served.rig.stop()                                          # the board's loop stops: nothing runs the command
    monkeypatch.setattr(driver, "COMMAND_TIMEOUT_S", 0.5)      # (10 s on a board)
    status, answer = request(served, "POST", "/api/game/new", {"game": {"variant": "classic"}}, code=PIN)
    assert status == 503 and answer["error"].startswith("plansza nie odpowiedziała na czas: spróbuj znowu")
