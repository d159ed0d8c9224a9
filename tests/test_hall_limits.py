"""What one board account can make the hall do is bounded (hall/limits.py, docs/hall.md Limits), on a real
Mosquitto with the shipped config: a board over its messages or game opens a minute, with a big state, a
message far ahead or long tags is refused or cut and logged once (not once a message), while an honest board
next to it loses nothing; a board keeps at most GAMES_PER_BOARD games (the retention rule); `/round.pdn` is
streamed and cut at its bound; a board's control characters never reach the PDN nor the page."""

from __future__ import annotations

import json
import logging
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("paho.mqtt", reason="paho-mqtt missing: pip install 'damka[hall]'")
pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")

from hall_rig import DEADLINE_S, Broker, Served, wait_for  # noqa: E402
from test_hall_security import Board, Client  # noqa: E402

from damka.controller.store.pdn import export_pdn, import_records  # noqa: E402
from damka.engine.variants import find_variant  # noqa: E402
from damka.hall import limits, page, record, views  # noqa: E402
from damka.hall.limits import AccountLimits  # noqa: E402
from damka.hall.service import HallService  # noqa: E402
from damka.hall.simboard import parse_specs, play  # noqa: E402

HOSTILE = "Open\n[Result \"1-0\"]\x00\x1b[2J\u202egnp.exe\u2066"   # a new line and tag, NUL, ESC, RLO, LRI


class FrozenClock:
    """The buckets' time: it stands still, so what the tests send is refused by count, never by timing."""

    def __call__(self) -> float:
        return 100.0


@pytest.fixture
def broker(tmp_path: Path):
    running = Broker(tmp_path, ["b1", "b2"]).start()
    yield running
    running.stop()


def open_message(game: int, tags: dict[str, str], players: str = '["A","B"]') -> str:
    variant = find_variant("classic")
    return json.dumps({"kind": "open", "game": game, "seq": 1, "variant": "classic", "options": "{}",
                       "start_position": variant.format_position(variant.start_position()), "players": players,
                       "mode": "tournament", "clock_start": None, "tags": json.dumps(tags),
                       "created": "2026-12-07T10:00:00Z"})


def warnings(caplog: pytest.LogCaptureFixture, board: str) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.name == "damka.hall" and r.levelno >= logging.WARNING and f"board {board}:" in r.getMessage()]


def halls_pdn_of(hall: HallService, board: str) -> list[str]:
    with hall.lock:
        return [hall.record.game_pdn(g, gid) for b, g, gid in hall.record.game_keys() if b == board]


def test_a_board_over_its_messages_a_minute_is_refused_and_logged_once(
        tmp_path: Path, broker: Broker, caplog: pytest.LogCaptureFixture) -> None:
    """b2 sends 80 states with room for 50: 30 refused, one log line; b1 playing meanwhile loses nothing."""
    caplog.set_level(logging.INFO)
    hall = HallService("h", broker.settings("hall"), tmp_path / "hall.sqlite",
                       account_limits=AccountLimits(message_burst=50, clock=FrozenClock())).start()
    honest = Board(tmp_path, broker, "b1")
    storm = Client(broker, "b2", name="b2")
    try:
        assert hall.connected.wait(DEADLINE_S) and storm.ready.wait(DEADLINE_S) and not storm.refused()
        for n in range(80):
            storm.client.publish("damka/h/b2/state", json.dumps({"online": True, "n": n}), qos=1)
        honest.ids = play(honest.store, parse_specs("classic:1", 8))   # some 20 messages: within its own 50
        assert wait_for(lambda: hall.record.counts["refused"] == 30), hall.record.counts
        assert wait_for(lambda: halls_pdn_of(hall, "b1") == [export_pdn(honest.store.load_game(honest.ids[0]))])
        with hall.lock:
            boards = {b["board"]: b for b in hall.record.boards()}
        assert boards["b2"]["state"]["n"] == 49   # the 50th; the 30 after it never reached the record
        assert boards["b1"]["bad"] == 0 and boards["b2"]["bad"] >= 1 and "refused" in boards["b2"]["problem"]
        said = warnings(caplog, "b2")
        assert len(said) == 1 and "more than 600 messages a minute" in said[0], said
        assert warnings(caplog, "b1") == []
    finally:
        storm.close()
        honest.close()
        hall.close()


