"""The coach: hints within the game's limit, warnings for moves that lose material by force."""

from __future__ import annotations

import pytest

from damka.controller.players.coach import Coach, HintLimitReached
from damka.engine import Game, find_variant
from damka.engine.notation import parse_move


def game_at(name: str, fen: str) -> Game:
    variant = find_variant(name)
    return Game(variant, variant.parse_position(fen))


def test_hints_are_legal_and_limited_per_game() -> None:
    game = Game(find_variant("classic"))
    coach = Coach(game.variant, hint_limit=2, hint_time=0.1)
    assert coach.hints_left == 2
    assert coach.hint(game) in game.legal_moves()
    assert coach.hint(game) in game.legal_moves()
    assert coach.hints_left == 0
    with pytest.raises(HintLimitReached):
        coach.hint(game)
    coach.new_game()
    assert coach.hints_left == 2


def test_no_limit_means_no_limit() -> None:
    game = Game(find_variant("russian"))
    coach = Coach(game.variant, hint_limit=None, hint_time=0.05)
    for _ in range(5):
        assert coach.hint(game) in game.legal_moves()
    assert coach.hints_left is None


def test_hint_finds_the_winning_shot() -> None:
    # d4-e5 gives a man and takes two back (composed, see tests/positions/draughts.txt).
    game = game_at("classic", "W:Wa1,g1,d4,c5:Bg3,h4,a7,c7")
    # A clock that stands still: the search goes to the level's depth whatever the machine's load
    # (with 2 s of wall time a loaded CI machine once stopped it short of the shot). The level
    # without noise or deliberate mistakes: the default hint level ("club") has both.
    coach = Coach(game.variant, hint_level="strong", hint_time=2.0, clock=lambda: 0.0)
    assert coach.hint(game) == parse_move(game.variant, game.position, "d4-e5")


def test_warns_when_the_move_hangs_a_man() -> None:
    game = game_at("classic", "W:Wa1,d4:Bf6,h8")
    coach = Coach(game.variant)
    blunder = parse_move(game.variant, game.position, "d4-e5")  # f6xd4 follows
    warning = coach.check_blunder(game, blunder)
    assert warning is not None
    assert warning.move == blunder
    assert warning.loss >= 100
    assert warning.better is not None and warning.better != blunder
    assert "loses" in warning.text
    assert warning.line and warning.line[0].captures  # the line starts with the capture


def test_safe_moves_get_no_warning() -> None:
    game = game_at("classic", "W:Wa1,d4:Bf6,h8")
    coach = Coach(game.variant)
    assert coach.check_blunder(game, parse_move(game.variant, game.position, "d4-c5")) is None
    start = Game(find_variant("classic"))
    for move in start.legal_moves():
        assert coach.check_blunder(start, move) is None  # nothing hangs in the opening position


def test_no_warning_when_every_move_loses_material() -> None:
    # White's only men stand where any move walks into a capture: no blunder to flag.
    game = game_at("classic", "W:Wd4:Bf6,b6,h8")
    coach = Coach(game.variant)
    warnings = [coach.check_blunder(game, move) for move in game.legal_moves()]
    assert warnings == [None] * len(warnings)


def test_sacrifice_that_wins_is_not_a_blunder() -> None:
    game = game_at("classic", "W:Wa1,g1,d4,c5:Bg3,h4,a7,c7")
    coach = Coach(game.variant)
    assert coach.check_blunder(game, parse_move(game.variant, game.position, "d4-e5")) is None


def test_multiwarcaby_warns_when_the_move_throws_points_away() -> None:
    variant = find_variant("multiwarcaby")
    # Second move of the turn: a5 can take b5, d5 and f5 in one chain.
    # In multiwarcaby the material is the small-point balance, so a move
    # that leaves the chain (to the next side) is flagged; the chain is not.
    position = variant.parse_position(
        "MW9:S2:T1.2:P0,0:K0:Q0:O3o5/9/1o7/9/oo1o1o3/9/9/9/9:B2oo5/9/1o7/9/oo1o1o3/9/9/9/9")
    game = Game(variant, position)
    coach = Coach(variant)
    chain = parse_move(variant, position, "a5xg5")
    assert len(chain.captures) == 3
    assert coach.check_blunder(game, chain) is None
    warning = coach.check_blunder(game, parse_move(variant, position, "d9-e9"))
    assert warning is not None and warning.better == chain and warning.loss >= 300


def test_a_hint_is_always_the_search_s_best_move() -> None:
    """The hint is searched at the club level's depth without its noise or deliberate
    mistakes: asked again and again in the opening, where several moves score nearly
    the same, it is the same best move every time (with the noise it changed)."""
    game = Game(find_variant("classic"))
    coach = Coach(game.variant, hint_limit=None, clock=lambda: 0.0)  # a clock that stands still: depth bounds it
    hints = {coach.hint(game) for _ in range(12)}
    assert len(hints) == 1
