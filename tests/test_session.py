"""Session scenarios for the draughts family: every mode, captures, take-back, recovery."""

from __future__ import annotations

import pytest

from damka.controller.session import Phase
from damka.hardware.interfaces import Role
from test_session_rig import Rig, kinds


# -- casual -----------------------------------------------------------------------


def test_casual_simple_moves_commit_after_settle() -> None:
    rig = Rig("classic")
    assert rig.session.phase is Phase.PLAYING
    rig.board.slide("c3", "d4")
    rig.board.advance(200)
    assert rig.texts == []  # not settled yet
    rig.wait(200)
    assert rig.texts == ["c3-d4"]
    assert rig.lit(Role.LAST_MOVE) == {"c3", "d4"}
    rig.move("f6-e5")
    rig.wait()
    assert rig.texts == ["c3-d4", "f6-e5"]
    assert rig.session.committed[1].side_name == "black"


@pytest.mark.parametrize("remove", ["before", "during", "after"])
def test_capture_with_pieces_removed_before_during_after(remove: str) -> None:
    rig = Rig("classic", fen="W:Wc3,a1:Bd4,f6,h8")
    rig.move("c3xg7", remove=remove)
    rig.wait()
    assert rig.texts == ["c3xg7"]
    assert rig.session.committed[0].captures == ("d4", "f6")


@pytest.mark.parametrize("touch_down", [True, False])
def test_multi_capture_with_and_without_intermediate_stops(touch_down: bool) -> None:
    rig = Rig("international", fen="W:W46,47:B41,32,23,10")
    legal = rig.variant.legal_moves(rig.session.game.position)
    longest = max(legal, key=lambda m: len(m.captures))
    assert len(longest.captures) >= 2
    rig.play(longest, touch_down=touch_down, remove="after")
    rig.wait()
    assert len(rig.session.committed) == 1
    assert rig.session.committed[0].move == longest


def test_majority_rule_half_cleared_capture_waits_then_completes() -> None:
    rig = Rig("classic", fen="W:Wc3:Bd4,f6,h8")
    rig.board.lift("c3")
    rig.wait(100)
    rig.board.drop("e5")
    rig.wait(100)
    rig.board.remove("d4")
    rig.wait(5000)  # stopped half-way: nothing committed, the reading waits
    assert rig.texts == [] and rig.kind == "in_progress"
    assert "f6" in rig.lit(Role.TO_CAPTURE)  # casual shows the rest of the capture once stalled
    rig.board.lift("e5")
    rig.wait(100)
    rig.board.drop("g7")
    rig.wait(100)
    rig.board.remove("f6")
    rig.wait()
    assert rig.texts == ["c3xg7"]


def test_flying_king_lands_on_the_chosen_square() -> None:
    rig = Rig("classic", fen="W:WKa1,h2:Bc3,h8")
    rig.board.lift("a1")
    rig.wait(100)
    rig.board.drop("f6")
    rig.wait(100)
    rig.board.remove("c3")
    rig.wait()
    assert rig.texts == ["a1xf6"]


def test_king_capture_ending_on_its_start_square() -> None:
    rig = Rig("russian", fen="W:WKd2,a1:Bc3,e3,c5,e5,h8")
    loop = [m for m in rig.variant.legal_moves(rig.session.game.position) if m.start == m.end][0]
    for square in ("c3", "e3", "c5", "e5"):  # the king stays; only removals show
        rig.board.remove(square)
        rig.wait(100)
    rig.wait()
    assert [c.move for c in rig.session.committed] == [loop]


def test_promotion_is_engine_state() -> None:
    rig = Rig("classic", fen="W:Wg7,a1:Bb8,h6")
    rig.move("g7-h8")
    rig.wait()
    geometry = rig.variant.geometry
    assert rig.variant.piece_at(rig.session.game.position, geometry.parse("h8")) == "W"
    rig.move("b8-a7")
    rig.wait()
    rig.move("h8-c3")  # the king flies: only the engine knows it is one
    rig.wait()
    assert rig.texts[-1] == "h8-c3"


