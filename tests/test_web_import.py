"""A PDN upload is stored beside the board: the board never stands still, the pages answer,
the same file twice stores its games once, and the list comes in pages (real uvicorn)."""

from __future__ import annotations

import http.client
import json
import os
import threading
import time

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")

from damka.controller.store.budget import ArchiveBudget  # noqa: E402
from upload_rig import ONE_MOVE, TAG_ONLY, Pauses, get, one_move_records, upload  # noqa: E402
from web_support import Served, request, served  # noqa: E402,F401  (fixture)

# The 125,000 records take the parser minutes on a loaded machine: the default is smaller,
# DAMKA_IMPORT_RECORDS=125000 runs the full size; benchmarks/web_upload.py measures it (docs/web.md).
RECORDS = int(os.environ.get("DAMKA_IMPORT_RECORDS", "6000"))


@pytest.fixture
def roomy(tmp_path):
    """A board whose archive takes every record of the big upload (beyond the default budget at full size)."""
    s = Served(tmp_path, archive=ArchiveBudget(games=max(RECORDS, ArchiveBudget().games)))
    yield s
    s.close()


def test_a_big_upload_never_stops_the_board_and_the_same_file_again_adds_nothing(roomy) -> None:
    served = roomy
    text = one_move_records(RECORDS)
    pages: list[float] = []
    stop = threading.Event()

    def phone() -> None:                    # a phone watching the whole time
        while not stop.is_set():
            started = time.monotonic()
            assert get(served, "/api/state", timeout=30)[0] == 200
            pages.append(time.monotonic() - started)
            time.sleep(0.1)

    watcher = threading.Thread(target=phone, daemon=True)
    quiet = Pauses(served)                  # the machine's own hiccups (a loaded CI runner): 3 s with no upload
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        time.sleep(0.1)
    quiet_longest = quiet.stop(served)
    pauses = Pauses(served)
    watcher.start()
    marks = [("start", round(time.monotonic(), 2))]
    try:
        first = upload(served, text)
        marks.append(("first done", round(time.monotonic(), 2)))
        second = upload(served, text)
        marks.append(("second done", round(time.monotonic(), 2)))
    finally:
        stop.set()
        watcher.join(30)
    longest = pauses.stop(served)
    print(f"\n{RECORDS} records: longest board pause {longest * 1000:.0f} ms (quiet {quiet_longest * 1000:.0f} ms), "
          f"slowest page {max(pages):.2f} s", marks, pauses.gaps[:20])
    assert first["state"] == "done" and first["stored"] == RECORDS and first["known"] == 0, first
    assert second["state"] == "done" and second["stored"] == 0 and second["known"] == RECORDS, second
    assert served.rig.do(lambda: served.store.count_games()) == RECORDS
    # The board never freezes (it stood still 20 s and more before). The 200 ms target is a speed
    # target: printed above and measured by benchmarks, not asserted where a loaded machine decides it.
    assert longest < max(2.0, 4 * quiet_longest), f"the board's loop stood still {longest * 1000:.0f} ms"
    assert pages and max(pages) < 5, f"a page waited {max(pages):.1f} s"


def test_progress_reaches_the_pages_and_a_bad_file_says_why(served) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", served.web.port, timeout=30)
    conn.request("GET", "/api/events")
    stream = conn.getresponse()
    done = upload(served, "".join(ONE_MOVE.format(n) for n in range(300)))
    assert done["stored"] == 300
    while True:                              # the page's events carry the job's end
        line = stream.readline()
        assert line, "the stream ended before the import's progress came"
        if line.startswith(b"data:") and b'"ImportProgress"' in line:
            data = json.loads(line[5:])
            if data["state"] == "done":
                assert data["stored"] == 300
                break
    conn.close()
    status, answer = request(served, "POST", "/api/games/import", {"pdn": '[Event "x"]\n1. 99-98 *\n'},
                             code=served.code)
    assert status == 400 and answer["error"].startswith("PDN not imported") and "99" in answer["error"]
    good = "".join(ONE_MOVE.format(f"ok{n}") for n in range(250))
    bad = '[Event "x"]\n1. 99-98 *\n'
    last = '[E "last"]\n1. 32-28 *\n\n'   # ends with its result: the bad record after it is a record of its own
    later = upload(served, bad + good + last + bad)   # bad records first and further on: the good ones are stored
    assert later["state"] == "done" and later["stored"] == 251 and later["refused"] == 2, later
    assert later["problems"][0].startswith("game 1 (line 1): ") and "99" in later["problems"][0], later
    assert later["problems"][1].startswith("game 253 "), later
    assert served.rig.do(lambda: served.store.count_games()) == 300 + 251


