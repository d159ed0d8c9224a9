"""Take-back guidance explains itself: while the LEDs guide the pieces back,
the screen (the game view the board's display and the web page show) says
that a take-back is under way, which move is taken back and which piece
(whose, man or king) goes on which square; the voice says it too, in English
and Polish. Once the pieces are back the words go."""

from __future__ import annotations

from damka.controller import events as ev
from damka.controller.app.view_builder import game_view
from damka.controller.words.wording_voice import phrases_for
from damka.hardware.interfaces import Role
from test_session_rig import Rig


def screen(rig: Rig) -> tuple[str, str]:
    """What the board's screen shows: the status line and the message lines."""
    view = game_view(rig.session, None, ["Ala", "Ola"], "", rig.session.now)
    return view.status, " / ".join(view.messages)


def played(*moves: str, variant: str = "classic", **rig_args) -> Rig:
    rig = Rig(variant, **rig_args)
    for move in moves:
        rig.move(move)
        rig.wait(2000)
    return rig


def test_the_screen_says_what_is_taken_back_and_whose_piece_goes_where() -> None:
    rig = played("c3-d4", "f6-e5", "d4xf6", "g7xe5")
    assert screen(rig)[0] == "Ala to move"
    rig.board.button("takeback")
    rig.wait(10)
    status, message = screen(rig)
    assert status == "Taking back Black's g7xe5"
    assert message == ("taking back Black's g7xe5: put a black piece back on g7, put a white piece back on f6, "
                       "take the piece off e5")
    assert rig.lit(Role.PUT_HERE) == {"g7", "f6"} and rig.lit(Role.TAKE_AWAY) == {"e5"}

    rig.board.lift("e5")
    rig.wait(3000)  # long past the grace period of an unexplained board: the take-back still guides
    status, message = screen(rig)
    assert status == "Taking back Black's g7xe5"
    assert message == "taking back Black's g7xe5: put a black piece back on g7, put a white piece back on f6"
    assert rig.lit(Role.PUT_HERE) == {"g7", "f6"} and rig.lit(Role.TAKE_AWAY) == set()

    rig.board.put("g7")
    rig.wait(10)
    assert screen(rig)[1] == "taking back Black's g7xe5: put a white piece back on f6"
    rig.board.put("f6")
    rig.wait(3000)
    status, message = screen(rig)
    assert rig.texts == ["c3-d4", "f6-e5", "d4xf6"]
    assert status == "Ola to move" and "taking back" not in message.lower()
    assert rig.session.takeback_guide is None


def test_a_king_is_named_as_a_king() -> None:
    rig = played("c3xe5", fen="W:WKc3,a1:Bd4,h8")
    rig.board.button("takeback")
    rig.wait(10)
    assert screen(rig) == ("Taking back White's c3xe5",
                           "taking back White's c3xe5: put a white king back on c3, put a black piece back on d4, "
                           "take the piece off e5")


def test_multiwarcaby_says_the_players_turn_and_shared_pieces() -> None:
    rig = Rig("multiwarcaby", options={"sides": 3})
    rig.move("e4-e5")
    rig.move("b2-a1")
    rig.press(0)
    rig.board.button("takeback")
    rig.wait(10)
    status, message = screen(rig)
    assert status == "Taking back Player 1's e4-e5 b2-a1"
    assert message == ("taking back Player 1's e4-e5 b2-a1: put a piece back on b2, put a piece back on e4, "
                       "take the piece off a1 (1 more square to fix)")
    rig.board.slide("e5", "e4")
    rig.wait(10)
    assert screen(rig)[1] == "taking back Player 1's e4-e5 b2-a1: put a piece back on b2, take the piece off a1"
    rig.board.slide("a1", "b2")
    rig.wait(100)
    assert screen(rig)[1] == "taking back Player 1's e4-e5 b2-a1: the pieces are back"
    rig.board.button("takeback")  # this board is also a turn of player 2's: the button says what it means
    rig.wait(100)
    status, message = screen(rig)
    assert rig.texts == [] and status == "Ala to move" and "taking back" not in message


def test_against_the_computer_both_turns_are_named() -> None:
    rig = Rig("classic", mode="computer", computer_sides=frozenset({1}))
    rig.move("c3-d4")
    rig.wait(1000)
    plan = rig.session.planned
    rig.play(plan[0])
    rig.wait(1000)
    computer = rig.texts[1]
    rig.board.button("takeback")
    rig.wait(10)
    status, message = screen(rig)
    assert status == f"Taking back White's c3-d4 and Black's {computer}"
    assert message.startswith(f"taking back White's c3-d4 and Black's {computer}: put a white piece back on c3")


def test_the_voice_says_it_in_english_and_polish() -> None:
    rig = played("c3-d4", "f6-e5", "d4xf6", "g7xe5")
    rig.board.button("takeback")
    guided = rig.history.of(ev.TakebackGuided)
    assert len(guided) == 1
    guide = guided[0].guide
    turns = tuple((["Ala", "Ola"][side], moves) for side, moves in guide.turns)
    steps = tuple((step.square, ("white", "black")[step.owner] if step.owner is not None else None, step.king,
                   step.put) for step in guide.steps)
    assert phrases_for("en").takeback(turns, steps) == (
        "Taking back: Ola g7 takes e5. Put a black piece on g7. Put a white piece on f6. Take off e5")
    assert phrases_for("pl").takeback(turns, steps) == (
        "Cofamy ruch: Ola g7 bije e5. Postaw czarnego pionka na g7. Postaw białego pionka na f6. Zdejmij z e5")
    rig.board.lift("e5")
    rig.wait(3000)
    assert rig.history.of(ev.PositionUnknown) == []  # the voice does not call a take-back an illegal move
