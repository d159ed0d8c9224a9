"""The phone page's notice and status in a real Chromium: the notice never covers the game's buttons at
360x740, goes away when closed or when the game has moved on, the status calls each side by one name,
and the page asks for the pieces to be set up only while they are not."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")
pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install -e .[dev])")

from test_web_browser import board, browser, open_page, pytestmark, screenshot, unlock  # noqa: E402,F401

# The notice's box and each game button's box, in page coordinates, and whether they meet.
OVERLAPS = """() => {
  const box = (e) => { const r = e.getBoundingClientRect();
                       return {l: r.left + scrollX, t: r.top + scrollY, r: r.right + scrollX, b: r.bottom + scrollY}; };
  const n = box(document.getElementById('notice'));
  const meet = (a, b) => a.l < b.r && b.l < a.r && a.t < b.b && b.t < a.b;
  return [...document.querySelectorAll('#watch .controls button')].filter((b) => b.offsetParent !== null)
    .filter((b) => meet(n, box(b))).map((b) => b.textContent);
}"""


def start_named_game(page) -> None:
    page.click("#tabs button[data-tab=setup]")
    page.select_option("#newgame select[name=variant]", "classic")
    page.select_option("#newgame select[name=colours]", "first")
    page.fill("#newgame input[name=players]", "Ala, Ola")
    page.click("#newgame button[type=submit]")
    page.wait_for_function("damka.state.game && damka.state.game.sides[0].name === 'Ala'")


def status(page) -> str:
    return page.text_content("#status")


def test_the_notice_stays_clear_of_the_buttons_and_goes_when_the_game_moves_on(browser, board) -> None:
    page = open_page(browser, board, 360, 740)
    unlock(page, board.code)
    start_named_game(page)                                 # the board is empty: the pieces must go on
    page.wait_for_function("document.getElementById('status').textContent.startsWith('Set up the pieces')")
    page.wait_for_selector("#notice", state="visible")       # (with the command's answer: before or after its state)
    assert page.text_content("#noticetext") == "new game started"
    board.rig.set_up()                                     # set up: the "new game" notice has had its day
    page.wait_for_function("damka.state.game.phase === 'playing'")
    page.wait_for_selector("#notice", state="hidden")
    assert status(page) == "Ala to move"                  # one name for the side, not "Ala ... White/Player 1"
    names = page.eval_on_selector_all("#sides .name", "ns => ns.map(n => n.textContent)")
    assert names == ["Ala (White)", "Ola (Black)"]
    page.click("button[data-action=takeback]")             # nothing to take back: a long refusal
    page.wait_for_selector("#notice.bad")
    assert page.is_visible("#notice") and page.evaluate(OVERLAPS) == []
    for y in (0, 200, 400):                                # wherever the page is scrolled
        page.evaluate(f"window.scrollTo(0, {y})")
        assert page.evaluate(OVERLAPS) == []
    page.evaluate("document.getElementById('notice').scrollIntoView({block: 'end'})")
    screenshot(page, "notice-360x740.png")
    page.click("#noticeclose")                             # closed by hand
    assert page.is_hidden("#notice")
    page.click("button[data-action=takeback]")
    page.wait_for_selector("#notice.bad")
    board.rig.play(board.rig.do(lambda: board.app.session.game.legal_moves()[0]))   # the game moves on
    page.wait_for_function("damka.state.game.ply === 1")
    page.wait_for_selector("#notice", state="hidden")
    assert status(page) == "Ola to move"
    assert page.errors == []


def test_a_new_game_on_a_set_up_board_does_not_ask_for_the_pieces(browser, board) -> None:
    from damka.controller.game.setup import GameSetup
    board.rig.do(lambda: board.app.new_game(GameSetup("classic")))
    board.rig.set_up()                                     # the pieces stand at the start
    page = open_page(browser, board, 360, 740)
    unlock(page, board.code)
    start_named_game(page)
    page.wait_for_function("damka.state.game.phase === 'playing'")
    page.wait_for_function("document.getElementById('status').textContent === 'Ala to move'")
    shown = page.text_content("#watch").lower()
    assert "set up the pieces" not in shown, shown
    assert page.errors == []
