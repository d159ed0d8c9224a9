"""The move rules of the draughts family, one position (a FEN) per rule."""

from __future__ import annotations

import pytest

from damka.engine import find_variant
from damka.engine.draughts import (
    VARIANTS,
    AmericanCheckers,
    CanadianDraughts,
    Classic81,
    ClassicDraughts,
    InternationalDraughts,
    RussianDraughts,
)


def moves(variant, fen: str) -> set[str]:
    """Legal moves as `start-end` / `startxlandingx...` strings, with what
    stands on the end square afterwards (`w` man, `W` king)."""
    position = variant.parse_position(fen)
    names = variant.geometry.name
    found = set()
    for move in variant.legal_moves(position):
        sep = "x" if move.captures else "-"
        after = variant.play(position, move)
        route = names(move.start) + sep + sep.join(names(sq) for sq in move.path)
        found.add(f"{route} {variant.piece_at(after, move.end)}")
    return found


def classic(**options):
    return ClassicDraughts.create(**options)


# -- compulsory capture and the majority rule ----------------------------------


def test_capture_is_compulsory() -> None:
    assert moves(classic(), "W:Wc3,a1:Bd4") == {"c3xe5 w"}


def test_majority_counts_pieces_so_two_men_beat_one_king() -> None:
    assert moves(classic(), "W:Wa3,h2:BKb4,g3,g5") == {"h2xf4xh6 w"}


def test_majority_counts_men_and_kings_alike() -> None:
    assert moves(classic(), "W:Wa3,h2:BKb4,Kb6,g3,g5") == {"a3xc5xa7 w", "h2xf4xh6 w"}


def test_russian_chooses_any_capture() -> None:
    assert moves(RussianDraughts.create(), "W:Wa3,h2:BKb4,g3,g5") == {"a3xc5 w", "h2xf4xh6 w"}


def test_american_chooses_any_capture() -> None:
    assert moves(AmericanCheckers.create(), "W:Wa3,h2:BKb4,g3,g5") == {"a3xc5 w", "h2xf4xh6 w"}


def test_international_majority_rule_and_a_man_ending_on_its_start() -> None:
    # 32x23 or 33x24 would take one; the man on 33 can take four round the
    # loop 33x24x13x22x33, ending where it started, so that is the only move.
    variant = InternationalDraughts.create()
    position = variant.parse_position("W:W32,33:B28,29,18,19")
    number = variant.geometry.number
    [move] = variant.legal_moves(position)
    assert number(move.start) == number(move.end) == 33
    assert sorted(map(number, move.captures)) == [18, 19, 28, 29]
    assert variant.format_position(variant.play(position, move)) == "B:W32,33:B"


# -- the Turkish strike and single jumps ------------------------------------------


def test_a_piece_cannot_be_jumped_twice() -> None:
    # After c3xe5 the man may not jump d4 again back onto its (now empty) start.
    assert moves(classic(), "W:Wc3:Bd4") == {"c3xe5 w"}


def test_turkish_strike_captured_pieces_block_until_the_move_ends() -> None:
    # a1xe5xc7xa5 takes c3, d6, b6; from a5 the way to d2 runs over c3,
    # which is taken but still on the board, so d2 cannot be reached.
    assert moves(classic(), "W:WKa1:Bc3,d6,b6,d2") == {"a1xe5xc7xa5 W"}


def test_captured_pieces_leave_after_the_move() -> None:
    variant = classic()
    position = variant.parse_position("W:WKa1:Bc3,d6,b6,d2")
    after = variant.play(position, variant.legal_moves(position)[0])
    assert variant.format_position(after) == "B:WKa5:Bd2"


# -- kings -------------------------------------------------------------------------


def test_flying_king_lands_on_any_square_beyond() -> None:
    assert moves(classic(), "W:WKa1:Bc3") == {"a1xd4 W", "a1xe5 W", "a1xf6 W", "a1xg7 W", "a1xh8 W"}


def test_king_must_land_where_it_can_capture_on() -> None:
    # Russian: free choice among captures, but a started capture goes on: of
    # d4-h8 only e5 lets the king take f4, so it must land there.
    assert moves(RussianDraughts.create(), "W:WKa1:Bc3,f4") == {"a1xe5xg3 W", "a1xe5xh2 W"}


def test_king_capture_may_end_on_its_start_square() -> None:
    variant = classic()
    position = variant.parse_position("W:WKc1:Bd2,d4,b4,b2")
    legal = variant.legal_moves(position)
    # Both directions round the loop are one move (same start, end, captures).
    assert len(legal) == 1
    move = legal[0]
    assert move.start == move.end == variant.geometry.parse("c1")
    assert len(move.path) == 4 and len(move.captures) == 4
    assert variant.format_position(variant.play(position, move)) == "B:WKc1:B"


