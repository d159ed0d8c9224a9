"""The game clock, driven by a fake time source: increments, stages, flags, sides, arbiter, snapshots."""

from __future__ import annotations

import json
import random

import pytest

from damka.controller.clock.arbiter import ArbiterLog, ArbiterLogEntry, ArbiterToken
from damka.controller.clock.clock import Clock
from damka.controller.clock.records import Flag, GameOver, SideOut, StageChange, State
from damka.controller.clock.errors import ArbiterError, ClockError, ClockStateError
from damka.controller.clock.time_source import FakeTime, monotonic_ms
from damka.controller.clock.timecontrol import MINUTE, SECOND, parse, parse_sides

START = 1_000_000  # not 0: nothing may confuse the time source's origin with the game's


@pytest.fixture
def t() -> FakeTime:
    return FakeTime(START)


def make(t: FakeTime, text: str, sides: int = 2, moves_per_turn: int = 1, pin: str | None = None,
         start: bool = True, first: int = 0) -> Clock:
    clock = Clock(parse_sides(text, sides), time=t, moves_per_turn=moves_per_turn, pin=pin)
    if start:
        clock.start(first=first)
    return clock


def times(clock: Clock) -> list[int]:
    return [side.remaining_ms for side in clock.view().sides]


# -- basics ----------------------------------------------------------------------------


def test_plain_time_counts_down_and_switches(t: FakeTime) -> None:
    clock = make(t, "5")
    t.advance(12_345)
    assert times(clock) == [5 * MINUTE - 12_345, 5 * MINUTE]
    result = clock.press(0)
    assert result.accepted and result.switched and result.active == 1
    t.advance(1_000)
    assert times(clock) == [5 * MINUTE - 12_345, 5 * MINUTE - 1_000]
    view = clock.view()
    assert view.sides[1].active and not view.sides[0].active
    assert view.sides[0].turns == 1 and view.sides[0].moves == 1


def test_time_source_or_now(t: FakeTime) -> None:
    clock = make(t, "5")
    assert clock.remaining(0, START + 1_000) == 5 * MINUTE - 1_000
    bare = Clock(parse("5"))
    bare.start(now=0)
    assert bare.remaining(0, now=500) == 5 * MINUTE - 500
    with pytest.raises(ClockError, match="no time source"):
        bare.remaining(0)
    assert isinstance(monotonic_ms(), int)
    with pytest.raises(ValueError):
        t.advance(-1)


def test_press_refusals_say_why(t: FakeTime) -> None:
    clock = make(t, "5", start=False)
    assert clock.press(0).reason == "the clock has not been started"
    clock.start()
    refused = clock.press(1)
    assert not refused and "side 0's turn" in refused.reason
    refused = clock.press(0, board_ok=False, reason="captured piece on f4 not removed")
    assert not refused.accepted and refused.reason == "captured piece on f4 not removed"
    assert clock.press(0, board_ok=False).reason == "the board does not show a complete legal move"
    assert "no side 7" in clock.press(7).reason
    clock.pause()
    assert clock.press(0).reason == "the clock is paused"
    clock.resume()
    clock.stop(reason="agreed draw")
    assert clock.press(0).reason == "the game is over"
    assert clock.view().sides[0].turns == 0


def test_start_twice_and_bad_construction(t: FakeTime) -> None:
    clock = make(t, "5")
    with pytest.raises(ClockStateError):
        clock.start()
    with pytest.raises(ClockError, match="2 to 4 sides"):
        Clock([parse("5")] * 5, time=t)
    with pytest.raises(ClockError, match="3 sides"):
        Clock([parse("5")] * 2, sides=3, time=t)
    with pytest.raises(ClockError, match="moves per turn"):
        Clock(parse("5"), time=t, moves_per_turn=0)
    with pytest.raises(ClockError, match="hourglass on every side"):
        Clock([parse("*3"), parse("3")], time=t)
    with pytest.raises(ClockError, match="no side 2"):
        Clock(parse("5"), time=t).start(first=2)


# -- increments ----------------------------------------------------------------------------


