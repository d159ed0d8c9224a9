"""A remote seat at any seat of the game, and offers through the page's API
(a real server on 127.0.0.1, the App on the virtual board; HTTP client, no browser)."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")

from damka.hardware.interfaces import Role  # noqa: E402
from web_support import request, served  # noqa: E402,F401  (fixture)
from waiting import wait_until  # noqa: E402


def wait_for(served, check) -> None:
    wait_until(lambda: served.rig.do(check), "the board to get there")


def test_the_remote_seat_may_be_the_first_seat_of_a_classic_game(served) -> None:
    status, answer = request(served, "POST", "/api/game/new",
                             {"game": {"variant": "classic", "mode": "remote", "remote_seat": 0}}, code=served.code)
    assert status == 200, answer
    token = answer["seat_token"]
    served.rig.set_up()
    assert served.rig.do(lambda: (served.app.built.computer_sides, served.app.game_players[0])) == \
        (frozenset({0}), "White (remote)")
    wait_for(served, lambda: served.web.driver.current_remote().waiting)    # white moves first: from the page
    legal = served.rig.do(lambda: served.web.driver.current_remote().legal())
    status, answer = request(served, "POST", "/api/game/move", {"move": legal[0]["text"]}, code=served.code,
                             seat=token)
    assert status == 200 and answer["turn_complete"]
    wait_for(served, lambda: Role.COMPUTER_FROM in served.rig.board.leds.values())
    assert served.rig.board.leds[legal[0]["from"]] is Role.COMPUTER_FROM    # lit for the person at the table
    served.rig.play(served.rig.do(lambda: served.app.session.planned[0]))
    wait_for(served, lambda: len(served.app.session.committed) == 1)        # carried out: committed
    assert served.web.feed.latest_state.data["remote"]["seats"] == [0]


def test_the_remote_seat_may_be_the_third_of_a_three_player_game_and_a_wrong_seat_is_refused(served) -> None:
    game = {"variant": "multiwarcaby", "sides": "3", "mode": "remote", "remote_seat": 3}
    status, answer = request(served, "POST", "/api/game/new", {"game": game}, code=served.code)
    assert status == 400 and "remote_seat" in answer["error"] and "0 to 2" in answer["error"]
    assert served.rig.do(lambda: served.app.built) is None                    # nothing changed
    status, answer = request(served, "POST", "/api/game/new", {"game": {**game, "remote_seat": 2}}, code=served.code)
    assert status == 200, answer
    assert served.rig.do(lambda: served.app.built.computer_sides) == frozenset({2})


def test_offers_through_the_api_wait_for_the_other_party(served) -> None:
    _, answer = request(served, "POST", "/api/game/new", {"game": {"variant": "classic", "mode": "remote"}},
                        code=served.code)
    token = answer["seat_token"]
    served.rig.set_up()
    status, answer = request(served, "POST", "/api/game/action", {"action": "accept"}, code=served.code, seat=token)
    assert status == 409 and "no offer is pending" in answer["error"]
    status, answer = request(served, "POST", "/api/game/action", {"action": "draw"}, code=served.code, seat=token)
    assert status == 200 and answer["note"] == "draw offered from web player@127.0.0.1"
    assert served.rig.do(lambda: (served.app.pending_offer.where, served.app.session.result)) == ("remote page", None)
    status, answer = request(served, "POST", "/api/game/action", {"action": "accept"}, code=served.code, seat=token)
    assert status == 409 and "the other player answers it" in answer["error"]  # not its own offer
    wait_for(served, lambda: (served.web.feed.latest_state.data["offer"] or {}).get("pending") is not None)
    served.rig.play(served.rig.do(lambda: served.app.session.game.legal_moves()[0]))  # play on: it lapses
    wait_for(served, lambda: served.app.pending_offer is None)
    events = [item.data for item in served.web.feed.history if item.kind == "event"]
    assert [(e["type"], e.get("answer")) for e in events if e["type"].startswith("Offer")] == \
        [("OfferMade", None), ("OfferAnswered", "lapsed")]


def test_the_remote_seat_is_the_page_that_set_up_the_game(served) -> None:
    status, answer = request(served, "POST", "/api/game/new", {"game": {"variant": "classic", "mode": "remote"}},
                             code=served.code)
    token, seat_id = answer["seat_token"], answer["seat_id"]
    assert len(token) >= 20 and token != seat_id
    served.rig.set_up()
    served.rig.play(served.rig.do(lambda: served.app.session.game.legal_moves()[0]))     # White at the table
    wait_for(served, lambda: served.web.driver.current_remote().waiting)
    picture = served.web.feed.latest_state.data
    assert picture["remote"]["seat_id"] == seat_id
    assert token not in json.dumps(picture) and all(token not in item.text for item in served.web.feed.history)
    text = served.rig.do(lambda: served.web.driver.current_remote().legal()[0]["text"])
    for given, why in ((None, "this page has none"), (token[:-1] + "x", "seat token is wrong")):
        status, answer = request(served, "POST", "/api/game/move", {"move": text}, code=served.code, seat=given)
        assert status == 403 and why in answer["error"] and "set up the game" in answer["error"], answer
    assert served.rig.do(lambda: served.app.session.planned) in (None, ())                # nothing lit
    # Another page with the code acts for the board's side: its offer is the board's, answered by the seat.
    status, answer = request(served, "POST", "/api/game/action", {"action": "draw"}, code=served.code)
    assert status == 200 and served.rig.do(lambda: served.app.pending_offer.where) == "board"
    status, answer = request(served, "POST", "/api/game/action", {"action": "decline"}, code=served.code)
    assert status == 409 and "the other player answers it" in answer["error"]
    status, answer = request(served, "POST", "/api/game/action", {"action": "decline"}, code=served.code, seat=token)
    assert status == 200 and served.rig.do(lambda: served.app.pending_offer) is None
    for _ in range(2):                                        # the token keeps working (a page reloaded sends it again)
        status, answer = request(served, "POST", "/api/login", {}, code=served.code, seat=token)
        assert status == 200
    status, answer = request(served, "POST", "/api/game/move", {"move": text}, code=served.code, seat=token)
    assert status == 200 and answer["turn_complete"]
    wait_for(served, lambda: bool(served.app.session.planned))


def test_a_remote_seat_beside_computer_seats_in_a_three_player_game(served) -> None:
    game = {"variant": "multiwarcaby", "sides": "3", "mode": "remote", "remote_seat": 1, "computers": "1",
            "colours": "first", "level": "beginner"}
    status, answer = request(served, "POST", "/api/game/new", {"game": game}, code=served.code)
    assert status == 200, answer
    assert served.rig.do(lambda: (served.app.built.computer_sides, served.app.game_players)) == \
        (frozenset({1, 2}), ["Player 1", "Player 2 (remote)", "Player 3 (computer)"])
    served.rig.set_up()
    wait_for(served, lambda: served.web.feed.latest_state.data["remote"] is not None)
    assert served.web.feed.latest_state.data["remote"]["seats"] == [1]      # the page plays seat 1 only