def test_a_board_over_its_opens_gets_its_tags_cut_and_no_more_games(
        tmp_path: Path, broker: Broker, caplog: pytest.LogCaptureFixture) -> None:
    """b2 opens 12 games with 60 KB tags, room for 5: the hall keeps 5, each tag cut to TAG_VALUE; the 7
    refused cost one line, the cut tags one more."""
    caplog.set_level(logging.INFO)
    hall = HallService("h", broker.settings("hall"), tmp_path / "hall.sqlite",
                       account_limits=AccountLimits(open_burst=5, clock=FrozenClock())).start()
    storm = Client(broker, "b2", name="b2")
    try:
        assert hall.connected.wait(DEADLINE_S) and storm.ready.wait(DEADLINE_S) and not storm.refused()
        for game in range(1, 13):
            storm.publish("damka/h/b2/game", open_message(game, {"Event": "x" * 60_000, "Round": "1"}))
        assert wait_for(lambda: hall.record.counts["refused"] == 7), hall.record.counts
        with hall.lock:
            kept = [json.loads(tags) for tags, in hall.record.query("SELECT tags FROM games")]
        assert len(kept) == 5 and all(len(tags["Event"]) == limits.TAG_VALUE for tags in kept), kept
        said = warnings(caplog, "b2")
        assert len(said) == 2 and any("more than 6 games opened a minute" in line for line in said), said
        assert any("tag Event cut from 60,000 to 200 characters" in line for line in said), said
    finally:
        storm.close()
        hall.close()


def test_a_message_far_ahead_and_a_big_state_are_refused(tmp_path: Path, broker: Broker) -> None:
    """A move SEQ_AHEAD past the game is refused (not held in memory); a retained state over STATE_BYTES
    is refused and the board's last small one stays."""
    hall = HallService("h", broker.settings("hall"), tmp_path / "hall.sqlite").start()
    storm = Client(broker, "b2", name="b2")
    try:
        assert hall.connected.wait(DEADLINE_S) and storm.ready.wait(DEADLINE_S) and not storm.refused()
        storm.publish("damka/h/b2/game", open_message(1, {}))
        storm.publish("damka/h/b2/move", json.dumps({"kind": "move", "game": 1, "seq": 3, "ply": 2}))
        storm.publish("damka/h/b2/move", json.dumps({"kind": "move", "game": 1, "seq": 3 + limits.SEQ_AHEAD,
                                                     "ply": 9}))
        storm.publish("damka/h/b2/state", json.dumps({"online": True, "small": 1}))
        storm.publish("damka/h/b2/state", json.dumps({"online": True, "pad": "s" * limits.STATE_BYTES}))
        assert wait_for(lambda: hall.record.counts["refused"] == 2), hall.record.counts
        assert hall.record.counts["held"] == 1 and hall.record.held.count("b2") == 1   # seq 3 only
        with hall.lock:
            state = [b["state"] for b in hall.record.boards() if b["board"] == "b2"][0]
        assert state == {"online": True, "small": 1}
    finally:
        storm.close()
        hall.close()


def test_a_board_keeps_its_last_games_the_oldest_never_played_is_dropped(
        tmp_path: Path, broker: Broker, monkeypatch: pytest.MonkeyPatch) -> None:
    """With room for 2 games: a game opened and never played is dropped for a new one; when all the board's
    games were played, a new one is refused (and asked for again), the played ones are kept."""
    monkeypatch.setattr(record, "GAMES_PER_BOARD", 2)
    hall = HallService("h", broker.settings("hall"), tmp_path / "hall.sqlite").start()
    board = Board(tmp_path, broker, "b1")
    variant = find_variant("classic")
    try:
        assert hall.connected.wait(DEADLINE_S)
        empty = board.store.new_game(variant, players=["A", "B"])   # opened, never played
        first = play(board.store, parse_specs("classic:1", 6))[0]
        assert wait_for(lambda: len(halls_pdn_of(hall, "b1")) == 2)
        second = play(board.store, parse_specs("classic:1,russian:2", 6))[1]   # (the first is done: kept)
        expected = [export_pdn(board.store.load_game(gid)) for gid in (first, second)]
        assert wait_for(lambda: halls_pdn_of(hall, "b1") == expected), hall.record.counts
        assert hall.record.counts["dropped"] == 1 and empty not in [g for _, g, _ in hall.record.game_keys()]
        play(board.store, parse_specs("classic:1,russian:2,classic:3", 6))
        assert wait_for(lambda: hall.record.counts["refused"] >= 1), hall.record.counts
        assert halls_pdn_of(hall, "b1") == expected and hall.record.counts["dropped"] == 1
        with hall.lock:
            assert "the most kept (2)" in [b for b in hall.record.boards() if b["board"] == "b1"][0]["problem"]
    finally:
        board.close()
        hall.close()


def get(url: str) -> tuple[str, str]:
    with urllib.request.urlopen(url, timeout=DEADLINE_S) as response:
        return response.read().decode(), response.headers.get("Content-Type", "")


