"""A game with a remote seat, resumed after the board restarts, played on from the page in a real Chromium
(tests/test_web_browser.py's rig; tests/test_web_resume.py checks the same through the API): the page sees
that its seat waits, claims it with the board's new pairing code and moves by clicking; the board lights it."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")
pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install -e .[dev])")

from damka.hardware.interfaces import Role  # noqa: E402
from test_web_browser import browser, open_page, pytestmark, screenshot, wait_moves  # noqa: E402,F401
from test_web_offers import start_remote_game  # noqa: E402
from test_web_remote import wait_for  # noqa: E402
from test_web_resume import board_moves  # noqa: E402
from web_support import Served  # noqa: E402


def click_move(page, board: Served) -> dict:
    """The page's player clicks a piece, then its square; the board lights that move: the move's data."""
    page.wait_for_function("damka.state.remote && damka.state.remote.waiting && damka.state.remote.legal.length")
    assert "Your move" in page.text_content("#remote")
    choice = page.evaluate("damka.state.remote.legal[0]")
    page.click(f"#board [data-square={choice['from']}]")
    page.wait_for_selector("#board .mark-target")
    page.click(f"#board [data-square={choice['to']}]")
    wait_for(board, lambda: board.rig.board.leds.get(choice["from"]) is Role.COMPUTER_FROM
             and board.rig.board.leds.get(choice["to"]) is Role.COMPUTER_TO)
    return choice


def carried_out(board: Served) -> None:
    """The person at the table carries out the lit move."""
    plies = board.rig.committed()
    board.rig.play(board.rig.do(lambda: board.app.session.planned[0]))
    wait_for(board, lambda: len(board.app.session.committed) == plies + 1)


def test_a_resumed_remote_seat_is_claimed_on_the_page_and_played_by_clicks(browser, tmp_path) -> None:
    before = Served(tmp_path)
    port = before.web.port
    page = open_page(browser, before, 360, 740)
    try:
        start_remote_game(page, before)                        # Black is played on this page
        board_moves(before)                                    # White at the table
        click_move(page, before)                               # Black from the page
        carried_out(before)
        wait_moves(page, 2)
        moves = page.evaluate("damka.state.game.moves.map(m => m.text)")
    finally:
        before.close()                                         # the power cut: the game is left unfinished
    board = Served(tmp_path, offer_resume=True, port=port)     # `damka run` again, on the same address
    try:
        page.reload()                                          # the page keeps its old seat token: gone now
        page.wait_for_selector("#resumebtn:not([hidden])")
        page.fill("#code", board.code)                         # the new pairing code from the board's screen
        page.click("#resumebtn")
        page.wait_for_function("damka.state.remote !== null")
        board.rig.set_up()
        page.wait_for_function("damka.state.game && damka.state.game.phase === 'playing'")
        waiting = page.text_content("#remote")
        assert "waits for the remote player" in waiting and "claim the seat" in waiting, waiting
        assert page.evaluate("damka.state.game.moves.map(m => m.text)") == moves
        assert any("Waiting for the remote player to come back" in line
                   for line in board.rig.do(lambda: board.app.view().messages))
        if page.is_visible("#noticeclose"):
            page.click("#noticeclose")
        page.evaluate("document.getElementById('remote').scrollIntoView({block: 'end'});"
                      " window.scrollBy(0, 12)")
        screenshot(page, "resume-360x740.png")
        page.click("#remote #claim")
        page.wait_for_function("document.getElementById('notice').textContent.includes('played on this page')")
        page.wait_for_function("!document.getElementById('claim')")
        assert board.rig.do(lambda: board.web.driver.current_remote().claimed)
        assert not any("Waiting for the remote" in line for line in board.rig.do(lambda: board.app.view().messages))
        board_moves(board)                                     # White at the table
        choice = click_move(page, board)                       # Black from the page again: lit on the board
        carried_out(board)
        wait_moves(page, 4)
        assert page.evaluate("damka.state.game.moves.map(m => m.text)")[-1] == choice["text"]
        assert page.errors == []
    finally:
        page.close()
        board.close()
