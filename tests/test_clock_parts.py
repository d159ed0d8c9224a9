"""The clock's parts, each alone: one side's time account, the arbiter's desk,
the running turn without the clock's way in. The whole clock is tests/test_clock.py."""

from __future__ import annotations

import pytest

from damka.controller.clock.account import SideAccount
from damka.controller.clock.arbiter import ArbiterDesk
from damka.controller.clock.errors import ArbiterError
from damka.controller.clock.records import StageChange, State
from damka.controller.clock.timecontrol import SECOND, parse
from damka.controller.clock.timing import Timing


def test_a_byoyomi_turn_that_runs_into_its_second_period_spends_one() -> None:
    side = SideAccount.fresh(parse("1+5x30"))          # 1 min, then 5 periods of 30 s
    assert side.end_turn(60 * SECOND + 45 * SECOND, side=0, at=0) is None
    assert (side.remaining_ms, side.periods, side.turns) == (0, 4, 1)


def test_a_met_quota_starts_the_next_stage_with_its_time_added() -> None:
    side = SideAccount.fresh(parse("2/10:5"))           # 10 min for 2 turns, then 5 min
    side.end_turn(SECOND, side=1, at=100)
    change = side.end_turn(SECOND, side=1, at=200)
    assert change == StageChange(1, 1, 200, "moves")
    assert side.remaining_ms == 10 * 60 * SECOND - 2 * SECOND + 5 * 60 * SECOND


def test_a_locked_desk_refuses_the_tokens_it_gave_and_logs_both() -> None:
    desk = ArbiterDesk("1234")
    token = desk.unlock("1234", at=5, name="Ela")
    assert desk.authorize(token, "undo") == "Ela"
    desk.lock(at=9)
    with pytest.raises(ArbiterError):
        desk.authorize(token, "undo")
    with pytest.raises(ArbiterError):
        desk.unlock("0000", at=11, name="Ola")
    assert desk.log.actions() == ["unlock", "lock", "unlock-failed"]


def test_the_running_turn_books_a_press_at_the_millisecond_it_is_given() -> None:
    timing = Timing([parse("5+3")] * 2, moves_per_turn=1)
    timing.start(1_000, first=0)
    result = timing.press(0, 8_000, board_ok=True, reason="", moves=1)
    assert result.accepted and result.switched and timing.active == 1
    assert timing.remaining(0, 8_000) == 5 * 60 * SECOND + 3 * SECOND - 7 * SECOND + 3 * SECOND
    timing.undo(9_000)
    assert (timing.state, timing.active) == (State.PAUSED, 0)
