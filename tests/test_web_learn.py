"""Lessons and puzzles from the page's API (web/learn.py) against a real server and the App on the
virtual board: started, stopped, the learner chosen, the progress read; what is on the board reaches
the page's picture; bad input is a clear 4xx and changes nothing; no code, no start."""

from __future__ import annotations

import http.client
import json

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")

from damka.controller.app import AppState  # noqa: E402
from damka.hardware.interfaces import Button  # noqa: E402
from damka.teaching.lesson_file import shipped_names  # noqa: E402
from damka.teaching.puzzles import shipped_set  # noqa: E402
from learn_support import follow_lights, make, play_line, teaching  # noqa: E402
from waiting import wait_until  # noqa: E402
from web_support import PIN, Served, request, served  # noqa: E402,F401  (fixture)


def get(served: Served, path: str) -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", served.web.port, timeout=10)
    conn.request("GET", path)
    response = conn.getresponse()
    answer = json.loads(response.read())
    conn.close()
    return response.status, answer


def post(served: Served, path: str, body: dict, **kwargs) -> tuple[int, dict]:  # type: ignore[no-untyped-def]
    return request(served, "POST", path, body, code=kwargs.pop("code", served.code), **kwargs)


def test_a_puzzle_started_from_the_page_is_on_the_board_and_in_the_page_s_picture(served) -> None:
    status, answer = post(served, "/api/learn/puzzle", {"variant": "classic"})
    assert status == 200, answer
    puzzle = answer["id"]
    assert puzzle.startswith("classic-")
    facts = teaching(served.rig)
    assert (facts.kind, facts.name, facts.phase) == ("puzzle", puzzle, "setup")
    assert "puzzle started from web player@127.0.0.1" in served.rig.do(lambda: served.app.banner)
    # The page's picture: the puzzle, its position with the lights that set it up, no try yet.
    shown = wait_until(lambda: (served.web.feed.latest_state.data.get("teaching") or {}).get("name") == puzzle
                       and served.web.feed.latest_state.data["teaching"], "the puzzle in the page's picture")
    assert shown["kind"] == "puzzle" and shown["variant"] == "classic" and shown["tries"] == []
    assert shown["board"]["pieces"] and set(shown["board"]["frame"].values()) <= {"put_here", "take_away"}
    assert shown["board"]["frame"]       # the empty board: every piece still to be put down
    # A given puzzle, by its id; then the menu again.
    status, answer = post(served, "/api/learn/puzzle", {"variant": "classic", "id": "classic-0002"})
    assert status == 200 and answer["id"] == "classic-0002", answer
    assert teaching(served.rig).name == "classic-0002"
    status, answer = post(served, "/api/learn/quit", {})
    assert status == 200, answer
    assert teaching(served.rig) is None and served.rig.do(lambda: served.app.state) is AppState.MENU
    wait_until(lambda: served.web.feed.latest_state.data.get("teaching") is None, "the page to see it stopped")


def test_a_lesson_started_from_the_page_shows_its_step(served) -> None:
    status, answer = post(served, "/api/learn/lesson", {"lesson": "1-classic-01-man-moves"})
    assert status == 200, answer
    facts = teaching(served.rig)
    assert (facts.kind, facts.name, facts.step, facts.steps) == ("lesson", "1-classic-01-man-moves", 1, 3)
    assert facts.title == "How a man moves"
    follow_lights(served.rig)
    shown = wait_until(lambda: (t := served.web.feed.latest_state.data.get("teaching")) and t["phase"] == "play" and t,
                       "the lesson's step in the page's picture")
    assert shown["instruction"].startswith("This is your man, on c3.")
    assert shown["board"]["pieces"] == {"c3": "w", "h8": "b"}