def test_russian_man_crowned_mid_capture_goes_on_as_a_king() -> None:
    rig = Rig("russian", fen="W:Wc5,a1:Bd6,f6,h8")
    legal = rig.variant.legal_moves(rig.session.game.position)
    move = max(legal, key=lambda m: len(m.captures))
    rig.play(move, remove="during")
    rig.wait()
    assert rig.session.committed[0].move == move


def test_take_back_one_and_several() -> None:
    rig = Rig("classic")
    rig.move("c3-d4")
    rig.wait()
    rig.move("f6-e5")
    rig.wait()
    rig.move("d4xf6")
    rig.wait()
    assert len(rig.texts) == 3
    # put the capture back: d4 again, e5 back, f6 empty
    rig.board.lift("f6")
    rig.wait(100)
    rig.board.drop("d4")
    rig.board.put("e5")
    rig.wait()
    assert rig.texts == ["c3-d4", "f6-e5"]
    assert "takeback" in kinds(rig.history)
    # two more plies back at once: the start position
    rig.board.lift("e5")
    rig.board.drop("f6")
    rig.board.lift("d4")
    rig.board.drop("c3")
    rig.wait()
    assert rig.texts == []
    rig.move("a3-b4")
    rig.wait()
    assert rig.texts == ["a3-b4"]


def test_illegal_move_guidance_then_recovery() -> None:
    rig = Rig("classic")
    rig.board.slide("c3", "e5")  # not a legal move
    rig.wait(1000)
    assert rig.session.frame == {} and rig.kind == "unknown"
    rig.wait(1500)  # past the grace period
    assert rig.lit(Role.PUT_HERE) == {"c3"} and rig.lit(Role.TAKE_AWAY) == {"e5"}
    assert "c3" in rig.session.message and "e5" in rig.session.message
    rig.board.lift("e5")  # the piece in the hand: a move in progress again, no alarm
    rig.wait(100)
    assert rig.kind == "in_progress" and not rig.lit(Role.PUT_HERE)
    rig.board.drop("c3")
    rig.wait()
    assert rig.session.frame == {} and rig.texts == []
    rig.move("c3-d4")
    rig.wait()
    assert rig.texts == ["c3-d4"]


def test_illegal_move_recovered_by_a_legal_continuation() -> None:
    rig = Rig("classic")
    rig.board.slide("c3", "e5")
    rig.wait(3000)
    assert rig.lit(Role.PUT_HERE)
    rig.board.slide("e5", "d4")  # a legal move from the last position
    rig.wait()
    assert rig.texts == ["c3-d4"] and not rig.lit(Role.PUT_HERE)


def test_setup_verification_before_the_game() -> None:
    rig = Rig("classic", setup=False)
    assert rig.session.phase is Phase.SETUP
    assert len(rig.lit(Role.PUT_HERE)) == 24
    start = rig.variant.geometry.names_of(rig.variant.occupancy(rig.variant.start_position()))
    rig.board.put("e5")  # an extra piece
    for square in start:
        rig.board.put(square)
        rig.wait(50)
    assert rig.lit(Role.TAKE_AWAY) == {"e5"} and rig.session.phase is Phase.SETUP
    rig.board.lift("e5")
    rig.wait(400)
    assert rig.session.phase is Phase.PLAYING and rig.session.frame == {}
    assert kinds(rig.history)[0] == "start"


def test_casual_press_commits_at_once() -> None:
    rig = Rig("classic")
    rig.board.slide("c3", "d4")
    rig.press(0)
    assert rig.texts == ["c3-d4"]


# -- learning ---------------------------------------------------------------------------


def test_learning_frames() -> None:
    rig = Rig("classic", mode="learning", fen="W:Wc3,a1,g1:Bd4,f6,h8")
    assert rig.lit(Role.MUST_MOVE) == {"c3"}
    rig.board.lift("g1")  # may not move: a capture is compulsory
    rig.wait(50)
    assert rig.lit(Role.ILLEGAL_LIFT) == {"g1"} and rig.lit(Role.MUST_MOVE) == {"c3"}
    rig.board.drop("g1")
    rig.wait(50)
    rig.board.lift("c3")
    rig.wait(50)
    assert rig.lit(Role.LIFTED) == {"c3"}
    assert rig.lit(Role.TO_CAPTURE) == {"d4", "f6"}
    assert "e5" in rig.lit(Role.LEGAL_TARGET)
    rig.board.drop("e5")
    rig.wait(50)
    assert rig.lit(Role.LEGAL_TARGET) == {"g7"}  # the next landing of the chain
    rig.board.lift("e5")
    rig.board.drop("g7")
    rig.board.remove("d4")
    rig.wait(50)
    assert rig.lit(Role.TO_CAPTURE) == {"f6"}
    rig.board.remove("f6")
    rig.wait()
    assert rig.lit(Role.LAST_MOVE) == {"c3", "e5", "g7"}


