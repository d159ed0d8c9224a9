"""PDN FEN of the draughts variants: reading, writing, round trips, errors."""

from __future__ import annotations

import random

import pytest

from damka.engine import PositionError
from damka.engine.draughts import (
    VARIANTS,
    AmericanCheckers,
    Classic81,
    ClassicDraughts,
    DraughtsPosition,
    InternationalDraughts,
)


def test_numeric_fen_with_kings() -> None:
    variant = InternationalDraughts.create()
    position = variant.parse_position("W:W21,22,K30:B1,2")
    number = variant.geometry.number
    assert position.turn == 0 and position.quiet == 0
    assert [variant.piece_at(position, variant.geometry.from_number(n)) for n in (21, 22, 30, 1, 2, 3)] == [
        "w", "w", "W", "b", "b", None,
    ]
    assert variant.format_position(position) == "W:W21,22,K30:B1,2"
    assert number(variant.geometry.parse("a1")) == 46


def test_algebraic_fen_with_kings() -> None:
    variant = ClassicDraughts.create()
    position = variant.parse_position("W:Wa1,c3,Kd4:Bf6")
    assert variant.format_position(position) == "W:Wa1,c3,Kd4:Bf6"
    assert variant.piece_at(position, variant.geometry.parse("d4")) == "W"


def test_ranges_whitespace_case_and_trailing_dot() -> None:
    variant = AmericanCheckers.create()
    assert variant.parse_position(" b : W21-32 : B1 - 12 . ") == variant.start_position()
    assert variant.parse_position("B:W21-32:B1-12") == variant.start_position()
    assert variant.parse_position('"B:W21-32:B1-12"') == variant.start_position()
    international = InternationalDraughts.create()
    assert international.parse_position("W:W31-50:B1-20") == international.start_position()
    assert international.parse_position("W:Bk1,2:W50") == international.parse_position("W:W50:BK1,2")


def test_other_notation_is_read_too() -> None:
    classic = ClassicDraughts.create()
    assert classic.parse_position("W:W29:B4") == classic.parse_position("W:Wa1:Bh8")
    american = AmericanCheckers.create()
    assert american.parse_position("B:Wa1:Bh8") == american.parse_position("B:W29:B4")


def test_counter_fields() -> None:
    variant = InternationalDraughts.create()
    position = variant.parse_position("W:WK46:BK5:H12:F40")
    assert position.quiet == 12
    assert variant.format_position(position) == "W:WK46:BK5:H12"
    assert variant.format_position(position._replace(quiet=0)) == "W:WK46:BK5"


def test_empty_side() -> None:
    variant = ClassicDraughts.create()
    position = variant.parse_position("B:Wa1:B")
    assert position.black == 0
    assert variant.format_position(position) == "B:Wa1:B"


@pytest.mark.parametrize("cls", VARIANTS, ids=lambda cls: cls.name)
def test_round_trips_through_random_games(cls) -> None:
    variant = cls.create()
    rng = random.Random(cls.name)
    for _ in range(5):
        position = variant.start_position()
        for _ply in range(60):
            text = variant.format_position(position)
            assert variant.parse_position(text) == position, text
            legal = variant.legal_moves(position)
            if not legal:
                break
            position = variant.play(position, rng.choice(legal))


@pytest.mark.parametrize(
    ("cls", "fen", "message"),
    [
        (InternationalDraughts, "W:WK99:B1", "FEN field 2, token 'K99': square 99 is off the board (1-50)"),
        (InternationalDraughts, "W:W1:B0", "FEN field 3, token '0': square 0 is off the board (1-50)"),
        (InternationalDraughts, "W:W1,2,1:B9", "FEN field 2, token '1': square b10 (1) is listed twice"),
        (InternationalDraughts, "W:W1-5:B5", "FEN field 3, token '5': square j10 (5) already holds a white piece"),
        (InternationalDraughts, "W:W5-1:B9", "FEN field 2, token '5-1': range runs backwards"),
        (InternationalDraughts, "W:W4x:B9", "FEN field 2, token '4x': not a square number"),
        (InternationalDraughts, "W:W,:B9", "FEN field 2, token '': no square"),
        (ClassicDraughts, "W:Wb1:Bh8", "FEN field 2, token 'b1': square 'b1' is not a playable square"),
        (ClassicDraughts, "W:Wa1:Bm3", "FEN field 3, token 'm3': square 'm3' is off the board (a1-h8)"),
        (ClassicDraughts, "W:Wa1:BK33", "FEN field 3, token 'K33': square 33 is off the board (1-32)"),
        (ClassicDraughts, "X:Wa1:Bh8", "FEN field 1: side to move must be W or B"),
        (ClassicDraughts, "W:Wa1", "FEN has no field for black"),
        (ClassicDraughts, "W:Wa1:Wc1:Bh8", "FEN field 3: a second field for white"),
        (ClassicDraughts, "W:Wa1:Bh8:Q3", "FEN field 4: expected W or B"),
        (ClassicDraughts, "W:Wa1:Bh8:Hx", "FEN field 4: H must be followed by a number"),
        (ClassicDraughts, "", "empty FEN"),
        (Classic81, "W:Wj1:Bh8", "off the board (a1-i9)"),
    ],
)
def test_fen_errors_say_which_field_and_token(cls, fen: str, message: str) -> None:
    with pytest.raises(PositionError) as error:
        cls.create().parse_position(fen)
    assert message in str(error.value)


def test_position_is_small_and_immutable() -> None:
    position = ClassicDraughts.create().start_position()
    assert isinstance(position, DraughtsPosition) and isinstance(position, tuple)
    with pytest.raises(AttributeError):
        position.turn = 1  # type: ignore[misc]
    assert hash(position) == hash(ClassicDraughts.create().start_position())
