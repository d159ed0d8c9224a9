"""The session with the real tournament clock, driven on the virtual board in virtual time."""

from __future__ import annotations

from typing import Any

from damka.controller import events as ev
from damka.controller.clock.clock import Clock
from damka.controller.clock.records import State
from damka.controller.session import Phase
from damka.controller.clock.controls import make_clock
from damka.hardware.interfaces import Role
from test_session_rig import Rig, events_of


def timed(variant: str = "classic", control: str = "5+3", mode: str = "tournament", **rig: Any) -> tuple[Rig, Clock]:
    """A rig whose session has a real clock, started at the millisecond the game
    began (as if a player had pressed to start it then)."""
    board = Rig(variant, mode=mode, **rig)
    clock = make_clock(board.variant, control, time=lambda: board.board.now)
    board.session.clock = clock
    assert board.session.started_ms is not None and clock.state is State.READY
    clock.start(board.session.started_ms, first=board.session.game.turn)
    assert clock.active == board.session.game.turn
    return board, clock


def until(rig: Rig, ms: int) -> None:
    assert ms >= rig.board.now
    rig.board.advance(ms - rig.board.now)


def events(rig: Rig, kind: str) -> list[dict]:
    return events_of(rig.history, kind)


# -- the press commits the move and switches the clock -----------------------------


def test_a_press_commits_the_move_and_switches_the_clock() -> None:
    rig, clock = timed()
    rig.move("c3-d4")
    until(rig, 5000)
    assert rig.texts == [] and clock.active == 0  # tournament: nothing without the press
    rig.board.press(0)
    assert rig.texts == ["c3-d4"] and clock.active == 1
    assert rig.session.committed[0].clock_ms == (303000 - 5000 + 3000, 303000)
    assert events(rig, "move")[0]["clock_ms"] == [301000, 303000]
    until(rig, 6000)
    assert clock.remaining(0) == 301000 and clock.remaining(1) == 302000


def test_a_press_the_clock_refuses_is_not_published_as_a_press() -> None:
    """The clock already runs Black's time when White's move is committed: a
    power cut leaves it so when an engine's move was pressed as it arrived
    (carrying_out = "next") and the board no longer remembers that press. The
    clock refuses White's press, and no `ClockPressed` goes out (the hall's
    clock feed shows it as a press); Black's next move is pressed as always."""
    rig, clock = timed(mode="casual")
    until(rig, 1000)
    clock.press(0, rig.board.now)             # the press the board forgot
    rig.move("c3-d4")
    until(rig, 5000)
    assert rig.texts == ["c3-d4"] and clock.active == 1
    assert rig.history.of(ev.ClockPressed) == []
    rig.move("f6-e5")
    until(rig, 9000)
    assert rig.texts == ["c3-d4", "f6-e5"] and clock.active == 0
    assert [event.side for event in rig.history.of(ev.ClockPressed)] == [1]


def test_a_refused_press_on_an_incomplete_capture_does_not_switch_the_clock() -> None:
    rig, clock = timed(fen="W:Wc3,a1:Bd4,f6,h8")  # c3xe5xg7 must take both
    board = rig.board
    board.lift("c3")
    until(rig, 200)
    board.drop("e5")
    until(rig, 400)
    board.remove("d4")
    until(rig, 3000)
    board.press(0)  # half the capture: refused
    assert rig.texts == [] and clock.active == 0
    assert rig.session.message == "press refused: take the captured pieces off the board first"
    assert rig.lit(Role.FLAG) == {"f6"} and board.lit(Role.FLAG) == {"f6"}
    assert events(rig, "refused")[0]["clock_ms"] == [300000, 303000]
    until(rig, 4000)
    board.lift("e5")
    until(rig, 4200)
    board.drop("g7")
    until(rig, 6000)
    board.press(0)  # the piece is home but f6 is still on the board: refused again
    assert rig.texts == [] and clock.active == 0 and rig.lit(Role.FLAG) == {"f6"}
    assert clock.remaining(0) == 303000 - 6000 and clock.remaining(1) == 303000  # white's time runs on
    assert [event["reason"] for event in events(rig, "refused")] == ["take the captured pieces off the board first"] * 2
    until(rig, 7000)
    board.remove("f6")
    until(rig, 9000)
    board.press(0)
    assert rig.texts == ["c3xg7"] and clock.active == 1
    assert rig.session.committed[0].clock_ms == (303000 - 9000 + 3000, 303000)


def test_a_press_on_the_wrong_side_is_not_passed_on() -> None:
    rig, clock = timed()
    rig.move("c3-d4")
    until(rig, 1000)
    rig.board.press(1)
    assert rig.texts == [] and clock.active == 0 and rig.session.message == "it is White's turn"


# -- flags ----------------------------------------------------------------------------------


