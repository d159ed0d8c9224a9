"""The generic Game: take-back by popping, repetition counting, amending."""

from __future__ import annotations

import pytest

from damka.engine import Game, IllegalMoveError, find_variant


def test_pop_takes_back_exactly_and_restores_the_position() -> None:
    game = Game(find_variant("classic"))
    start = game.position
    move = game.legal_moves()[0]
    game.push(move)
    assert game.ply == 1 and game.turn == 1
    assert game.pop() == move
    assert game.position == start and game.ply == 0 and game.turn == 0


def test_pop_on_an_empty_game_is_a_clear_error() -> None:
    with pytest.raises(IllegalMoveError, match="no move to take back"):
        Game(find_variant("classic")).pop()


def test_an_illegal_move_is_refused_and_changes_nothing() -> None:
    game = Game(find_variant("classic"))
    legal = game.legal_moves()[0]
    game.push(legal)
    with pytest.raises(IllegalMoveError):
        game.push(legal)  # the same piece cannot move from the same square again
    assert game.ply == 1


def test_amend_drops_a_multiwarcaby_player_and_keeps_their_points() -> None:
    variant = find_variant("multiwarcaby", sides=3)
    game = Game(variant)
    game.push(game.legal_moves()[0])
    before = game.position
    game.amend(variant.drop_side(game.position, 0))
    assert game.ply == 1 and game.position != before
    assert game.turn == 1  # side 0 was mid-turn; the next side in play starts
    assert variant.scores(game.position) == variant.scores(before)


def test_threefold_repetition_counts_through_push_and_pop() -> None:
    variant = find_variant("classic")
    game = Game(variant, variant.parse_position("W:WKa1:BKh2"))
    shuttle = ["a1-b2", "h2-g1", "b2-a1", "g1-h2"]
    from damka.engine.notation import parse_move

    for _ in range(2):
        for text in shuttle:
            game.push(parse_move(variant, game.position, text))
    assert game.result is not None and "repetition" in game.result.reason
    game.pop()
    assert game.result is None
