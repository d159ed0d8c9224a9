"""Time controls: stages, the compact and PDN text forms, presets."""

from __future__ import annotations

import pytest

from damka.controller.clock.errors import ClockError, TimeControlError
from damka.controller.clock.pdn_tag import format_pdn, parse_pdn
from damka.controller.clock.presets import PRESETS, casual_preset, control, find_preset, with_handicap
from damka.controller.clock.timecontrol import (
    HOUR,
    MINUTE,
    SECOND,
    Mode,
    Stage,
    TimeControl,
    format_control,
    format_sides,
    parse,
    parse_sides,
)
from damka.engine.errors import DamkaError


def test_five_plus_three_is_minutes_and_fischer_seconds() -> None:
    tc = parse("5+3")
    assert tc.stages == (Stage(5 * MINUTE, None, Mode.FISCHER, 3 * SECOND),)
    assert tc.increment_first
    assert tc.initial_ms() == 5 * MINUTE + 3 * SECOND


def test_fischer_after_move_one_only() -> None:
    tc = parse("5+3a")
    assert not tc.increment_first
    assert tc.initial_ms() == 5 * MINUTE


def test_stages_with_quotas() -> None:
    tc = parse("50/120:25/60")
    assert tc.stages == (Stage(2 * HOUR, 50), Stage(HOUR, 25))
    assert tc.stage(5) == Stage(HOUR, 25)  # the last stage repeats
    assert tc.is_last(1) and not tc.is_last(0)


@pytest.mark.parametrize("text, stage", [
    ("3+2d", Stage(3 * MINUTE, None, Mode.DELAY, 2 * SECOND)),
    ("5+3b", Stage(5 * MINUTE, None, Mode.BRONSTEIN, 3 * SECOND)),
    ("*3", Stage(3 * MINUTE, mode=Mode.HOURGLASS)),
    ("60+5x30", Stage(HOUR, None, Mode.BYOYOMI, 30 * SECOND, 5)),
    ("0+3x10", Stage(0, None, Mode.BYOYOMI, 10 * SECOND, 3)),
    ("1h20m+30", Stage(80 * MINUTE, None, Mode.FISCHER, 30 * SECOND)),
    ("90s+1.5", Stage(90 * SECOND, None, Mode.FISCHER, 1500)),
    ("0.5", Stage(30 * SECOND)),
    ("5+0", Stage(5 * MINUTE)),
    (" 40 / 90 + 30 ", Stage(90 * MINUTE, 40, Mode.FISCHER, 30 * SECOND)),
])
def test_parse_stage_forms(text: str, stage: Stage) -> None:
    assert parse(text).stages == (stage,)


@pytest.mark.parametrize("text", [
    "5+3", "15", "5+3a", "3+2d", "5+3b", "*3", "60+5x30", "50/120:25/60", "80+60", "40/90+30:30+30",
    "1m30s+1.5", "30s", "-", "10:5+10x20", "2+2",
])
def test_compact_round_trip(text: str) -> None:
    tc = parse(text)
    assert format_control(tc) == text
    assert parse(format_control(tc)) == tc
    assert str(tc) == text


@pytest.mark.parametrize("text, canonical", [("1h20m+30", "80+30"), ("90s", "1m30s"), ("5+0", "5"),
                                              ("2h", "120"), ("45S+1", "45s+1")])
def test_compact_canonical_form(text: str, canonical: str) -> None:
    assert format_control(parse(text)) == canonical


@pytest.mark.parametrize("text, part", [
    ("", "empty"),
    ("abc", "stage 1 'abc'"),
    ("5+x", "byo-yomi is written PERIODSxSECONDS"),
    ("5+3z", "increment"),
    ("0", "stage 1 '0'"),
    ("/5", "move quota"),
    ("0/5", "move quota"),
    ("5:3+3a", "stage 2"),
    ("40/5:*3", "hourglass"),
    ("60+5x30:5", "byo-yomi must be the last"),
    ("5:", "stage 2 is empty"),
    ("1m1h", "units"),
    ("0.00001", "milliseconds"),
    ("5+0d", "zero increment"),
    ("40/*3", "stage 1"),
    ("5+3|3", "parse_sides"),
])
def test_compact_errors_name_the_bad_part(text: str, part: str) -> None:
    with pytest.raises(TimeControlError, match=None) as info:
        parse(text)
    assert part in str(info.value)
    assert isinstance(info.value, ClockError) and isinstance(info.value, ValueError)
    assert isinstance(info.value, DamkaError)


def test_stage_validation() -> None:
    with pytest.raises(TimeControlError, match="increment above 0"):
        Stage(MINUTE, mode=Mode.FISCHER)
    with pytest.raises(TimeControlError, match="no increment"):
        Stage(MINUTE, increment_ms=5)
    with pytest.raises(TimeControlError, match="quota"):
        Stage(MINUTE, moves=0)
    with pytest.raises(TimeControlError, match="move quota"):
        Stage(MINUTE, moves=10, mode=Mode.HOURGLASS)
    with pytest.raises(TimeControlError, match=">= 0"):
        Stage(-1)


def test_increment_first_is_normalised_when_it_does_not_matter() -> None:
    assert TimeControl((Stage(MINUTE),), increment_first=False) == TimeControl((Stage(MINUTE),))


def test_dict_round_trip() -> None:
    for text in ("5+3a", "50/120:25/60", "60+5x30", "*3", "-"):
        tc = parse(text)
        assert TimeControl.from_dict(tc.to_dict()) == tc
    with pytest.raises(TimeControlError, match="bad stage record"):
        Stage.from_dict({"moves": 3})


