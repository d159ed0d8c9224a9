"""Hub 1 as Scan 2.0 speaks it: the board plays a whole game against a
stand-in speaking Scan 2.0's lines (tests/scan2_standin.py, from Scan's
source); a refusal always says why; an engine speaking neither Hub is
refused naming the protocol."""

from __future__ import annotations

import os
import random
import sys
import textwrap
from pathlib import Path

import pytest

from damka.bridges import hub_v1
from damka.bridges.hub_client import HubClient, HubEngineError
from damka.controller import events as ev
from damka.controller.app import App
from damka.controller.game.setup import GameSetup
from damka.controller.players.hub_opponent import HubOpponent
from waiting import wait_on_board
from app_rig import make_move as make, on_board

STANDIN = Path(__file__).with_name("scan2_standin.py")


def play_a_whole_game(engine: tuple[str, ...]) -> HubClient:
    """The board (App on the virtual board) against `engine` ((variant, name, command[, dir])),
    the person's moves at random; every computer move must come from the engine."""
    setup = GameSetup("international", mode="computer", colours="first", level="master", move_time=0.05,
                      engines=(engine,))
    app = App(setup=setup, start_game=True, seed=7)
    seen: list[ev.GameEvent] = []
    app.bus.subscribe(seen.append)
    opponent = app.session.opponent
    assert isinstance(opponent, HubOpponent)
    board = on_board(app)
    rng = random.Random(3)
    session = app.session
    try:
        while not session.game.is_over and session.game.ply < 400:
            ply = session.game.ply
            if session.game.turn in session.settings.computer_sides:
                wait_on_board(board, lambda: not session.busy, "the engine's move")
                make(board, app, session.planned[0])
            else:
                make(board, app, rng.choice(session.game.legal_moves()))
            assert session.game.ply == ply + 1, f"the move at ply {ply + 1} was not committed"
        assert session.game.is_over, f"no result after {session.game.ply} plies"
        fell_back = [event.text for event in seen if isinstance(event, ev.EngineFellBack)]
        assert fell_back == [] and not opponent.failed
        assert opponent.engine_moves == session.game.ply // 2 > 5   # every computer move came from the engine
        client = opponent._client  # noqa: SLF001
        assert client is not None and client.version == 1 and client.engine_id.get("name") == "Scan 2.0"
    finally:
        session.close()
    return client


def test_the_board_plays_a_whole_game_against_scan_2_speaking_hub_1(tmp_path: Path) -> None:
    heard = tmp_path / "heard.txt"
    play_a_whole_game(("international", "Scan", f"{sys.executable} {STANDIN} --log {heard}"))
    lines = heard.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "hub" and "init" in lines
    assert not any(line.startswith("set-param") or "=" in line for line in lines), "Hub 2 words sent to Hub 1"
    positions = [line for line in lines if line.startswith("pos ")]
    assert positions and all(len(line.split()[1]) == 51 and line.split()[1][0] in "wb" for line in positions)
    assert "go" in lines and any(line.startswith("time ") for line in lines)


@pytest.mark.skipif(not os.environ.get("DAMKA_SCAN2"), reason="DAMKA_SCAN2: a folder with Scan 2.0 built "
                    "(rhalbersma/scan 57082ee: src/Makefile, the scan program beside scan.ini and data/)")
def test_the_board_plays_a_whole_game_against_the_real_scan_2() -> None:
    folder = os.environ["DAMKA_SCAN2"]
    client = play_a_whole_game(("international", "Scan", f"{os.path.join(folder, 'scan')} hub", folder))
    assert client.engine_id == {"name": "Scan 2.0", "author": "Fabien Letouzey", "country": "France"}


def engine(tmp_path: Path, name: str, script: str) -> str:
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(script), encoding="utf-8")
    return f"{sys.executable} {path}"


def test_a_refusal_with_no_message_still_says_why(tmp_path: Path) -> None:
    """Hub 2's `error` with no `message=`: the reason is never empty."""
    command = engine(tmp_path, "silent_refusal", """
        import sys
        for line in sys.stdin:
            word = line.split()[0] if line.split() else ""
            answer = {"hub": "id name=Mute\\nwait", "init": "ready", "go": "error"}.get(word)
            if answer:
                print(answer, flush=True)
    """)
    client = HubClient(command)
    try:
        client.open(timeout=20)
        with pytest.raises(HubEngineError) as refused:
            client.think("W" + "b" * 20 + "e" * 10 + "w" * 20, level={"move-time": "0.1"}, timeout=20)
    finally:
        client.close()
    message = str(refused.value)
    reason = message.split("refused the position:", 1)[1].strip()
    assert reason and "no reason" in reason, message


def test_scan_2s_bad_position_is_its_reason(tmp_path: Path) -> None:
    client = HubClient(f"{sys.executable} {STANDIN}")
    try:
        client.open(timeout=20)
        assert client.version == 1
        with pytest.raises(HubEngineError, match="refused the position: bad position"):
            client.think("W" + "b" * 20, level={"move-time": "0.1"}, timeout=20)   # 21 letters, not 51
    finally:
        client.close()


def test_an_engine_speaking_no_hub_is_refused_naming_the_protocol(tmp_path: Path) -> None:
    command = engine(tmp_path, "uci", """
        import sys
        for line in sys.stdin:
            print("Unknown command: " + line.strip(), flush=True)
    """)
    client = HubClient(command)
    try:
        with pytest.raises(HubEngineError) as refused:
            client.open(timeout=2)   # (its greeting never comes, however long Damka waits)
    finally:
        client.close()
    assert "does not speak the Hub protocol" in str(refused.value), refused.value
    assert "Unknown command: hub" in str(refused.value) and hub_v1.PROTOCOLS in str(refused.value)


def test_hub_1_lines_read_as_hub_2() -> None:
    assert hub_v1.read_line("name Scan 2.0") == ("id", {"name": "Scan 2.0"})
    assert hub_v1.read_line("move 34-30 20-25") == ("done", {"move": "34-30", "ponder": "20-25"})
    assert hub_v1.read_line("error bad position") == ("error", {"message": "bad position"})
    assert hub_v1.read_line("info 12 10.5 -23 123456 0.50 1.2 32-28 18-23") == (
        "info", {"depth": "12", "score": "-0.23", "nodes": "123456", "time": "0.50", "pv": "32-28 18-23"})
    assert hub_v1.read_line("info 0 0.0 0 0 0.00 0.0 17-22") == (   # Scan 2.0's book move: no score
        "info", {"depth": "0", "nodes": "0", "time": "0.00", "pv": "17-22"})
    assert hub_v1.read_line('input "stop"') == ("input", {})
    assert hub_v1.level_words({"time": "61.5", "inc": "2.000"}) == ("level", "0", "61500", "2000")
    assert hub_v1.level_words({"move-time": "0.250"}) == ("time", "250")
