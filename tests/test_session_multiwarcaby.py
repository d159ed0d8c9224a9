"""Multiwarcaby sessions: two moves a turn, the side's button ends it, 2-4 sides or teams."""

from __future__ import annotations

import random

import pytest

from damka.commands.replay import replay
from damka.controller.board.eventlog import parse_log
from damka.controller.session import Mode, Phase, SessionSettings
from damka.controller.words import say
from damka.controller.board.tracker import Kind
from damka.engine import Game, find_variant
from damka.hardware.interfaces import Role
from test_session_rig import Rig, kinds, two_move_turn


def scripted_turns(rig: Rig, rng: random.Random):
    return two_move_turn(rig.session, rng)


def play_game(rig: Rig, seed: int, max_turns: int = 400, removes=("before", "during", "after")) -> int:
    rng = random.Random(seed)
    turns = 0
    while not rig.session.game.is_over and turns < max_turns:
        first, second = scripted_turns(rig, rng)
        side = rig.session.game.turn
        expected = rig.variant.play(rig.variant.play(rig.session.game.position, first), second)
        rig.play(first, remove=rng.choice(removes))
        rig.wait(rng.choice([50, 400, 2500]))
        rig.play(second, remove=rng.choice(removes), touch_down=rng.random() < 0.7)
        rig.wait(rng.choice([20, 300]))
        rig.press(side)
        assert rig.session.game.position == expected, (turns, rig.session.message)
        turns += 1
    return turns


def test_four_players_play_a_game_to_its_end() -> None:
    rig = Rig("multiwarcaby", options={"sides": 4})
    turns = play_game(rig, seed=11)
    session = rig.session
    assert session.phase is Phase.OVER and session.result is not None
    assert len(session.committed) == 2 * turns
    assert [c.side for c in session.committed[:8]] == [0, 0, 1, 1, 2, 2, 3, 3]
    assert sum(session.scores) == sum(len(c.move.captures) for c in session.committed)
    assert kinds(rig.history)[-1] == "result"
    assert "game over" in session.message


def test_small_board_and_teams() -> None:
    for variant, options in (("multiwarcaby7", {}), ("multiwarcaby", {"teams": True})):
        rig = Rig(variant, options=options)
        play_game(rig, seed=5, max_turns=12)
        assert len(rig.session.committed) >= 2


def test_press_after_one_move_asks_for_the_second() -> None:
    rig = Rig("multiwarcaby")
    rig.move("e4-e5")
    rig.wait(3000)
    assert rig.texts == []  # no turn ends without the button, in any mode
    rig.press(0)
    assert rig.texts == [] and "second" in rig.session.message
    rig.move("b2-a1")
    rig.wait(100)
    rig.press(0)
    assert rig.texts == ["e4-e5", "b2-a1"]
    assert rig.session.game.turn == 1
    assert [c.turn for c in rig.session.committed] == [1, 1]


def test_press_on_an_unchanged_board_or_by_the_wrong_side() -> None:
    rig = Rig("multiwarcaby")
    rig.press(1)
    assert "turn" in rig.session.message
    rig.press(0)
    assert rig.texts == [] and "move" in rig.session.message


def test_a_further_jump_of_the_same_piece_is_one_move() -> None:
    variant = Rig("multiwarcaby").variant
    rng = random.Random(3)
    game = Game(variant)
    while True:  # random turns until a two-jump chain exists
        chains = [m for m in variant.legal_moves(game.position) if len(m.captures) == 2]
        if chains and variant.move_in_turn(game.position) == 0:
            break
        game.push(rng.choice(variant.legal_moves(game.position)))
    chain = chains[0]
    rig = Rig("multiwarcaby", fen=variant.format_position(game.position))
    side = rig.session.game.turn
    rig.play(chain)
    rig.wait(200)
    assert rig.kind == "half_turn"  # two jumps of one piece: one move, the second is still to come
    rig.press(side)
    assert rig.texts == [] and "second" in rig.session.message
    second = next(m for m in variant.legal_moves(variant.play(rig.session.game.position, chain))
                  if not m.captures and m.start != chain.end)
    rig.play(second)
    rig.press(side)
    assert [c.move for c in rig.session.committed] == [chain, second]


def test_tournament_press_refused_while_a_captured_piece_is_on_the_board() -> None:
    rig = Rig("multiwarcaby", mode="tournament")
    # find a capture whose board, captured pieces left on, is no legal turn at all
    variant = rig.variant
    tracker = rig.session.tracker
    rng = random.Random(2)
    game = Game(variant)
    for _ in range(200):
        for move in variant.legal_moves(game.position):
            if not move.captures:
                continue
            base = variant.occupancy(game.position)
            left_on = (base & ~(1 << move.start)) | (1 << move.end)
            if tracker.read(game, left_on).kind is Kind.IN_PROGRESS and not tracker.complete_pairs(game, left_on):
                break
        else:
            game.push(rng.choice(variant.legal_moves(game.position)))
            if variant.move_in_turn(game.position):
                game.push(rng.choice(variant.legal_moves(game.position)))
            continue
        break
    rig = Rig("multiwarcaby", mode="tournament", fen=variant.format_position(game.position))
    side = rig.session.game.turn
    rig.board.lift(rig.name(move.start))
    rig.board.drop(rig.name(move.end))
    rig.wait(100)
    rig.press(side)
    assert rig.texts == [] and rig.lit(Role.FLAG) == set(rig.names(move.captures))
    for square in move.captures:
        rig.board.remove(rig.name(square))
    rig.wait(100)
    rig.press(side)
    assert "second" in rig.session.message