def test_the_game_list_comes_in_pages(served) -> None:
    upload(served, "".join(ONE_MOVE.format(n) for n in range(250)))
    seen: list[int] = []
    status, page = get(served, "/api/games")
    assert status == 200 and len(page["games"]) == 100 and page["total"] == 250
    while True:
        seen += [g["id"] for g in page["games"]]
        if page["next"] is None:
            break
        status, page = get(served, f"/api/games?before={page['next']}")
    assert seen == sorted(seen, reverse=True) and len(set(seen)) == 250
    for query in ("limit=0", "limit=501", "before=abc", "before=99999999999999999999999"):
        status, answer = get(served, f"/api/games?{query}")
        assert status == 400, (query, answer)
    status, page = get(served, "/api/games?limit=7")
    assert len(page["games"]) == 7


def test_an_upload_names_the_game_of_untagged_records(served) -> None:
    russian = '[Event "club"]\n1. c3-d4 f6-g5 *\n'  # c3-d4 is also a move of other 8x8 games: the choice decides
    status, answer = request(served, "POST", "/api/games/import", {"pdn": russian, "variant": "czech"},
                             code=served.code)
    assert status == 400 and "Czech draughts is a game Damka does not play" in answer["error"]
    status, answer = request(served, "POST", "/api/games/import",
                             {"pdn": russian, "name": "club.pdn", "variant": "russian"}, code=served.code)
    assert status == 200, answer
    deadline = time.monotonic() + 600
    while (progress := get(served, "/api/import")[1])["state"] == "reading":
        assert time.monotonic() < deadline, progress
        time.sleep(0.2)
    assert progress["state"] == "done" and progress["stored"] == 1, progress
    game_id = progress["ids"][0]
    assert served.rig.do(lambda: served.store.load_game(game_id).game.variant.name) == "russian"


# -- the archive's budget and records that are not games (issue 36) ---------------------------


def test_an_upload_stops_at_the_archive_budget_and_the_board_still_records_its_own_game(tmp_path) -> None:
    from damka.controller.app.board_settings import BoardSettings
    from damka.controller.game.setup import GameSetup
    from waiting import wait_until

    served = Served(tmp_path, archive=ArchiveBudget(games=250))
    try:
        first = upload(served, "".join(ONE_MOVE.format(n) for n in range(300)))
        assert first["state"] == "stopped" and first["stored"] == 250 and first["read"] == 250, first
        assert first["error"] == ("the archive is full (its budget is 250 games): 250 games of club.pdn stored, "
                                  "the rest not; to store more, raise [archive] max_games in the board config")
        assert served.rig.do(lambda: served.store.count_games()) == 250
        served.rig.do(lambda: served.app.set_board_settings(BoardSettings(language="pl")))
        again = upload(served, "".join(ONE_MOVE.format(f"more {n}") for n in range(10)), name="więcej.pdn")
        assert again["state"] == "stopped" and again["stored"] == 0, again
        assert again["error"] == ("archiwum jest pełne (jego budżet to 250 partii): z więcej.pdn zapisano 0 partii, "
                                  "reszty nie; aby zapisać więcej, podnieś [archive] max_games w konfiguracji planszy")
        assert served.rig.do(lambda: served.store.count_games()) == 250
        # A game played at the board is stored whatever the budget: a game in play is never lost.
        served.rig.do(lambda: served.app.new_game(GameSetup("classic")))
        served.rig.set_up()
        served.rig.play(served.rig.do(lambda: served.app.session.game.legal_moves()[0]))

        def board_game_plies() -> int:
            games = served.store.list_games()
            return served.store.load_game(games[-1].id).game.ply if len(games) == 251 else 0

        wait_until(lambda: served.rig.do(board_game_plies) == 1, "the board's game stored, its move with it")
    finally:
        served.close()


def test_a_record_with_no_move_and_no_setup_position_is_refused_and_counted(served) -> None:
    status, answer = request(served, "POST", "/api/games/import",
                             {"pdn": "".join(TAG_ONLY.format(n) for n in range(300)), "name": "tags.pdn"},
                             code=served.code)
    assert status == 400 and answer["error"] == (
        "PDN not imported: tags.pdn, game 1: line 1: the record has no move and no setup position (FEN tag): "
        "it is not a game"), answer
    position = '[FEN "W:W31-50:B1-20"]\n*\n\n'      # a setup position with no move is a game
    done = upload(served, ONE_MOVE.format("one") + position + "".join(TAG_ONLY.format(n) for n in range(300)))
    assert done["state"] == "done" and done["stored"] == 2 and done["refused"] == 300, done
    assert done["problems"][0] == ("game 3 (line 7): the record has no move and no setup position (FEN tag): "
                                   "it is not a game"), done
    assert served.rig.do(lambda: served.store.count_games()) == 2
