"""Offers between the page and the board in a real Chromium: a remote player
offers a draw and the person at the board accepts it in the board's menu; the
board asks for a take-back and the page accepts it (tests/test_web_browser.py's rig)."""

from __future__ import annotations


import pytest

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")
pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install -e .[dev])")

from damka.hardware.interfaces import Button, Role  # noqa: E402
from test_web_browser import browser, open_page, pytestmark, screenshot, unlock, wait_moves  # noqa: E402,F401
from web_support import Served  # noqa: E402
from waiting import wait_until  # noqa: E402


@pytest.fixture
def board(tmp_path):
    s = Served(tmp_path)
    yield s
    s.close()


def start_remote_game(page, board: Served) -> None:
    unlock(page, board.code)
    page.click("#tabs button[data-tab=setup]")
    page.select_option("#newgame select[name=variant]", "classic")
    page.select_option("#newgame select[name=mode]", "remote")
    assert page.is_visible("#newgame select[name=remote_seat]")
    page.click("#newgame button[type=submit]")
    page.wait_for_function("damka.state.remote !== null")
    board.rig.set_up()


def board_menu(board: Served, key: str) -> None:
    """The person at the table opens the game menu and chooses the row `key`."""
    def run() -> None:
        board.rig.board.button(Button.MENU)
        keys = [row.key for row in board.app.overlay.visible_rows()]
        for _ in range(keys.index(key)):
            board.rig.board.button(Button.DOWN)
        board.rig.board.button(Button.OK)
    board.rig.do(run)


def test_the_remote_player_offers_a_draw_and_the_board_accepts_it(browser, board) -> None:
    page = open_page(browser, board, 360, 740)
    start_remote_game(page, board)
    board.rig.play(board.rig.do(lambda: board.app.session.game.legal_moves()[0]))   # white at the table
    wait_moves(page, 1)
    page.click("button[data-action=draw]")
    page.wait_for_function("damka.state.offer && damka.state.offer.pending")
    assert "waiting for the board's answer" in page.text_content("#offer")
    messages = board.rig.do(lambda: " ".join(board.app.view().messages))
    assert "Draw offered by Black (remote) from the remote page: accept in menu" in messages
    assert "draw offered from web player@127.0.0.1" in messages             # the board says from where
    board_menu(board, "accept")
    page.wait_for_function("damka.state.game.result !== null")
    assert page.evaluate("damka.state.game.result.reason") == "agreement"
    page.wait_for_function("document.getElementById('offer').textContent.includes('accepted from the board')")
    assert "accepted" in page.text_content("#events")
    assert page.errors == []


def test_the_board_asks_for_a_take_back_and_the_page_accepts_it(browser, board) -> None:
    page = open_page(browser, board)
    start_remote_game(page, board)
    start = board.rig.do(lambda: board.app.session.game.position)
    board.rig.play(board.rig.do(lambda: board.app.session.game.legal_moves()[0]))
    page.wait_for_function("damka.state.remote && damka.state.remote.waiting && damka.state.remote.legal.length")
    choice = page.evaluate("damka.state.remote.legal[0]")
    page.click(f"#board [data-square={choice['from']}]")
    page.click(f"#board [data-square={choice['to']}]")                       # the page's move, lit on the board
    wait_until(lambda: board.rig.do(lambda: board.app.session.planned), "the page's move lit")
    board.rig.play(board.rig.do(lambda: board.app.session.planned[0]))       # carried out at the table
    wait_moves(page, 2)
    board_menu(board, "takeback")                                            # white asks for its last move back
    page.wait_for_selector("#offer button[data-answer=accept]")
    assert "take-back of 2 moves is offered from the board" in page.text_content("#offer").lower()
    screenshot(page, "offer-1280x800.png")
    assert board.rig.do(lambda: board.app.session.game.ply) == 2            # nothing yet: the page answers
    page.click("#offer button[data-answer=accept]")
    page.wait_for_function("damka.state.offer.last && damka.state.offer.last.answer === 'accepted'")
    lit = board.rig.do(lambda: dict(board.app.frame))
    assert sorted(role.value for role in lit.values() if role in (Role.PUT_HERE, Role.TAKE_AWAY)) == \
        ["put_here", "put_here", "take_away", "take_away"]                  # the LEDs guide both pieces back
    assert "take-back accepted from web player@127.0.0.1" in board.rig.do(lambda: board.app.banner)

    def put_back() -> None:
        for square, role in sorted(lit.items(), key=lambda item: item[1] is Role.PUT_HERE):
            if role is Role.TAKE_AWAY:
                board.rig.board.remove(square)
            elif role is Role.PUT_HERE:
                board.rig.board.put(square)
    board.rig.do(put_back)
    page.wait_for_function("damka.state.game.moves.length === 0", timeout=8000)
    assert board.rig.do(lambda: board.app.session.game.position) == start
    assert page.errors == []


def test_the_remote_seat_stays_with_its_page_after_a_reload_and_another_page_watches(browser, board) -> None:
    page = open_page(browser, board)
    start_remote_game(page, board)
    other = open_page(browser, board, 360, 740)                             # another device with the code
    unlock(other, board.code)
    board.rig.play(board.rig.do(lambda: board.app.session.game.legal_moves()[0]))
    page.reload()
    page.wait_for_function("damka.state && damka.state.remote && damka.state.remote.waiting")
    assert "Your move" in page.text_content("#remote")                     # the reloaded page still plays
    other.wait_for_function("damka.state && damka.state.remote && damka.state.remote.waiting")
    assert "played from the page that set up the game" in other.text_content("#remote")
    choice = other.evaluate("damka.state.remote.legal[0]")
    status = other.evaluate("(text) => fetch('/api/game/move', {method: 'POST', headers: {'Content-Type': "
                            "'application/json', 'X-CSRF-Token': document.cookie.match(/damka_csrf=([^;]*)/)[1], "
                            "'X-Damka-Code': sessionStorage.getItem('damka_code')}, body: JSON.stringify({move: text})})"
                            ".then(r => r.status)", choice["text"])
    assert status == 403                                                    # the other page may not move for it
    other.click(f"#board [data-square={choice['from']}]")
    assert other.evaluate("damka.selected") is None                         # nothing to choose on the watching page
    page.click(f"#board [data-square={choice['from']}]")
    page.click(f"#board [data-square={choice['to']}]")
    wait_until(lambda: board.rig.do(lambda: board.app.session.planned), "the page's move lit")
    assert board.rig.do(lambda: board.app.session.planned[0]) is not None  # the reloaded page's move is lit
    assert page.errors == [] and other.errors == []
