"""A game with a remote seat resumed after a power cut, and resigning from the
page (a real server on 127.0.0.1, the App on the virtual board, a SQLite store
in tmp_path; HTTP client, no browser)."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")

from damka.controller.app import resume  # noqa: E402
from damka.hardware.interfaces import Role  # noqa: E402
from test_web_remote import wait_for  # noqa: E402
from web_support import PIN, Served, request, served  # noqa: E402,F401  (fixture)


def remote_game(served: Served, **game) -> str:
    """A game set up from the page with a remote seat; the seat token."""
    status, answer = request(served, "POST", "/api/game/new", {"game": {"variant": "classic", "mode": "remote",
                                                                        **game}}, code=served.code)
    assert status == 200, answer
    served.rig.set_up()
    return answer["seat_token"]


def remote_moves(served: Served, token: str) -> None:
    """The remote player moves from the page; the person at the table carries it out."""
    wait_for(served, lambda: served.web.driver.current_remote().waiting)
    plies = served.rig.committed()
    text = served.rig.do(lambda: served.web.driver.current_remote().legal()[0]["text"])
    status, answer = request(served, "POST", "/api/game/move", {"move": text}, code=served.code, seat=token)
    assert status == 200 and answer["turn_complete"], answer
    wait_for(served, lambda: bool(served.app.session.planned))
    served.rig.play(served.rig.do(lambda: served.app.session.planned[0]))
    wait_for(served, lambda: len(served.app.session.committed) == plies + 1)


def board_moves(served: Served) -> None:
    plies = served.rig.committed()
    served.rig.play(served.rig.do(lambda: served.app.session.game.legal_moves()[0]))
    wait_for(served, lambda: len(served.app.session.committed) == plies + 1)


def test_a_resumed_game_keeps_its_remote_seat_claimed_with_the_code(tmp_path) -> None:
    before = Served(tmp_path)
    try:
        token = remote_game(before)
        board_moves(before)                                   # White at the table
        remote_moves(before, token)                           # Black from the page
        game_id = before.rig.do(lambda: before.app.game_id)
    finally:
        before.close()                                        # the power cut: the game is left unfinished
    board = Served(tmp_path, offer_resume=True)               # `damka run` again: the App offers the game
    try:
        assert board.store.load_game(game_id).tags[resume.REMOTE_TAG] == "1"
        status, answer = request(board, "POST", "/api/game/action", {"action": "resume"}, code=board.code)
        assert status == 200, answer
        board.rig.set_up()
        remote = board.rig.do(board.web.driver.current_remote)
        assert remote is not None and not remote.claimed
        assert board.rig.do(lambda: (board.app.built.computer_sides, board.app.remote_sides())) == \
            (frozenset({1}), frozenset({1}))                  # the same seat, from afar again, not at the table
        messages = board.rig.do(lambda: board.app.view().messages)
        assert any("Waiting for the remote player to come back" in line for line in messages)
        wait_for(board, lambda: board.web.feed.latest_state.data["remote"] is not None)
        assert board.web.feed.latest_state.data["remote"]["claimed"] is False
        status, answer = request(board, "POST", "/api/game/move", {"move": "11-15"}, code=board.code, seat=token)
        assert status == 403                                  # the old token is gone with the restart
        board_moves(board)
        status, first = request(board, "POST", "/api/game/claim", {}, code=board.code)
        assert status == 200 and first["seat_token"] != token, first
        assert not any("Waiting for the remote" in line for line in board.rig.do(lambda: board.app.view().messages))
        status, answer = request(board, "POST", "/api/game/claim", {}, code=board.code)
        assert status == 409 and "arbiter PIN" in answer["error"]      # only one page gets the seat
        status, second = request(board, "POST", "/api/game/claim", {}, code=PIN)     # the arbiter hands it over
        assert status == 200 and second["seat_token"] not in (first["seat_token"], token)
        text = board.rig.do(lambda: board.web.driver.current_remote().legal()[0]["text"])
        status, answer = request(board, "POST", "/api/game/move", {"move": text}, code=board.code,
                                 seat=first["seat_token"])
        assert status == 403                                  # the first page holds the seat no more
        legal = board.rig.do(lambda: board.web.driver.current_remote().legal())
        status, answer = request(board, "POST", "/api/game/move", {"move": legal[0]["text"]}, code=board.code,
                                 seat=second["seat_token"])
        assert status == 200 and answer["turn_complete"], answer
        wait_for(board, lambda: board.rig.board.leds.get(legal[0]["from"]) is Role.COMPUTER_FROM)
        board.rig.play(board.rig.do(lambda: board.app.session.planned[0]))   # carried out at the table
        wait_for(board, lambda: len(board.app.session.committed) == 4)
    finally:
        board.close()


def test_a_game_with_no_page_resumes_with_the_remote_seat_at_the_table(tmp_path) -> None:
    before = Served(tmp_path)
    try:
        remote_game(before)
        board_moves(before)
    finally:
        before.close()
    board = Served(tmp_path, offer_resume=True, web=False)     # the web page switched off
    try:
        board.rig.do(lambda: board.app.menu_action("resume", "test"))
        assert board.rig.do(lambda: (board.app.setup.mode, board.app.remote_sides(), board.app.session.opponent)) \
            == ("casual", frozenset(), None)
    finally:
        board.close()


def test_the_remote_player_resigning_on_the_boards_turn_loses(served) -> None:
    token = remote_game(served)                               # Black from the page; White to move at the table
    status, answer = request(served, "POST", "/api/game/action", {"action": "resign"}, code=served.code, seat=token)
    assert status == 200, answer
    result = served.rig.do(lambda: served.app.session.result)
    assert (result.winner, result.reason) == (0, "resignation")   # the board's player wins


def test_a_board_page_resigns_the_tables_side_never_the_remote_seat(served) -> None:
    token = remote_game(served)
    board_moves(served)                                       # Black (the remote player) to move
    status, answer = request(served, "POST", "/api/game/action", {"action": "resign"}, code=served.code)
    assert status == 200, answer                              # the board's one side resigns, on any turn
    assert served.rig.do(lambda: served.app.session.result.winner) == 1   # White (the table) lost, not Black


def test_the_remote_player_resigning_a_three_player_game_goes_out(served) -> None:
    token = remote_game(served, variant="multiwarcaby", sides="3", remote_seat=2)
    status, answer = request(served, "POST", "/api/game/action", {"action": "resign"}, code=served.code, seat=token)
    assert status == 200, answer                              # on the first player's turn
    assert served.rig.do(lambda: (served.app.session.result, served.app.session.game.position.active)) == \
        (None, (True, True, False))                           # the others play on
