"""The hall page in a real Chromium: 6 simulated boards (hall/simboard.py's games through the real store,
outbox and publisher) on a real Mosquitto, `damka hall`'s service and page; every board drawn with the
pieces its store holds, a move arriving redraws its board without a reload, the one-board page fits a
phone, the big screen shows all 6; names from the boards are text, never HTML (docs/hall.md)."""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("paho.mqtt", reason="paho-mqtt missing: pip install 'damka[hall]'")
pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")
pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install -e .[dev])")

from hall_rig import Broker, Served, wait_for  # noqa: E402
from test_web_browser import browser, pytestmark  # noqa: E402,F401

from damka.controller.store.store import Store  # noqa: E402
from damka.engine.variants import find_variant  # noqa: E402
from damka.hall.publisher import BoardPublisher  # noqa: E402
from damka.hall.service import HallService  # noqa: E402
from damka.hall.simboard import parse_specs, play  # noqa: E402

IMAGES = Path(__file__).resolve().parent.parent / "docs" / "images" / "hall"
ROUND = {  # board -> its game: variant[/options]:seed
    "b1": "classic:1", "b2": "international:2", "b3": "russian:3",
    "b4": "multiwarcaby/sides=4:4", "b5": "multiwarcaby7:5", "b6": "american:6",
}
PLIES = 14


class SimBoard:
    """One board of the hall in this process: its store and publisher, its game played by simboard."""

    def __init__(self, folder: Path, broker: Broker, name: str, spec: str) -> None:
        self.name, self.spec, self.path = name, spec, folder / f"{name}.sqlite"
        self.store = Store(self.path)
        self.publisher = BoardPublisher("h", name, broker.settings(name), self.path)
        self.publisher.attach(self.store)
        self.publisher.start()
        self.game_id = 0

    def play(self, plies: int, finish: bool = False) -> None:
        self.game_id = play(self.store, parse_specs(self.spec, plies), finish=finish)[0]

    def pieces(self) -> dict[str, str]:
        """What stands on the board now, square name -> piece code (as board.js marks it)."""
        game = self.store.load_game(self.game_id).game
        variant, geometry = game.variant, game.variant.geometry
        return {geometry.name(sq): code for sq in geometry.squares
                if (code := variant.piece_at(game.position, sq))}

    def last_squares(self) -> list[str]:
        stored = self.store.load_game(self.game_id)
        move, name = stored.moves[-1].move, stored.game.variant.geometry.name
        return sorted([name(move.start), *map(name, move.path)])

    def close(self) -> None:
        self.publisher.close()
        self.store.close()


def outbox_rows(boards: list[SimBoard]) -> int:
    return sum(b.publisher.reader.conn.execute("SELECT count(*) FROM outbox").fetchone()[0] for b in boards)


def screenshot(page, name: str) -> None:
    """Written when missing or when DAMKA_UPDATE_IMAGES=1 (as the web tests do)."""
    path = IMAGES / name
    if not path.exists() or os.environ.get("DAMKA_UPDATE_IMAGES") == "1":
        IMAGES.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(path))


def open_page(browser, url: str, width: int, height: int):
    page = browser.new_page(viewport={"width": width, "height": height})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    page.errors = errors
    return page


def drawn_pieces(page, board: str) -> dict[str, str]:
    return page.evaluate("""(b) => Object.fromEntries([...document.querySelectorAll(
        `[data-board="${b}"] svg [data-square]`)].filter(g => g.querySelector('[data-piece]'))
        .map(g => [g.dataset.square, g.querySelector('[data-piece]').dataset.piece]))""", board)


def lit_squares(page, board: str) -> list[str]:
    """The squares drawn with the last move's ring on `board`'s card, sorted."""
    return sorted(page.eval_on_selector_all(f'[data-board="{board}"] .led-last_move',
                                            "ls => ls.map(l => l.closest('[data-square]').dataset.square)"))


def wait_drawn(page, boards: list[SimBoard], timeout: float = 30.0) -> None:
    """Each board's card shows exactly the pieces of its store (generous: the machine may be loaded)."""
    for board in boards:
        want = board.pieces()
        assert wait_for(lambda: drawn_pieces(page, board.name) == want, f"{board.name} drawn", timeout), (
            board.name, board.spec, drawn_pieces(page, board.name), want)


@pytest.fixture
def hall(tmp_path: Path):
    broker = Broker(tmp_path, list(ROUND)).start()
    service = HallService("h", broker.settings("hall"), tmp_path / "hall.sqlite").start()
    boards = [SimBoard(tmp_path, broker, name, spec) for name, spec in ROUND.items()]
    served = Served(service)
    yield service, boards, served
    served.close()
    for board in boards:
        board.close()
    service.close()
    broker.stop()