def test_a_flag_at_exactly_zero_ends_a_two_side_game() -> None:
    rig, clock = timed(control="0.1")  # 6 s each, no increment
    rig.move("c3-d4")
    until(rig, 1000)
    rig.board.press(0)
    rig.wait(60_000)  # nobody touches the board: the session is ticked at the flag's millisecond
    session = rig.session
    assert events(rig, "flag") == [{"type": "flag", "time_ms": 7000, "side": 1, "stage": 1, "final": True,
                                    "ply": 1}]
    result = session.result
    assert result is not None and (result.winner, result.points, result.places, result.reason) == (
        0, (1.0, 0.0), (1, 2), "on time")
    assert events(rig, "result")[0]["time_ms"] == 7000
    assert session.phase is Phase.OVER and session.message == "game over: White wins (on time)"
    assert clock.state is State.FINISHED and clock.remaining(1) == 0 and clock.remaining(0) == 5000
    assert session.next_deadline() is None


def test_a_press_at_the_flag_millisecond_is_too_late_one_earlier_is_not() -> None:
    for press_at, over in ((6999, False), (7000, True)):
        rig, clock = timed(control="0.1")
        rig.move("c3-d4")
        until(rig, 1000)
        rig.board.press(0)
        until(rig, 5000)
        rig.move("f6-e5")
        until(rig, press_at)
        rig.board.press(1)
        if over:
            assert rig.texts == ["c3-d4"] and rig.session.result.reason == "on time"
        else:
            assert rig.texts == ["c3-d4", "f6-e5"] and rig.session.result is None
            assert rig.session.committed[-1].clock_ms == (5000, 1)


def test_a_flag_in_an_earlier_stage_is_shown_and_play_goes_on() -> None:
    rig, clock = timed(control="1/0.05:5")  # 3 s for the first move, then 5 minutes
    until(rig, 4000)
    assert events(rig, "flag") == [{"type": "flag", "time_ms": 3000, "side": 0, "stage": 1, "final": False,
                                    "ply": 0}]
    assert rig.session.message == "White's flag fell in stage 1: play goes on; White to move"
    assert rig.session.phase is Phase.PLAYING and clock.state is State.RUNNING
    rig.move("c3-d4")
    until(rig, 8000)
    rig.board.press(0)
    assert rig.texts == ["c3-d4"] and clock.active == 1
    assert rig.session.committed[0].clock_ms == (300000 - 5000, 3000)
    assert clock.view(8000).sides[0].flagged and rig.session.result is None


def test_three_players_a_flag_takes_the_player_out_and_play_goes_on() -> None:
    rig, clock = timed("multiwarcaby", control="0.2", options={"sides": 3})  # 12 s each
    board, session = rig.board, rig.session

    def turn(side: int, first: str, second: str, press_at: int) -> None:
        rig.move(first)
        rig.move(second)
        until(rig, press_at)
        board.press(side)
        assert session.game.turn != side, session.message

    turn(0, "d4-e5", "b1-a1", 2000)
    turn(1, "b4xd4", "a4-b4", 5000)          # player 2 has a point
    turn(2, "h1-i1", "h9-i9", 7000)
    turn(0, "e4xc4", "a6xa4", 9000)          # player 1 has two
    assert session.scores == (2, 1, 0) and clock.remaining(1) == 9000
    until(rig, 10000)
    rig.move("f5-e4")                        # player 2's first move of the turn, then nothing
    until(rig, 17999)
    assert session.game.turn == 1 and not events(rig, "side_out")
    until(rig, 18000)                        # 9000 ms after 9000: out
    assert events(rig, "side_out") == [{"type": "side_out", "time_ms": 18000, "side": 1, "reason": "on time",
                                        "ply": 8, "position": session.variant.format_position(session.game.position),
                                        "scores": [2, 1, 0]}]
    assert session.game.turn == 2 and clock.active == 2 and clock.in_game == [0, 2]
    assert session.result is None and session.phase is Phase.PLAYING and session.scores == (2, 1, 0)
    # the board goes back to the start of player 2's turn before player 3 plays
    assert rig.lit(Role.PUT_HERE) == {"f5"} and rig.lit(Role.TAKE_AWAY) == {"e4"}
    assert session.message.startswith("Player 2 is out (on time): put a piece back on f5")
    until(rig, 19000)
    board.press(2)
    assert session.message == "press refused: put the pieces back as they were at the start of the turn"
    assert clock.active == 2 and len(session.committed) == 8
    board.lift("e4")
    board.drop("f5")
    until(rig, 20000)
    assert session.message == "Player 2 is out (on time); Player 3 to move: two moves, then press"
    assert not rig.lit(Role.TAKE_AWAY)
    turn(2, "g1-h1", "h8-h9", 23000)
    assert session.game.turn == 0 and clock.active == 0   # player 2 is skipped
    turn(0, "c2-b1", "c3-c2", 25000)
    assert session.game.turn == 2 and clock.active == 2
    assert [c.side for c in session.committed] == [0, 0, 1, 1, 2, 2, 0, 0, 2, 2, 0, 0]
    assert [c.clock_ms for c in session.committed[1::2]] == [
        (10000, 12000, 12000), (10000, 9000, 12000), (10000, 9000, 10000), (8000, 9000, 10000),
        (8000, 0, 5000), (6000, 0, 5000)]
    # the last flag leaves one player: the game ends, places by small points (player 2 keeps its point)
    rig.wait(10_000)
    assert [e["side"] for e in events(rig, "side_out")] == [1, 2] and events(rig, "side_out")[1]["time_ms"] == 30000
    result = session.result
    assert result is not None and result.places == (1, 2, 3) and result.reason == "only one side left in play"
    assert session.phase is Phase.OVER and clock.state is State.FINISHED


