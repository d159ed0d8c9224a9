"""Multiwarcaby turns: two moves from the turn start, chains that may stop anywhere."""

from __future__ import annotations

import random

from damka.controller.board.board_map import BoardMap

from damka.controller.board.tracker import Kind, Tracker
from damka.engine import Game, find_variant
from damka.engine.notation import parse_move


def setup(name: str = "multiwarcaby", **options):
    variant = find_variant(name, **options)
    return variant, Game(variant), Tracker(variant), BoardMap(variant)


def test_one_move_is_half_a_turn_two_are_a_turn() -> None:
    variant, game, tracker, board = setup()
    start = game.position
    first = parse_move(variant, start, "e4-e5")
    middle = variant.play(start, first)
    second = parse_move(variant, middle, "b2-a1")
    after1 = variant.occupancy(middle)
    after2 = variant.occupancy(variant.play(middle, second))
    reading = tracker.read(game, after1)
    assert reading.kind is Kind.HALF_TURN and reading.turns == ((first,),)
    reading = tracker.read(game, after2)
    assert reading.kind is Kind.COMPLETE
    assert all(variant.occupancy(variant.play(variant.play(start, a), b)) == after2 for a, b in reading.turns)
    # the second piece in the hand: a part-way second move
    lifted = after1 & ~board.bits(["b2"])
    reading = tracker.read(game, lifted)
    assert reading.kind is Kind.IN_PROGRESS


def test_further_jump_of_the_same_piece_reads_as_one_move() -> None:
    variant, game, tracker, board = setup()
    rng = random.Random(3)
    position = game.position
    # play random turns until a chain that can continue exists, then check it
    for _ in range(30):
        moves = variant.legal_moves(position)
        longer = [m for m in moves if len(m.captures) >= 2]
        if longer:
            chain = longer[0]
            reading = tracker.read(Game(variant, position), variant.occupancy(variant.play(position, chain)))
            assert reading.kind is Kind.HALF_TURN  # one move, whatever pair would give the same board
            return
        position = variant.play(position, rng.choice(moves))
    raise AssertionError("no multi-jump found in 30 random moves")


def test_random_turns_are_read_back() -> None:
    for name, options in (("multiwarcaby", {"sides": 4}), ("multiwarcaby7", {})):
        variant, game, tracker, board = setup(name, **options)
        rng = random.Random(7)
        for _ in range(12):
            if game.is_over:
                break
            start = game.position
            first = rng.choice(variant.legal_moves(start))
            middle = variant.play(start, first)
            second = rng.choice(variant.legal_moves(middle))
            after = variant.occupancy(variant.play(middle, second))
            reading = tracker.read(game, after)
            pairs = tracker.complete_pairs(game, after)
            if reading.kind is Kind.HALF_TURN:
                pass  # the same board as one move: a chain read as one move, or a step pair
            else:
                assert reading.kind in (Kind.COMPLETE, Kind.IN_PROGRESS), reading.kind
                assert pairs
            game.push(first)
            game.push(second)


def test_take_back_only_to_turn_starts() -> None:
    variant, game, tracker, board = setup()
    start_occ = variant.occupancy(game.position)
    game.push(parse_move(variant, game.position, "e4-e5"))
    game.push(parse_move(variant, game.position, "d4-e4"))
    reading = tracker.read(game, start_occ)
    assert reading.kind in (Kind.TAKEBACK, Kind.COMPLETE, Kind.HALF_TURN, Kind.IN_PROGRESS)
    assert tracker.takeback_plies(game, start_occ) == 2