def test_six_live_boards_drawn_on_the_phone_updated_without_reload_and_on_the_big_screen(browser, hall) -> None:
    service, boards, served = hall
    for board in boards:
        board.play(PLIES, finish=board.name == "b6")   # b6's game is over (adjudicated): its result shows
    assert wait_for(lambda: service.record.counts["applied"] >= outbox_rows(boards)), service.record.counts
    assert service.record.counts["bad"] == 0

    phone = open_page(browser, served.url + "/", 360, 740)
    wait_drawn(phone, boards)
    cards = phone.eval_on_selector_all("#boards .card", "cs => cs.map(c => c.dataset.board)")
    assert cards == list(ROUND)
    sizes = phone.eval_on_selector_all("#boards .card svg",
                                       "ss => ss.map(s => s.querySelectorAll('[data-square]').length)")
    assert sizes == [64, 100, 64, 81, 49, 64]          # each board in its variant's geometry (the engine's)
    names = phone.eval_on_selector_all('[data-board="b4"] .sides .name', "ns => ns.map(n => n.textContent)")
    assert names == ["P0-0", "P0-1", "P0-2", "P0-3"]  # 4 players, each in their colour
    colours = phone.eval_on_selector_all('[data-board="b4"] .swatch', "ns => ns.map(n => n.style.background)")
    assert len(set(colours)) == 4
    assert phone.text_content('[data-board="b6"] .status').startswith("Draw (")
    # Numbered as the boards' screens number them (issue 38: "move 4" of black's second move): a move of
    # each side is one number, 14 plies are move 7; multiwarcaby's 4 players, two moves a turn: move 2.
    assert phone.text_content('[data-board="b1"] .status').startswith("move 7: ")
    assert phone.text_content('[data-board="b4"] .status').startswith("move 2: ")
    b1 = boards[0]
    lit = lit_squares(phone, "b1")
    assert lit == b1.last_squares()
    assert phone.text_content('[data-board="b1"] li.to-move .clock')   # the clock to move shows its time
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360   # the hall page fits the phone too
    screenshot(phone, "hall-360x740.png")

    phone.evaluate("window.keptAcross = 'the same page'")  # gone if the page were reloaded
    before = drawn_pieces(phone, "b1")
    b1.play(PLIES + 1)                                      # one move arrives over MQTT
    wait_drawn(phone, [b1])
    assert drawn_pieces(phone, "b1") != before
    lit = lit_squares(phone, "b1")
    assert lit == b1.last_squares()
    assert phone.evaluate("window.keptAcross") == "the same page"

    one = open_page(browser, served.url + "/board/b4", 360, 740)
    wait_drawn(one, [boards[3]])
    one.wait_for_function(f"document.getElementById('moves').dataset.count == {PLIES}")
    assert one.evaluate("document.documentElement.scrollWidth") <= 360   # no sideways scrolling
    link = one.evaluate("document.getElementById('pdn').href")    # resolved against the page
    assert one.get_attribute("#pdn", "download") == "b4.pdn"
    with urllib.request.urlopen(link) as response:
        assert response.headers["Content-Disposition"] == 'attachment; filename="b4.pdn"'
        assert '[Result "*"]' in response.read().decode()
    screenshot(one, "board-360x740.png")

    screen = open_page(browser, served.url + "/screen", 1920, 1080)
    wait_drawn(screen, boards)
    boxes = screen.eval_on_selector_all("#boards .card svg",
                                        "ss => ss.map(s => s.getBoundingClientRect().toJSON())")
    assert len(boxes) == 6
    for box in boxes:                                        # all 6 in sight, large, none cut off
        assert box["height"] >= 380 and box["bottom"] <= 1080 and box["right"] <= 1920, box
    assert screen.evaluate("document.documentElement.scrollHeight") <= 1080
    assert screen.eval_on_selector_all("a, button, input, select", "xs => xs.length") == 0  # nothing to press
    assert screen.evaluate("location.search") == ""
    wide = open_page(browser, served.url + "/?view=screen", 1920, 1080)
    wait_drawn(wide, boards[:1])
    screenshot(screen, "screen-1920x1080.png")
    for page in (phone, one, screen, wide):
        assert page.errors == []


HOSTILE = '<img src=x onerror="window.pwned=1">'


def test_names_and_problems_from_a_board_are_text_on_the_page_and_cut_to_size(browser, tmp_path: Path) -> None:
    """A board's player names and a message it got wrong reach the page as text: no HTML runs, long ones cut."""
    broker = Broker(tmp_path, ["b1"]).start()
    service = HallService("h", broker.settings("hall"), tmp_path / "hall.sqlite").start()
    board = SimBoard(tmp_path, broker, "b1", "classic:1")
    served = Served(service)
    try:
        variant = find_variant("classic")
        board.store.new_game(variant, players=[HOSTILE, "L" * 5000], mode="tournament", time_control="5+0",
                             clock_ms=[300_000, 300_000], tags={"SimGame": "0", "Round": "1"})
        board.play(4)                                       # simboard goes on with the game it finds
        assert wait_for(lambda: service.record.counts["applied"] >= outbox_rows([board]))
        seq = board.publisher.reader.conn.execute("SELECT max(seq) FROM outbox").fetchone()[0] + 1
        board.publisher.client.publish("damka/h/b1/move", json.dumps({"game": 1, "seq": seq, "kind": HOSTILE}),
                                       qos=1)
        assert wait_for(lambda: service.record.counts["bad"] == 1), service.record.counts
        for url in ("/", "/board/b1", "/screen"):
            page = open_page(browser, served.url + url, 360, 740)
            wait_drawn(page, [board])
            page.wait_for_selector(".problem-text")
            names = page.eval_on_selector_all(".sides .name", "ns => ns.map(n => n.textContent)")
            assert names == [HOSTILE, "L" * 39 + "…"], url        # as text, and at most 40 characters
            assert "<img" in page.text_content(".problem-text")
            assert page.evaluate("document.querySelectorAll('#boards img').length") == 0
            assert page.evaluate("window.pwned") is None and page.errors == []
            if url == "/":
                table = page.eval_on_selector_all("#standings td:first-child", "ts => ts.map(t => t.textContent)")
                assert sorted(table) == sorted([HOSTILE, "L" * 39 + "…"])
            if url != "/screen":
                assert page.evaluate("document.documentElement.scrollWidth") <= 360, url  # a long name fits
        for path in ("/board/%3Cb%3E", "/api/board/%3Cb%3E", "/api/board/nope"):
            try:
                urllib.request.urlopen(served.url + path)
                raise AssertionError(f"{path} answered")
            except urllib.error.HTTPError as error:
                assert error.code == 404 and b"<b>" not in error.read()
    finally:
        served.close()
        board.close()
        service.close()
        broker.stop()
