"""The phone page in Polish, in a real Chromium against a real server (tests/web_rig.py): on a board
set to Polish every word of the page is Polish (its own words from the catalogue, the board's
sentences, the forms' choices, a game as it is played); the page can switch to English for itself;
and a page that chose nothing follows the board when its language is changed from the page."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")
pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install -e .[dev])")

from damka.controller.app.board_settings import BoardSettings  # noqa: E402
from damka.controller.game.setup import GameSetup  # noqa: E402
from damka.controller.words import catalogue  # noqa: E402
from test_web_browser import CHROMIUM, board, browser, open_page, screenshot, unlock  # noqa: E402,F401
from web_support import Served  # noqa: E402

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(),
                                reason="Debian's chromium is not installed (bootstrap.py installs it as root)")

MARKED = """() => [...document.querySelectorAll('[data-w]')].map(n => [n.dataset.w, n.textContent])
  .concat([...document.querySelectorAll('[data-w-placeholder]')].map(n => [n.dataset.wPlaceholder, n.placeholder]))
  .concat([...document.querySelectorAll('[data-w-aria]')].map(n => [n.dataset.wAria, n.getAttribute('aria-label')]))"""


def speak(served: Served, code: str) -> None:
    """The board's language, set as its settings menu sets it (on the board's loop)."""
    served.rig.do(lambda: served.app.set_board_settings(BoardSettings(language=code)))


def polish_page(browser, served: Served):
    page = open_page(browser, served)
    page.wait_for_function("document.documentElement.lang === 'pl' && damkaWords.words.tab_game === 'Gra'")
    return page


def test_the_page_of_a_polish_board_is_polish(browser, board) -> None:
    speak(board, "pl")
    page = polish_page(browser, board)
    polish = catalogue.page_words("pl")
    marked = page.evaluate(MARKED)
    assert len(marked) > 50
    assert [(key, text) for key, text in marked if text != polish[key]] == []
    assert page.locator("#tabs button").all_text_contents() == ["Gra", "Nowa gra", "Sędzia", "Archiwum", "Plansza",
                                                                  "Nauka"]
    page.wait_for_function("document.getElementById('conn').textContent === 'na żywo'")
    page.wait_for_function("document.getElementById('status').textContent.startsWith('Plansza pokazuje: Nowa gra')")
    page.click("#tabs button[data-tab=setup]")
    variants = page.locator("#newgame select[name=variant] option").all_text_contents()
    assert "Klasyczne 8x8" in variants and "Stupolowe 10x10 (duża plansza)" in variants
    assert "Towarzyska" in page.locator("#newgame select[name=mode] option").all_text_contents()
    page.click("#tabs button[data-tab=boardtab]")
    labels = page.locator("#settingsform label").all_text_contents()
    assert any(label.startswith("Jasność diod") for label in labels) and any(label.startswith("Język") for label in labels)
    screenshot(page, "board-pl-1280x800.png")
    unlock_pl(page, board.code)
    page.click("#tabs button[data-tab=setup]")
    page.select_option("#newgame select[name=variant]", "classic")
    page.fill("#newgame input[name=players]", "Ala, Ola")
    page.click("#newgame button[type=submit]")
    page.wait_for_function("damka.state.game && damka.state.game.variant === 'classic'")
    board.rig.set_up()
    page.wait_for_function("damka.state.game.phase === 'playing'")
    page.wait_for_function("document.getElementById('status').textContent.includes('Ruch: Ala')")
    assert page.locator("#sides .side .name").all_text_contents() == ["Ala (Białe)", "Ola (Czarne)"]
    screenshot(page, "game-pl-1280x800.png")
    assert page.errors == []


def unlock_pl(page, code: str) -> None:
    page.fill("#code", code)
    page.click("#codeform button")
    page.wait_for_function("document.getElementById('notice').textContent.startsWith('odblokowano')")


def test_the_page_switches_to_english_for_itself(browser, board) -> None:
    speak(board, "pl")
    page = polish_page(browser, board)
    page.select_option("#language", "en")
    page.wait_for_function("document.documentElement.lang === 'en'")
    english = catalogue.page_words("en")
    assert [(key, text) for key, text in page.evaluate(MARKED) if text != english[key]] == []
    page.click("#tabs button[data-tab=setup]")
    page.wait_for_function("[...document.querySelectorAll('#newgame select[name=variant] option')]"
                           ".some(o => o.textContent === 'Classic 8x8')")
    page.reload()
    page.wait_for_function("document.documentElement.lang === 'en' && damkaWords.words.tab_game === 'Game'")
    assert board.rig.do(lambda: board.app.board_settings.language) == "pl"   # the board keeps its own
    assert page.errors == []


def test_a_page_follows_the_board_changed_from_the_page(browser, board) -> None:
    speak(board, "pl")
    page = polish_page(browser, board)
    unlock_pl(page, board.code)
    page.click("#tabs button[data-tab=boardtab]")
    page.select_option("#settingsform select[data-setting=language]", "en")
    page.wait_for_function("document.documentElement.lang === 'en' && damkaWords.words.tab_game === 'Game'")
    assert board.rig.do(lambda: board.app.board_settings.language) == "en"
    assert board.rig.do(lambda: board.app.view().menu.title) == "New game"
    assert page.errors == []
