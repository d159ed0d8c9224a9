"""The Learn tab (web/static/learn.js) in a real Chromium at phone size against a real server, the App on the
virtual board (tests/web_rig.py): a parent starts a puzzle from the page, the child sets it up as the lights
ask, tries a wrong move and then the right one (with the lit reply carried out), and the page shows each try
live, then the progress. Screenshots at 360x740 go to the folder the test prints."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")
pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install -e .[dev])")

from damka.teaching.lesson_file import shipped_names  # noqa: E402
from damka.teaching.puzzles import shipped_set  # noqa: E402
from learn_support import follow_lights, make, moves_now, play_line, teaching  # noqa: E402
from test_web_browser import board, browser, open_page, pytestmark, unlock  # noqa: E402,F401

WIDTH, HEIGHT = 360, 740
FITS = "document.documentElement.scrollWidth <= window.innerWidth"


@pytest.fixture
def shots(tmp_path) -> Path:
    """Where the screenshots go: $DAMKA_SHOTS, else the test's own folder (printed, to be looked at)."""
    folder = Path(os.environ.get("DAMKA_SHOTS") or tmp_path / "shots")
    folder.mkdir(parents=True, exist_ok=True)
    print(f"\nscreenshots of the Learn tab: {folder}")
    return folder


def shot(page, folder: Path, name: str, at: str | None = None) -> None:
    """The phone's screen as it is (`at`: scrolled to that element first), and nothing sticks out sideways."""
    if at is not None:
        page.locator(at).evaluate("element => element.scrollIntoView()")   # its top at the top of the screen
    assert page.evaluate(FITS), f"{name}: the page scrolls sideways"
    page.mouse.move(0, 0)                  # no button shown as hovered
    page.screenshot(path=str(folder / name))


def test_a_puzzle_started_from_the_page_is_solved_at_the_board_and_watched_live(browser, board, shots) -> None:
    page = open_page(browser, board, WIDTH, HEIGHT)
    unlock(page, board.code)
    page.click("#tabs button[data-tab=learn]")
    page.wait_for_selector("#lessons button[data-lesson]")
    page.fill("#learnername", "Ala")
    page.click("#learnerform button[type=submit]")
    page.wait_for_function("document.getElementById('learnernow').textContent === 'At the board: Ala'")
    assert page.locator("#lessons button").count() == len(shipped_names()) >= 20
    page.click("#puzzles button[data-variant=classic]")
    page.wait_for_function("damka.state.teaching && damka.state.teaching.kind === 'puzzle'")
    puzzle = teaching(board.rig).name
    page.wait_for_function("([id]) => !document.getElementById('teaching').hidden"
                           " && document.getElementById('teachtitle').textContent.startsWith(`Puzzle ${id} (`)",
                           arg=[str(int(puzzle.rpartition("-")[2]))])
    assert board.rig.do(lambda: board.app.teaching.learner) == "Ala"
    page.wait_for_selector("#learnboard .led-put_here")           # the lights that set the puzzle up, drawn
    shot(page, shots, "learn-setup-360x740.png")

    # The child sets the pieces up; the page shows the position and what to find.
    follow_lights(board.rig)
    page.wait_for_function("damka.state.teaching.phase === 'play'")
    instruction = page.text_content("#teachinstruction")
    assert instruction == teaching(board.rig).instruction and instruction.startswith(("White to move and win ",
                                                                                      "Black to move and win "))
    on_board = board.rig.do(lambda: board.rig.board.pieces)
    drawn = page.evaluate("[...document.querySelectorAll('#learnboard .piece')].map(p => p.parentNode.dataset.square)")
    assert sorted(drawn) == sorted(on_board) and drawn

    # A wrong move: the page lists it, wrong, and says why; the lights ask for the pieces back.
    line = board.rig.do(lambda: board.app.teaching.puzzles.puzzle.line)
    wrong = next(text for text, _ in moves_now(board.rig) if text != line[0])
    make(board.rig, wrong)
    page.wait_for_selector("#tries li.wrong")
    assert page.text_content("#tries li.wrong .move") == wrong
    why = teaching(board.rig).tries[0].why
    assert why and page.text_content("#tries li.wrong .why") == why
    page.wait_for_function("damka.state.teaching.phase === 'put_back'")
    shot(page, shots, "learn-wrong-try-360x740.png", at="#teaching")

    # The pieces put back, the right move, the reply the lights show carried out, and so on to the end.
    follow_lights(board.rig)
    play_line(board.rig, line)
    page.wait_for_function("damka.state.teaching.phase === 'done'")
    page.wait_for_selector("#tries li.right")
    # Every try of the puzzle, in order: the wrong one, the answer, then each lit reply and each move after it.
    tries = page.locator("#tries li").all_text_contents()
    assert tries[0] == f"\u2717 {wrong} wrong{why}"
    assert tries[1:] == [f"\u2713 {text} " + ("right" if k % 2 == 0 else "the other side's move")
                         for k, text in enumerate(line)]
    shot(page, shots, "learn-solved-360x740.png", at="#teaching")

    # The progress view: one puzzle tried and solved, for Ala.
    shipped = sum(len(shipped_set(variant)) for variant in ("classic", "russian", "international", "multiwarcaby"))
    page.wait_for_function("[...document.querySelectorAll('#progress li')].some(li => li.textContent === "
                           f"'Puzzles solved: 1 of {shipped}')")
    progress = page.locator("#progress li").all_text_contents()
    assert f"Lessons done: 0 of {len(shipped_names())}" in progress and any(row.strip() == "Classic 8x8: 1 of 300" for row in progress)
    assert page.input_value("#progressof") == "Ala"
    shot(page, shots, "learn-progress-360x740.png", at="#progress")

    # Stopped from the page: the board's menu again, the live view gone, the lists and the progress stay.
    page.click("#learnquit")
    page.wait_for_function("document.getElementById('teaching').hidden")
    assert board.rig.do(lambda: board.app.read_model().teaching) is None
    shot(page, shots, "learn-menu-360x740.png", at="#learnerform")
    assert page.errors == []