def test_learning_hint_button() -> None:
    rig = Rig("classic", mode="learning")
    rig.board.button("hint")
    assert len(rig.lit(Role.HINT_FROM)) == 1 and len(rig.lit(Role.HINT_TO)) == 1
    assert rig.session.message.startswith("hint:")
    hint = rig.session.hint[0]
    rig.play(hint)
    rig.wait()
    assert not rig.lit(Role.HINT_FROM)
    assert rig.session.committed[0].move == hint


def test_casual_take_back_button_guides_to_the_previous_position() -> None:
    rig = Rig("classic")
    rig.move("c3-d4")
    rig.wait()
    rig.board.button("takeback")
    assert rig.lit(Role.PUT_HERE) == {"c3"} and rig.lit(Role.TAKE_AWAY) == {"d4"}
    rig.board.slide("d4", "c3")
    rig.wait()
    assert rig.texts == [] and rig.session.frame == {}


# -- tournament ---------------------------------------------------------------------------


class FakeClock:
    def __init__(self) -> None:
        self.presses: list[tuple] = []

    def press(self, side, now=None, *, board_ok=True, reason="", moves=1):
        self.presses.append((side, now, board_ok, moves))
        return board_ok


def test_tournament_commits_only_on_the_movers_press() -> None:
    rig = Rig("classic", mode="tournament")
    clock = FakeClock()
    rig.session.clock = clock
    rig.move("c3-d4")
    rig.wait(5000)
    assert rig.texts == []
    rig.press(1)  # not black's turn
    assert rig.texts == []
    rig.press(0)
    assert rig.texts == ["c3-d4"]
    assert clock.presses[-1][2] is True


def test_tournament_refuses_a_press_on_an_incomplete_capture() -> None:
    rig = Rig("classic", mode="tournament", fen="W:Wc3,a1:Bd4,f6,h8")
    clock = FakeClock()
    rig.session.clock = clock
    assert rig.session.frame == {}  # hints off
    rig.board.lift("c3")
    rig.board.drop("g7")
    rig.board.remove("d4")
    rig.wait(500)
    rig.press(0)
    assert rig.texts == []
    assert rig.lit(Role.FLAG) == {"f6"}
    assert "refused" in rig.session.message
    assert clock.presses[-1][2] is False
    assert kinds(rig.history)[-1] == "refused"
    rig.board.remove("f6")
    rig.wait(100)
    assert not rig.lit(Role.FLAG)
    rig.press(0)
    assert rig.texts == ["c3xg7"]


def test_tournament_has_no_take_back() -> None:
    rig = Rig("classic", mode="tournament")
    rig.move("c3-d4")
    rig.press(0)
    rig.board.slide("d4", "c3")
    rig.wait(3000)
    assert rig.texts == ["c3-d4"] and rig.kind == "unknown"
    assert rig.lit(Role.PUT_HERE) == {"d4"}


def test_tournament_new_game_after_the_end() -> None:
    rig = Rig("classic", mode="tournament", fen="W:Wc3:Bd4")
    rig.move("c3xe5")
    rig.press(0)
    assert rig.session.phase is Phase.OVER
    assert rig.session.result.winner == 0
    for square in rig.variant.geometry.names_of(rig.variant.occupancy(rig.variant.start_position())):
        if square not in rig.board.pieces:
            rig.board.put(square)
    rig.board.lift("e5")
    rig.wait()
    assert rig.session.phase is Phase.PLAYING and rig.texts == []
    assert kinds(rig.history)[-1] == "new_game"


# -- computer --------------------------------------------------------------------------