def test_flying_king_moves_and_captures_at_a_distance() -> None:
    assert moves(classic(), "W:WKd4:Bf6") == {"d4xg7 W", "d4xh8 W"}
    quiet = moves(classic(), "W:WKd4:Bh8")
    assert len(quiet) == 12 and "d4-a7 W" in quiet and "d4-g7 W" in quiet


def test_american_kings_are_short() -> None:
    assert moves(AmericanCheckers.create(), "W:WKd4:Bf6") == {"d4-c3 W", "d4-c5 W", "d4-e3 W", "d4-e5 W"}
    assert moves(AmericanCheckers.create(), "W:WKd4:Be5") == {"d4xf6 W"}
    assert moves(AmericanCheckers.create(), "W:WKd4:Bc3") == {"d4xb2 W"}


# -- men ---------------------------------------------------------------------------


def test_men_step_forward_only() -> None:
    assert moves(classic(), "W:Wd4:Bh8") == {"d4-c5 w", "d4-e5 w"}
    assert moves(classic(), "B:Wa1:Bd4") == {"d4-c3 b", "d4-e3 b"}


def test_classic_men_capture_backward() -> None:
    assert moves(classic(), "W:Wd4:Bc5,e3") == {"d4xb6 w", "d4xf2 w"}


def test_american_men_capture_forward_only() -> None:
    assert moves(AmericanCheckers.create(), "W:Wd4:Bc5,e3") == {"d4xb6 w"}
    assert moves(AmericanCheckers.create(), "W:Wd4:Be3") == {"d4-c5 w", "d4-e5 w"}


# -- promotion ---------------------------------------------------------------------


def test_classic_man_passing_the_far_rank_mid_capture_stays_a_man() -> None:
    assert moves(classic(), "W:Wd6:Be7,g7") == {"d6xf8xh6 w"}
    # From d8 it captures on backwards as a man (e7), and ends on f6 a man.
    assert moves(classic(), "W:Wb6:Bc7,e7") == {"b6xd8xf6 w"}


def test_classic_man_ending_on_the_far_rank_is_crowned() -> None:
    assert moves(classic(), "W:Wb6:Bc7") == {"b6xd8 W"}
    assert moves(classic(), "W:Wc7:BKa1") == {"c7-b8 W", "c7-d8 W"}   # kings: men there are crowned
    assert moves(classic(), "B:WKh8:Bb2") == {"b2-a1 B", "b2-c1 B"}


def test_russian_man_is_crowned_mid_capture_and_goes_on_as_a_king() -> None:
    assert moves(RussianDraughts.create(), "W:Wd6:Be7,g7") == {"d6xf8xh6 W"}
    # Crowned on d8, it takes e7 as a flying king and lands anywhere beyond.
    assert moves(RussianDraughts.create(), "W:Wb6:Bc7,e7") == {"b6xd8xf6 W", "b6xd8xg5 W", "b6xd8xh4 W"}


def test_american_crowning_ends_the_move() -> None:
    assert moves(AmericanCheckers.create(), "W:Wb6:Bc7,e7") == {"b6xd8 W"}


def test_classic81_promotes_on_ranks_9_and_1() -> None:
    variant = Classic81.create()
    assert moves(variant, "W:Wd8,c7:Bb2") == {"d8-c9 W", "d8-e9 W", "c7-b8 w"}
    assert moves(variant, "B:Wd8,c7:Bb2") == {"b2-a1 B", "b2-c1 B"}
    assert moves(variant, "B:Wd8:Bh4") == {"h4-g3 b", "h4-i3 b"}


# -- free capture ------------------------------------------------------------------


def test_free_capture_makes_capturing_optional_and_chains_stoppable() -> None:
    assert moves(classic(free_capture=True), "W:Wc3,a1:Bd4,f6") == {"a1-b2 w", "c3-b4 w", "c3xe5 w", "c3xe5xg7 w"}


def test_free_capture_lifts_the_majority_rule() -> None:
    found = moves(classic(free_capture=True), "W:Wa3,h2:BKb4,g3,g5")
    assert {"a3xc5 w", "h2xf4 w", "h2xf4xh6 w"} <= found


def test_free_capture_man_stopping_on_the_far_rank_is_crowned() -> None:
    assert moves(classic(free_capture=True), "W:Wb6:Bc7,e7") == {"b6-a7 w", "b6xd8 W", "b6xd8xf6 w"}


