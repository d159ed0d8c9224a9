"""The archive tab in a real Chromium against a real server on 127.0.0.1 (the App on the virtual
board, SQLite store): the stored games listed, one replayed with the move slider (the board follows
it), its PDN downloaded, and a PDN uploaded (a bad one refused with the importer's reason)."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")
pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install -e .[dev])")

from damka.controller.game.setup import GameSetup  # noqa: E402
from test_web_browser import board, browser, open_page, pytestmark, unlock  # noqa: E402,F401

GOOD_PDN = '[Event "club night"]\n[White "Ann"]\n[Black "Bob"]\n[GameType "20"]\n1. 32-28 19-23 2. 28x19 14x23 *\n'
BAD_PDN = '[GameType "20"]\n1. 99-98 *\n'


def stored_game(board, plies: int = 4) -> list[str]:
    """A classic game played on the virtual board for `plies` moves, then resigned: its moves."""
    board.rig.do(lambda: board.app.new_game(GameSetup("classic")))
    board.rig.set_up()
    for _ in range(plies):
        board.rig.play(board.rig.do(lambda: board.app.session.game.legal_moves()[0]))
    board.rig.do(lambda: board.app.menu_action("resign", "test"))
    return board.rig.do(lambda: [m.text for m in board.app.session.committed])


def pieces_on(page) -> dict[str, str]:
    return page.evaluate("""Object.fromEntries([...document.querySelectorAll('#replayboard [data-square]')]
        .filter(g => g.querySelector('[data-piece]'))
        .map(g => [g.dataset.square, g.querySelector('[data-piece]').dataset.piece]))""")


def archive(page) -> None:
    page.click("#tabs button[data-tab=archive]")
    page.wait_for_selector("#games li[data-id]")


def test_the_archive_lists_the_stored_games_and_replays_one_with_the_slider(browser, board) -> None:
    moves = stored_game(board)
    page = open_page(browser, board, 360, 740)
    archive(page)
    rows = page.locator("#games li").all_text_contents()
    assert len(rows) == 1 and "Classic 8x8" in rows[0] and "(4 moves)" in rows[0] and rows[0].endswith("0-2")  # white resigned
    page.click("#games li[data-id]")
    page.wait_for_selector("#replay:not([hidden])")
    assert page.text_content("#replaymove") == f"after move 4 of 4: {moves[-1]}"
    expected = page.evaluate("damka.replay.boards")
    for index in (0, 2, 1, 4):                   # the board follows the slider, both ways
        page.locator("#slider").fill(str(index))
        assert pieces_on(page) == expected[index]
        assert page.text_content("#replaymove") == (f"after move {index} of 4: {moves[index - 1]}" if index
                                                    else "start position")
    assert len(expected[0]) == 24 and expected[0] != expected[4]
    page.click("#replayprev")
    assert page.evaluate("Number(document.getElementById('slider').value)") == 3
    assert pieces_on(page) == expected[3]
    assert page.errors == []


def test_a_stored_game_downloads_as_pdn(browser, board, tmp_path) -> None:
    moves = stored_game(board)
    page = open_page(browser, board)
    archive(page)
    page.click("#games li[data-id]")
    with page.expect_download() as info:
        page.click("#download")
    download = info.value
    assert download.suggested_filename.endswith(".pdn")
    text = open(download.path(), encoding="utf-8").read()
    assert '[Result "0-2"]' in text and text.rstrip().endswith("0-2")
    for move in moves:
        assert move in text
    assert page.errors == []


def test_a_pdn_file_is_imported_by_upload_and_a_bad_one_refused_with_the_reason(browser, board, tmp_path) -> None:
    stored_game(board, 2)
    page = open_page(browser, board)
    unlock(page, board.code)
    archive(page)
    bad = tmp_path / "bad.pdn"
    bad.write_text(BAD_PDN)
    page.set_input_files("#pdnfile", str(bad))
    page.click("#importform button[type=submit]")
    page.wait_for_function("document.getElementById('importmsg').textContent.startsWith('PDN not imported')")
    reason = page.text_content("#importmsg")
    assert "99-98" in reason or "99" in reason, reason
    assert board.rig.do(lambda: len(board.store.list_games())) == 1          # nothing stored
    good = tmp_path / "club.pdn"
    good.write_text(GOOD_PDN)
    page.set_input_files("#pdnfile", str(good))
    page.click("#importform button[type=submit]")
    page.wait_for_function("document.getElementById('importmsg').textContent.startsWith('imported: game')")
    page.wait_for_function("document.querySelectorAll('#games li[data-id]').length === 2")
    newest = page.locator("#games li").first
    assert "Ann - Bob" in newest.text_content() and "(4 moves)" in newest.text_content()
    newest.click()
    page.wait_for_function("damka.replay && damka.replay.moves.length === 4")
    assert page.evaluate("damka.replay.moves") == ["32-28", "19-23", "28x19", "14x23"]
    assert page.errors == []


REFUSED = {"en": ("imported: game", "; 1 record refused, the first: game 2 (line 7): 8:4: move 1 '99-98': ",
                  "; the record is read no further"),
           "pl": ("wczytano: gra", "; 1 zapis odrzucony, pierwszy: partia 2 (wiersz 7): 8:4: ruch 1 '99-98': ",
                  "; dalej zapis nie jest czytany")}


@pytest.mark.parametrize("language", ["en", "pl"])
def test_an_upload_with_a_refused_record_says_one_record_as_a_warning(browser, board, tmp_path, language) -> None:
    """Issue 38: not "1 records refused" in the green of a success, nor "it and the moves after it
    are left out" of a record refused whole."""
    from damka.controller.app.board_settings import BoardSettings
    board.rig.do(lambda: board.app.set_board_settings(BoardSettings(language=language)))
    page = open_page(browser, board)
    page.wait_for_function(f"document.documentElement.lang === '{language}'")
    page.fill("#code", board.code)
    page.click("#codeform button")
    page.wait_for_function("sessionStorage.getItem('damka_code')")
    page.click("#tabs button[data-tab=archive]")
    mixed = tmp_path / "mixed.pdn"
    mixed.write_text(GOOD_PDN + "\n" + BAD_PDN + "\n" + GOOD_PDN.replace("Ann", "Cid"))
    page.set_input_files("#pdnfile", str(mixed))
    page.click("#importform button[type=submit]")
    start, refused, end = REFUSED[language]
    page.wait_for_function("([start]) => document.getElementById('importmsg').textContent.startsWith(start)",
                           arg=[start])
    message = page.text_content("#importmsg")
    assert refused in message and message.endswith(end), message
    assert page.get_attribute("#importmsg", "class") == "error warn"
    colour = page.evaluate("getComputedStyle(document.getElementById('importmsg')).color")
    green = page.evaluate("""() => { const e = document.createElement('div'); e.className = 'error ok';
        document.body.append(e); return getComputedStyle(e).color; }""")
    assert colour != green, (colour, green)                      # not the colour of a success
    assert page.errors == []
