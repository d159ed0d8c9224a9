"""The computer and the coach in the app, through the virtual board: the real
search thinks off the loop (the board stays live, a take-back cancels it), its
move is lit and only it is accepted; in multiwarcaby it fills seats and plays
both moves of its turn without a press; its level survives a resume. In
learning mode the hint button shows the coach's move within the game's hint
limit, and a move that hangs a piece is flagged before it is committed."""

from __future__ import annotations

from pathlib import Path

import pytest

from damka.controller.app import App
from damka.controller.players.chooser import GreedyChooser
from damka.controller.players.computer import ComputerOpponent
from damka.controller.store.store import Store
from damka.controller.game.setup import GameSetup
from damka.display.screen import GameView, Screen
from damka.engine.notation import parse_move
from damka.hardware.interfaces import Button, Role
from damka.sim.virtual_board import VirtualBoard, carry_out
from app_rig import on_board, resumed_at_board
from waiting import wait_on_board



def idle(app: App, board: VirtualBoard) -> None:
    """Let board time pass, as the loop would, until nothing runs off the loop."""
    wait_on_board(board, lambda: not app.session.busy, "the search's answer")


def make(board: VirtualBoard, app: App, move, step_ms: int = 150) -> None:
    name = app.session.variant.geometry.name
    carry_out(board, name(move.start), [name(s) for s in move.path], [name(s) for s in sorted(move.captures)],
              step_ms=step_ms)


def play(board: VirtualBoard, app: App, text: str) -> None:
    make(board, app, parse_move(app.session.variant, app.session.game.position, text))


def lit(board: VirtualBoard, role: Role) -> set[str]:
    return {square for square, shown in board.leds.items() if shown is role}


# -- the computer ---------------------------------------------------------------------


def test_the_board_stays_live_while_the_computer_thinks_and_a_take_back_cancels_it() -> None:
    app = App(setup=GameSetup("classic", mode="computer", colours="first", level="master", move_time=3.0),
              start_game=True, seed=1)
    # The real search on a frozen clock: it thinks until cancelled, however slow the machine.
    app.session.opponent = ComputerOpponent(app.session.variant, "master", clock=lambda: 0.0, seed=1)
    board = on_board(app)
    session = app.session
    play(board, app, "c3-d4")
    board.advance(2500)
    assert session.game.ply == 1 and session.thinking
    view = app.view()
    assert isinstance(view, GameView) and view.thinking and view.status == "The computer is thinking..."
    assert not lit(board, Role.COMPUTER_FROM)
    # The loop keeps answering the board while the search runs (it never waits for it: it would wait forever).
    board.lift("d4")
    board.advance(30)
    assert session.occupancy == session.board.bits(board.pieces) and session.thinking
    board.drop("c3")                                   # the player takes the move back
    board.advance(2500)
    assert session.game.ply == 0 and not session.thinking
    assert session.opponent.poll() is None             # the search was cancelled, its move never comes
    assert app.view().status == "White to move"


def test_the_computers_move_is_lit_with_its_captures_and_only_it_is_accepted() -> None:
    app = App(setup=GameSetup("classic", mode="computer", colours="first", level="beginner", move_time=0.2),
              start_game=True, seed=3)
    board = on_board(app)
    session = app.session
    variant = session.variant
    name = variant.geometry.name
    for _ in range(12):
        game = session.game
        # Offer a man when we can: the computer must take it (captures are compulsory).
        moves = game.legal_moves()
        offer = [m for m in moves if all(r.captures for r in variant.legal_moves(variant.play(game.position, m)))]
        make(board, app, (offer or moves)[0])
        board.advance(2500)
        idle(app, board)
        planned = session.planned[0]
        assert lit(board, Role.COMPUTER_FROM) == {name(planned.start)}
        assert name(planned.end) in lit(board, Role.COMPUTER_TO)
        if planned.captures:
            assert lit(board, Role.TO_CAPTURE) == {name(sq) for sq in planned.captures}
            break
        make(board, app, planned)
        board.advance(2500)
    else:
        pytest.fail("the computer never had a capture to make")
    make(board, app, planned)                          # carried out with the captured pieces removed
    board.advance(2500)
    assert session.game.moves[-1] == planned and not lit(board, Role.COMPUTER_FROM)


def test_only_the_computers_move_is_accepted() -> None:
    app = App(setup=GameSetup("classic", mode="computer", colours="first", level="beginner", move_time=0.2),
              start_game=True, seed=4)
    board = on_board(app)
    session = app.session
    name = session.variant.geometry.name
    play(board, app, "c3-d4")
    board.advance(2500)
    idle(app, board)
    planned = session.planned[0]
    other = next(m for m in session.game.legal_moves() if m != planned and not m.captures)
    make(board, app, other)                            # another legal move of the computer's side
    board.advance(2500)
    assert session.game.ply == 1
    board.lift(name(other.end))                        # (undone on the board)
    board.drop(name(other.start))
    board.advance(500)
    make(board, app, planned)
    board.advance(2500)
    assert session.game.ply == 2 and session.game.moves[-1] == planned


