"""`damka replay --time-control`: recorded tournament games on the clock, with exact times.

The expected times are worked out by hand from the press times written in the
scenario logs' comments (tests/scenarios/*tournament*), not taken from the code.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from damka.cli import main
from damka.controller.board.eventlog import parse_log
from damka.controller.session import Mode, SessionSettings
from damka.controller.clock.timecontrol import parse
from damka.controller.clock.pdn import parse_clock
from damka.controller.clock.controls import read_controls
from damka.commands.replay import replay
from damka.engine import find_variant
from damka.engine.pdn import read_game

SCENARIOS = Path(__file__).parent / "scenarios"
GAME = SCENARIOS / "classic_tournament_clock.log"
MW3 = SCENARIOS / "multiwarcaby3_tournament_flag.log"
CLASSIC = find_variant("classic")

MOVES = ("g3-h4 b6-a5 c3-d4 a5-b4 a3xc5 d6xb4 f2-g3 b4-a3 e3-f4 c7-d6 f4-g5 h6xf4 g3xc7 d8xb6 h2-g3 "
         "e7-d6 d2-c3 b8-c7 g1-h2 f6-g5 h4xf6 g7xe5 d4xf6 h8-g7 f6xh8 b6-a5").split()
# Time used for each ply (from one accepted press to the next; black starts white's clock at 0), as in the log.
USED = [2400, 3100, 5200, 1800, 4300, 2600, 7500, 3000, 2950, 6400, 3900, 2200, 12500, 4700, 3300, 8200,
        2100, 5600, 9800, 3050, 4400, 2700, 6100, 3500, 5000, 2900]
PRESSES = [sum(USED[:k + 1]) for k in range(len(USED))]

# 5+3 Fischer: 5:00 plus 3 s before move 1 (303000), then time left = before - used + 3000.
#   white: 303000 -2400+3000 = 303600, -5200+3000 = 301400, -4300 -> 300100, -7500 -> 295600,
#          -2950 -> 295650, -3900 -> 294750, -12500 -> 285250, -3300 -> 284950, -2100 -> 285850,
#          -9800 -> 279050, -4400 -> 277650, -6100 -> 274550, -5000 -> 272550
#   black: 303000 -3100+3000 = 302900, -1800 -> 304100, -2600 -> 304500, -3000 -> 304500,
#          -6400 -> 301100, -2200 -> 301900, -4700 -> 300200, -8200 -> 295000, -5600 -> 292400,
#          -3050 -> 292350, -2700 -> 292650, -3500 -> 292150, -2900 -> 292250
FISCHER_WHITE = [303600, 301400, 300100, 295600, 295650, 294750, 285250, 284950, 285850, 279050, 277650,
                 274550, 272550]
FISCHER_BLACK = [302900, 304100, 304500, 304500, 301100, 301900, 300200, 295000, 292400, 292350, 292650,
                 292150, 292250]
# 5+3d simple delay: 300000, each turn only the time beyond 3 s counts: max(0, used - 3000).
#   white: 2400 -> 0 (300000), 5200 -> 2200 (297800), 4300 -> 1300 (296500), 7500 -> 4500 (292000),
#          2950 -> 0, 3900 -> 900 (291100), 12500 -> 9500 (281600), 3300 -> 300 (281300), 2100 -> 0,
#          9800 -> 6800 (274500), 4400 -> 1400 (273100), 6100 -> 3100 (270000), 5000 -> 2000 (268000)
#   black: 3100 -> 100 (299900), 1800, 2600, 3000 -> 0, 6400 -> 3400 (296500), 2200 -> 0,
#          4700 -> 1700 (294800), 8200 -> 5200 (289600), 5600 -> 2600 (287000), 3050 -> 50 (286950),
#          2700 -> 0, 3500 -> 500 (286450), 2900 -> 0
DELAY_WHITE = [300000, 297800, 296500, 292000, 292000, 291100, 281600, 281300, 281300, 274500, 273100, 270000,
               268000]
DELAY_BLACK = [299900, 299900, 299900, 299900, 296500, 296500, 294800, 289600, 287000, 286950, 286950, 286450,
               286450]


def run_replay(capsys, *args: str) -> tuple[int, list[dict], str]:
    code = main(["replay", *args])
    captured = capsys.readouterr()
    return code, [json.loads(line) for line in captured.out.splitlines()], captured.err


def moves_of(lines: list[dict]) -> list[dict]:
    return [line for line in lines if "ply" in line]


# -- a whole game -------------------------------------------------------------------------


def test_fischer_times_after_every_move(capsys) -> None:
    code, lines, err = run_replay(capsys, "classic", str(GAME), "--mode", "tournament", "--time-control", "5+3")
    assert code == 0 and err == ""
    moves = moves_of(lines)
    assert [line["move"] for line in moves] == MOVES
    assert [line["time_ms"] for line in moves] == PRESSES
    white = [303000] + FISCHER_WHITE
    black = [303000] + FISCHER_BLACK
    for ply, line in enumerate(moves):
        # after ply k: white has made (k + 2) // 2 moves, black (k + 1) // 2
        assert line["clock"] == {"white": white[(ply + 2) // 2], "black": black[(ply + 1) // 2]}, line
    assert moves[-1]["clock"] == {"white": 272550, "black": 292250}
    assert lines[-1]["clock"] == {"white": 272550, "black": 292250}  # the log ends with black's press
    assert lines[-1]["result"] is None and lines[-1]["final"].startswith("W:") and "Kh8" in lines[-1]["final"]


def test_refused_presses_keep_the_movers_time_running(capsys) -> None:
    _, lines, _ = run_replay(capsys, "classic", str(GAME), "--mode", "tournament", "--time-control", "5+3")
    refused = [line for line in lines if line.get("event") == "refused"]
    # ply 13 starts at 45350 with white on 294750: refused at 50350 (half a capture made) and at
    # 53350 (d6 still on the board); the clock stays white's, black's time does not move
    assert [line["time_ms"] for line in refused] == [50350, 53350]
    assert [line["clock"] for line in refused] == [{"white": 294750 - 5000, "black": 301900},
                                                   {"white": 294750 - 8000, "black": 301900}]
    assert all("captured" in line["reason"] for line in refused)
    capture = next(line for line in lines if line.get("ply") == 13)
    assert capture["move"] == "g3xc7" and capture["time_ms"] == 57850
    assert capture["clock"] == {"white": 294750 - 12500 + 3000, "black": 301900}


def test_delay_times_after_every_move(capsys) -> None:
    _, lines, _ = run_replay(capsys, "classic", str(GAME), "--mode", "tournament", "--time-control", "5+3d")
    moves = moves_of(lines)
    white = [300000] + DELAY_WHITE
    black = [300000] + DELAY_BLACK
    assert [line["clock"] for line in moves] == [
        {"white": white[(ply + 2) // 2], "black": black[(ply + 1) // 2]} for ply in range(len(MOVES))]
    refused = [line for line in lines if line.get("event") == "refused"]
    # the delay is not shown as time off: 5000 ms into the turn, 2000 beyond the 3 s delay
    assert refused[0]["clock"] == {"white": 291100 - 2000, "black": 296500}


def test_pdn_with_clock_annotations_reads_back(capsys, tmp_path) -> None:
    record = tmp_path / "game.pdn"
    code, lines, _ = run_replay(capsys, "classic", str(GAME), "--mode", "tournament", "--time-control", "5+3",
                                "--pdn", str(record))
    assert code == 0 and len(moves_of(lines)) == 26  # the JSON lines still come
    text = record.read_text()
    assert '[TimeControl "300+3"]' in text and '[DamkaTimeControl "5+3"]' in text
    flat = " ".join(text.split())  # lines are wrapped at 80
    assert "1. g3-h4 {[%clock w0:05:03 b0:05:03]} b6-a5 {[%clock w0:05:03 b0:05:02]}"  # whole seconds, down in flat
    assert flat.endswith("b6-a5 {[%clock w0:04:32 b0:04:52]} *")
    game = read_game(text, strict=True)
    assert game.variant.name == "classic" and game.result == "*"
    assert [move_text(game, k) for k in range(len(game.moves))] == MOVES
    assert parse("5+3") == read_controls("pdn:" + game.tags["TimeControl"], 2)[0]
    clocks = [parse_clock(CLASSIC, clock) for clock in game.clocks]
    white = [303000] + FISCHER_WHITE
    black = [303000] + FISCHER_BLACK
    assert clocks == [(white[(ply + 2) // 2] // 1000 * 1000, black[(ply + 1) // 2] // 1000 * 1000)
                      for ply in range(len(MOVES))]


def move_text(game, k: int) -> str:
    from damka.engine.notation import format_move
    return format_move(game.variant, game.positions[k], game.moves[k])


def test_pdn_to_standard_output_with_a_delay(capsys) -> None:
    code = main(["replay", "classic", str(GAME), "--mode", "tournament", "--time-control", "5+3d", "--pdn", "-"])
    out = capsys.readouterr().out
    assert code == 0 and out.startswith("[Event ")
    assert '[TimeControl "?"]' in out and '[DamkaTimeControl "5+3d"]' in out  # PDN has no delay
    game = read_game(out, strict=True)
    assert len(game.moves) == 26
    assert parse_clock(CLASSIC, game.clocks[12]) == (281000, 296000)
    assert game.clocks[-1] == "w0:04:28 b0:04:46"


@pytest.mark.parametrize("text", ["5+3", "blitz-100", "pdn:300+3", "5m+3s"])
def test_time_control_forms_give_the_same_clock(capsys, text: str) -> None:
    _, lines, _ = run_replay(capsys, "classic", str(GAME), "--mode", "tournament", "--time-control", text)
    assert lines[-1]["clock"] == {"white": 272550, "black": 292250}


def test_handicap_per_side(capsys) -> None:
    _, lines, _ = run_replay(capsys, "classic", str(GAME), "--mode", "tournament", "--time-control", "5+3|3+3")
    assert moves_of(lines)[1]["clock"] == {"white": 303600, "black": 183000 - 3100 + 3000}


# -- flags -----------------------------------------------------------------------------


def test_flag_in_an_earlier_stage_is_shown_and_play_goes_on(capsys) -> None:
    # 2/0.1:3 -- 6 s for the first 2 moves, then 3 minutes. White used 2400 on move 1 (3600 left),
    # move 2 starts at 5500: the flag falls at 9100, stage 2 starts with 180000 there; the press at
    # 10700 leaves 180000 - 1600 = 178400. Black: 3100 + 1800 = 4900 in stage 1, 1100 carried over:
    # 181100 after move 2. In the end white 178400 - (the other 11 moves: 61850) = 116550,
    # black 181100 - 44850 = 136250.
    _, lines, _ = run_replay(capsys, "classic", str(GAME), "--mode", "tournament", "--time-control", "2/0.1:3")
    flags = [line for line in lines if line.get("event") == "flag"]
    assert flags == [{"event": "flag", "side": "white", "time_ms": 9100, "stage": 1, "final": False}]
    moves = moves_of(lines)
    assert [line["move"] for line in moves] == MOVES
    assert moves[2]["clock"] == {"white": 178400, "black": 6000 - 3100}
    assert moves[3]["clock"] == {"white": 178400, "black": 181100}
    assert lines[-1]["clock"] == {"white": 116550, "black": 136250} and lines[-1]["result"] is None


def test_flag_in_the_last_stage_ends_the_game_mid_log(capsys) -> None:
    # 0.5 = 30 s each, no increment. White: 2400 5200 4300 7500 2950 3900 used by 43150: 3750 left;
    # move 7 starts at 45350: the flag falls at 49100. Whatever the log does after is not a move.
    _, lines, _ = run_replay(capsys, "classic", str(GAME), "--mode", "tournament", "--time-control", "0.5")
    assert [line["move"] for line in moves_of(lines)] == MOVES[:12]
    flag = next(line for line in lines if line.get("event") == "flag")
    assert flag == {"event": "flag", "side": "white", "time_ms": 49100, "stage": 1, "final": True}
    final = lines[-1]
    assert final["result"] == {"points": [0.0, 1.0], "places": [2, 1], "reason": "on time", "winner": "black"}
    assert final["clock"] == {"white": 0, "black": 10900}
    assert final["message"] == "game over: Black wins (on time)"


FLAG_LOG = """\
# classic, 0.1 = 6 s each: black starts white's clock at 0; white moves and presses at 1000
# (5000 left), black's clock runs from 1000
0 press black
100 up c3
250 down d4
1000 press white
5000 up f6
5150 down e5
{press} press black
"""


@pytest.mark.parametrize("press, flagged", [(6999, False), (7000, True)])
def test_a_press_at_the_flag_millisecond_is_too_late(capsys, tmp_path, press: int, flagged: bool) -> None:
    log = tmp_path / "flag.log"
    log.write_text(FLAG_LOG.format(press=press))
    _, lines, _ = run_replay(capsys, "classic", str(log), "--mode", "tournament", "--time-control", "0.1")
    final = lines[-1]
    if flagged:
        assert [line["move"] for line in moves_of(lines)] == ["c3-d4"]
        assert {"event": "flag", "side": "black", "time_ms": 7000, "stage": 1, "final": True} in lines
        assert final["result"]["winner"] == "white" and final["result"]["reason"] == "on time"
        assert final["result"]["points"] == [1.0, 0.0] and final["clock"] == {"white": 5000, "black": 0}
    else:
        assert moves_of(lines)[-1] == {"ply": 2, "side": "black", "move": "f6-e5", "captures": [],
                                       "time_ms": 6999, "clock": {"white": 5000, "black": 1}}
        assert final["result"] is None and not any(line.get("event") == "flag" for line in lines)


def test_no_flag_is_invented_after_the_log_ends_unless_asked(capsys, tmp_path) -> None:
    log = tmp_path / "short.log"
    log.write_text("0 press black\n100 up c3\n250 down d4\n1000 press white\n")
    _, lines, _ = run_replay(capsys, "classic", str(log), "--mode", "tournament", "--time-control", "0.1")
    assert lines[-1]["result"] is None and lines[-1]["clock"] == {"white": 5000, "black": 6000}
    _, lines, _ = run_replay(capsys, "classic", str(log), "--mode", "tournament", "--time-control", "0.1",
                             "--until", "60000")
    assert {"event": "flag", "side": "black", "time_ms": 7000, "stage": 1, "final": True} in lines
    assert lines[-1]["result"]["winner"] == "white"


def test_three_players_flag_the_player_goes_out_and_play_goes_on(capsys) -> None:
    # times from the log's comments: 12 s each (0.2), no increment
    _, lines, _ = run_replay(capsys, "multiwarcaby", str(MW3), "--sides", "3", "--mode", "tournament",
                             "--time-control", "0.2")
    moves = moves_of(lines)
    assert [line["side"] for line in moves] == ["1", "1", "2", "2", "3", "3", "1", "1", "3", "3", "1", "1"]
    turn_ends = [line["clock"] for line in moves if "clock" in line]
    assert turn_ends == [
        {"1": 10000, "2": 12000, "3": 12000},
        {"1": 10000, "2": 9000, "3": 12000},
        {"1": 10000, "2": 9000, "3": 10000},
        {"1": 8000, "2": 9000, "3": 10000},
        {"1": 8000, "2": 0, "3": 5000},     # player 3's clock ran from player 2's flag at 18000 to 23000
        {"1": 6000, "2": 0, "3": 5000},
    ]
    events = [line for line in lines if "event" in line]
    assert events == [
        {"event": "flag", "side": "2", "time_ms": 18000, "stage": 1, "final": True},
        {"event": "out", "side": "2", "time_ms": 18000, "reason": "on time"},
        {"event": "refused", "time_ms": 19000, "reason": "put the pieces back as they were at the start of the turn",
         "clock": {"1": 8000, "2": 0, "3": 9000}},
        {"event": "flag", "side": "3", "time_ms": 30000, "stage": 1, "final": True},
        {"event": "out", "side": "3", "time_ms": 30000, "reason": "on time"},
    ]
    final = lines[-1]
    assert final["scores"] == [2, 1, 0]  # player 2 kept its point
    assert final["result"] == {"points": [2.0, 1.0, 0.0], "places": [1, 2, 3],
                               "reason": "only one side left in play", "winner": "1"}
    assert final["clock"] == {"1": 6000, "2": 0, "3": 0}


def test_three_player_pdn_notes_who_went_out(capsys) -> None:
    code = main(["replay", "multiwarcaby", str(MW3), "--sides", "3", "--mode", "tournament", "--time-control",
                 "0.2", "--pdn", "-"])
    out = capsys.readouterr().out
    game = read_game(out, strict=True)
    assert code == 0 and game.result == "2-1-0" and len(game.moves) == 12
    assert game.tags["TimeControl"] == "12"
    assert game.clocks[7] == "p1=0:00:08 p2=0:00:09 p3=0:00:10"
    assert game.clocks[6] is None  # the first move of a turn: no press yet
    assert "player 2 out (on time)" in game.comments[7] and "player 3 out" in game.comments[11]


def test_replay_function_gives_the_record() -> None:
    records: list[str] = []
    events = parse_log(GAME.read_text().splitlines())
    lines = replay(CLASSIC, events, SessionSettings(mode=Mode.TOURNAMENT), controls="5+3",
                   pdn_out=records, tags={"Event": "Club night", "White": "Ann", "Black": "Bob"})
    assert lines[-1]["clock"] == {"white": 272550, "black": 292250}
    game = read_game(records[0], strict=True)
    assert (game.tags["Event"], game.tags["White"], game.tags["Black"]) == ("Club night", "Ann", "Bob")


@pytest.mark.parametrize("args, words", [
    (["--time-control", "5+x"], "stage 1 '5+x'"),
    (["--time-control", "nosuchpreset"], "preset"),
    (["--time-control", "pdn:?"], "unknown"),
    (["--until", "5000"], "--until needs --time-control"),
])
def test_bad_time_control_is_one_line_and_exit_2(capsys, args, words) -> None:
    code = main(["replay", "classic", str(GAME), *args])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and words.lower() in err.lower()


def test_pdn_of_a_game_lost_on_time(capsys) -> None:
    code = main(["replay", "classic", str(GAME), "--mode", "tournament", "--time-control", "0.5", "--pdn", "-"])
    game = read_game(capsys.readouterr().out, strict=True)
    assert code == 0 and game.result == "0-2" and game.tags["TimeControl"] == "30"
    assert len(game.moves) == 12 and game.comments[-1] == "white's flag fell at 49100 ms (stage 1)"
    assert parse_clock(CLASSIC, game.clocks[-1]) == (3000, 10000)
