"""The page's "Board" tab (web/static/board_settings.js) in a real Chromium against a real server:
the board's settings and the clock's pause/start from the page, and the board's menu seen live."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")
pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install -e .[dev])")

from damka.controller.app.board_settings import BoardSettings  # noqa: E402
from damka.controller.game.setup import GameSetup  # noqa: E402
from test_board_play import FULL, go_to_row, set_row  # noqa: E402
from test_web_browser import board, browser, open_page, pytestmark, screenshot, unlock  # noqa: E402,F401
from waiting import wait_until as waited  # noqa: E402


def wait_until(read, wanted):
    waited(lambda: read() == wanted, repr(wanted))


def test_brightness_and_palette_changed_on_the_page_change_the_board_and_its_screen_says_so(browser, board) -> None:
    board.rig.do(lambda: board.app.new_game(GameSetup("classic", time_control="5+3")))
    board.rig.set_up()
    board.rig.play(board.rig.do(lambda: board.app.session.game.legal_moves()[0]))
    page = open_page(browser, board, 360, 740)
    unlock(page, board.code)
    page.click("#tabs button[data-tab=boardtab]")
    page.select_option("select[data-setting=brightness]", "128")
    wait_until(lambda: board.rig.do(lambda: board.app.board_settings.brightness), 128)
    page.select_option("select[data-setting=palette]", "colour-blind")
    wait_until(lambda: board.rig.do(lambda: board.app.board_settings),
               BoardSettings(brightness=128, palette="colour-blind"))
    screen = board.rig.do(lambda: " ".join(board.app.view().messages))    # the board's screen banner
    assert "LED colours Colour-blind safe from web player@127.0.0.1" in screen
    # The page's board draws the LEDs in the palette the board now uses (the last move lit).
    from damka.hardware.interfaces import Role
    from damka.hardware.palette import role_colour
    wanted = "#%02x%02x%02x" % role_colour(Role.LAST_MOVE, "colour-blind")
    page.wait_for_function("([c]) => [...document.querySelectorAll('#board .led-last_move')].length > 0 && "
                           "[...document.querySelectorAll('#board .led-last_move')].every(e => e.getAttribute('stroke') === c)",
                           arg=[wanted])
    page.wait_for_function("document.getElementById('clockbtn').textContent === 'Pause the clock'")
    page.click("#clockbtn")
    wait_until(lambda: board.rig.do(lambda: str(board.app.clock.state)), "paused")
    page.wait_for_function("document.getElementById('clockbtn').textContent === 'Start the clock'")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360      # fits the phone
    screenshot(page, "board-360x740.png")
    page.click("#clockbtn")
    wait_until(lambda: board.rig.do(lambda: str(board.app.clock.state)), "running")
    assert page.errors == []


def test_a_setting_changed_on_the_board_s_menu_shows_on_the_page_live(browser, board) -> None:
    page = open_page(browser, board)
    page.click("#tabs button[data-tab=boardtab]")
    assert page.input_value("select[data-setting=night]") == "off"
    board.rig.do(lambda: (go_to_row(board.app, board.rig.board, FULL, "settings"), FULL.ok(board.rig.board)))
    board.rig.do(lambda: set_row(board.app, board.rig.board, FULL, "night", "on"))
    page.wait_for_function("document.querySelector('select[data-setting=night]').value === 'on'", timeout=2000)
    board.rig.do(lambda: set_row(board.app, board.rig.board, FULL, "brightness", "255"))
    page.wait_for_function("document.querySelector('select[data-setting=brightness]').value === '255'",
                           timeout=2000)
    screenshot(page, "board-1280x800.png")
    assert page.errors == []
