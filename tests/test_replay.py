"""The sensor log format and `damka replay` over the scenario logs in tests/scenarios/."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from damka.cli import main
from damka.commands.replay import replay
from damka.controller.board.eventlog import EventLogError, format_log, parse_line, parse_log
from damka.controller.session import Mode, SessionSettings
from test_session_rig import Rig

SCENARIOS = Path(__file__).parent / "scenarios"


def run_replay(capsys, *args: str) -> tuple[int, list[dict], str]:
    code = main(["replay", *args])
    captured = capsys.readouterr()
    lines = [json.loads(line) for line in captured.out.splitlines()]
    return code, lines, captured.err


def moves_of(lines: list[dict]) -> list[str]:
    return [line["move"] for line in lines if "ply" in line]


# -- the log format -------------------------------------------------------------------


def test_parse_lines_comments_and_blank_lines() -> None:
    events = parse_log(["# a comment", "", "0 up c3", "150 down d4  # dropped", "200 press white",
                        "250 button hint", "300 press 3"])
    assert [str(e) for e in events] == ["0 up c3", "150 down d4", "200 press white", "250 button hint",
                                        "300 press 3"]
    assert events[1].line == 4
    assert format_log(events).splitlines()[0] == "0 up c3"


@pytest.mark.parametrize("line, words", [
    ("abc up c3", "whole number"),
    ("10 jump c3", "unknown event"),
    ("10 up", "expected 'MS KIND ARG'"),
    ("10 up 33", "not a square"),
    ("10 button dance", "unknown button"),
])
def test_bad_lines_name_the_line(line: str, words: str) -> None:
    with pytest.raises(EventLogError, match=f"line 3: .*{words}"):
        parse_log(["0 up c3", "# ok", line])


def test_time_may_not_go_back() -> None:
    with pytest.raises(EventLogError, match="line 2: time 5 goes back"):
        parse_log(["10 up c3", "5 down d4"])
    assert parse_line("  ") is None


# -- replay of the scenario logs --------------------------------------------------------


def test_replay_classic_casual(capsys) -> None:
    code, lines, _ = run_replay(capsys, "classic", str(SCENARIOS / "classic_casual.log"))
    assert code == 0
    assert moves_of(lines) == ["c3-d4", "f6-e5", "d4xf6", "g7xe5", "g3-h4", "e5-d4", "e3xc5", "e3xc5"]
    assert {"event": "takeback", "plies": 1} == {k: v for k, v in lines[-3].items() if k != "time_ms"}
    assert lines[-1]["final"].startswith("B:") and lines[-1]["result"] is None


def test_replay_tournament_refused_press(capsys) -> None:
    code, lines, _ = run_replay(capsys, "classic", str(SCENARIOS / "classic_tournament.log"), "--mode",
                                "tournament")
    assert moves_of(lines) == ["c3-d4", "f6-e5", "d4xf6"]
    refused = [line for line in lines if line.get("event") == "refused"]
    assert len(refused) == 1 and "captured" in refused[0]["reason"]
    # the same log in casual mode: the capture is committed as soon as it is complete
    code, lines, _ = run_replay(capsys, "classic", str(SCENARIOS / "classic_tournament.log"))
    assert moves_of(lines) == ["c3-d4", "f6-e5", "d4xf6"]


def test_replay_flying_king_with_fen_and_leds(capsys) -> None:
    code, lines, _ = run_replay(capsys, "international", str(SCENARIOS / "international_king.log"),
                                "--fen", "W:WK46,50:B37,28,3", "--leds")
    assert moves_of(lines) == ["46x19"]
    move = next(line for line in lines if "ply" in line)
    assert sorted(move["captures"]) == ["28", "37"]
    frames = [line["leds"] for line in lines if "leds" in line]
    assert frames[-1] == {"a1": "last_move", "d4": "last_move", "g7": "last_move"}


def test_replay_multiwarcaby_four_players(capsys) -> None:
    code, lines, _ = run_replay(capsys, "multiwarcaby", str(SCENARIOS / "multiwarcaby4.log"), "--sides", "4")
    plies = [line for line in lines if "ply" in line]
    assert len(plies) == 24
    assert [line["side"] for line in plies[:8]] == ["1", "1", "2", "2", "3", "3", "4", "4"]
    assert lines[-1]["final"].startswith("MW9:S4")
    assert sum(lines[-1]["scores"]) == sum(len(line["captures"]) for line in plies)


def test_replay_classic_opening_log(capsys) -> None:
    code, lines, _ = run_replay(capsys, "classic", str(SCENARIOS / "classic_opening.log"))
    assert moves_of(lines) == ["c3-d4", "f6-e5", "d4xf6"]


@pytest.mark.parametrize("args, words", [
    (["classic", "nonexistent.log"], "nonexistent.log: no such sensor log"),
    (["nosuchvariant", "LOG"], "unknown variant"),
    (["classic", "LOG", "--mode", "tournament", "--fen", "garbage"], "FEN"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, tmp_path, args, words) -> None:
    log = tmp_path / "game.log"
    log.write_text("0 up c3\n")
    args = [str(log) if a == "LOG" else a for a in args]
    code = main(["replay", *args])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and words.lower() in err.lower()


def test_bad_log_lines_exit_2(capsys, tmp_path) -> None:
    for text, words in (("0 up c3\n10 fly d4\n", "line 2"), ("0 up c3\n5 down c3\n9 down c3\n", "line 3"),
                        ("0 press purple\n", "line 1")):
        log = tmp_path / "bad.log"
        log.write_text(text)
        code = main(["replay", "classic", str(log)])
        err = capsys.readouterr().err
        assert code == 2 and words in err and len(err.strip().splitlines()) == 1


def test_a_sessions_own_log_replays_to_the_same_moves() -> None:
    for name, mode in (("russian", "casual"), ("american", "learning"), ("classic", "tournament")):
        rig = Rig(name, mode=mode)
        rng = random.Random(4)
        for _ in range(30):
            if rig.session.game.is_over:
                break
            move = rng.choice(rig.variant.legal_moves(rig.session.game.position))
            side = rig.session.game.turn
            rig.play(move, remove=rng.choice(["before", "during", "after"]))
            rig.wait(rng.choice([400, 2000]))
            if mode == "tournament":
                rig.press(side)
        events = parse_log(format_log(rig.session.sensor_log).splitlines())
        lines = replay(rig.variant, events, SessionSettings(mode=Mode(mode)))
        assert moves_of(lines) == [c.text for c in rig.session.committed]
        assert lines[-1]["final"] == rig.variant.format_position(rig.session.game.position)