def test_the_record_keeps_the_first_move_seen() -> None:
    rig = Rig("multiwarcaby")
    rig.move("e4-e5")
    rig.wait(400)
    rig.move("e3-e4")  # the same board as d4-e5, e3-d4 ... the record keeps what was seen first
    rig.press(0)
    assert rig.texts[0] == "e4-e5"


def test_computer_plays_both_moves_of_its_turn() -> None:
    rig = Rig("multiwarcaby", mode="computer", computer_sides=frozenset({1}))
    rig.move("e4-e5")
    rig.move("b2-a1")
    rig.press(0)
    plan = rig.session.planned
    assert len(plan) == 2
    assert rig.lit(Role.COMPUTER_FROM) == {rig.name(plan[0].start)}
    rig.play(plan[0])
    rig.wait(500)
    assert rig.lit(Role.COMPUTER_FROM) == {rig.name(plan[1].start)}
    rig.play(plan[1])
    rig.wait(1000)
    assert [c.move for c in rig.session.committed[2:]] == list(plan)


def test_take_back_a_turn() -> None:
    rig = Rig("multiwarcaby")
    rig.move("e4-e5")
    rig.move("b2-a1")
    rig.press(0)
    rig.board.button("takeback")
    assert rig.lit(Role.PUT_HERE) == {"e4", "b2"} and rig.lit(Role.TAKE_AWAY) == {"e5", "a1"}
    rig.board.slide("e5", "e4")
    rig.board.slide("a1", "b2")
    rig.wait(100)
    rig.board.button("takeback")
    rig.wait(100)
    assert rig.texts == [] and rig.session.game.turn == 0


# -- a slide is not a move -----------------------------------------------------------------

MW7_SLIDE_FEN = "MW7:S2:T1.1:P14,22:K0:Q0:O4o1o/4o2/7/4o1o/o6/2o4/2o4"
MW9_SLIDE_FEN = ("MW9:S2:T2.1:P13,11:K0:Q0:O3ooo1oo/4o2oo/oo2o3o/ooo3ooo/oo1o2ooo/o1ooo2oo/ooooo2oo/ooooo1ooo/"
                 "1ooooo1oo")
# (variant, FEN, side to move, start, the square on the way, end, a second move): start-end is one
# legal move, and so are start-way then way-end (issue 38: found by a fuzz of noisy games).
SLIDES = [("multiwarcaby7", MW7_SLIDE_FEN, "1", "d3", "c3", "c2", ("f5", "f4")),
          ("multiwarcaby", MW9_SLIDE_FEN, "2", "b7", "b8", "c7", ("h8", "h7"))]


def replay_log(variant: str, fen: str, lines: list[str]) -> tuple[list[str], str]:
    """The sensor log replayed as `damka replay` does (casual): the moves committed and the last message."""
    found = find_variant(variant)
    out = replay(found, parse_log(lines), SessionSettings(mode=Mode.CASUAL), position=found.parse_position(fen))
    return [line["move"] for line in out if "ply" in line], out[-1]["message"]


@pytest.mark.parametrize("touch_ms", (50, 112, 149, 200, 250))
@pytest.mark.parametrize("variant, fen, side, start, way, end, second", SLIDES)
def test_a_square_touched_on_the_way_is_a_slide_and_the_press_asks_for_the_second_move(
        variant: str, fen: str, side: str, start: str, way: str, end: str, second: tuple[str, str],
        touch_ms: int) -> None:
    slide = [f"0 up {start}", f"200 down {way}", f"{200 + touch_ms} up {way}", f"{230 + touch_ms} down {end}",
             f"{730 + touch_ms} press {side}"]
    moves, message = replay_log(variant, fen, slide)
    assert moves == [] and message == say("session.second_move")
    later = 1500 + touch_ms
    moves, _ = replay_log(variant, fen, slide + [f"{later} up {second[0]}", f"{later + 100} down {second[1]}",
                                                 f"{later + 600} press {side}"])
    assert moves == [f"{start}-{end}", f"{second[0]}-{second[1]}"]


@pytest.mark.parametrize("hold_ms", (400, 1000, 4000))
@pytest.mark.parametrize("variant, fen, side, start, way, end, second", SLIDES)
def test_a_first_move_held_for_the_settle_time_is_made(variant: str, fen: str, side: str, start: str, way: str,
                                                       end: str, second: tuple[str, str], hold_ms: int) -> None:
    moves, _ = replay_log(variant, fen, [f"0 up {start}", f"200 down {way}", f"{200 + hold_ms} up {way}",
                                         f"{230 + hold_ms} down {end}", f"{730 + hold_ms} press {side}"])
    assert moves == [f"{start}-{way}", f"{way}-{end}"]
