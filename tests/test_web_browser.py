"""The page in a real Chromium (Debian's, driven by Playwright) against a real server on 127.0.0.1,
with the App on the virtual board in real time (tests/web_rig.py)."""

from __future__ import annotations

import os
import shutil
import statistics
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")
playwright = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install -e .[dev])")

from damka.controller.game.setup import GameSetup  # noqa: E402
from damka.hardware.interfaces import Role  # noqa: E402
from web_support import PIN, Served  # noqa: E402
from waiting import wait_until  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
IMAGES = Path(__file__).resolve().parent.parent / "docs" / "images" / "web"
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(),
                                reason="Debian's chromium is not installed (bootstrap.py installs it as root)")


@pytest.fixture(scope="module")
def browser():
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture
def board(tmp_path):
    s = Served(tmp_path)
    yield s
    s.close()


def open_page(browser, served: Served, width: int = 1280, height: int = 800):
    page = browser.new_page(viewport={"width": width, "height": height})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(served.url + "/")
    page.wait_for_function("window.damka && window.damka.state")
    page.errors = errors
    return page


def screenshot(page, name: str) -> None:
    path = IMAGES / name
    if not path.exists() or os.environ.get("DAMKA_UPDATE_IMAGES") == "1":
        IMAGES.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(path))


def page_moves(page) -> list[str]:
    return page.evaluate("damka.state.game ? damka.state.game.moves.map(m => m.text) : []")


def wait_moves(page, count: int, timeout: float = 5000) -> None:
    page.wait_for_function(f"damka.state.game && damka.state.game.moves.length >= {count}"
                           f" && document.getElementById('moves').dataset.count >= {count}", timeout=timeout)


def unlock(page, code: str) -> None:
    page.fill("#code", code)
    page.click("#codeform button")
    page.wait_for_function("document.getElementById('notice').textContent.startsWith('unlocked')")


def test_a_classic_game_is_watched_live_move_by_move(browser, board) -> None:
    committed_at: dict[int, float] = {}
    board.rig.do(lambda: board.app.bus.subscribe(
        lambda event: committed_at.setdefault(event.ply, time.time() * 1000), __import__(
            "damka.controller.events", fromlist=["MoveCommitted"]).MoveCommitted))
    board.rig.do(lambda: board.app.new_game(GameSetup("classic", time_control="10+5")))
    page = open_page(browser, board)
    board.rig.set_up()
    wide = open_page(browser, board, 360, 740)
    plies = 0
    while plies < 200:
        move = board.rig.do(lambda: None if board.app.session.game.is_over else board.app.session.game.legal_moves()[0])
        if move is None:
            break
        board.rig.play(move)
        plies += 1
        wait_moves(page, plies)          # each committed move appears on the page (measured below)
        if plies == 14:
            screenshot(page, "game-1280x800.png")
            screenshot(wide, "game-360x740.png")
    over = board.rig.do(lambda: board.app.session.game.is_over)
    if not over:
        unlock(page, board.code)
        page.click("button[data-action=resign]")
    page.wait_for_function("damka.state.game.result !== null")
    assert page_moves(page) == board.rig.do(lambda: [m.text for m in board.app.session.committed])
    assert page.is_visible("#result")
    seen = page.evaluate("damka.moveSeen")
    latencies = sorted(seen[str(ply)] - at for ply, at in committed_at.items() if str(ply) in seen)
    print(f"\n{plies} moves watched live; commit-to-page latency ms: p50 {statistics.median(latencies):.0f}, "
          f"max {latencies[-1]:.0f} ({'game over' if over else 'resigned from the page'})")
    assert len(latencies) == plies
    assert page.evaluate("[damka.gaps, damka.dups]") == [0, 0]
    assert page.errors == []


def test_a_four_player_multiwarcaby_game_is_set_up_and_started_from_the_page(browser, board) -> None:
    page = open_page(browser, board)
    unlock(page, board.code)
    page.click("#tabs button[data-tab=setup]")
    page.select_option("#newgame select[name=variant]", "multiwarcaby")
    page.select_option("#newgame select[name=sides]", "4")
    page.fill("#newgame input[name=time_control]", "5+x")
    page.click("#newgame button[type=submit]")
    page.wait_for_function("document.getElementById('setuperror').textContent.startsWith('time control:')")
    page.fill("#newgame input[name=time_control]", "casual")
    page.fill("#newgame input[name=players]", "Ann, Bob, Cid, Dee")
    screenshot(page, "setup-1280x800.png")
    page.click("#newgame button[type=submit]")
    page.wait_for_function("damka.state.game && damka.state.game.sides.length === 4")
    assert board.rig.do(lambda: (board.app.session.variant.name, len(board.app.session.variant.sides))) == \
        ("multiwarcaby", 4)
    assert "set up from web player@127.0.0.1" in board.rig.do(lambda: " ".join(board.app.view().messages))  # the board says who changed it
    board.rig.set_up()
    page.wait_for_function("damka.state.game.phase === 'playing'")
    assert page.locator("#sides .side").count() == 4
    assert page.locator("#sides .side .name").all_text_contents() == [
        "Ann (Player 1)", "Bob (Player 2)", "Cid (Player 3)", "Dee (Player 4)"]   # the name, with the side
    assert all(text for text in page.locator("#sides .side .clock").all_text_contents())
    screenshot(page, "multiwarcaby-1280x800.png")
    assert page.errors == []


