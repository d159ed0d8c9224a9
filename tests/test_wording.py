"""What the board says, in words a newcomer (and a child) understands (issue 12, items 12 and 16)."""

from __future__ import annotations

from damka.controller.app import App
from damka.controller.game.setup import GameSetup
from damka.controller.players import Opponent
from damka.hardware.interfaces import Button, Role
from damka.sim.virtual_board import carry_out
from app_rig import on_board
from test_session_rig import Rig


def test_sides_are_named_as_people_say_them() -> None:
    assert Rig("classic").session.message == "White to move"
    assert Rig("multiwarcaby").session.message == "Player 1 to move: two moves, then press"
    assert Rig("multiwarcaby", options={"teams": True}).session.message.startswith("Team ")


def test_the_computers_second_move_asks_for_no_press() -> None:
    rig = Rig("multiwarcaby", mode="computer", computer_sides=frozenset({0}))
    planned = rig.session.planned
    assert planned is not None and len(planned) == 2
    rig.play(planned[0])
    rig.wait(100)
    assert rig.session.reading.kind.value == "half_turn"
    assert "press" not in rig.session.message and "second" in rig.session.message


def test_a_piece_that_may_not_move_while_a_capture_is_compulsory_is_explained() -> None:
    # White must capture with c3 (d4 is in reach); a3 may not move.
    rig = Rig("classic", mode="learning", fen="W:Wc3,a3:Bd4,h8")
    rig.board.lift("a3")
    rig.wait(50)
    assert rig.lit(Role.ILLEGAL_LIFT) == {"a3"} and rig.lit(Role.MUST_MOVE) == {"c3"}
    message = rig.session.message
    assert message.startswith("a3 cannot move now") and "must" in message and "c3" in message


def test_a_blocked_piece_is_explained_too() -> None:
    rig = Rig("classic", mode="learning", fen="W:Wa1,h2:Bb2,c3,h8")
    rig.board.lift("a1")
    rig.wait(50)
    assert rig.session.message == "a1 has no free square to move to: try another piece"


def test_a_take_back_clears_the_hint_and_the_last_move() -> None:
    for mode in ("casual", "learning"):
        app = App(setup=GameSetup("classic", mode=mode), start_game=True, offer_resume=False, inline_thinking=True)
        board = on_board(app, settle_ms=500)
        carry_out(board, "c3", ["d4"], [])
        board.advance(2000)
        carry_out(board, "f6", ["e5"], [])
        board.advance(2000)
        board.button(Button.HINT)
        board.advance(300)
        assert any(line.startswith("hint:") for line in app.view().messages), mode
        assert {Role.HINT_FROM, Role.HINT_TO} & set(board.leds.values()), mode
        carry_out(board, "e5", ["f6"], [])        # black's move taken back on the board
        board.advance(3000)
        view = app.view()
        assert [c.text for c in app.session.committed] == ["c3-d4"], mode
        assert not any("hint" in line for line in view.messages), (mode, view.messages)
        assert not {Role.HINT_FROM, Role.HINT_TO, Role.LAST_MOVE} & set(board.leds.values()), (mode, board.leds)
        assert view.last_move == "c3-d4", mode           # the last move that still stands
        board.advance(2000)
        assert not any("hint" in line for line in app.view().messages), mode


class Waiting(Opponent):
    """An opponent that never answers (a person on the web page still thinking)."""

    label = "remote player"

    def start(self, game, *, whole_turn: bool = False) -> None:
        pass

    def poll(self):
        return "thinking"  # not a move yet (None would mean: cancelled)

    def cancel(self) -> None:
        pass


def test_a_remote_seat_is_not_called_the_computer() -> None:
    app = App(setup=GameSetup("classic", mode="computer", colours="first"), start_game=True, offer_resume=False,
              inline_thinking=False)
    app.session.opponent = Waiting()
    board = on_board(app, settle_ms=500)
    carry_out(board, "c3", ["d4"], [])
    board.advance(2000)
    assert app.session.message.endswith("Black (remote player) is thinking")
    assert app.view().status == "Waiting for the remote player's move"
