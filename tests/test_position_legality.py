"""Positions no game reaches are refused where a position enters (issue 42): a FEN tag, `--fen`,
a lesson, a puzzle set all read through `Variant.parse_position`."""

from __future__ import annotations

import subprocess
import sys

import pytest

from damka.controller import words
from damka.engine import PositionError
from damka.engine.pdn import read_game
from damka.engine.variants import find_variant


@pytest.mark.parametrize("name, fen, says", [
    ("international", "B:W5,K6,10,K11,13:B1,3,K9,K15", "a white man on 5, White's crowning row"),
    ("international", "W:W5:B40", "a white man on 5, White's crowning row"),
    ("international", "W:W40:B46", "a black man on 46, Black's crowning row"),
    ("classic", "W:Wb8:Bc1", "a white man on b8, White's crowning row"),
    ("american", "B:W1:B30", "a white man on 1, White's crowning row"),
    ("russian", "W:Wc3:Bb2,d2,f2,h2,a1", "a black man on a1, Black's crowning row"),
    ("international", "W:W6-26:B40", "White has 21 pieces; the game starts with 20"),
    ("american", "W:W20-32,K1:B5-7", "White has 14 pieces; the game starts with 12"),
])
def test_an_impossible_position_is_refused_with_its_reason(name: str, fen: str, says: str) -> None:
    with pytest.raises(PositionError, match=says.replace("(", r"\(")):
        find_variant(name).parse_position(fen)


@pytest.mark.parametrize("name, fen", [
    ("international", "W:WK5,46,47:B1,2,K50"),      # kings on the crowning rows, men on their own first rows
    ("international", "W:W31-50:B1-20"),            # the start: every piece
    ("american", "B:W5,K6,10,K11,13:B1,3,K9,K15"),  # international-0141 is an English checkers problem
    ("classic", "W:Wa1,Kb8:Bh8,Kc1"),
])
def test_a_possible_position_is_read(name: str, fen: str) -> None:
    variant = find_variant(name)
    assert variant.format_position(variant.parse_position(fen)) == variant.format_position(
        variant.parse_position(variant.format_position(variant.parse_position(fen))))


def test_the_reason_is_said_in_polish() -> None:
    with pytest.raises(PositionError) as caught:
        find_variant("international").parse_position("W:W5:B40")
    with words.speaking("pl"):
        said = words.said(caught.value.args[0])
    assert said == "biały pionek na polu 5, w rzędzie promocji białych: tam pionek jest damką"


def test_a_pdn_fen_tag_of_an_impossible_position_is_a_record_error() -> None:
    game = read_game('[GameType "20"]\n[FEN "W:W5,33:B40"]\n\n1. 33-28 *\n')
    assert game.errors and "White's crowning row" in game.first_error()
    assert not game.moves


def test_perft_fen_refuses_a_man_on_its_crowning_row() -> None:
    done = subprocess.run([sys.executable, "-m", "damka", "perft", "international", "1", "--fen", "W:W5:B40"], capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and "White's crowning row" in done.stderr + done.stdout


def test_multiwarcaby_refuses_more_pieces_than_it_starts_with() -> None:
    variant = find_variant("multiwarcaby")
    text = variant.format_position(variant.start_position())
    board = "/".join(["o" * 9] * 9)
    fields = [field if not field.startswith(("O", "B")) else field[0] + board for field in text.split(":")]
    with pytest.raises(PositionError, match="81 pieces on the board; the game starts with 76"):
        variant.parse_position(":".join(fields))
    assert variant.parse_position(text) == variant.start_position()


def test_an_impossible_problem_named_american_is_refused_not_read_as_ten_by_ten() -> None:
    """beginner.pdn's problem 10 has a white man on 1: `import --variant american` refuses it with
    that reason; it is not passed on to the 10x10 board where square 1 would be legal for it."""
    from damka.controller.store.pdn import iter_outcomes

    text = '[Event "Beginner\'s Problem #10"]\n[SetUp "1"]\n[FEN "W:W18,K15,1:BK30,K26,2."]\n0-1\n'
    for named in ("american", None):
        [outcome] = iter_outcomes([text], variant=named)
        assert outcome.record is None and "a white man on 1, White's crowning row" in outcome.reason, named