def test_the_learner_is_chosen_and_the_progress_counts_a_puzzle_solved_at_the_board(served) -> None:
    status, answer = post(served, "/api/learn/learner", {"name": "Ala"})
    assert status == 200 and answer["learner"] == "Ala", answer
    status, data = get(served, "/api/learn")
    assert status == 200, data
    assert data["learner"] == "Ala" and "Ala" in data["learners"]
    assert [lesson["name"] for lesson in data["lessons"]] == shipped_names()
    assert data["lessons"][0] == {"name": "1-classic-01-man-moves", "title": "How a man moves", "done": False, "next": True}
    assert sorted(p["variant"] for p in data["puzzles"]) == ["classic", "international", "multiwarcaby", "russian"]
    assert data["progress"]["puzzles_tried"] == 0 and data["progress"]["lessons_total"] == len(shipped_names())
    # Ala solves the next classic puzzle at the board.
    status, answer = post(served, "/api/learn/puzzle", {"variant": "classic"})
    assert status == 200, answer
    solve(served)
    shown = teaching(served.rig)   # the page's picture says the end, not the last move's "now the next move"
    assert (shown.phase, shown.instruction, shown.message) == ("done", "Well done! You solved it: 3 of 3 stars.", "")
    status, data = get(served, "/api/learn?learner=Ala")
    progress = data["progress"]
    assert (progress["learner"], progress["puzzles_solved"], progress["puzzles_tried"]) == ("Ala", 1, 1)
    assert progress["by_variant"] == [{"variant": "classic", "title": "Classic 8x8", "solved": 1, "tried": 1,
                                       "total": 300}]
    assert progress["puzzles_total"] == sum(len(shipped_set(p["variant"])) for p in data["puzzles"]) > 900
    assert progress["stars"] == 3 and progress["rating"] > 1000
    assert {p["variant"]: (p["solved"], p["tried"]) for p in data["puzzles"]}["classic"] == (1, 1)
    # Ala takes the first lesson: it is marked done, the next one is offered.
    status, answer = post(served, "/api/learn/lesson", {"lesson": "1-classic-01-man-moves"})
    assert status == 200, answer
    for move in ("c3-d4", "e3-f4", "a3-b4"):
        follow_lights(served.rig)
        make(served.rig, move)
        wait_until(lambda: teaching(served.rig).phase == "right", f"{move} to be right")
        served.rig.do(lambda: served.rig.board.button(Button.OK))          # the next step at once
    wait_until(lambda: served.rig.do(lambda: served.app.teaching.lessons.finished), "the lesson to be finished")
    shown = teaching(served.rig)
    assert (shown.phase, shown.instruction, shown.message) == (
        "done", 'Well done! You finished the lesson "How a man moves".', "")
    status, data = get(served, "/api/learn?learner=Ala")
    assert [(lesson["done"], lesson["next"]) for lesson in data["lessons"][:3]] == [(True, False), (False, True),
                                                                                    (False, False)]
    assert data["progress"]["lessons_done"] == ["1-classic-01-man-moves"] and data["progress"]["next_lesson"] == "1-classic-02-capturing"
        # In Polish when the page asks for it; another learner's progress is their own.
    status, data = get(served, "/api/learn?learner=Ala&language=pl")
    assert data["lessons"][0]["title"] == "Jak chodzi pionek"
    assert post(served, "/api/learn/learner", {"name": "Ola"})[0] == 200
    status, data = get(served, "/api/learn")
    assert data["learner"] == "Ola" and data["progress"]["puzzles_tried"] == 0
    assert sorted(data["learners"]) == ["Ala", "Ola"]


def solve(served: Served) -> None:
    """The child sets the puzzle up and plays its line: its own moves and the lit replies."""
    follow_lights(served.rig)
    play_line(served.rig, served.rig.do(lambda: served.app.teaching.puzzles.puzzle.line))