def test_fischer_added_before_move_one(t: FakeTime) -> None:
    clock = make(t, "5+3")
    assert times(clock) == [5 * MINUTE + 3 * SECOND] * 2
    t.advance(10 * SECOND)
    clock.press(0)
    assert times(clock)[0] == 5 * MINUTE + 3 * SECOND - 10 * SECOND + 3 * SECOND


def test_fischer_added_only_after_move_one(t: FakeTime) -> None:
    clock = make(t, "5+3a")
    assert times(clock) == [5 * MINUTE] * 2
    t.advance(10 * SECOND)
    clock.press(0)
    assert times(clock)[0] == 5 * MINUTE - 10 * SECOND + 3 * SECOND


def test_bronstein_gives_back_at_most_the_delay(t: FakeTime) -> None:
    clock = make(t, "5+3b")
    assert times(clock) == [5 * MINUTE] * 2
    t.advance(2 * SECOND)
    clock.press(0)
    assert times(clock)[0] == 5 * MINUTE  # all 2 s given back
    t.advance(5 * SECOND)
    clock.press(1)
    assert times(clock)[1] == 5 * MINUTE - 2 * SECOND  # 3 of 5 s given back


def test_simple_delay_waits_before_counting(t: FakeTime) -> None:
    clock = make(t, "5+3d")
    t.advance(2 * SECOND)
    view = clock.view()
    assert view.sides[0].remaining_ms == 5 * MINUTE and view.sides[0].delay_ms == 1 * SECOND
    assert view.sides[1].delay_ms == 0
    t.advance(2 * SECOND)
    assert clock.view().sides[0].remaining_ms == 5 * MINUTE - 1 * SECOND
    clock.press(0)
    assert times(clock)[0] == 5 * MINUTE - 1 * SECOND
    t.advance(1 * SECOND)
    clock.press(1)
    assert times(clock)[1] == 5 * MINUTE  # inside the delay: nothing used


def test_simple_delay_flag_falls_after_the_delay(t: FakeTime) -> None:
    clock = make(t, "0.5+5d")
    assert clock.next_deadline() == START + 35 * SECOND
    t.advance(35 * SECOND - 1)
    assert clock.update() == []
    t.advance(1)
    assert clock.update()[0] == Flag(0, START + 35 * SECOND, 0, True)


