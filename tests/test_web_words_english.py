"""No English left on the phone page of a board set to Polish (issue 38), in a real Chromium
against a real server (tests/web_rig.py): each tab shown in turn while a game with names is played,
after it ended (the archive holds it), unlocked with the pairing code and as the arbiter; the
text a person sees scanned for words of the English catalogue no Polish sentence uses
(tests/english_left.py), and for the clock's raw states."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")
pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install -e .[dev])")

from damka.controller.game.setup import GameSetup  # noqa: E402
from english_left import english_left  # noqa: E402
from test_web_browser import CHROMIUM, board, browser  # noqa: E402,F401
from test_web_words_browser import polish_page, speak, unlock_pl  # noqa: E402

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(),
                                reason="Debian's chromium is not installed (bootstrap.py installs it as root)")

TABS = ("watch", "setup", "arbiter", "archive", "boardtab", "learn")
# The clock's states as the board keeps them (controller/clock/records.py State): never shown raw.
RAW_STATES = ("ready", "running", "paused", "flagged", "stopped")


def seen(page) -> dict[str, str]:
    """Each tab's text as a person sees it (innerText: what is shown, not hidden), and the options of its lists."""
    texts = {}
    for tab in TABS:
        page.click(f"#tabs button[data-tab={tab}]")
        page.wait_for_timeout(0)
        texts[tab] = page.evaluate("""() => document.body.innerText + '\\n' +
            [...document.querySelectorAll('select:not([hidden]) option')].map(o => o.textContent).join('\\n')""")
    return texts


def english_on(texts: dict[str, str]) -> dict[str, tuple[str, str]]:
    found: dict[str, tuple[str, str]] = {}
    for tab, text in texts.items():
        lines = text.splitlines()
        for word, line in english_left(lines).items():
            found.setdefault(word, (tab, line))
        for line in lines:
            for state in RAW_STATES:
                if state in line.lower().split():
                    found.setdefault(state, (tab, line))
    return found


def test_no_english_word_on_any_tab_of_a_polish_page(browser, board) -> None:
    board.rig.do(lambda: board.app.new_game(GameSetup("classic")))   # started in English, then set to Polish
    speak(board, "pl")
    page = polish_page(browser, board)
    texts = {f"before {tab}": text for tab, text in seen(page).items()}
    unlock_pl(page, board.code)
    page.click("#tabs button[data-tab=setup]")
    page.select_option("#newgame select[name=variant]", "classic")
    page.fill("#newgame input[name=players]", "Ala, Ola")
    page.fill("#newgame input[name=time_control]", "5+3")
    page.click("#newgame button[type=submit]")
    page.wait_for_function("damka.state.game && damka.state.game.variant === 'classic'")
    texts |= {f"set up {tab}": text for tab, text in seen(page).items()}
    board.rig.set_up()
    page.wait_for_function("damka.state.game.phase === 'playing'")
    for _ in range(2):
        board.rig.play(board.rig.do(lambda: board.app.session.game.legal_moves()[0]))
    page.wait_for_function("damka.state.game.ply === 2")
    texts |= {f"playing {tab}": text for tab, text in seen(page).items()}
    board.rig.do(lambda: board.app.games.declare_end(0, "resignation"))
    page.wait_for_function("!damka.state.game || damka.state.game.phase !== 'playing'")
    texts |= {f"over {tab}": text for tab, text in seen(page).items()}
    page.click("#tabs button[data-tab=archive]")
    page.click("li[data-id]")                                   # the game just played, opened
    page.wait_for_function("document.getElementById('replaytitle').textContent.startsWith('#1 ')")
    texts["the stored game"] = page.evaluate("() => document.body.innerText")
    page.click("#tabs button[data-tab=setup]")                 # a game against this page, no names given
    page.select_option("#newgame select[name=mode]", "remote")
    page.fill("#newgame input[name=players]", "")
    page.click("#newgame button[type=submit]")
    page.wait_for_function("damka.state.game && damka.state.game.phase !== 'over' && damka.state.game.ply === 0")
    board.rig.set_up()
    page.wait_for_function("damka.state.game.phase === 'playing'")
    texts |= {f"remote {tab}": text for tab, text in seen(page).items()}
    assert sum(len(text) for text in texts.values()) > 5000
    left = english_on(texts)
    assert not left, "\n".join(f"{word}: {tab}: {line!r}" for word, (tab, line) in sorted(left.items()))
    assert page.errors == []


def test_the_language_changed_from_the_page_is_said_in_that_language(browser, board) -> None:
    """Issue 38: "board settings changed: the board's screen says so" on a page just set to Polish."""
    from test_web_browser import open_page, unlock
    page = open_page(browser, board)
    page.wait_for_function("document.documentElement.lang === 'en' && damkaWords.words.tab_game === 'Game'")
    unlock(page, board.code)
    page.click("#tabs button[data-tab=boardtab]")
    page.select_option("#settingsform select[data-setting=language]", "pl")
    page.wait_for_function("document.getElementById('notice').textContent.startsWith('zmieniono ustawienia')")
    assert english_left([page.text_content("#notice")]) == {}
    assert page.errors == []


def test_a_page_set_to_polish_on_an_english_board_shows_the_archive_in_polish(browser, board) -> None:
    """The page set to Polish while the board speaks English (issue 38): the archive asks in the page's
    language, and writes itself again when the page's language changes. (The board's own sentences in
    the state, its status and its settings' labels, still come in the board's language.)"""
    from test_web_browser import open_page
    board.rig.do(lambda: board.app.set_player_names(["Ala", "Ola"]))
    board.rig.do(lambda: board.app.new_game(GameSetup("classic")))
    board.rig.set_up()
    for _ in range(2):
        board.rig.play(board.rig.do(lambda: board.app.session.game.legal_moves()[0]))
    board.rig.do(lambda: board.app.games.declare_end(0, "resignation"))
    page = open_page(browser, board)
    page.wait_for_function("damkaWords.words.tab_game === 'Game'")
    page.click("#tabs button[data-tab=archive]")
    page.click("li[data-id]")
    page.wait_for_function("document.getElementById('replaytitle').textContent.startsWith('#1 Classic')")
    page.select_option("#language", "pl")                      # the game open, the page turns Polish
    page.wait_for_function("document.getElementById('replaytitle').textContent.startsWith('#1 Warcaby')")
    page.wait_for_function("document.querySelector('#games li[data-id]').textContent.includes('Klasyczne 8x8')")
    texts = {"archive": page.evaluate("() => document.getElementById('archive').innerText")}
    page.click("#tabs button[data-tab=boardtab]")                # the board settings' rows: the page's words too
    page.wait_for_function("document.querySelector('#settingsform label').textContent.startsWith('Jasność')")
    texts["board settings"] = page.evaluate("""() => [...document.querySelectorAll('#settingsform label')]
        .map(l => l.firstChild.textContent + '\\n' + [...l.querySelectorAll('option')].map(o => o.textContent)
        .join('\\n')).join('\\n')""")
    assert texts["board settings"].count("\n") > 20 and "Tryb nocny" in texts["board settings"]
    results = page.locator("#arbwinner option").all_text_contents()
    # The page's own words; the sides as the board's console labels them, once ("Black (Black (Białe))" before).
    assert results == ["Ala (White) wygrywa", "Ola (Black) wygrywa", "Remis"], results
    left = english_on(texts)
    assert not left, "\\n".join(f"{word}: {tab}: {line!r}" for word, (tab, line) in sorted(left.items()))