def test_multiwarcaby_the_computer_fills_seats_and_plays_both_moves_without_a_press() -> None:
    app = App(setup=GameSetup("multiwarcaby", sides=3, mode="computer", colours="first", computers=2,
                              level="beginner", move_time=0.3), start_game=True, seed=5)
    session = app.session
    assert session.settings.computer_sides == frozenset({1, 2})
    assert app.game_players[1].endswith("(computer)") and not app.game_players[0].endswith("(computer)")
    board = on_board(app)
    name = session.variant.geometry.name
    play(board, app, "d4-e5")
    play(board, app, "b1-a1")
    board.advance(300)
    board.press(0)
    board.advance(100)
    for side in (1, 2):
        assert session.game.turn == side
        idle(app, board)
        first, second = session.planned
        assert lit(board, Role.COMPUTER_FROM) == {name(first.start)}   # one move after the other
        make(board, app, first)
        board.advance(300)
        assert lit(board, Role.COMPUTER_FROM) == {name(second.start)}
        make(board, app, second)
        board.advance(2500)                                # committed without anyone pressing
        assert tuple(session.game.moves[-2:]) == (first, second)
    assert session.game.turn == 0 and session.game.ply == 6


def test_the_computers_level_is_stored_and_kept_on_resume(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    store = Store(db)
    app = App(store=store, setup=GameSetup("classic", mode="computer", colours="first", level="novice",
                                           move_time=0.2), start_game=True)
    board = on_board(app)
    play(board, app, "c3-d4")
    board.advance(2500)
    assert store.load_game(app.game_id).tags["DamkaLevel"] == "novice"
    app.session.close()
    pieces = set(board.pieces)
    store.close()
    with Store(db) as store:
        again, board = resumed_at_board(store, pieces)
        assert again.setup.level == "novice" and again.session.opponent.level.name == "novice"
        assert again.session.settings.computer_sides == frozenset({1})
        idle(again, board)
        assert lit(board, Role.COMPUTER_FROM)
        again.session.close()


def test_a_wrong_number_of_player_names_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="3 names .* 2 sides"):
        App(setup=GameSetup("classic"), players=["Ala", "Ola", "Ela"], start_game=True)
    App(setup=GameSetup("multiwarcaby", sides=3), players=["Ala", "Ola", "Ela"], start_game=True)


# -- the coach (learning mode) --------------------------------------------------------


def test_hints_show_the_coachs_move_and_run_out() -> None:
    app = App(setup=GameSetup("classic", mode="learning", hint_limit=2), start_game=True)
    board = on_board(app)
    session = app.session
    assert app.view().hints_left == 2
    board.button(Button.HINT)
    idle(app, board)
    assert lit(board, Role.HINT_FROM) and lit(board, Role.HINT_TO)
    assert session.message.startswith("hint: ") and "(1 hint left)" in session.message
    assert app.view().hints_left == 1
    board.button(Button.HINT)
    idle(app, board)
    assert app.view().hints_left == 0 and "(no hints left)" in session.message
    board.button(Button.HINT)
    board.advance(50)
    assert session.message == "no hints left in this game"
    Screen().render(app.view())                            # the screen draws "no hints left"


def test_a_move_that_hangs_a_piece_is_flagged_before_it_is_committed() -> None:
    app = App(setup=GameSetup("classic", mode="learning"), start_game=True)
    board = on_board(app)
    session = app.session
    for text in ("c3-b4", "d6-e5"):                        # safe moves: committed as usual
        play(board, app, text)
        board.advance(100)
        idle(app, board)
        board.advance(2500)
    assert session.game.ply == 2 and session.warning is None
    play(board, app, "e3-d4")                              # e5xc3 follows
    board.advance(100)
    idle(app, board)
    assert session.warning is not None
    assert session.message.startswith("this loses 2 pieces: take it back?")
    view = app.view()
    assert view.alert and any("take it back" in line for line in view.messages)
    board.advance(3000)
    assert session.game.ply == 2                           # not committed while the warning stands
    board.lift("d4")                                       # taken back on the board
    board.drop("e3")
    board.advance(100)
    assert session.warning is None and session.game.ply == 2
    play(board, app, "e3-d4")                              # made again, and played on purpose
    board.advance(100)
    idle(app, board)
    assert session.warning is not None
    board.press(0)
    board.advance(100)
    assert session.game.ply == 3 and session.warning is None


def test_a_flagged_move_left_standing_is_committed_after_the_warning_time() -> None:
    app = App(setup=GameSetup("classic", mode="learning"), start_game=True, inline_thinking=True)
    board = on_board(app)
    for text in ("c3-b4", "d6-e5"):
        play(board, app, text)
        board.advance(2500)
    play(board, app, "e3-d4")
    board.advance(2500)
    assert app.session.warning is not None and app.session.game.ply == 2
    board.advance(app.session.settings.warn_ms)
    assert app.session.game.ply == 3


def test_player_names_that_do_not_fit_a_game_from_the_menu_are_said_so() -> None:
    app = App(setup=GameSetup("classic"), players=["Ala", "Ola", "Ela"])  # the menu: no game yet
    app.new_game(GameSetup("classic"))
    assert app.game_players == ["White", "Black"] and "3 player names" in app.notice
    app.new_game(GameSetup("multiwarcaby", sides=3))
    assert sorted(app.game_players) == ["Ala", "Ela", "Ola"]


def test_the_computers_colour_is_drawn_by_lot_or_chosen() -> None:
    drawn = set()
    for seed in range(20):
        app = App(setup=GameSetup("classic", mode="computer"), start_game=True, seed=seed,
                  chooser=GreedyChooser())
        drawn.add(app.session.settings.computer_sides)
    assert drawn == {frozenset({0}), frozenset({1})}
    second = App(setup=GameSetup("classic", mode="computer", colours="second"), start_game=True,
                 chooser=GreedyChooser())
    assert second.session.settings.computer_sides == frozenset({0}) and second.session.opponent is None