@pytest.mark.parametrize("path, body, status, said", [
    ("/api/learn/puzzle", {"variant": "chess"}, 400, "variant: no puzzles for 'chess'; there are puzzles for"),
    ("/api/learn/puzzle", {"variant": 7}, 400, "variant: a variant puzzles ship for"),
    ("/api/learn/puzzle", {}, 400, "variant: a variant puzzles ship for"),
    ("/api/learn/puzzle", {"variant": "classic", "id": "x" * 81}, 400, "id: a puzzle's id"),
    ("/api/learn/puzzle", {"variant": "classic", "id": "classic-9999"}, 400,
     "There is no puzzle classic-9999 in the classic set."),
    ("/api/learn/lesson", {"lesson": "flying-pigs"}, 400, "lesson: no lesson 'flying-pigs'; the lessons are: 1-classic-01-"),
    ("/api/learn/lesson", {"lesson": ["1-classic-01-man-moves"]}, 400, "lesson: the name of a lesson"),
    ("/api/learn/learner", {"name": ""}, 400, "name: the learner's name"),
    ("/api/learn/learner", {"name": "A" * 30}, 400, "A name is 1 to 24 letters, digits or spaces"),
    ("/api/learn/learner", {"name": "Ala\nOla"}, 400, "A name is 1 to 24 letters, digits or spaces"),
    ("/api/learn/learner", {"name": "<b>Ala</b>"}, 400, "A name is 1 to 24 letters, digits or spaces"),
    ("/api/learn/learner", {"name": "Ala; DROP"}, 400, "A name is 1 to 24 letters, digits or spaces"),
    ("/api/learn/learner", {"name": "-Ala'"}, 400, "A name is 1 to 24 letters, digits or spaces"),
])
def test_bad_input_is_a_clear_4xx_and_starts_nothing(served, path, body, status, said) -> None:
    got, answer = post(served, path, body)
    assert got == status and answer["error"].startswith(said), (got, answer)
    assert teaching(served.rig) is None and served.rig.do(lambda: served.app.state) is AppState.MENU


def test_a_name_is_letters_of_any_alphabet_digits_and_spaces_and_the_learners_are_bounded(served) -> None:
    """Issue 36: '<b>Ala</b>' was accepted and 300 learners were made in 7.5 s, all listed. A name is
    what the message says (Polish letters too, a decomposed one composed), and at most MAX_LEARNERS are kept."""
    from damka.teaching.progress import MAX_LEARNERS
    for name, kept in (("Zażółć Gęślą 2", "Zażółć Gęślą 2"), ("Zo\u0301fia", "Zófia"),    # (composed)
                       ("  Łucja ", "Łucja"), ("Anna-Maria", "Anna-Maria"), ("O'Neil", "O'Neil")):
        status, answer = post(served, "/api/learn/learner", {"name": name})
        assert status == 200 and answer["learner"] == kept, (name, answer)
    for n in range(MAX_LEARNERS - 5):
        served.rig.do(lambda n=n: served.app.teaching.book.add_learner(f"Kid {n}"))
    status, answer = post(served, "/api/learn/learner", {"name": "One More"})
    assert status == 400 and answer["error"] == f"The board keeps {MAX_LEARNERS} learners at most: choose one of them."
    assert "One More" not in get(served, "/api/learn")[1]["learners"]
    assert len(get(served, "/api/learn")[1]["learners"]) == MAX_LEARNERS
    status, answer = post(served, "/api/learn/learner", {"name": "Łucja"})       # one kept is still chosen
    assert status == 200 and answer["learner"] == "Łucja", answer


def test_the_progress_of_no_such_learner_is_404_and_a_bad_name_400(served) -> None:
    status, answer = get(served, "/api/learn?learner=Nobody")
    assert status == 404 and answer["error"] == "there is no learner called Nobody", answer
    status, answer = get(served, "/api/learn?learner=" + "x" * 81)
    assert status == 400 and answer["error"].startswith("learner: a learner's name"), answer


@pytest.mark.parametrize("path, body", [("/api/learn/puzzle", {"variant": "classic"}),
                                        ("/api/learn/lesson", {"lesson": "1-classic-01-man-moves"}),
                                        ("/api/learn/learner", {"name": "Mallory"})])
