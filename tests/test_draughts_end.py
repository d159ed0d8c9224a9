"""End of a draughts game: no legal move, the draw counter, threefold
repetition; and `Game` push/pop on draughts positions."""

from __future__ import annotations

import pytest

from damka.engine import Game, IllegalMoveError, Move
from damka.engine.draughts import AmericanCheckers, ClassicDraughts, InternationalDraughts, RussianDraughts


def move(variant, text: str, position=None) -> Move:
    """`c3-d4` or `c3xe5xg7` (algebraic squares). Quiet moves are built
    directly; captures are looked up among the legal moves of `position`."""
    parse = variant.geometry.parse
    squares = [parse(name) for name in text.replace("x", "-").split("-")]
    if "x" not in text:
        return Move(squares[0], tuple(squares[1:]))
    [found] = [m for m in variant.legal_moves(position) if m.start == squares[0] and m.end == squares[-1]]
    return found


# -- no legal move ------------------------------------------------------------


def test_a_side_with_all_pieces_blocked_loses() -> None:
    variant = ClassicDraughts.create()
    position = variant.parse_position("W:Wa1:Bb2,c3")
    assert variant.legal_moves(position) == []
    result = variant.outcome(position, 1)
    assert result.winner == 1 and result.points == (0.0, 1.0) and result.places == (2, 1)
    assert "no legal move" in result.reason


def test_a_side_with_no_pieces_loses() -> None:
    variant = InternationalDraughts.create()
    result = variant.outcome(variant.parse_position("B:W28:B"), 1)
    assert result.winner == 0 and result.points == (1.0, 0.0)


def test_a_side_that_can_move_has_not_lost() -> None:
    variant = ClassicDraughts.create()
    assert variant.outcome(variant.start_position(), 1) is None
    assert variant.outcome(variant.parse_position("W:Wa1:Bb2"), 1) is None  # a1xc3


# -- the draw counter -----------------------------------------------------------


@pytest.mark.parametrize(
    ("cls", "moves_each"),
    [(ClassicDraughts, 15), (RussianDraughts, 15), (InternationalDraughts, 25), (AmericanCheckers, 40)],
)
def test_draw_after_n_king_moves_each(cls, moves_each: int) -> None:
    variant = cls.create()
    plies = 2 * moves_each
    square = variant.geometry.name(variant.geometry.squares[0])
    far = variant.geometry.name(variant.geometry.squares[-1])
    position = variant.parse_position(f"W:WK{square}:BK{far}:H{plies - 1}")
    assert variant.outcome(position, 1) is None
    after = variant.play(position, variant.legal_moves(position)[0])
    assert after.quiet == plies
    result = variant.outcome(after, 1)
    assert result.is_draw and result.points == (0.5, 0.5) and str(moves_each) in result.reason


def test_draw_counter_counts_king_moves_and_resets_on_man_moves_and_captures() -> None:
    variant = ClassicDraughts.create()
    position = variant.parse_position("W:WKa1,c1:Bh8,Kb8:H7")
    assert variant.play(position, move(variant, "a1-b2")).quiet == 8
    man_move = variant.play(variant.parse_position("B:WKa1:Bh8,Kb8:H7"), move(variant, "h8-g7"))
    assert man_move.quiet == 0
    position = variant.parse_position("W:WKa1:Bc3,h8:H7")
    capture = variant.play(position, move(variant, "a1xd4", position))
    assert capture.quiet == 0


def test_draw_number_setting_changes_the_limit() -> None:
    variant = ClassicDraughts.create(draw_moves=20)
    assert variant.outcome(variant.parse_position("W:WKa1:BKh8:H30"), 1) is None
    assert variant.outcome(variant.parse_position("W:WKa1:BKh8:H40"), 1).is_draw


def test_repetition_key_leaves_out_the_counter() -> None:
    variant = ClassicDraughts.create()
    a = variant.parse_position("W:WKa1:BKh8:H3")
    b = variant.parse_position("W:WKa1:BKh8:H7")
    assert a != b and variant.repetition_key(a) == variant.repetition_key(b)


# -- threefold repetition ---------------------------------------------------------


def shuffle(game: Game, times: int) -> None:
    variant = game.variant
    for _ in range(times):
        for text in ("a1-b2", "h2-g1", "b2-a1", "g1-h2"):
            game.push(move(variant, text))


def test_threefold_repetition_is_a_draw() -> None:
    variant = ClassicDraughts.create()
    game = Game(variant, variant.parse_position("W:WKa1:BKh2"))
    shuffle(game, 1)
    assert game.result is None  # twice
    shuffle(game, 1)
    assert game.result.is_draw and game.result.reason == "threefold repetition"
    game.pop()
    assert game.result is None


def test_threefold_repetition_can_be_switched_off() -> None:
    variant = ClassicDraughts.create(threefold=False)
    game = Game(variant, variant.parse_position("W:WKa1:BKh2"))
    shuffle(game, 3)
    assert game.result is None


# -- Game ------------------------------------------------------------------------


def test_game_push_and_pop() -> None:
    variant = ClassicDraughts.create()
    game = Game(variant)
    first = move(variant, "c3-d4")
    game.push(first)
    assert game.turn == 1 and game.ply == 1
    game.push(move(variant, "f6-e5"))
    # White must capture now: a quiet move is refused.
    with pytest.raises(IllegalMoveError):
        game.push(move(variant, "a3-b4"))
    game.push(move(variant, "d4xf6", game.position))
    assert variant.format_position(game.position) == (
        "B:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,f6:Bb6,d6,h6,a7,c7,e7,g7,b8,d8,f8,h8"
    )
    assert game.pop().captures
    game.pop()
    assert game.pop() == first
    assert game.position == variant.start_position()
    with pytest.raises(IllegalMoveError):
        game.pop()


def test_game_keeps_the_route_given_for_a_capture() -> None:
    variant = ClassicDraughts.create()
    game = Game(variant, variant.parse_position("W:WKc1:Bd2,d4,b4,b2"))
    [legal] = variant.legal_moves(game.position)
    parse = variant.geometry.parse
    path = tuple(parse(name) for name in ("a3", "c5", "e3", "c1"))
    route = Move(parse("c1"), path, legal.captures)
    assert route == legal and route.path != legal.path  # the other way round the loop
    game.push(route)
    assert game.moves[0].path == path
    assert game.result.winner == 0  # black has nothing left


def test_game_result_on_a_lost_position() -> None:
    variant = AmericanCheckers.create()
    game = Game(variant, variant.parse_position("B:WK1:B"))   # a king: a man on 1 would have been crowned
    assert game.result.winner == 0
    assert game.legal_moves() == []