def test_a_boards_control_characters_never_reach_the_pdn_nor_the_page(tmp_path: Path, broker: Broker) -> None:
    """A tag and a player's name with a new line, NUL, ESC and direction overrides: the round's PDN has one line
    per tag and reads back (the project's reader) as the boards' games; the page's JSON has none of them."""
    hall = HallService("h", broker.settings("hall"), tmp_path / "hall.sqlite").start()
    board = Board(tmp_path, broker, "b1")
    served = Served(hall)
    try:
        assert hall.connected.wait(DEADLINE_S)
        gid = board.store.new_game(find_variant("classic"), players=[HOSTILE, "B"], tags={"Event": HOSTILE})
        own = export_pdn(board.store.load_game(gid))   # the board's own export: the same writer
        assert wait_for(lambda: len(halls_pdn_of(hall, "b1")) == 1)
        text, kind = get(f"{served.url}/round.pdn")
        for pdn in (own, text):
            assert not any(c in pdn for c in "\x00\x1b\u202e\u2066"), repr(pdn)
            assert '[Event "Open [Result \\"1-0\\"]  [2Jgnp.exe"]' in pdn.splitlines(), pdn
            games = import_records(pdn)   # (strict: RecordError on any problem)
            assert [details["tags"]["Event"] for _, details in games] == ['Open [Result "1-0"]  [2Jgnp.exe']
        data, _ = get(f"{served.url}/api/hall")
        assert not any(c in data for c in ("\\u0000", "\\u001b", "\\u202e", "\\u2066", "\\n")), data
        assert kind.startswith("application/x-chess-pdn")
    finally:
        served.close()
        board.close()
        hall.close()


def test_the_round_pdn_is_streamed_and_cut_at_its_bound(
        tmp_path: Path, broker: Broker, monkeypatch: pytest.MonkeyPatch) -> None:
    """With room for 2 games, a hall of 3 serves the first 2 and a last `%` line saying so: the project's
    reader reads the 2 games and nothing else."""
    monkeypatch.setattr(page, "ROUND_GAMES", 2)
    hall = HallService("h", broker.settings("hall"), tmp_path / "hall.sqlite").start()
    board = Board(tmp_path, broker, "b1")
    served = Served(hall)
    try:
        assert hall.connected.wait(DEADLINE_S)
        board.ids = play(board.store, parse_specs("classic:1,russian:2,classic:3", 6))
        assert wait_for(lambda: len(halls_pdn_of(hall, "b1")) == 3)
        text, _ = get(f"{served.url}/round.pdn")
        assert len(views.round_pdn(hall.record)) > len(text)   # (the whole round, unbounded)
        two = "\n".join(export_pdn(board.store.load_game(gid)) for gid in board.ids[:2])
        assert text.startswith(two + "\n%"), text[-300:]
        assert text.splitlines()[-1].startswith("% The hall cut this file after 2 of 3 games"), text[-300:]
        games = import_records(text)   # (strict: RecordError on any problem)
        assert [details["tags"]["Event"] for _, details in games] == [f"Damka game {gid}" for gid in board.ids[:2]]
    finally:
        served.close()
        board.close()
        hall.close()


class StepClock:
    """The buckets' time, moved by the test."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_bucket_refills_at_its_rate_and_each_board_has_its_own() -> None:
    clock = StepClock()
    account = AccountLimits(messages_per_minute=60, message_burst=3, clock=clock)
    assert [account.message("b1") for _ in range(4)] == [True, True, True, False]
    assert account.message("b2")                      # another board's bucket is full
    clock.now += 1.0                                  # one a second back
    assert [account.message("b1") for _ in range(2)] == [True, False]
    clock.now += 3600.0                               # never more than the burst
    assert [account.message("b1") for _ in range(4)] == [True, True, True, False]


def test_an_honest_board_over_its_limit_loses_nothing(tmp_path: Path, broker: Broker) -> None:
    """A board's backlog of some 100 messages with room for 20 at once and 10 a second: what is refused is
    asked for again, and the hall ends with the board's game complete, every message confirmed."""
    hall = HallService("h", broker.settings("hall"), tmp_path / "hall.sqlite",
                       account_limits=AccountLimits(messages_per_minute=600, message_burst=20)).start()
    board = Board(tmp_path, broker, "b1")
    try:
        assert hall.connected.wait(DEADLINE_S)
        board.ids = play(board.store, parse_specs("classic:1", 40))
        assert wait_for(lambda: hall.record.counts["refused"] > 0), hall.record.counts
        expected = [export_pdn(board.store.load_game(gid)) for gid in board.ids]
        assert wait_for(lambda: halls_pdn_of(hall, "b1") == expected), hall.record.counts
        assert wait_for(lambda: board.count("sent < 2") == 0), board.count("sent < 2")
        assert hall.record.counts["bad"] == 0
    finally:
        board.close()
        hall.close()
