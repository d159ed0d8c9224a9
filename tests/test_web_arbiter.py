"""The arbiter's console in a real Chromium against a real server on 127.0.0.1 (the App on the
virtual board, SQLite store): set a side's time, undo a press, declare a result, each refused
with the pairing code alone and each in the console's log (who, when, what), pushed live."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")
pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install -e .[dev])")

from damka.controller.clock.records import State  # noqa: E402
from damka.controller.game.setup import GameSetup  # noqa: E402
from test_web_browser import board, browser, open_page, pytestmark, screenshot, unlock  # noqa: E402,F401
from web_support import PIN  # noqa: E402

WHO = "web arbiter@127.0.0.1"


def arbiter_says(page, text: str) -> None:
    page.wait_for_function(f"document.getElementById('arberror').textContent.includes({text!r})")


def log_rows(page) -> list[dict]:
    return page.evaluate("""[...document.querySelectorAll('#arblog li')].map(li => ({
        when: li.querySelector('.when').textContent, who: li.querySelector('.who').textContent,
        what: li.querySelector('.what').textContent}))""")


def test_the_arbiter_sets_time_undoes_a_press_and_declares_the_result_only_with_the_pin(browser, board) -> None:
    board.rig.do(lambda: board.app.new_game(GameSetup("classic", mode="tournament", time_control="5+3")))
    board.rig.set_up()
    board.rig.play(board.rig.do(lambda: board.app.session.game.legal_moves()[0]))   # white moves, presses
    board.rig.do(lambda: None)
    page = open_page(browser, board, 360, 740)
    page.on("dialog", lambda dialog: dialog.accept())
    watcher = open_page(browser, board)            # a second page: the log comes to it without a reload
    watcher.click("#tabs button[data-tab=arbiter]")
    unlock(page, board.code)                       # the pairing code is not enough for any of them
    page.click("#tabs button[data-tab=arbiter]")
    before = board.rig.do(lambda: (board.app.clock_ms(), board.app.session.game.ply))
    for button in ("set_time", "undo", "result"):
        page.evaluate("document.getElementById('arberror').textContent = ''")
        page.click(f"button[data-arb={button}]")
        arbiter_says(page, "needs the arbiter PIN")
    assert board.rig.do(lambda: board.app.session.game.ply) == before[1] == 1
    assert board.rig.do(lambda: board.app.session.result) is None
    assert board.rig.do(lambda: board.app.clock_ms())[0] == before[0][0]
    assert log_rows(page) == []

    unlock(page, PIN)
    page.click("#tabs button[data-tab=arbiter]")
    page.select_option("#arbside", "0")
    page.fill("#arbset", "2:00")
    page.click("button[data-arb=set_time]")
    arbiter_says(page, "done: White set to 2:00")
    assert board.rig.do(lambda: board.app.clock_ms())[0] == 120_000     # white's clock is not running
    page.click("button[data-arb=undo]")
    arbiter_says(page, "done: last press of White undone")
    assert board.rig.do(lambda: (board.app.session.game.ply, board.app.clock.state)) == (0, State.PAUSED)
    page.select_option("#arbwinner", "1")
    page.click("button[data-arb=result]")
    page.wait_for_function("damka.state.game.result !== null")
    result = board.rig.do(lambda: board.app.session.result)
    assert result.winner == 1 and result.reason == "arbiter's decision"

    for shown in (page, watcher):
        shown.wait_for_function("document.querySelectorAll('#arblog li').length === 3")
        rows = log_rows(shown)
        assert [row["who"] for row in rows] == [WHO] * 3
        assert [row["what"] for row in rows][::-1] == [
            "White set to 2:00", rows[1]["what"], "Black wins"] and rows[1]["what"].startswith("last press of White")
        assert all(re.fullmatch(r"\d\d:\d\d:\d\d", row["when"]) for row in rows)
    stored = board.rig.do(lambda: [a for _ms, _at, a, _d in board.store.arbiter_log(board.app.game_id)])
    assert stored[:2] == ["set-time", "undo"] and "result" in stored
    if page.is_visible("#noticeclose"):
        page.click("#noticeclose")                      # the notice closed, as a person would
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, "arbiter-360x740.png")
    assert page.errors == [] and watcher.errors == []


def test_a_new_pairing_code_is_the_arbiters_and_shown_on_the_board(browser, board) -> None:
    page = open_page(browser, board)
    old = board.code
    unlock(page, old)
    page.click("#tabs button[data-tab=arbiter]")
    page.click("#rotate")
    arbiter_says(page, "needs the arbiter PIN")
    assert board.code == old
    unlock(page, PIN)
    page.click("#tabs button[data-tab=arbiter]")
    page.click("#rotate")
    arbiter_says(page, "shows the new pairing code")
    assert board.code != old
    assert f"Web code {board.code}" in board.rig.do(lambda: board.app.banner)
    page.wait_for_function("document.querySelectorAll('#arblog li').length === 1")
    assert log_rows(page)[0]["what"].startswith("new pairing code")
