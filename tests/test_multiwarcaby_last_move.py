"""Multiwarcaby: a first move that ends the game is a whole turn (RULES.md:
"also after the first move of a turn: that move is recorded alone").

The board commits it, scores it, ends the game and stores the result, in
every mode and on both boards; nothing is ever recorded after the end.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from damka.controller.players.chooser import GreedyChooser
from damka.controller.clock.records import State
from damka.controller.session import Phase
from damka.controller.session.assistants import Assistants
from damka.engine import Game, find_variant
from damka.engine.errors import IllegalMoveError
from damka.engine.notation import parse_move
from damka.web.remote import RemoteOpponent
from test_clock_session import timed
from test_replay import run_replay
from test_session_rig import Rig, events_of

# (variant, options, the side to move): the last two pieces side by side, c3 and d3.
GAMES = [
    ("multiwarcaby", {}, 0),
    ("multiwarcaby7", {}, 1),
    ("multiwarcaby", {"sides": 3}, 2),
    ("multiwarcaby", {"sides": 4}, 3),
    ("multiwarcaby", {"teams": True}, 1),
]


def last_two(variant_name: str, options: dict, side: int) -> str:
    """The position string: only c3 and d3 left, `side` to move, some points scored."""
    variant = find_variant(variant_name, **options)
    occupied = variant.geometry.mask_of(["c3", "d3"])
    scores = tuple(10 + i for i in range(len(variant.sides)))
    position = replace(variant.start_position(), occupied=occupied, turn_start=occupied, side=side, scores=scores)
    return variant.format_position(position)


@pytest.mark.parametrize("mode", ["casual", "tournament"])
@pytest.mark.parametrize("variant_name, options, side", GAMES)
def test_a_first_move_leaving_one_piece_ends_the_game(variant_name, options, side, mode) -> None:
    rig = Rig(variant_name, mode=mode, options=options, fen=last_two(variant_name, options, side))
    session = rig.session
    assert session.phase is Phase.PLAYING
    rig.move("c3xe3")
    rig.wait(2000)
    if mode == "tournament":  # the press records it; until then the board says so
        assert rig.texts == []
        assert "ends the game" in session.message and "second move" not in session.message.replace("no second", "")
        rig.press(side)
    assert rig.texts == ["c3xe3"]
    assert session.phase is Phase.OVER
    result = session.result
    assert result is not None and result.reason == "fewer than two pieces left"
    assert session.scores[side] == 11 + side
    assert "game over" in session.message and "second move" not in session.message
    over = events_of(rig.history, "result")
    assert len(over) == 1 and over[0]["result"] == result and over[0]["scores"][side] == 11 + side


@pytest.mark.parametrize("mode", ["casual", "tournament"])
def test_nothing_is_recorded_after_the_end(mode) -> None:
    rig = Rig("multiwarcaby", mode=mode, fen=last_two("multiwarcaby", {}, 0))
    rig.move("c3xe3")
    rig.wait(500)
    rig.press(0)
    assert rig.texts == ["c3xe3"]
    rig.board.slide("e3", "e4")  # the last piece moved on: no second move after the end
    rig.wait(3000)
    rig.press(0)
    rig.wait(3000)
    assert rig.texts == ["c3xe3"] and rig.session.game.ply == 1
    assert "second move" not in rig.session.message


def test_the_issue_log_replays_to_the_end(capsys, tmp_path) -> None:
    log = tmp_path / "end.log"
    log.write_text("100 up c3\n200 down e3\n300 up d3\n1000 press 1\n")
    for mode in ("casual", "tournament"):
        code, lines, _ = run_replay(capsys, "multiwarcaby", str(log), "--mode", mode,
                                    "--fen", "MW9:S2:T1.1:P40,34:O9/9/9/9/9/9/2oo5/9/9")
        assert code == 0
        assert [line["move"] for line in lines if "ply" in line] == ["c3xe3"]
        assert lines[-1]["result"]["reason"] == "fewer than two pieces left"
        assert lines[-1]["scores"] == [41, 34]


def test_a_game_ended_on_a_first_move_is_taken_back_and_put_back() -> None:
    rig = Rig("multiwarcaby", fen=last_two("multiwarcaby", {}, 0))
    rig.move("c3xe3")
    rig.wait(1000)
    assert rig.session.phase is Phase.OVER
    rig.board.lift("e3")
    rig.board.put("c3")
    rig.board.put("d3")
    rig.wait(3000)
    assert rig.texts == [] and rig.session.phase is Phase.PLAYING
    rig.board.lift("c3")
    rig.board.lift("d3")
    rig.board.put("e3")
    rig.wait(3000)
    assert rig.texts == ["c3xe3"] and rig.session.phase is Phase.OVER


def test_no_move_is_pushed_after_the_end() -> None:
    variant = find_variant("multiwarcaby")
    game = Game(variant, variant.parse_position(last_two("multiwarcaby", {}, 0)))
    game.push_unchecked(parse_move(variant, game.position, "c3xe3"))
    with pytest.raises(IllegalMoveError, match="game is over .fewer than two pieces left"):
        game.push_unchecked(parse_move(variant, game.position, "e3-e4"))
    assert game.ply == 1


def test_the_computer_plans_no_second_move_after_the_end() -> None:
    variant = find_variant("multiwarcaby")
    position = variant.parse_position(last_two("multiwarcaby", {}, 0))
    plan = Assistants(variant, chooser=GreedyChooser(1)).plan(position)
    assert len(plan) == 1 and plan[0].captures


def test_a_remote_seat_is_asked_no_second_move_after_the_end() -> None:
    variant = find_variant("multiwarcaby")
    remote = RemoteOpponent(variant, frozenset({0}))
    remote.start(Game(variant, variant.parse_position(last_two("multiwarcaby", {}, 0))), whole_turn=True)
    turn = remote.submit("c3xe3")
    assert turn is not None and len(turn) == 1


def test_with_a_clock_the_last_move_stops_it_and_is_stamped() -> None:
    rig, clock = timed("multiwarcaby", control="5+3", fen=last_two("multiwarcaby", {}, 0))
    rig.move("c3xe3")
    rig.wait(500)
    rig.press(0)
    assert rig.texts == ["c3xe3"] and rig.session.phase is Phase.OVER
    assert clock.state is State.FINISHED
    stamped = rig.session.committed[-1].clock_ms
    assert stamped is not None and stamped[0] < stamped[1] == 303_000  # the increment comes at the turn start
    left = clock.view(rig.board.now).sides[0].remaining_ms
    rig.wait(20_000)
    assert clock.view(rig.board.now).sides[0].remaining_ms == left  # no clock runs after the end


def test_a_flag_between_the_two_moves_lets_no_move_in_after_the_end() -> None:
    rig, clock = timed("multiwarcaby7", control="0.1")  # two players: the flag ends the game
    rig.move("d4-e5")
    rig.wait(10_000)  # the flag falls after the first move
    assert rig.session.result is not None and rig.session.result.reason == "on time"
    rig.move("c3-d4")
    rig.wait(500)
    rig.press(0)
    rig.wait(3000)
    assert rig.texts == [] and rig.session.game.ply == 0
    assert "game over" in rig.session.message


def test_the_computers_game_ending_move_is_lit_alone_and_committed() -> None:
    rig = Rig("multiwarcaby", mode="computer", computer_sides=frozenset({1}), fen=last_two("multiwarcaby", {}, 1))
    plan = rig.session.planned
    assert plan is not None and len(plan) == 1
    rig.play(plan[0])
    rig.wait(1000)
    assert [c.move for c in rig.session.committed] == [plan[0]]
    assert rig.session.phase is Phase.OVER and "second" not in rig.session.message