def test_a_remote_seat_plays_the_person_at_the_board(browser, board) -> None:
    page = open_page(browser, board, 360, 740)
    unlock(page, board.code)
    page.click("#tabs button[data-tab=setup]")
    page.select_option("#newgame select[name=variant]", "classic")
    page.select_option("#newgame select[name=mode]", "remote")
    page.click("#newgame button[type=submit]")
    page.wait_for_function("damka.state.remote !== null")
    board.rig.set_up()
    for turn in range(3):
        move = board.rig.do(lambda: board.app.session.game.legal_moves()[0])
        board.rig.play(move)                                  # the person at the table (white)
        page.wait_for_function("damka.state.remote && damka.state.remote.waiting && damka.state.remote.legal.length")
        legal = page.evaluate("damka.state.remote.legal")
        choice = legal[-1]
        if turn == 0:                                          # an illegal click first: refused with the reason
            page.click(f"#board [data-square={choice['from']}]")
            blocked = next(sq for sq in ("a1", "b2", "h8", "a7") if sq not in {m["to"] for m in legal})
            page.click(f"#board [data-square={blocked}]")
            assert "not legal" in page.text_content("#notice")
            page.click(f"#board [data-square={choice['to']}]")  # then the right target: a click move
        elif turn == 1:                                        # click, click: the targets show in between
            page.click(f"#board [data-square={choice['from']}]")
            page.wait_for_selector("#board .mark-target")
            page.evaluate("window.scrollTo(0, 0)")
            screenshot(page, "remote-360x740.png")
            page.click(f"#board [data-square={choice['to']}]")
        else:                                                  # a drag
            page.drag_and_drop(f"#board [data-square={choice['from']}]", f"#board [data-square={choice['to']}]")
        lit = wait_until(lambda: (leds := board.rig.do(lambda: dict(board.rig.board.leds)))
                         and Role.COMPUTER_FROM in leds.values() and leds, "the page's move lit")
        assert lit.get(choice["from"]) is Role.COMPUTER_FROM   # the board lights the page's move
        assert lit.get(choice["to"]) is Role.COMPUTER_TO
        planned = board.rig.do(lambda: board.app.session.planned)
        board.rig.play(planned[0])                             # the person carries it out
        wait_moves(page, 2 * turn + 2)
        assert page_moves(page)[-1] == choice["text"]
    assert page.errors == []


def test_the_arbiter_adds_time_with_the_pin_and_is_refused_without(browser, board) -> None:
    board.rig.do(lambda: board.app.new_game(GameSetup("classic", mode="tournament", time_control="5+3")))
    board.rig.set_up()
    page = open_page(browser, board)
    page.click("#tabs button[data-tab=arbiter]")
    before = board.rig.do(lambda: board.app.clock_ms())
    unlock(page, board.code)                                   # the pairing code is not enough
    page.click("#tabs button[data-tab=arbiter]")
    page.click("button[data-arb=add_time]")
    page.wait_for_function("document.getElementById('arberror').textContent.includes('arbiter PIN')")
    assert board.rig.do(lambda: board.app.clock_ms())[0] <= before[0]
    unlock(page, PIN)
    page.click("#tabs button[data-tab=arbiter]")
    page.select_option("#arbform select[name=side]", "1")
    page.click("button[data-arb=add_time]")
    page.wait_for_selector("#arblog li")
    after = board.rig.do(lambda: board.app.clock_ms())
    assert after[1] - before[1] == 60_000                     # black's clock did not run: exactly a minute more
    entry = page.text_content("#arblog li")
    assert "web arbiter@127.0.0.1" in entry and "Black +1:00" in entry
    screenshot(page, "arbiter-1280x800.png")


def test_a_page_reconnects_after_a_server_restart_with_no_move_lost(browser, board) -> None:
    board.rig.do(lambda: board.app.new_game(GameSetup("classic")))
    board.rig.set_up()
    page = open_page(browser, board)
    for ply in range(1, 4):
        board.rig.play(board.rig.do(lambda: board.app.session.game.legal_moves()[0]))
        wait_moves(page, ply)
    board.web.stop()                                            # the server goes away mid-game
    page.wait_for_function("document.getElementById('conn').textContent === 'reconnecting'")
    for _ in range(3):
        board.rig.play(board.rig.do(lambda: board.app.session.game.legal_moves()[0]))
    board.restart_server()
    wait_moves(page, 6, timeout=10_000)
    assert page_moves(page) == board.rig.do(lambda: [m.text for m in board.app.session.committed])
    seen = page.evaluate("Object.keys(damka.moveSeen).map(Number).sort((a, b) => a - b)")
    assert seen == [1, 2, 3, 4, 5, 6]                           # the missed events came too, each once
    assert page.evaluate("[damka.gaps, damka.dups]") == [0, 0]


def test_a_page_refused_by_a_full_board_opens_its_stream_again_when_there_is_room(browser, tmp_path) -> None:
    """A page whose event stream is refused (503: the unpaired pages' share is full, web/guard.py) was
    left 'reconnecting' for good: an EventSource refused is closed and never opened again by itself."""
    import http.client
    served = Served(tmp_path, unpaired_streams=1)
    held = http.client.HTTPConnection("127.0.0.1", served.web.port, timeout=10, source_address=("127.0.0.70", 0))
    try:
        held.request("GET", "/api/events")
        assert held.getresponse().status == 200                      # the one unpaired stream there is room for
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(served.url + "/")
        page.wait_for_function("document.getElementById('conn').textContent === 'reconnecting'")
        assert page.evaluate("damka.state") is None
        held.close()                                                  # room again
        page.wait_for_function("window.damka.state && damka.conn === 'live'", timeout=30_000)
        page.close()
    finally:
        held.close()
        served.close()
