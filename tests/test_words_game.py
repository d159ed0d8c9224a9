"""A game on a board set to Polish: what the session says while it is played
(a move refused, a compulsory capture, a take-back, the end of the game) is
Polish, driven through the real App and the virtual board as a player would."""

from __future__ import annotations

from damka.controller import words
from damka.controller.app import App, AppState
from damka.controller.app.board_settings import BoardSettings
from damka.controller.game.setup import GameSetup
from damka.hardware.interfaces import Button
from damka.sim.virtual_board import VirtualBoard, carry_out
from app_rig import on_board

SETTLE_MS = 2500   # longer than the tracker needs to call a move made


def _play(board: VirtualBoard, start: str, end: str) -> None:
    board.lift(start)
    board.drop(end)
    board.advance(SETTLE_MS)


def _resign_from_the_menu(app: App, board: VirtualBoard) -> None:
    board.button(Button.MENU)
    board.advance(100)
    rows = [row.key for row in app.overlay.rows]
    for _ in range(rows.index("resign")):
        board.button(Button.DOWN)
    board.button(Button.OK)
    board.advance(500)


def test_a_polish_board_refuses_guides_takes_back_and_ends_in_polish() -> None:
    app = App(setup=GameSetup("classic"), start_game=True)
    app.set_board_settings(BoardSettings(language="pl"))
    board = on_board(app)
    session = app.session
    assert session.message == "ruch: Białe"

    board.button(Button.TAKE_BACK)              # nothing to take back yet
    assert session.message == "nie ma ruchu do cofnięcia"

    _play(board, "c3", "c4")                    # straight up: not a draughts move
    board.press(0)
    board.advance(200)
    assert session.message == "naciśnięcie odrzucone: to nie jest prawidłowy ruch"
    _play(board, "c4", "c3")

    _play(board, "c3", "d4")
    _play(board, "f6", "e5")                    # white must now take e5 with d4
    assert session.game.ply == 2
    _play(board, "g3", "f4")                    # a quiet move instead
    assert session.message == "postaw pionek z powrotem na g3 i zdejmij pionek z f4; bicie jest obowiązkowe (d4)"
    board.press(0)
    board.advance(200)
    assert session.message == "naciśnięcie odrzucone: to nie jest prawidłowy ruch: bicie jest obowiązkowe (d4)"
    _play(board, "f4", "g3")

    carry_out(board, "d4", ["f6"], ["e5"])
    board.advance(SETTLE_MS)
    assert session.game.ply == 3 and session.message == "d4xf6; ruch: Czarne"
    _play(board, "f6", "d4")                    # the capture taken back by hand
    board.put("e5")
    board.advance(SETTLE_MS)
    assert session.game.ply == 2 and session.message == "cofnięto 1 ruch; ruch: Białe"

    _resign_from_the_menu(app, board)
    assert app.state is AppState.RESULT
    assert session.message == "koniec gry: Czarne wygrywa (poddanie)"


def test_the_same_game_in_english_says_it_word_for_word() -> None:
    """The English board says the same sentences as before the catalogue held them."""
    app = App(setup=GameSetup("classic"), start_game=True)
    board = on_board(app)
    session = app.session
    _play(board, "c3", "c4")
    board.press(0)
    board.advance(200)
    assert session.message == "press refused: this is not a legal move"
    _play(board, "c4", "c3")
    _play(board, "c3", "d4")
    _play(board, "f6", "e5")
    _play(board, "g3", "f4")
    board.press(0)
    board.advance(200)
    assert session.message == "press refused: this is not a legal move: a capture is compulsory (d4)"
    _play(board, "f4", "g3")
    _play(board, "e5", "f6")                    # black's move taken back by hand
    assert session.message == "took back 1 move; Black to move"
    assert words.language() == "en"


def test_the_arbiter_s_lines_name_the_page_in_polish() -> None:
    """A command from the page, on a board started in Polish, says who did it in Polish."""
    words.set_language("pl")                    # as `[board] language = "pl"` does at start
    app = App(setup=GameSetup("classic"), start_game=True)
    on_board(app)
    line = app.commands.resign("page")
    assert line == "Białe poddaje się (z: strona)"
