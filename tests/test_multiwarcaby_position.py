"""The multiwarcaby position string: round trips and errors that name the field."""

from __future__ import annotations

import random

import pytest

from damka.engine.errors import PositionError
from damka.engine.multiwarcaby import Multiwarcaby, Multiwarcaby7
from damka.engine.multiwarcaby_position import MultiwarcabyPosition

MW = Multiwarcaby.create()
MW7 = Multiwarcaby7.create()

START9 = (
    "MW9:S2:T1.1:P0,0:K0:Q0:"
    "O1ooooooo1/ooooooooo/ooooooooo/ooooooooo/oooo1oooo/ooooooooo/ooooooooo/ooooooooo/1ooooooo1"
)
START7 = "MW7:S2:T1.1:P0,0:K0:Q0:O1ooooo1/ooooooo/ooooooo/ooo1ooo/ooooooo/ooooooo/1ooooo1"


def test_start_position_strings():
    assert MW.format_position(MW.start_position()) == START9
    assert MW7.format_position(MW7.start_position()) == START7
    assert MW.parse_position(START9) == MW.start_position()
    assert MW7.parse_position(START7) == MW7.start_position()


def test_sides_teams_and_first_in_the_string():
    assert Multiwarcaby.create(sides=3, first=2).format_position(
        Multiwarcaby.create(sides=3, first=2).start_position()
    ).startswith("MW9:S3:T3.1:P0,0,0:")
    teams = Multiwarcaby.create(teams=True, first=1)
    assert teams.format_position(teams.start_position()).startswith("MW9:SAB:TB.1:P0,0:")


def test_mid_turn_string_has_the_turn_start_board():
    position = MW.play(MW.start_position(), MW.legal_moves(MW.start_position())[0])
    text = MW.format_position(position)
    assert ":T1.2:" in text and ":B" in text
    assert text.split(":B")[1] == START9.split(":O")[1]
    assert MW.parse_position(text) == position


def test_out_of_play_and_counters_round_trip():
    variant = Multiwarcaby.create(sides=4)
    position = variant.drop_side(variant.start_position(), 2)
    position = MultiwarcabyPosition(
        occupied=position.occupied, side=1, scores=(3, 0, 12, 7), turn_start=position.occupied,
        active=position.active, calm_turns=2, quiet_turns=5,
    )
    text = variant.format_position(position)
    assert ":P3,0,12,7:X3:K2:Q5:" in text
    assert variant.parse_position(text) == position


@pytest.mark.parametrize("options", [{}, {"sides": 3}, {"sides": 4}, {"teams": True}])
def test_random_games_round_trip(options):
    variant = Multiwarcaby.create(**options)
    rng = random.Random(len(options) + len(variant.sides))
    position = variant.start_position()
    for _ in range(60):
        moves = variant.legal_moves(position)
        position = variant.play(position, rng.choice(moves))
        assert variant.parse_position(variant.format_position(position)) == position


def test_small_board_random_game_round_trips():
    rng = random.Random(5)
    position = MW7.start_position()
    for _ in range(40):
        position = MW7.play(position, rng.choice(MW7.legal_moves(position)))
        assert MW7.parse_position(MW7.format_position(position)) == position


def test_fields_may_come_in_any_order_and_counters_default_to_zero():
    text = "MW9:O1ooooooo1/ooooooooo/ooooooooo/ooooooooo/oooo1oooo/ooooooooo/ooooooooo/ooooooooo/1ooooooo1:P0,0:T1.1:S2"
    assert MW.parse_position(text) == MW.start_position()


def _swap(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)



@pytest.mark.parametrize(
    ("variant", "text", "fragment"),
    [
        (MW, _swap(START9, "MW9", "MW7"), "field 1"),
        (MW7, START9, "field 1"),
        (MW, START9 + ":Z1", "field 8 'Z1': unknown field"),
        (MW, START9 + ":K3", "field K given twice"),
        (MW, START9 + ":", "unknown field"),
        (MW, _swap(START9, ":P0,0", ""), "no P field"),
        (MW, _swap(START9, "S2", "S3"), "field 2 'S3'"),
        (MW, _swap(START9, "T1.1", "T5.1"), "side '5'"),
        (MW, _swap(START9, "T1.1", "T1.3"), "field 3 'T1.3'"),
        (MW, _swap(START9, "T1.1", "T1"), "field 3 'T1'"),
        (MW, _swap(START9, "P0,0", "P0,0,0"), "expected 2 scores"),
        (MW, _swap(START9, "P0,0", "P0,x"), "field 4 'P0,x'"),
        (MW, _swap(START9, "K0", "K-1"), "field 5 'K-1'"),
        (MW, _swap(START9, "O1ooooooo1/", "O"), "expected 9 ranks"),
        (MW, _swap(START9, "oooo1oooo", "oooo1ooox"), "'x' is neither"),
        (MW, _swap(START9, "oooo1oooo", "oooo1ooooo"), "rank 5 ('oooo1ooooo') covers 10 squares"),
        (MW, _swap(START9, "oooo1oooo", "oooo1ooo"), "covers 8 squares"),
        (MW, _swap(START9, "T1.1", "T1.2"), "needs the B field"),
        (MW, START9 + ":B" + START9.split(":O")[1], "field 8 'B"),
        (MW, _swap(START9, "T1.1", "T1.2") + ":B" + START9.split(":O")[1], "equals the board now"),
        (MW, _swap(START9, "T1.1", "T1.2") + ":B" + "9/" * 8 + "o8", "fewer pieces"),
    ],
)
def test_errors_name_the_field(variant, text, fragment):
    with pytest.raises(PositionError) as error:
        variant.parse_position(text)
    assert fragment in str(error.value)


def test_out_of_play_errors():
    variant = Multiwarcaby.create(sides=3)
    text = variant.format_position(variant.start_position())
    with pytest.raises(PositionError, match="side to move is out of play"):
        variant.parse_position(text.replace(":K0", ":X1:K0"))
    with pytest.raises(PositionError, match="'7' is not a side"):
        variant.parse_position(text.replace(":K0", ":X7:K0"))


def test_position_errors_are_value_errors():
    with pytest.raises(ValueError):
        MW.parse_position("nonsense")


def test_occupancy_and_piece_at():
    position = MW.parse_position(START9)
    assert MW.occupancy(position) == position.occupied
    assert MW.piece_at(position, MW.geometry.parse("b1")) == "o"
    assert MW.piece_at(position, MW.geometry.parse("e5")) is None
    assert MW.piece_at(position, -1) is None