def test_free_capture_on_classic81() -> None:
    assert moves(Classic81.create(free_capture=True), "W:Wc3:Bd4,f6") == {"c3-b4 w", "c3xe5 w", "c3xe5xg7 w"}


# -- set-ups -------------------------------------------------------------------------


def test_start_positions() -> None:
    fens = {cls.name: cls.create().format_position(cls.create().start_position()) for cls in VARIANTS}
    assert fens["classic"] == "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"
    assert fens["classic81"] == fens["classic"]
    assert fens["american"] == "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    assert fens["international"] == "W:W" + ",".join(map(str, range(31, 51))) + ":B" + ",".join(map(str, range(1, 21)))
    assert fens["canadian"] == "W:W" + ",".join(map(str, range(43, 73))) + ":B" + ",".join(map(str, range(1, 31)))


def test_classic81_symmetric_puts_black_on_whites_setup_turned_round() -> None:
    variant = Classic81.create(symmetric=True)
    position = variant.start_position()
    geometry = variant.geometry
    assert variant.format_position(position) == (
        "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bc7,e7,g7,i7,b8,d8,f8,h8,c9,e9,g9,i9"
    )
    turned = 0
    for sq in geometry.squares:
        file, rank = geometry.file_rank(sq)
        if position.white >> sq & 1:
            turned |= 1 << geometry.index(8 - file, 8 - rank)
    assert turned == position.black


def test_first_side() -> None:
    assert AmericanCheckers.create().side_to_move(AmericanCheckers.create().start_position()) == 1
    for cls in (ClassicDraughts, Classic81, RussianDraughts, InternationalDraughts, CanadianDraughts):
        assert cls.create().start_position().turn == 0


def test_piece_codes_and_occupancy() -> None:
    variant = classic()
    position = variant.parse_position("W:Wa1,Kc1:Bb8,Kd8")
    at = lambda name: variant.piece_at(position, variant.geometry.parse(name))  # noqa: E731
    assert (at("a1"), at("c1"), at("b8"), at("d8"), at("e1")) == ("w", "W", "b", "B", None)
    assert variant.occupancy(position) == variant.geometry.mask_of(["a1", "c1", "b8", "d8"])


# -- variants and options --------------------------------------------------------------


@pytest.mark.parametrize(
    ("alias", "name"),
    [
        ("brazilian", "classic"), ("warcaby", "classic"), ("Classic", "classic"), ("checkers", "american"),
        ("english", "american"), ("polish", "international"), ("10x10", "international"),
        ("warcaby-polskie", "international"), ("12x12", "canadian"), ("shashki", "russian"),
        ("classic81", "classic81"),
    ],
)
def test_aliases(alias: str, name: str) -> None:
    assert find_variant(alias).name == name


def test_create_rejects_options_it_does_not_take() -> None:
    with pytest.raises(ValueError, match="symmetric"):
        ClassicDraughts.create(symmetric=True)
    with pytest.raises(ValueError, match="free_capture"):
        RussianDraughts.create(free_capture=True)
    with pytest.raises(ValueError):
        Classic81.create(symmetric="yes")
    with pytest.raises(ValueError):
        ClassicDraughts.create(draw_moves=0)
    assert find_variant("classic81", free_capture=True, symmetric=True).free_capture


def test_draw_number_is_a_setting() -> None:
    assert classic().draw_moves == 15
    assert classic(draw_moves=20).draw_moves == 20
    assert InternationalDraughts.create().draw_moves == CanadianDraughts.create().draw_moves == 25
    assert AmericanCheckers.create().draw_moves == 40


def test_capturing_pieces_are_those_that_start_a_legal_capture() -> None:
    variant = classic()
    position = variant.parse_position("W:Wa3,h2,c1:BKb4,g3,g5")
    # a3 could take the king, but the majority rule leaves only h2.
    assert variant.capture_required(position)
    assert variant.capturing_pieces(position) == {variant.geometry.parse("h2")}
    assert not classic(free_capture=True).capture_required(position)


def test_free_capture_king_may_stop_after_any_jump_on_any_square() -> None:
    found = moves(classic(free_capture=True), "W:WKa1:Bc3,f4")
    captures = {move for move in found if "x" in move}
    # One jump, landing d4-h8; or on from e5 over f4 to g3 or h2.
    assert captures == {"a1xd4 W", "a1xe5 W", "a1xf6 W", "a1xg7 W", "a1xh8 W", "a1xe5xg3 W", "a1xe5xh2 W"}
    assert "a1-b2 W" in found

