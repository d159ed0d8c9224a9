"""Move text: squares in each variant's notation, moves written and read back, errors."""

from __future__ import annotations

import random

import pytest

from damka.engine import (
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidSquareError,
    Move,
    find_variant,
)
from damka.engine.notation import format_move, format_route, parse_move, parse_square, square_name

ALL_VARIANTS = ("classic", "classic81", "russian", "american", "international", "canadian",
                "multiwarcaby", "multiwarcaby7")
NUMERIC = {"american", "international", "canadian"}


def play_random(variant, rng: random.Random, plies: int):
    """Positions of a random game, the start first, with their legal moves."""
    position = variant.start_position()
    for _ in range(plies):
        legal = variant.legal_moves(position)
        yield position, legal
        if not legal or variant.outcome(position, 1) is not None:
            return
        position = variant.play(position, rng.choice(legal))


# -- squares ------------------------------------------------------------------


@pytest.mark.parametrize("name", ALL_VARIANTS)
def test_every_square_round_trips(name: str) -> None:
    variant = find_variant(name)
    for square in variant.geometry.squares:
        text = square_name(variant, square)
        assert text.isdigit() == (name in NUMERIC)
        assert parse_square(variant, text) == square


def test_square_names_and_numbers() -> None:
    international = find_variant("international")
    assert square_name(international, international.geometry.parse("a1")) == "46"
    assert square_name(international, international.geometry.parse("b10")) == "1"
    assert parse_square(international, "j10") == parse_square(international, "5")  # names read too
    classic = find_variant("classic")
    assert square_name(classic, classic.geometry.parse("c3")) == "c3"
    assert parse_square(classic, "22") == classic.geometry.parse("c3")  # PDN numbers read too
    small = find_variant("multiwarcaby7")
    assert square_name(small, small.geometry.parse("b3")) == "b3"


@pytest.mark.parametrize(("name", "text"), [
    ("classic", "k3"), ("classic", "a2"), ("international", "51"), ("international", "0"),
    ("multiwarcaby", "12"), ("multiwarcaby7", "a1"), ("classic", "e"),
])
def test_bad_squares_are_refused(name: str, text: str) -> None:
    with pytest.raises(InvalidSquareError):
        parse_square(find_variant(name), text)


# -- moves --------------------------------------------------------------------


@pytest.mark.parametrize("name", ALL_VARIANTS)
def test_every_legal_move_reads_back_from_its_text(name: str) -> None:
    variant = find_variant(name)
    for seed in range(3):
        for position, legal in play_random(variant, random.Random(seed), 40):
            for move in legal:
                text = format_move(variant, position, move, legal)
                assert parse_move(variant, position, text, legal) == move, text
                route = format_route(variant, move)
                back = parse_move(variant, position, route.replace("x", ":"), legal)
                assert back == move and back.path == move.path, route


def test_steps_and_captures_in_numbers() -> None:
    variant = find_variant("international")
    position = variant.start_position()
    move = parse_move(variant, position, "32-28")
    assert format_move(variant, position, move) == "32-28"
    position = variant.parse_position("W:W28:B23")
    capture = parse_move(variant, position, "28x19")
    assert capture.captures == {variant.geometry.from_number(23)}
    assert format_move(variant, position, capture) == "28x19"
    assert parse_move(variant, position, "28:19") == capture
    assert parse_move(variant, position, "28X19!") == capture


def test_algebraic_capture_and_lenient_dash() -> None:
    variant = find_variant("classic")
    position = variant.parse_position("W:Wc3:Bd4")
    capture = parse_move(variant, position, "c3xe5")
    assert format_move(variant, position, capture) == "c3xe5"
    assert parse_move(variant, position, "c3-e5") == capture  # only a capture goes there


def test_route_only_when_start_and_end_are_ambiguous() -> None:
    # Free capture: e1 can stop at e5 via c3 (taking d2, d4) or via g3 (taking f2, f4).
    variant = find_variant("classic", free_capture=True)
    position = variant.parse_position("W:We1:Bd2,d4,f2,f4,h8")
    with pytest.raises(AmbiguousMoveError) as info:
        parse_move(variant, position, "e1xe5")
    assert "e1xc3xe5" in str(info.value) and "e1xg3xe5" in str(info.value)
    via_c3 = parse_move(variant, position, "e1xc3xe5")
    assert via_c3.captures == {variant.geometry.parse("d2"), variant.geometry.parse("d4")}
    assert format_move(variant, position, via_c3) == "e1xc3xe5"
    single = parse_move(variant, position, "e1xc3")
    assert format_move(variant, position, single) == "e1xc3"


def test_majority_route_with_same_captures_is_one_move() -> None:
    # Classic: the loop e1-c3-e5-g3-e1 either way round takes all four: one move, no route needed.
    variant = find_variant("classic")
    position = variant.parse_position("W:We1:Bd2,d4,f2,f4,h8")
    legal = variant.legal_moves(position)
    assert len(legal) == 1
    assert format_move(variant, position, legal[0]) == "e1xe1"
    assert parse_move(variant, position, "e1xe1") == legal[0]
    assert parse_move(variant, position, "e1xg3xe5xc3xe1") == legal[0]


def test_multiwarcaby_single_jump_is_its_own_route() -> None:
    variant = find_variant("multiwarcaby")
    position = variant.start_position()
    move = parse_move(variant, position, "c5xe5")
    assert move == Move(variant.geometry.parse("c5"), (variant.geometry.parse("e5"),),
                        frozenset({variant.geometry.parse("d5")}))
    assert format_move(variant, position, move) == "c5xe5"


@pytest.mark.parametrize("text", ["e3x", "99-100", "c3-d4-e5", "c3-d4xe5", "hello", "", "32"])
def test_invalid_move_text(text: str) -> None:
    variant = find_variant("classic")
    with pytest.raises(InvalidMoveError):
        parse_move(variant, variant.start_position(), text)


def test_illegal_move_says_what_is_legal_from_that_square() -> None:
    variant = find_variant("international")
    with pytest.raises(IllegalMoveError) as info:
        parse_move(variant, variant.start_position(), "33-27")
    assert "33-28" in str(info.value) and "33-29" in str(info.value)
    with pytest.raises(IllegalMoveError) as info:
        parse_move(variant, variant.start_position(), "26-21")
    assert "no piece on 26" in str(info.value)


def test_compulsory_capture_is_named() -> None:
    variant = find_variant("classic")
    position = variant.parse_position("W:Wc3,g3:Bd4")
    with pytest.raises(IllegalMoveError) as info:
        parse_move(variant, position, "g3-h4")
    assert "compulsory" in str(info.value) and "c3xe5" in str(info.value)


def test_errors_are_value_errors() -> None:
    variant = find_variant("classic")
    with pytest.raises(ValueError):
        parse_move(variant, variant.start_position(), "a1-a2")