def test_computer_move_is_shown_and_only_it_is_accepted() -> None:
    rig = Rig("classic", mode="computer", computer_sides=frozenset({1}))
    rig.move("c3-d4")
    rig.wait()
    planned = rig.session.planned[0]
    start, end = rig.name(planned.start), rig.name(planned.end)
    assert rig.lit(Role.COMPUTER_FROM) == {start} and end in rig.lit(Role.COMPUTER_TO)
    other = next(m for m in rig.variant.legal_moves(rig.session.game.position) if m != planned)
    rig.play(other)
    rig.wait(3000)
    assert len(rig.texts) == 1 and rig.kind == "unknown"
    assert rig.lit(Role.PUT_HERE)  # guided back
    rig.board.lift(rig.name(other.end))
    rig.board.drop(rig.name(other.start))
    rig.wait(500)
    rig.play(planned)
    rig.wait()
    assert [c.move for c in rig.session.committed][1] == planned
    assert not rig.lit(Role.COMPUTER_FROM)


def test_computer_prefers_the_largest_capture() -> None:
    rig = Rig("classic", mode="computer", computer_sides=frozenset({0}), fen="W:Wc3,g3:Bd4,f6,h4")
    planned = rig.session.planned[0]
    assert len(planned.captures) == 2


def test_a_fault_that_looks_like_a_take_back_is_undone_when_it_ends() -> None:
    # white a3-b4, black c5xa3: the board is the old one minus c5; a stuck switch on c5
    # then shows the position two plies back: read as a take-back, restored when it ends
    rig = Rig("classic", fen="W:Wa3,h2:Bc5,h8")
    rig.move("a3-b4")
    rig.wait()
    rig.move("c5xa3")
    rig.wait()
    assert rig.texts == ["a3-b4", "c5xa3"]
    rig.board.stick("c5", True)
    rig.wait(1500)
    assert rig.texts == []  # taken back
    rig.board.unstick("c5")
    rig.wait(1500)
    assert rig.texts == ["a3-b4", "c5xa3"]
    assert kinds(rig.history)[-2:] == ["move", "redo"]
    rig.move("h2-g3")
    rig.wait()
    assert rig.texts == ["a3-b4", "c5xa3", "h2-g3"] and rig.session.restorable == ()


def test_take_back_waits_longer_than_a_move() -> None:
    rig = Rig("classic")
    rig.move("c3-d4")
    rig.wait()
    rig.board.slide("d4", "c3")
    rig.wait(500)
    assert rig.texts == ["c3-d4"]  # not yet: take-backs settle for takeback_ms
    rig.wait(600)
    assert rig.texts == []


def test_the_real_clock_plugs_in() -> None:
    from damka.controller.clock.clock import Clock
    from damka.controller.clock.timecontrol import parse

    rig = Rig("classic", mode="tournament", fen="W:Wc3,a1:Bd4,f6,h8")
    clock = Clock(parse("5+3"), sides=2)
    clock.start(0)
    rig.session.clock = clock
    rig.board.lift("c3")
    rig.board.drop("g7")
    rig.board.remove("d4")
    rig.wait(300)
    rig.press(0)
    assert clock.active == 0  # refused: f6 still on the board
    rig.board.remove("f6")
    rig.wait(300)
    rig.press(0)
    assert clock.active == 1 and rig.texts == ["c3xg7"]


def test_resume_a_saved_game() -> None:
    from damka.engine import Game
    from damka.engine.notation import parse_move

    rig = Rig("classic", setup=False)
    variant = rig.variant
    game = Game(variant)
    for text in ("c3-d4", "f6-e5"):
        game.push(parse_move(variant, game.position, text))
    rig.session.resume(game)
    assert [c.text for c in rig.session.committed] == ["c3-d4", "f6-e5"]
    assert rig.session.phase is Phase.SETUP and "d4" in rig.lit(Role.PUT_HERE) and "c3" not in rig.lit(Role.PUT_HERE)
    for square in variant.geometry.names_of(variant.occupancy(game.position)):
        rig.board.put(square)
    rig.wait(400)
    assert rig.session.phase is Phase.PLAYING
    rig.move("d4xf6")
    rig.wait()
    assert rig.texts == ["c3-d4", "f6-e5", "d4xf6"]
    assert [c.turn for c in rig.session.committed] == [1, 2, 3]