def test_without_the_code_nothing_starts_and_no_learner_is_chosen(served, path, body) -> None:
    assert request(served, "POST", path, body)[0] == 401                                  # no code
    assert request(served, "POST", path, body, code="000000" if served.code != "000000" else "111111")[0] == 403
    assert request(served, "POST", path, body, code=served.code, csrf=False)[0] == 403    # no CSRF token
    assert request(served, "POST", path, body, code=served.code, origin="http://evil.example")[0] == 403
    assert request(served, "GET", path)[0] == 405
    assert teaching(served.rig) is None and served.rig.do(lambda: served.app.state) is AppState.MENU
    assert "Mallory" not in get(served, "/api/learn")[1]["learners"]


def test_the_arbiter_pin_starts_a_puzzle_too(served) -> None:
    status, answer = post(served, "/api/learn/puzzle", {"variant": "russian"}, code=PIN)
    assert status == 200 and answer["id"].startswith("russian-"), answer
    assert post(served, "/api/learn/quit", {}, code=PIN)[0] == 200


@pytest.mark.parametrize("variant", ["classic", "russian", "international", "multiwarcaby"])
def test_a_puzzle_of_every_variant_is_pictured_for_the_page(served, variant) -> None:
    status, answer = post(served, "/api/learn/puzzle", {"variant": variant})
    assert status == 200, answer
    facts = teaching(served.rig)
    shown = wait_until(lambda: (t := served.web.feed.latest_state.data.get("teaching")) and t["name"] == answer["id"]
                       and t, f"the {variant} puzzle in the page's picture")
    game = served.rig.do(lambda: served.app.board_game)             # the puzzle's own position, as the board has it
    squares = {game.variant.geometry.name(index) for index in game.variant.geometry.squares
               if game.variant.piece_at(game.position, index)}
    assert set(shown["board"]["pieces"]) == squares and squares
    assert set(shown["board"]["frame"]) == {square for square, _ in facts.lights}


def test_a_flood_of_progress_reads_takes_one_run_of_the_board_and_no_answer_is_older_than_its_ask(served) -> None:
    """GET /api/learn needs no code, and its progress is read on the board's thread: reads asked
    while the board is busy share one run; a read asked after that run began gets a run of its own."""
    import asyncio
    import threading

    driver = served.web.driver
    runs: list[int] = []
    busy, free = threading.Event(), threading.Event()

    def hold_the_board() -> None:   # the board's thread busy (a search, a slow store) while the pages ask
        busy.set()
        free.wait(30)

    def progress() -> int:
        runs.append(len(runs) + 1)
        return runs[-1]

    threading.Thread(target=lambda: served.rig.do(hold_the_board), daemon=True).start()
    assert busy.wait(30)

    async def pages() -> tuple[list[int], int]:
        flood = [asyncio.ensure_future(driver.read(("learn", None), progress)) for _ in range(12)]
        await asyncio.sleep(0)       # each read asked (queued, or joined to the one queued)
        free.set()
        answers = await asyncio.gather(*flood)
        return answers, await driver.read(("learn", None), progress)

    answers, later = asyncio.run(pages())
    assert answers == [1] * 12 and later == 2 and runs == [1, 2]
    status, data = get(served, "/api/learn")
    assert status == 200 and data["lessons"] and len(runs) == 2   # the page's own read is another key's run


def test_the_server_reads_the_lessons_and_the_first_puzzles_before_a_page_asks(tmp_path) -> None:
    """Read on a page's first GET /api/learn, they held the board's thread 0.1 s (0.4 s on a Pi)."""
    from damka.teaching.puzzles import shipped_set
    from damka.web.learn import lesson_titles

    shipped_set.cache_clear()
    lesson_titles.cache_clear()
    board = Served(tmp_path)
    try:
        wait_until(lambda: shipped_set.cache_info().currsize == 1 and lesson_titles.cache_info().currsize == 1,
                   "the server's own thread reading the shipped lessons and puzzles")
    finally:
        board.close()
