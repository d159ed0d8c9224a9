"""Displayed times: rounding up, tenths at the end, 0.0 only with a flag."""

from __future__ import annotations

import random

import pytest

from damka.controller.clock.clock import Clock
from damka.controller.clock.time_source import FakeTime
from damka.controller.clock.view import format_elapsed, format_time
from damka.controller.clock.timecontrol import parse

ZEROS = {"0.0", "0:00", "0:00:00"}


@pytest.mark.parametrize("ms, text", [
    (0, "0.0"), (-5, "0.0"), (1, "0.1"), (99, "0.1"), (100, "0.1"), (101, "0.2"), (9_999, "10.0"),
    (19_901, "20.0"), (20_000, "20.0"), (20_001, "0:21"), (59_001, "1:00"), (60_000, "1:00"),
    (299_999, "5:00"), (3_599_000, "59:59"), (3_599_001, "1:00:00"), (3_600_000, "1:00:00"),
    (3_600_001, "1:00:01"), (7_200_000, "2:00:00"),
])
def test_format_time_rounds_up(ms: int, text: str) -> None:
    assert format_time(ms) == text


def test_no_zero_is_ever_shown_while_time_is_left() -> None:
    for ms in range(1, 70_000):
        assert format_time(ms) not in ZEROS
    for ms in range(3_590_000, 3_610_000, 7):
        assert format_time(ms) not in ZEROS


def test_shown_time_never_goes_up_as_time_runs_down() -> None:
    def key(text: str) -> float:
        if "." in text:
            return float(text)
        parts = [int(p) for p in text.split(":")]
        return sum(value * 60 ** power for power, value in enumerate(reversed(parts)))

    shown = [key(format_time(ms)) for ms in range(0, 3_700_000, 37)]
    assert shown == sorted(shown)


def test_elapsed_rounds_down() -> None:
    assert format_elapsed(0) == "0:00"
    assert format_elapsed(59_999) == "0:59"
    assert format_elapsed(3_600_000) == "1:00:00"


@pytest.mark.parametrize("text", ["0.2+1", "0.2+1b", "0.2+1d", "0.2+2x1", "*0.2", "1/0.2:0.1", "0.2:0.1"])
def test_a_running_clock_shows_zero_only_with_a_flag(text: str) -> None:
    rng = random.Random(text)
    t = FakeTime(500)
    clock = Clock(parse(text), sides=3, time=t)
    clock.start()
    while clock.state.value != "finished":
        t.advance(rng.choice([1, 7, 99, 100, 101, 999, 1_000, 1_001, 2_500]))
        view = clock.view()
        for side in view.sides:
            if side.text in ZEROS:
                assert side.flagged, (text, t.now, side)
        if rng.random() < 0.3:
            clock.press(clock.active)