def test_three_players_a_flag_between_moves_needs_no_board_fixing() -> None:
    rig, clock = timed("multiwarcaby", control="0.1", options={"sides": 3})
    rig.move("d4-e5")
    rig.move("b1-a1")
    until(rig, 1000)
    rig.board.press(0)
    rig.wait(6000)  # player 2 never touches the board: out at 7000
    session = rig.session
    assert events(rig, "side_out")[0]["time_ms"] == 7000
    assert session.game.turn == 2 and session.message == "Player 2 is out (on time); Player 3 to move: two moves, then press"
    assert not rig.lit(Role.PUT_HERE) and not rig.lit(Role.TAKE_AWAY)


def test_casual_take_back_stops_where_a_player_went_out() -> None:
    rig, clock = timed("multiwarcaby", control="0.1", mode="casual", options={"sides": 3})
    rig.move("d4-e5")
    rig.move("b1-a1")
    until(rig, 1000)
    rig.board.press(0)
    rig.wait(6500)  # player 2 out at 7000
    assert rig.session.game.turn == 2
    rig.board.lift("a1")
    rig.board.drop("b1")
    rig.board.lift("e5")
    rig.board.drop("d4")  # the start position again: would be a take-back of player 1's turn
    rig.wait(3000)
    assert len(rig.session.committed) == 2 and not events(rig, "takeback")
    rig.board.button("takeback")
    assert len(rig.session.committed) == 2


# -- the end of the game on the board -------------------------------------------------------


def test_the_game_ending_on_the_board_stops_the_clock() -> None:
    rig, clock = timed(fen="W:Wc3,a1:Bd4")
    rig.move("c3xe5")
    until(rig, 2000)
    rig.board.press(0)
    session = rig.session
    assert session.result is not None and session.result.winner == 0
    assert session.committed[0].clock_ms == (303000 - 2000 + 3000, 303000)  # the press came first
    assert clock.state is State.FINISHED
    rig.wait(600_000)
    assert not events(rig, "flag") and session.result.reason != "on time"


# -- an owner that drains the clock itself (the app) --------------------------------------


class PressOnly:
    """A clock as the app hands it to the session: only `press`."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock

    def press(self, side: int, now: int | None = None, *, board_ok: bool = True, reason: str = "",
              moves: int = 1) -> Any:
        return self.clock.press(side, now, board_ok=board_ok, reason=reason, moves=moves)


def test_an_owner_that_drains_the_clock_passes_the_events_on() -> None:
    rig, clock = timed(control="0.1")
    rig.session.clock = PressOnly(clock)
    rig.move("c3-d4")
    until(rig, 1000)
    rig.board.press(0)
    assert clock.active == 1 and rig.session.committed[0].clock_ms is None  # no view: no times
    rig.wait(60_000)
    assert rig.session.result is None  # the session does not poll a press-only clock
    rig.session.clock_events(clock.update(rig.board.now))
    assert rig.session.result.reason == "on time" and events(rig, "flag")[0]["time_ms"] == 7000
    assert events(rig, "result")[0]["time_ms"] == 7000


def test_a_flag_found_by_a_late_press_is_acted_on() -> None:
    rig, clock = timed(control="0.1")
    rig.session.clock = PressOnly(clock)
    rig.move("c3-d4")
    until(rig, 1000)
    rig.board.press(0)
    rig.move("f6-e5")
    until(rig, 9000)
    rig.board.press(1)  # the press finds black's flag (at 7000): the game is lost on time
    assert rig.session.result is not None and rig.session.result.winner == 0
    assert rig.session.result.reason == "on time" and events(rig, "flag")[0]["time_ms"] == 7000


def test_two_player_multiwarcaby_flag_is_a_loss_on_time() -> None:
    rig, clock = timed("multiwarcaby7", control="0.1")  # two players: no one goes out, the game ends
    rig.move("d4-e5")
    rig.move("c3-d4")
    until(rig, 1000)
    rig.board.press(0)
    rig.wait(60_000)
    result = rig.session.result
    assert result is not None and (result.winner, result.points, result.reason) == (0, (1.0, 0.0), "on time")
    assert not events(rig, "side_out") and events(rig, "flag")[0]["time_ms"] == 7000