def test_no_drift_over_thousands_of_fast_presses(t: FakeTime) -> None:
    rng = random.Random(7)
    clock = make(t, "60+1.5")
    used = [0, 0]
    presses = 5_000
    for n in range(presses):
        ms = rng.randint(0, 37)
        t.advance(ms)
        used[n % 2] += ms
        assert clock.press(n % 2).accepted
    start = 60 * MINUTE + 1_500
    assert times(clock) == [start - used[0] + 1_500 * (presses // 2), start - used[1] + 1_500 * (presses // 2)]
    assert [side.turns for side in clock.view().sides] == [presses // 2] * 2


def test_bronstein_and_delay_survive_pause_and_resume(t: FakeTime) -> None:
    bronstein = make(t, "5+3b")
    t.advance(2 * SECOND)
    bronstein.pause()
    t.advance(60 * SECOND)  # the pause counts for nobody
    bronstein.resume()
    t.advance(2 * SECOND)
    bronstein.press(0)
    assert times(bronstein)[0] == 5 * MINUTE - 1 * SECOND  # used 4 s, 3 back: the turn is one turn

    delay = make(t, "5+3d")
    t.advance(2 * SECOND)
    delay.pause()
    assert delay.view().sides[0].delay_ms == 1 * SECOND
    t.advance(60 * SECOND)
    delay.resume()
    assert delay.view().sides[0].delay_ms == 1 * SECOND  # no fresh delay after the pause
    t.advance(1_500)
    assert times(delay)[0] == 5 * MINUTE - 500
    delay.press(0)
    assert times(delay)[0] == 5 * MINUTE - 500


def test_pause_stops_the_flag(t: FakeTime) -> None:
    clock = make(t, "1")
    t.advance(59 * SECOND)
    clock.pause()
    assert clock.next_deadline() is None
    t.advance(10 * MINUTE)
    assert clock.update() == [] and times(clock)[0] == 1 * SECOND
    clock.resume()
    assert clock.next_deadline() == t.now + 1 * SECOND
    with pytest.raises(ClockStateError):
        clock.resume()
    clock.pause()
    with pytest.raises(ClockStateError):
        clock.pause()


# -- flags ---------------------------------------------------------------------------------


def test_flag_at_exactly_zero(t: FakeTime) -> None:
    clock = make(t, "1")
    t.advance(MINUTE - 1)
    assert clock.update() == []
    view = clock.view().sides[0]
    assert view.remaining_ms == 1 and view.text == "0.1" and not view.flagged
    t.advance(1)
    events = clock.update()
    assert events == [Flag(0, START + MINUTE, 0, True), GameOver(START + MINUTE, "time", 0)]
    view = clock.view().sides[0]
    assert view.flagged and view.text == "0.0"
    assert clock.state is State.FINISHED
    assert clock.press(0).reason == "the game is over"


def test_press_one_millisecond_before_zero_counts(t: FakeTime) -> None:
    clock = make(t, "1")
    t.advance(MINUTE - 1)
    assert clock.press(0).accepted
    assert times(clock)[0] == 1 and not clock.flags


def test_late_noticed_flag_is_stamped_at_the_exact_millisecond(t: FakeTime) -> None:
    clock = make(t, "1")
    t.advance(MINUTE + 5_432)
    result = clock.press(0)
    assert not result.accepted and result.reason == "the game is over"
    assert result.events[0] == Flag(0, START + MINUTE, 0, True)
    assert clock.flags == [Flag(0, START + MINUTE, 0, True)]
    assert clock.view().sides[0].elapsed_ms == MINUTE


def test_update_reports_each_event_once(t: FakeTime) -> None:
    clock = make(t, "1")
    t.advance(2 * MINUTE)
    assert len(clock.update()) == 2
    assert clock.update() == []


# -- stages ---------------------------------------------------------------------------------


def test_quota_adds_the_next_stage_and_the_last_stage_repeats(t: FakeTime) -> None:
    clock = make(t, "3/1:2/0.5")
    events = []
    for turn in range(7):
        for side in (0, 1):
            t.advance(SECOND)
            events += clock.press(side).events
    mine = [e for e in events if isinstance(e, StageChange) and e.side == 0]
    assert [(e.stage, e.by) for e in mine] == [(1, "moves"), (1, "moves"), (1, "moves")]
    view = clock.view().sides[0]
    # 7 turns of 1 s; +30 s after turns 3, 5 and 7
    assert view.remaining_ms == MINUTE - 7 * SECOND + 3 * 30 * SECOND
    assert view.stage == 1 and view.turns_to_control == 2


def test_fmjd_classical_transition_after_fifty_moves(t: FakeTime) -> None:
    clock = make(t, "50/120:25/60")
    for turn in range(50):
        t.advance(60 * SECOND)
        clock.press(0)
        t.advance(30 * SECOND)
        clock.press(1)
    view = clock.view()
    assert view.sides[0].remaining_ms == 120 * MINUTE - 50 * MINUTE + 60 * MINUTE
    assert view.sides[1].remaining_ms == 120 * MINUTE - 25 * MINUTE + 60 * MINUTE
    assert view.sides[0].stage == 1 and view.sides[0].turns_to_control == 25


def test_flag_in_an_earlier_stage_is_shown_and_play_goes_on(t: FakeTime) -> None:
    clock = make(t, "2/0.5:1")
    t.advance(40 * SECOND)
    events = clock.update()
    assert events == [Flag(0, START + 30 * SECOND, 0, False), StageChange(0, 1, START + 30 * SECOND, "flag")]
    view = clock.view().sides[0]
    assert view.flagged and view.stage == 1 and view.remaining_ms == MINUTE - 10 * SECOND
    assert clock.press(0).accepted
    t.advance(MINUTE)
    assert clock.update()[0] == Flag(1, START + 40 * SECOND + 30 * SECOND, 0, False)
    assert clock.state is State.RUNNING
    t.advance(MINUTE)
    flag, over = clock.update()
    assert flag == Flag(1, START + 40 * SECOND + 90 * SECOND, 1, True) and over.loser == 1


def test_stage_without_quota_runs_into_the_next_without_a_flag(t: FakeTime) -> None:
    clock = make(t, "0.5:1")
    t.advance(40 * SECOND)
    assert clock.update() == [StageChange(0, 1, START + 30 * SECOND, "time")]
    view = clock.view().sides[0]
    assert not view.flagged and view.remaining_ms == 50 * SECOND


def test_stage_change_into_delay_gives_no_second_delay(t: FakeTime) -> None:
    clock = make(t, "0.5:1+5d")
    t.advance(40 * SECOND)
    clock.update()
    assert times(clock)[0] == MINUTE - 10 * SECOND  # the turn's 5 s delay was spent before the change
    clock.press(0)
    t.advance(SECOND)
    clock.press(1)
    t.advance(4 * SECOND)
    assert times(clock)[0] == MINUTE - 10 * SECOND  # a new turn: a new delay


def test_byoyomi_periods(t: FakeTime) -> None:
    clock = make(t, "0.5+3x10")
    t.advance(35 * SECOND)
    view = clock.view().sides[0]
    assert view.remaining_ms == 0 and view.period_ms == 5 * SECOND and view.periods == 3
    assert view.text == "5.0" and not view.flagged
    clock.press(0)  # inside the first period: it resets
    view = clock.view().sides[0]
    assert view.periods == 3 and view.period_ms == 10 * SECOND and view.text == "10.0"
    t.advance(SECOND)
    clock.press(1)
    t.advance(25 * SECOND)
    view = clock.view().sides[0]
    assert view.periods == 1 and view.period_ms == 5 * SECOND
    clock.press(0)
    assert clock.view().sides[0].periods == 1
    clock.press(1)
    t.advance(10 * SECOND - 1)
    assert clock.update() == []
    t.advance(1)
    assert clock.update()[0] == Flag(0, t.now, 0, True)


def test_byoyomi_period_used_up_exactly(t: FakeTime) -> None:
    clock = make(t, "0.5+2x10")
    t.advance(40 * SECOND)  # the first period ran out at this very millisecond
    view = clock.view().sides[0]
    assert view.periods == 1 and view.period_ms == 10 * SECOND
    clock.press(0)
    assert clock.view().sides[0].periods == 1


def test_hourglass_two_sides(t: FakeTime) -> None:
    clock = make(t, "*1")
    t.advance(10 * SECOND)
    assert times(clock) == [50 * SECOND, 70 * SECOND]
    clock.press(0)
    t.advance(5 * SECOND)
    assert times(clock) == [55 * SECOND, 65 * SECOND]
    assert sum(times(clock)) == 2 * MINUTE
    t.advance(65 * SECOND)
    assert clock.update()[0] == Flag(1, t.now, 0, True)
    assert times(clock) == [2 * MINUTE, 0]


def test_hourglass_three_sides_shares_exactly(t: FakeTime) -> None:
    clock = make(t, "*1", sides=3)
    t.advance(10_001)
    assert times(clock) == [MINUTE - 10_001, MINUTE + 5_001, MINUTE + 5_000]
    clock.press(0)
    assert times(clock) == [MINUTE - 10_001, MINUTE + 5_001, MINUTE + 5_000]
    assert sum(times(clock)) == 3 * MINUTE


# -- sides and turns ------------------------------------------------------------------------


def test_two_moves_a_turn_switch_after_the_second_press(t: FakeTime) -> None:
    clock = make(t, "5+2", moves_per_turn=2)
    t.advance(SECOND)
    first = clock.press(0)
    assert first.accepted and not first.switched and clock.active == 0
    assert clock.view().turn_moves == 1
    t.advance(SECOND)
    second = clock.press(0)
    assert second.switched and clock.active == 1
    view = clock.view().sides[0]
    assert view.remaining_ms == 5 * MINUTE + 2 * SECOND - 2 * SECOND + 2 * SECOND  # one increment a turn
    assert view.moves == 2 and view.turns == 1
    assert "1 move(s) left" in (clock.press(1), clock.press(1, moves=2))[1].reason
    whole = make(t, "5+2", moves_per_turn=2)
    assert whole.press(0, moves=2).switched
    assert "claimed 3" in whole.press(1, moves=3).reason


def test_turn_order_for_four_sides_from_any_first(t: FakeTime) -> None:
    clock = make(t, "5", sides=4, first=2)
    order = []
    for _ in range(6):
        order.append(clock.active)
        clock.press(clock.active)
    assert order == [2, 3, 0, 1, 2, 3]


def test_flagged_player_drops_out_and_is_skipped(t: FakeTime) -> None:
    clock = make(t, "1|0.5|1", sides=3)
    t.advance(SECOND)
    clock.press(0)
    t.advance(31 * SECOND)  # side 1 runs out after 30 s
    events = clock.update()
    flagged_at = START + SECOND + 30 * SECOND
    assert events == [Flag(1, flagged_at, 0, True), SideOut(1, flagged_at, "time")]
    assert clock.active == 2 and clock.in_game == [0, 2]
    assert clock.view().sides[2].remaining_ms == MINUTE - SECOND  # its time started at the flag
    assert "out of the game" in clock.press(1).reason
    clock.press(2)
    assert clock.active == 0
    clock.press(0)
    assert clock.active == 2
    t.advance(2 * MINUTE)
    flag, over = clock.update()
    assert flag.side == 2 and over == GameOver(flag.at_ms, "time", 2)


def test_session_drops_a_player(t: FakeTime) -> None:
    clock = make(t, "5", sides=4)
    clock.press(0)
    clock.drop(3)
    assert clock.update() == [SideOut(3, t.now, "resigned")]
    clock.press(1)
    clock.press(2)
    assert clock.active == 0
    clock.drop(0, reason="left")
    assert clock.active == 1 and clock.in_game == [1, 2]
    clock.drop(2)
    assert clock.state is State.FINISHED and clock.update()[-1] == GameOver(t.now, "resigned", 2)
    with pytest.raises(ClockStateError):
        clock.drop(1)


def test_untimed_clock_counts_up_and_never_flags(t: FakeTime) -> None:
    clock = make(t, "-")
    t.advance(10 * 60 * MINUTE)
    assert clock.update() == [] and clock.next_deadline() is None
    clock.press(0)
    view = clock.view().sides[0]
    assert view.untimed and view.text == "10:00:00"


# -- arbiter --------------------------------------------------------------------------------


def test_pin_gives_a_token_and_failures_are_logged(t: FakeTime) -> None:
    clock = make(t, "5", pin="2468")
    with pytest.raises(ArbiterError, match="wrong"):
        clock.unlock("1111")
    token = clock.unlock("2468", name="Ann")
    assert isinstance(token, ArbiterToken) and "key" not in repr(token)
    assert [entry.action for entry in clock.log] == ["start", "unlock-failed", "unlock"]
    clock.pause()
    with pytest.raises(ArbiterError, match="needs the arbiter"):
        clock.resume()
    other = make(t, "5", pin="2468").unlock("2468")
    with pytest.raises(ArbiterError, match="not valid"):
        clock.resume(arbiter=other)
    clock.resume(arbiter=token)
    clock.lock()
    clock.pause()
    with pytest.raises(ArbiterError, match="not valid"):
        clock.resume(arbiter=token)
    with pytest.raises(ArbiterError):
        clock.adjust(0, SECOND, arbiter=None)


def test_casual_clock_needs_no_pin(t: FakeTime) -> None:
    clock = make(t, "5")
    clock.pause()
    clock.resume()
    clock.adjust(1, 30 * SECOND)
    assert clock.log[-1].by == "player"


def test_arbiter_actions_change_times_and_are_logged(t: FakeTime) -> None:
    clock = make(t, "5+3d", pin="1")
    arbiter = clock.unlock("1", name="Ann")
    t.advance(5 * SECOND)  # side 0: 2 s charged, delay spent
    clock.set_time(0, 2 * MINUTE, arbiter=arbiter, reason="clock set wrongly")
    assert times(clock)[0] == 2 * MINUTE
    t.advance(SECOND)
    assert times(clock)[0] == 2 * MINUTE - SECOND
    clock.adjust(1, -30 * SECOND, arbiter=arbiter)
    clock.penalty(0, 10 * SECOND, arbiter=arbiter, reason="illegal move")
    assert times(clock) == [2 * MINUTE - 11 * SECOND, 4 * MINUTE + 30 * SECOND]
    clock.penalty(0, MINUTE, arbiter=arbiter, credit_others=True)
    assert times(clock) == [2 * MINUTE - 11 * SECOND, 5 * MINUTE + 30 * SECOND]
    clock.set_moves(1, 12, arbiter=arbiter)
    assert clock.view().sides[1].turns == 12 and clock.view().sides[1].moves == 12
    entries = [(e.action, e.side, e.by, e.at_ms) for e in clock.log]
    assert entries[-5:] == [
        ("set-time", 0, "Ann", START + 5 * SECOND),
        ("adjust", 1, "Ann", START + 6 * SECOND),
        ("penalty", 0, "Ann", START + 6 * SECOND),
        ("penalty", 0, "Ann", START + 6 * SECOND),
        ("set-moves", 1, "Ann", START + 6 * SECOND),
    ]
    assert "illegal move" in clock.log[-3].detail and "to the others" in clock.log[-2].detail
    with pytest.raises(ClockError, match="flags"):
        clock.adjust(0, -10 * MINUTE, arbiter=arbiter)
    with pytest.raises(ClockError, match="positive"):
        clock.penalty(0, 0, arbiter=arbiter)
    with pytest.raises(ClockError, match="negative"):
        clock.set_moves(0, -1, arbiter=arbiter)
    with pytest.raises(ClockError, match="no side 9"):
        clock.set_time(9, MINUTE, arbiter=arbiter)


def test_set_moves_moves_the_quota_count(t: FakeTime) -> None:
    clock = make(t, "40/90:30")
    clock.set_moves(0, 39)
    assert clock.view().sides[0].turns_to_control == 1
    clock.press(0)
    assert clock.view().sides[0].stage == 1


def test_undo_the_last_press(t: FakeTime) -> None:
    clock = make(t, "5+3", pin="9")
    arbiter = clock.unlock("9")
    t.advance(10 * SECOND)
    clock.press(0)
    before = times(clock)
    t.advance(4 * SECOND)
    clock.press(1)
    t.advance(7 * SECOND)
    clock.undo(arbiter=arbiter)
    assert clock.state is State.PAUSED and clock.active == 1
    view = clock.view()
    assert view.sides[1].remaining_ms == before[1] - 4 * SECOND  # as at the moment of the press
    assert view.sides[1].turns == 0 and view.sides[0].remaining_ms == before[0]
    clock.undo(arbiter=arbiter)
    assert clock.active == 0 and times(clock)[0] == 5 * MINUTE + 3 * SECOND - 10 * SECOND
    with pytest.raises(ClockStateError, match="no press"):
        clock.undo(arbiter=arbiter)
    clock.resume(arbiter=arbiter)
    t.advance(SECOND)
    assert times(clock)[0] == 5 * MINUTE + 3 * SECOND - 11 * SECOND
    assert [e.action for e in clock.log].count("undo") == 2


def test_undo_revives_a_game_ended_by_a_flag_after_the_press(t: FakeTime) -> None:
    clock = make(t, "1")
    t.advance(SECOND)
    clock.press(0)
    t.advance(2 * MINUTE)
    clock.update()
    assert clock.state is State.FINISHED
    clock.undo()
    assert clock.state is State.PAUSED and clock.flags == [] and clock.active == 0


# -- snapshots ------------------------------------------------------------------------------


def test_snapshot_restores_paused_after_a_power_cut(t: FakeTime) -> None:
    clock = make(t, "40/90+30:30+30|30+30", moves_per_turn=2)
    t.advance(5 * SECOND)
    clock.press(0)
    t.advance(SECOND)
    clock.press(0)
    t.advance(3_333)
    data = json.loads(json.dumps(clock.snapshot()))
    shown = clock.view()

    later = FakeTime(42)  # the monotonic clock starts again from anything after a reboot
    back = Clock.restore(data, time=later)
    assert back.state is State.PAUSED and back.active == 1
    restored = back.view()
    assert [s.remaining_ms for s in restored.sides] == [s.remaining_ms for s in shown.sides]
    assert [s.turns for s in restored.sides] == [1, 0] and restored.sides[0].moves == 2
    assert back.controls == clock.controls and back.moves_per_turn == 2
    assert back.log[-1].action == "restore" and back.log[0].action == "start"
    later.advance(60 * SECOND)
    back.resume()
    later.advance(SECOND)
    assert back.view().sides[1].remaining_ms == shown.sides[1].remaining_ms - SECOND


def test_snapshot_keeps_flags_and_finished_games(t: FakeTime) -> None:
    clock = make(t, "2/0.5:1")
    t.advance(40 * SECOND)
    back = Clock.restore(clock.snapshot(), now=0)
    assert back.flags == [Flag(0, START + 30 * SECOND, 0, False)] and back.view(0).sides[0].flagged
    t.advance(MINUTE)
    clock.update()
    assert Clock.restore(clock.snapshot(), now=0).state is State.FINISHED


def test_bad_snapshots(t: FakeTime) -> None:
    data = make(t, "5").snapshot()
    with pytest.raises(ClockError, match="version"):
        Clock.restore({**data, "version": 99})
    with pytest.raises(ClockError, match="bad clock snapshot"):
        Clock.restore({k: v for k, v in data.items() if k != "sides"})
    with pytest.raises(ClockError, match="disagree"):
        Clock.restore({**data, "sides": data["sides"][:1]})
    with pytest.raises(ClockError, match="unknown side fields"):
        Clock.restore({**data, "sides": [{**data["sides"][0], "bogus": 1}, data["sides"][1]]})


def test_log_entries_are_plain_records(t: FakeTime) -> None:
    clock = make(t, "5", pin="7")
    clock.adjust(0, SECOND, arbiter=clock.unlock("7", name="Ann"))
    clock.pause()
    assert list(clock.log)[0] == ArbiterLogEntry(START, "start", 0, "", "")
    assert clock.log.actions() == ["start", "unlock", "adjust", "pause"]
    assert [e.action for e in clock.log.by_arbiter()] == ["unlock", "adjust"]
    assert isinstance(clock.log, ArbiterLog) and len(clock.log) == 4
    assert list(ArbiterLog.from_list(json.loads(json.dumps(clock.log.to_list())))) == list(clock.log)


def test_increment_of_the_stage_the_move_was_made_in(t: FakeTime) -> None:
    clock = make(t, "2/1+5:1+10")
    assert times(clock)[0] == MINUTE + 5 * SECOND  # only the first stage's, before move 1
    for _ in range(3):
        t.advance(SECOND)
        clock.press(0)
        t.advance(SECOND)
        clock.press(1)
    # turns 1-2 in stage 1 (+5 s each, +1 min after turn 2), turn 3 in stage 2 (+10 s)
    assert times(clock)[0] == MINUTE + 5 * SECOND - 3 * SECOND + 2 * 5 * SECOND + MINUTE + 10 * SECOND


def test_flags_noticed_late_chain_at_their_exact_times(t: FakeTime) -> None:
    clock = make(t, "0.5|0.25|1|2", sides=4)
    t.advance(10 * MINUTE)
    events = clock.update()
    flags = [e for e in events if isinstance(e, Flag)]
    assert [(f.side, f.at_ms) for f in flags] == [
        (0, START + 30 * SECOND),
        (1, START + 45 * SECOND),
        (2, START + 105 * SECOND),
    ]
    assert events[-1] == GameOver(START + 105 * SECOND, "time", 2)
    assert clock.in_game == [3] and times(clock)[3] == 2 * MINUTE


def test_hourglass_flagged_player_leaves_and_the_rest_share(t: FakeTime) -> None:
    clock = make(t, "*0.5", sides=3)
    t.advance(30 * SECOND)
    assert [type(e) for e in clock.update()] == [Flag, SideOut]
    assert times(clock) == [0, 45 * SECOND, 45 * SECOND]
    t.advance(10 * SECOND)
    assert times(clock) == [0, 35 * SECOND, 55 * SECOND]