def test_per_side_controls_for_handicap() -> None:
    assert parse_sides("5+3", 3) == [parse("5+3")] * 3
    controls = parse_sides("5+3|3+3", 2)
    assert controls == [parse("5+3"), parse("3+3")]
    assert format_sides(controls) == "5+3|3+3"
    assert format_sides([parse("5+3")] * 4) == "5+3"
    with pytest.raises(TimeControlError, match="2 controls for 3 sides"):
        parse_sides("5+3|3+3", 3)


def test_with_handicap_scales_the_first_stage() -> None:
    strong, weak = with_handicap(parse("10+5"), [0.5, 1])
    assert strong == parse("5+5") and weak == parse("10+5")
    with pytest.raises(TimeControlError):
        with_handicap(parse("-"), [1])


@pytest.mark.parametrize("text, stages", [
    ("40/7200:3600", (Stage(2 * HOUR, 40), Stage(HOUR))),
    ("300+3", (Stage(5 * MINUTE, None, Mode.FISCHER, 3 * SECOND),)),
    ("300", (Stage(5 * MINUTE),)),
    ("*180", (Stage(3 * MINUTE, mode=Mode.HOURGLASS),)),
    ("40/5400+30:1800+30", (Stage(90 * MINUTE, 40, Mode.FISCHER, 30 * SECOND),
                            Stage(30 * MINUTE, None, Mode.FISCHER, 30 * SECOND))),
])
def test_pdn_time_control(text: str, stages: tuple[Stage, ...]) -> None:
    tc = parse_pdn(text)
    assert tc is not None and tc.stages == stages
    assert format_pdn(tc) == text


def test_pdn_unknown_and_none() -> None:
    assert parse_pdn("?") is None and format_pdn(None) == "?"
    assert parse_pdn("-") == TimeControl() and format_pdn(TimeControl()) == "-"
    assert TimeControl().untimed


@pytest.mark.parametrize("text, part", [("", "empty"), ("40/", "seconds"), ("x/300", "moves"),
                                        ("300+", "increment"), ("5.5", "seconds"), ("*", "sandclock"),
                                        ("300:?", "field 2")])
def test_pdn_errors(text: str, part: str) -> None:
    with pytest.raises(TimeControlError) as info:
        parse_pdn(text)
    assert part in str(info.value)


@pytest.mark.parametrize("text", ["3+2d", "5+3b", "60+5x30", "90s+0.5"])
def test_pdn_cannot_write_what_it_cannot_say(text: str) -> None:
    with pytest.raises(TimeControlError):
        format_pdn(parse(text))


def test_presets_parse_and_round_trip() -> None:
    assert len({p.name for p in PRESETS}) == len(PRESETS)
    for p in PRESETS:
        assert format_control(p.control) == p.text, p.name
    assert find_preset("fmjd-classical").control == parse("50/120:25/60")
    assert find_preset("FMJD-Classical-Increment").control == parse("80+60")
    assert find_preset("blitz").control == parse("3+3")
    assert find_preset("superblitz").control == parse("2+2")
    with pytest.raises(TimeControlError, match="presets: fmjd-classical"):
        find_preset("nope")


def test_control_takes_a_preset_or_text() -> None:
    assert control("rapid-100") == parse("15+5")
    assert control("10+5") == parse("10+5")
    assert control("-").untimed
    with pytest.raises(TimeControlError, match="no time control preset"):
        control("rapidd")


def test_casual_multiwarcaby_defaults_fit_the_leaflet() -> None:
    """About 12 minutes a game on the small board and 20 on the big one (40 turns a side assumed)."""
    def game_minutes(preset_name: str, sides: int, turns: int = 40) -> float:
        stage = find_preset(preset_name).control.stages[0]
        return sides * (stage.time_ms + turns * stage.increment_ms) / MINUTE

    assert 10 <= game_minutes(casual_preset("multiwarcaby7").name, 2) <= 14
    for sides in (2, 3, 4):
        assert 16 <= game_minutes(casual_preset("multiwarcaby", sides).name, sides, turns=30) <= 24
    assert casual_preset("classic").name == "rapid-64"
    assert casual_preset("international").name == "rapid-100"
    with pytest.raises(TimeControlError):
        casual_preset("multiwarcaby", 5)


@pytest.mark.parametrize("text, words", [
    ("99999999999999999999999+3", "longer than any clock runs"),
    ("1500+3", "longer than any clock runs"),           # 25 hours
    ("5+100000", "longer than any clock runs"),         # an increment of 27 hours
    ("99999/5+3", "move quota '99999' is not a whole number from 1 to 1000"),
    ("5+99999x30", "byo-yomi periods '99999'"),
])
def test_numbers_no_clock_runs_to_are_refused(text: str, words: str) -> None:
    with pytest.raises(TimeControlError, match=words):
        control(text)


def test_a_pdn_time_control_past_a_day_is_refused() -> None:
    with pytest.raises(TimeControlError, match="longer than any clock runs"):
        parse_pdn("99999999999+3")
    assert parse_pdn("86400") is not None                  # exactly a day is a clock


@pytest.mark.parametrize("text", ["5+x", "5+3x", "5+x30"])
def test_a_byoyomi_with_a_part_missing_says_how_it_is_written(text: str) -> None:
    """Issue 38: "5+x" said "byo-yomi periods '' is not a whole number"."""
    with pytest.raises(TimeControlError) as caught:
        parse(text)
    assert "''" not in str(caught.value) and "like 10+5x30 (5 periods of 30 s)" in str(caught.value)
