"""Hand-written board sessions, the way people really play, through `damka replay`.

Each log in tests/scenarios/recorded_*.log was written by hand (not generated
from the engine) for one real-life situation; its header says what it checks
and which options it needs. The expected output was decided from RULES.md
before the log was run: every committed move exactly (ply, side, PDN move,
captures, time), the other events (refused, take-back, new game) and the
final position and scores.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from damka.cli import main
from test_session_multiwarcaby import MW7_SLIDE_FEN, MW9_SLIDE_FEN

SCENARIOS = Path(__file__).parent / "scenarios"


def replay(capsys, variant: str, log: str, *options: str) -> list[dict]:
    code = main(["replay", variant, str(SCENARIOS / f"recorded_{log}.log"), *options])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return [json.loads(line) for line in captured.out.splitlines()]


def mv(ply: int, side: str, move: str, captures: list[str], time_ms: int, **extra) -> dict:
    return {"ply": ply, "side": side, "move": move, "captures": captures, "time_ms": time_ms, **extra}


def events(lines: list[dict]) -> list[dict]:
    """Move and event lines (no LED frames, no final line)."""
    return [line for line in lines if "ply" in line or "event" in line]


def leds(lines: list[dict]) -> list[tuple[int, dict]]:
    return [(line["time_ms"], line["leds"]) for line in lines if "leds" in line]


# -- classic ------------------------------------------------------------------------


def test_captured_piece_removed_before_during_after(capsys) -> None:
    lines = replay(capsys, "classic", "classic_removals")
    assert events(lines) == [
        mv(1, "white", "c3-d4", [], 400),
        mv(2, "black", "f6-e5", [], 1400),
        mv(3, "white", "d4xf6", ["e5"], 2600),   # e5 off before d4 was lifted
        mv(4, "black", "g7xe5", ["f6"], 3500),   # f6 off while g7 was in the hand
        mv(5, "white", "g3-f4", [], 4400),
        mv(6, "black", "e5xg3", ["f4"], 5500),   # f4 off after g3 was put down
        mv(7, "white", "h2xf4", ["g3"], 6500),
    ]
    assert lines[-1]["final"] == "B:Wa1,c1,e1,g1,b2,d2,f2,a3,e3,f4:Bb6,d6,h6,a7,c7,e7,b8,d8,f8,h8"


def test_multi_capture_touching_down_with_a_stall_on_the_smaller_capture(capsys) -> None:
    lines = replay(capsys, "classic", "classic_multi_touch", "--fen", "W:Wc3,a1:Bd4,f6,a7", "--leds")
    # Standing on e5 with d4 off looks like c3xe5: majority rule, nothing is committed in 3 s.
    assert events(lines) == [mv(1, "white", "c3xg7", ["d4", "f6"], 3700)]
    # After the grace period (2 s from the last change at 200) the LEDs show what is left.
    assert leds(lines)[0] == (2200, {"c3": "lifted", "f6": "to_capture", "g7": "legal_target"})
    assert lines[-1]["final"] == "B:Wa1,g7:Ba7"


def test_multi_capture_without_touching_down(capsys) -> None:
    lines = replay(capsys, "classic", "classic_multi_notouch", "--fen", "W:Wc3,a1:Bd4,f6,a7")
    assert events(lines) == [mv(1, "white", "c3xg7", ["d4", "f6"], 600)]


def test_free_capture_waits_for_a_chain_that_could_go_on(capsys) -> None:
    lines = replay(capsys, "classic", "classic_free", "--free-capture", "--fen", "W:Wc3,a1:Bd4,f6,a7")
    # On e5 with d4 off for 1.2 s: complete but extendable, extend_ms (1.5 s) not reached.
    assert events(lines) == [mv(1, "white", "c3xg7", ["d4", "f6"], 1900)]


def test_flying_king_lands_on_the_chosen_square(capsys) -> None:
    lines = replay(capsys, "classic", "classic_flying", "--fen", "W:WKa1,g1:Bc3,a7")
    assert events(lines) == [
        mv(1, "white", "a1xf6", ["c3"], 600),
        mv(2, "black", "a7-b6", [], 1900),
        mv(3, "white", "f6-d8", [], 3400),
    ]
    assert lines[-1]["final"] == "B:Wg1,Kd8:Bb6:H1"


def test_king_capture_ending_on_its_start_square(capsys) -> None:
    lines = replay(capsys, "classic", "classic_kingcycle", "--fen", "W:WKc1:Bb2,b4,d2,d4,h8")
    assert events(lines) == [mv(1, "white", "c1xc1", ["b2", "d2", "b4", "d4"], 1100)]
    assert lines[-1]["final"] == "B:WKc1:Bh8"


def test_promotion_at_the_end_of_a_capture(capsys) -> None:
    lines = replay(capsys, "classic", "classic_promote", "--fen", "W:Wf6,a1:Bg7,a7")
    assert events(lines) == [
        mv(1, "white", "f6xh8", ["g7"], 500),
        mv(2, "black", "a7-b6", [], 1900),
        mv(3, "white", "h8-c3", [], 3400),  # a king's move: the man was crowned
    ]
    assert lines[-1]["final"] == "B:Wa1,Kc3:Bb6:H1"


def test_man_passing_the_far_rank_mid_capture_stays_a_man(capsys) -> None:
    lines = replay(capsys, "classic", "classic_passrank", "--fen", "W:Wb6,a1:Bc7,e7,h6")
    assert events(lines) == [mv(1, "white", "b6xf6", ["c7", "e7"], 1200)]
    assert lines[-1]["final"] == "B:Wa1,f6:Bh6"


def test_majority_rule_smaller_capture_completed_is_not_committed(capsys) -> None:
    lines = replay(capsys, "classic", "classic_majority", "--fen", "W:Wc3,h2,e1:Bd4,f6,g3,a7", "--leds")
    assert events(lines) == [mv(1, "white", "c3xg7", ["d4", "f6"], 5600)]
    # h2 may not move (c3 must capture two): unexplained from the lift at 0, guidance at 2000.
    # The piece that must capture is shown too (RULES: compulsory capture).
    assert leds(lines)[0] == (2000, {"c3": "must_move", "f4": "take_away", "g3": "put_here", "h2": "put_here"})
    assert lines[-1]["final"] == "B:We1,h2,g7:Bg3,a7"


def test_slides_bounce_wrong_move_and_takeback(capsys) -> None:
    lines = replay(capsys, "classic", "classic_handling", "--leds")
    assert events(lines) == [
        mv(1, "white", "c3-d4", [], 2406),  # the nudge c3-d4-c3 was no move; bounces are nothing
        mv(2, "black", "f6-e5", [], 7400),
        {"event": "takeback", "plies": 1, "time_ms": 10100},
        mv(2, "black", "f6-g5", [], 11400),
    ]
    # the wrong move f6-f5 (a light square): guidance after the grace period
    assert (5100, {"f5": "take_away", "f6": "put_here"}) in leds(lines)


def test_takeback_of_a_capture_by_restoring_the_board(capsys) -> None:
    lines = replay(capsys, "classic", "classic_takeback_capture")
    assert events(lines) == [
        mv(1, "white", "c3-d4", [], 400),
        mv(2, "black", "f6-e5", [], 1400),
        mv(3, "white", "d4xf6", ["e5"], 2500),
        {"event": "takeback", "plies": 1, "time_ms": 5300},
        mv(3, "white", "d4xf6", ["e5"], 6500),
    ]


def test_new_game_by_setting_up_the_start_again(capsys) -> None:
    lines = replay(capsys, "classic", "classic_newgame", "--fen", "W:Wc3,a1:Bd4")
    assert events(lines) == [
        mv(1, "white", "c3xe5", ["d4"], 500),        # the last black piece: white wins
        {"event": "new_game", "time_ms": 7450},      # the 24th piece down at 6450, quiet 1 s
        mv(1, "white", "c3-d4", [], 9000),
    ]
    assert lines[-1]["result"] is None


def test_fast_recapture_starting_with_the_captured_piece(capsys) -> None:
    lines = replay(capsys, "classic", "classic_fast_recapture")
    assert events(lines) == [
        mv(1, "white", "c3-d4", [], 400),
        mv(2, "black", "f6-e5", [], 1400),
        mv(3, "white", "d4xf6", ["e5"], 2450),   # complete at 2300; f6 off at 2400; committed at g7's lift
        mv(4, "black", "g7xe5", ["f6"], 2850),
    ]


def test_fast_answer_is_pressed_in_tournament(capsys) -> None:
    # Tournament: nothing is committed without a press, however fast the answer.
    lines = replay(capsys, "classic", "classic_fast", "--mode", "tournament")
    assert events(lines) == []


@pytest.mark.parametrize("mode", ["casual", "tournament"])
def test_move_ignoring_a_compulsory_capture(capsys, mode: str) -> None:
    lines = replay(capsys, "classic", "classic_ignore", "--fen", "W:Wc3,g3:Bd4,a7", "--leds", "--mode", mode)
    assert events(lines) == [
        {"event": "refused", "time_ms": 3000, "reason": "this is not a legal move: a capture is compulsory (c3)"},
    ]
    # RULES: the move is refused and the pieces that must capture are shown.
    assert leds(lines) == [
        (2000, {"c3": "must_move", "g3": "put_here", "h4": "take_away"}),
        (3000, {"c3": "must_move", "g3": "flag", "h4": "flag"}),
        (5000, {"c3": "must_move", "g3": "put_here", "h4": "take_away"}),
    ]
    assert lines[-1]["message"] == "put a piece back on g3 and take the piece off h4; a capture is compulsory (c3)"


def test_fast_answer_within_the_settle_time(capsys) -> None:
    lines = replay(capsys, "classic", "classic_fast")
    assert events(lines) == [
        mv(1, "white", "c3-d4", [], 250),   # committed when black lifted f6
        mv(2, "black", "f6-e5", [], 650),
    ]


def test_classic_tournament_presses(capsys) -> None:
    lines = replay(capsys, "classic", "classic_tournament", "--mode", "tournament", "--leds")
    assert events(lines) == [
        mv(1, "white", "c3-d4", [], 3200),   # only at white's press; black's press at 3000 is ignored
        mv(2, "black", "f6-e5", [], 4500),
        {"event": "refused", "time_ms": 5300, "reason": "take the captured pieces off the board first"},
        mv(3, "white", "d4xf6", ["e5"], 6200),
    ]
    assert (5300, {"e5": "flag"}) in leds(lines)


def test_tournament_no_takeback(capsys) -> None:
    lines = replay(capsys, "classic", "classic_tournament_takeback", "--mode", "tournament", "--leds")
    assert events(lines) == [mv(1, "white", "c3-d4", [], 200), mv(2, "black", "f6-e5", [], 4200)]
    assert (3000, {"c3": "take_away", "d4": "put_here"}) in leds(lines)


def test_tournament_new_game_after_the_end(capsys) -> None:
    lines = replay(capsys, "classic", "classic_newgame_tournament", "--fen", "W:Wc3,a1:Bd4", "--mode", "tournament")
    assert events(lines) == [
        mv(1, "white", "c3xe5", ["d4"], 400),
        {"event": "new_game", "time_ms": 7450},
        mv(1, "white", "c3-d4", [], 9500),
    ]


# -- russian, american, international, classic81 ----------------------------------


def test_russian_crowns_mid_capture_and_goes_on_as_a_king(capsys) -> None:
    lines = replay(capsys, "russian", "russian_passrank", "--fen", "W:Wb6,a1:Bc7,e7,h6")
    assert events(lines) == [mv(1, "white", "b6xg5", ["c7", "e7"], 1200)]
    assert lines[-1]["final"] == "B:Wa1,Kg5:Bh6"


def test_russian_free_choice_of_capture(capsys) -> None:
    lines = replay(capsys, "russian", "classic_majority", "--fen", "W:Wc3,h2,e1:Bd4,f6,g3,a7")
    assert events(lines)[0] == mv(1, "white", "h2xf4", ["g3"], 500)


def test_american_numeric_black_first(capsys) -> None:
    lines = replay(capsys, "american", "american")
    assert events(lines) == [
        mv(1, "black", "11-15", [], 400),
        mv(2, "white", "22-18", [], 1400),
        mv(3, "black", "15x22", ["18"], 2500),
        mv(4, "white", "26x17", ["22"], 3500),
    ]


def test_american_crowning_ends_the_move(capsys) -> None:
    lines = replay(capsys, "american", "american_crown", "--fen", "W:W10,30:B7,8,1")
    assert events(lines) == [
        mv(1, "white", "10x3", ["7"], 500),
        mv(2, "black", "1-6", [], 2400),
        mv(3, "white", "3x12", ["8"], 3500),
    ]
    assert lines[-1]["final"] == "B:WK12,30:B6"


def test_international_log_uses_10x10_names(capsys) -> None:
    lines = replay(capsys, "international", "international")
    assert events(lines) == [
        mv(1, "white", "32-28", [], 400),
        mv(2, "black", "19-23", [], 1400),
        mv(3, "white", "28x19", ["23"], 2500),
        mv(4, "black", "14x23", ["19"], 3500),
        mv(5, "white", "35-30", [], 4400),
    ]


def test_a_square_off_the_9x9_board_is_an_error(capsys, tmp_path) -> None:
    log = tmp_path / "j10.log"
    log.write_text("0 up j10\n")  # international's j10 on the 9x9 board of classic
    code = main(["replay", "classic", str(log)])
    assert code == 2
    assert "'j10' is not a square of this 9x9 board" in capsys.readouterr().err


def test_classic81_ninth_file(capsys) -> None:
    lines = replay(capsys, "classic81", "classic81")
    assert events(lines) == [
        mv(1, "white", "h2-i3", [], 400),
        mv(2, "black", "h6-i5", [], 1400),
        mv(3, "white", "g3-h4", [], 2400),
        mv(4, "black", "i5xg3", ["h4"], 3500),
    ]


# -- multiwarcaby -------------------------------------------------------------------


MW2_FEN = "MW9:S2:T1.1:P0,0:O6o2/8o/9/3oo4/9/2oooo3/2o2o3/9/9"


def test_multiwarcaby_chains_presses_and_scores(capsys) -> None:
    lines = replay(capsys, "multiwarcaby", "mw2_chains", "--fen", MW2_FEN, "--leds")
    assert events(lines) == [
        # a ring back to the start square: only removals show for the jumper
        mv(1, "1", "c3xe5xe7xc5xc3", ["c4", "d4", "d6", "e6"], 2500, scores=[4, 0]),
        mv(2, "1", "g9-h9", [], 2500, scores=[4, 0]),
        # a chain that stops although it could go on
        mv(3, "2", "f3xf5", ["f4"], 4000, scores=[4, 1]),
        mv(4, "2", "i8-i7", [], 4000, scores=[4, 1]),
        # the press at 5500 after one move only asks for the second
        mv(5, "1", "c3-b2", [], 6500, scores=[4, 1]),
        mv(6, "1", "h9-h8", [], 6500, scores=[4, 1]),
        {"event": "refused", "time_ms": 8000, "reason": "take the captured pieces off the board first"},
        mv(7, "2", "f5xd3", ["e4"], 9000, scores=[4, 2]),
        mv(8, "2", "i7-i6", [], 9000, scores=[4, 2]),
    ]
    assert (8000, {"e4": "flag"}) in leds(lines)
    assert lines[-1]["scores"] == [4, 2]


def test_multiwarcaby_tournament_refused_press(capsys) -> None:
    lines = replay(capsys, "multiwarcaby", "mw2_tournament", "--mode", "tournament", "--leds")
    assert events(lines) == [
        {"event": "refused", "time_ms": 1000, "reason": "take the captured pieces off the board first"},
        mv(1, "1", "d4-e5", [], 2000, scores=[0, 0]),   # player 2's press at 1800 is ignored
        mv(2, "1", "b4xd4", ["c4"], 2000, scores=[1, 0]),
    ]
    assert (1000, {"c4": "flag"}) in leds(lines)


def test_multiwarcaby_four_players(capsys) -> None:
    lines = replay(capsys, "multiwarcaby", "mw4", "--sides", "4")
    assert events(lines) == [
        mv(1, "1", "d4-e5", [], 1600, scores=[0, 0, 0, 0]),
        mv(2, "1", "b4xd4", ["c4"], 1600, scores=[1, 0, 0, 0]),
        mv(3, "2", "c6xc4", ["c5"], 3000, scores=[1, 1, 0, 0]),
        mv(4, "2", "a5-b4", [], 3000, scores=[1, 1, 0, 0]),
        mv(5, "3", "c3xc5", ["c4"], 5000, scores=[1, 1, 1, 0]),
        mv(6, "3", "g1xi1", ["h1"], 5000, scores=[1, 1, 2, 0]),
        mv(7, "4", "a4xc4xc6", ["b4", "c5"], 6800, scores=[1, 1, 2, 2]),
        mv(8, "4", "f1-g1", [], 6800, scores=[1, 1, 2, 2]),
    ]
    assert lines[-1]["scores"] == [1, 1, 2, 2]


def test_multiwarcaby_two_steps_that_look_like_one_are_the_turn_made(capsys) -> None:
    lines = replay(capsys, "multiwarcaby", "mw2_steps")
    # e4-e5 + d4-e4 leaves the board of d4-e5 alone, but the board showed e4-e5 complete and held
    # it for 400 ms first: the press at 1000 commits the two moves made (it used to ask for a second
    # move, and the next move was recorded as the second of a turn that never happened). Then it is
    # player 2's turn: player 1's presses at 1900 and 3000 commit nothing.
    assert events(lines) == [
        mv(1, "1", "e4-e5", [], 1000, scores=[0, 0]),
        mv(2, "1", "d4-e4", [], 1000, scores=[0, 0]),
    ]


@pytest.mark.parametrize("variant, log, fen, turn", [
    ("multiwarcaby7", "mw7_slide", MW7_SLIDE_FEN, [mv(1, "1", "d3-c2", [], 212600, scores=[14, 22]),
                                                     mv(2, "1", "f5-f4", [], 212600, scores=[14, 22])]),
    ("multiwarcaby", "mw2_slide", MW9_SLIDE_FEN, [mv(1, "2", "b7-c7", [], 242600, scores=[13, 11]),
                                                    mv(2, "2", "h8-h7", [], 242600, scores=[13, 11])]),
])
def test_multiwarcaby_a_piece_slid_across_a_square_is_one_move(capsys, variant: str, log: str, fen: str,
                                                                turn: list[dict]) -> None:
    # The square on the way was touched for 149 (112) ms, less than the settle time: a slide, not a
    # first move made. The press after the one move asks for the second (it took the slide and the
    # move as the whole turn, and the player's real second move fell into the next player's turn).
    assert events(replay(capsys, variant, log, "--fen", fen)) == turn


def test_start_set_up_again_within_takeback_reach(capsys) -> None:
    lines = replay(capsys, "classic", "classic_restart")
    # Within take-back reach the start position is a take-back of every ply (docs/controller.md: `start`
    # is read beyond take-back reach); the game is at its start either way.
    assert events(lines) == [
        mv(1, "white", "c3-d4", [], 400),
        mv(2, "black", "f6-e5", [], 1400),
        {"event": "takeback", "plies": 2, "time_ms": 4400},
        mv(1, "white", "c3-d4", [], 6400),
    ]


def test_multiwarcaby_chain_crossing_its_start_square(capsys) -> None:
    lines = replay(capsys, "multiwarcaby", "mw4_cross", "--sides", "4")
    assert events(lines)[4:] == [
        # touching down on a3 (its start) midway shows the turn start: the chain goes on to a1
        mv(5, "3", "a3xc5xa5xa3xa1", ["a2", "a4", "b4", "b5"], 5800, scores=[1, 1, 4, 0]),
        mv(6, "3", "g1xi1", ["h1"], 5800, scores=[1, 1, 5, 0]),
    ]
    assert lines[-1]["scores"] == [1, 1, 5, 0]
