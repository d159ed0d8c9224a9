"""The page fits a 360-px-wide phone and a desktop on every tab, in a real Chromium (tests/test_web_browser.py's
rig): with a live game showing everything at once (a remote seat, a pending offer, the arbiter log, long names,
the archive with a game open), nothing sticks out past the right edge and every button, select, input and
fold-out summary is big enough to tap."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")
pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install -e .[dev])")

from test_web_archive import stored_game  # noqa: E402
from test_web_browser import board, browser, open_page, pytestmark  # noqa: E402,F401
from test_web_remote import wait_for  # noqa: E402
from web_support import PIN, Served, request  # noqa: E402

SIZES = ((360, 740), (1280, 800))
TABS = ("watch", "setup", "arbiter", "archive", "boardtab", "learn")
TAP_PX = 32          # the smallest height a finger hits reliably
LONG = ["Alexandra Wilhelmina Konstantinova", "Bartholomew Fitzgerald-Oyelaran", "Cid", "Dee"]

# What sticks out past the window's right edge, and what is too small to tap, among the visible elements.
MEASURE = """(tap) => {
  const TAPPED = "button, select, a.button, input:not([type=range]), summary, #games li[data-id]";
  const W = window.innerWidth;
  const label = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')
    + (typeof e.className === 'string' && e.className ? '.' + e.className.trim().split(/\\s+/).join('.') : '')
    + ' "' + (e.textContent || e.value || '').trim().slice(0, 24) + '"';
  const wide = [], small = [];
  for (const e of document.querySelectorAll('body *')) {
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(e).visibility === 'hidden' || e.closest('svg') !== e && e.closest('svg')) continue;
    if (r.right > W + 0.5) wide.push(`${label(e)} ends at ${Math.round(r.right)}`);
    if (e.matches(TAPPED) && r.height < tap)
      small.push(`${label(e)} is ${Math.round(r.height)} px tall`);
  }
  return {scroll: document.documentElement.scrollWidth, width: W, wide, small};
}"""


def check_every_tab(page, before_tab=None) -> list[str]:
    """Each size, each tab (switched by clicking): what does not fit; `before_tab(page, tab)` fills the tab."""
    problems = []
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        for tab in TABS:
            page.click(f"#tabs button[data-tab={tab}]")
            if before_tab:
                before_tab(page, tab)
            seen = page.evaluate(MEASURE, TAP_PX)
            where = f"{width}x{height} {tab}"
            if seen["scroll"] > seen["width"]:
                problems.append(f"{where}: the page scrolls sideways ({seen['scroll']} > {seen['width']})")
            problems += [f"{where}: {text}" for text in seen["wide"] + seen["small"]]
    return problems


def fill_tab(page, tab: str) -> None:
    """The fullest form of each tab: every setup row shown, a stored game open in the archive."""
    if tab == "setup":
        page.select_option("#newgame select[name=variant]", "multiwarcaby")
        page.select_option("#newgame select[name=sides]", "4")
        page.select_option("#newgame select[name=mode]", "remote")
    elif tab == "archive":
        page.wait_for_selector("#games li[data-id]")
        page.click("#games li[data-id]")
        page.wait_for_selector("#replay:not([hidden])")
    elif tab == "boardtab":
        page.wait_for_selector("#settingsform select")
    elif tab == "arbiter":
        page.wait_for_selector("#arblog li")
    elif tab == "learn":
        page.wait_for_selector("#lessons button[data-lesson]")


def new_remote_game(board: Served, **game) -> dict:
    status, answer = request(board, "POST", "/api/game/new", {"game": {"mode": "remote", **game}}, code=board.code)
    assert status == 200, answer
    board.rig.set_up()
    return answer


def table_turn(board: Served) -> None:
    """The side to move at the table plays its turn (two moves in multiwarcaby, as in test_sim_games) and presses."""
    variant, position = board.rig.do(lambda: (board.app.session.variant, board.app.session.game.position))
    plies = board.rig.committed()
    landed = None
    for _ in range(variant.moves_per_turn):
        move = next(m for m in variant.legal_moves(position) if m.start != landed)
        board.rig.play(move, press=False)
        position, landed = variant.play(position, move), move.end
    side = board.rig.do(lambda: board.app.session.game.turn)
    board.rig.do(lambda: board.rig.board.press(side))
    wait_for(board, lambda: len(board.app.session.committed) > plies)


def arbiter(board: Served, action: str, **body) -> None:
    status, answer = request(board, "POST", f"/api/arbiter/{action}", body, code=PIN)
    assert status == 200, answer


def test_a_classic_game_with_a_remote_seat_and_an_offer_fits_a_phone_and_a_desktop(browser, board) -> None:
    stored_game(board)                                              # the archive holds a game
    seat = new_remote_game(board, variant="classic", time_control="5+3", players=LONG[:2])
    board.rig.play(board.rig.do(lambda: board.app.session.game.legal_moves()[0]))   # White at the table
    wait_for(board, lambda: board.web.driver.current_remote().waiting)
    arbiter(board, "add_time", side=0, ms=60_000)
    arbiter(board, "set_time", side=1, ms=290_000)
    status, answer = request(board, "POST", "/api/game/action", {"action": "draw"}, code=board.code)
    assert status == 200, answer                                    # the board offers a draw: the page answers
    page = open_page(browser, board, *SIZES[0])
    page.evaluate("([code, seat]) => { sessionStorage.setItem('damka_code', code);"
                  " sessionStorage.setItem('damka_seat', JSON.stringify(seat)); }",
                  [board.code, {"token": seat["seat_token"], "id": seat["seat_id"]}])
    page.reload()                                                   # the page that set the game up
    page.wait_for_function("damka.state && damka.state.remote && damka.state.remote.waiting")
    page.wait_for_selector("#offer button[data-answer=accept]")
    choice = page.evaluate("damka.state.remote.legal[0]")
    page.click(f"#board [data-square={choice['from']}]")           # a piece chosen: its targets shown
    page.wait_for_selector("#board .mark-target")
    problems = check_every_tab(page, fill_tab)
    assert not problems, "\n".join(problems)
    assert page.errors == []


def test_a_four_player_game_with_a_seat_held_elsewhere_fits_a_phone_and_a_desktop(browser, board) -> None:
    stored_game(board, 2)
    new_remote_game(board, variant="multiwarcaby", sides="4", remote_seat=3, time_control="5+3", players=LONG)
    for _ in range(3):                                              # the three seats at the table move
        table_turn(board)
    wait_for(board, lambda: board.web.driver.current_remote().waiting)
    arbiter(board, "add_time", side=2, ms=30_000)
    page = open_page(browser, board, *SIZES[0])
    page.wait_for_selector("#remote #claim")                        # "take over the seat (arbiter PIN)"
    page.wait_for_function("document.querySelectorAll('#sides .side').length === 4")
    problems = check_every_tab(page, fill_tab)
    assert not problems, "\n".join(problems)
    assert page.errors == []


def test_a_puzzle_on_the_board_with_a_wrong_try_and_a_long_learner_name_fits_a_phone_and_a_desktop(browser,
                                                                                                   board) -> None:
    from learn_support import follow_lights, make, moves_now
    stored_game(board)
    board.rig.do(lambda: board.app.teaching.set_learner("WilhelminaKonstantynowna"))   # 24 letters, no space
    status, answer = request(board, "POST", "/api/learn/puzzle", {"variant": "russian"}, code=board.code)
    assert status == 200, answer
    follow_lights(board.rig)
    line = board.rig.do(lambda: board.app.teaching.puzzles.puzzle.line)
    make(board.rig, next(text for text, _ in moves_now(board.rig) if text != line[0]))
    page = open_page(browser, board, *SIZES[0])
    page.click("#tabs button[data-tab=learn]")
    page.wait_for_selector("#tries li.wrong")
    problems = check_every_tab(page, lambda page, tab: tab == "arbiter" or fill_tab(page, tab))  # no game: no log
    assert not problems, "\n".join(problems)
    assert page.errors == []
