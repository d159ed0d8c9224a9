"""One name for each side on the screen: the player's name when one was given,
else the variant's own word; the session's message line and the status agree."""

from __future__ import annotations

import pytest

from damka.controller import words as board_words
from damka.controller.app import App, AppState
from damka.controller.app.views import GameView
from damka.controller.game.setup import GameSetup
from damka.controller.words import say
from damka.display.widgets import SIDE_COLOURS
from app_rig import on_board
from damka.sim.virtual_board import carry_out
from test_board_play import FULL, go_to_row, set_row, set_up_pieces


def words(app: App) -> list[str]:
    view = app.view()
    return [view.status, *view.messages]


def test_a_named_game_calls_each_side_by_its_player_s_name() -> None:
    app = App(setup=GameSetup("classic", colours="first"), start_game=True, players=["Ala", "Ola"],
              offer_resume=False)
    board = on_board(app)
    assert app.session.phase.value == "playing"
    assert app.game_players == ["Ala", "Ola"]
    assert all("White" not in line and "Black" not in line for line in words(app)), words(app)
    assert words(app)[0] == "Ala to move"
    carry_out(board, "c3", ["d4"], [], step_ms=50)
    board.press(0)
    board.advance(500)
    assert [c.text for c in app.session.committed] == ["c3-d4"]
    assert words(app)[0] == "Ola to move"
    assert all("White" not in line and "Black" not in line for line in words(app)), words(app)
    board.press(0)                                   # the wrong clock: whose turn it is, by name
    board.advance(100)
    assert "it is Ola's turn" in app.session.message


def test_a_game_without_names_keeps_the_sides_own_words() -> None:
    app = App(setup=GameSetup("classic"), start_game=True, offer_resume=False)
    on_board(app)
    assert words(app)[0] == "White to move"


# -- a new game, the next game of a match (issue 38) -------------------------------------------


def shown_sides(app: App) -> list[tuple[str, tuple[int, int, int]]]:
    """The side panels as the screen draws them: name and disc colour."""
    view = app.view()
    assert isinstance(view, GameView), type(view).__name__
    return [(side.name, side.colour) for side in view.sides]


@pytest.mark.parametrize("language", ["en", "pl"])
def test_a_new_game_against_the_computer_names_the_sides_it_plays_now(language: str) -> None:
    """First game: the person White. c3-d4, then menu, New game, Colours "I move
    second", Start, the pieces set up: the computer plays White now, and the
    panels, the status and the message line all say so (the panels kept
    "White" / "Black (computer)" and the status "White to move")."""
    board_words.set_language(language)
    app = App(setup=GameSetup("classic", mode="computer", colours="first", level="beginner"), start_game=True,
              offer_resume=False)
    board = on_board(app)
    white, black, computer = say("side.white"), say("side.black"), say("who.computer")
    assert [name for name, _ in shown_sides(app)] == [white, f"{black} ({computer})"]
    carry_out(board, "c3", ["d4"], [], step_ms=50)
    board.advance(1000)
    assert [c.text for c in app.session.committed] == ["c3-d4"]
    board.button("menu")
    board.advance(100)
    go_to_row(app, board, FULL, "new")
    FULL.ok(board)
    board.advance(100)
    set_row(app, board, FULL, "colours", "second")
    go_to_row(app, board, FULL, "start")
    FULL.ok(board)
    board.advance(100)
    board.lift("d4")   # the board guides the pieces back to the start: d4 off, c3 on
    board.advance(100)
    set_up_pieces(app, board)
    app.session.settle()
    board.advance(100)
    assert app.session.settings.computer_sides == frozenset({0})
    assert shown_sides(app) == [(f"{white} ({computer})", SIDE_COLOURS["white"]), (black, SIDE_COLOURS["black"])]
    view = app.view()
    assert view.status == say("status.to_move", side=f"{white} ({computer})")
    assert app.session.message == say("turn.carry_out", side=white, who=computer)


@pytest.mark.parametrize("language", ["en", "pl"])
def test_the_next_game_of_a_match_keeps_the_sides_own_words_on_their_sides(language: str) -> None:
    """No names given: resign, ok on the result, ok on the new-game menu. White
    starts the next game: its panel says "White" with the white disc and the
    status "White to move" (the names rotated with the first turn: "Black"
    with a white disc, "Black to move")."""
    board_words.set_language(language)
    app = App(setup=GameSetup("classic"), start_game=True, offer_resume=False)
    board = on_board(app)
    white, black = say("side.white"), say("side.black")
    app.resign("board")
    assert app.screens.state is AppState.RESULT
    for _ in range(2):
        board.button("ok")
        board.advance(100)
    set_up_pieces(app, board)
    assert app.screens.state is AppState.GAME and app.session.game.ply == 0
    assert shown_sides(app) == [(white, SIDE_COLOURS["white"]), (black, SIDE_COLOURS["black"])]
    assert app.view().status == say("status.to_move", side=white)
    assert app.game_players == [white, black]


def test_named_players_still_change_colours_between_the_games_of_a_match() -> None:
    app = App(setup=GameSetup("classic", colours="first"), start_game=True, players=["Ala", "Ola"],
              offer_resume=False)
    board = on_board(app)
    app.resign("board")
    for _ in range(2):
        board.button("ok")
        board.advance(100)
    set_up_pieces(app, board)
    assert [name for name, _ in shown_sides(app)] == ["Ola", "Ala"]
    assert words(app)[0] == "Ola to move"


def test_the_side_panels_show_which_colour_each_named_player_has() -> None:
    """Issue 38: with names, the clock's panels said "Ala" and "Ola" and nothing showed who plays White.
    The panels say "Ala (White)" (in Polish "Ala (Białe)"), with a clock and without, at every panel size;
    the status keeps the one name ("Ala to move")."""
    import pygame

    from damka.controller import words as catalogue
    from damka.controller.app.board_settings import BoardSettings
    from damka.display import widgets
    from damka.display.screen import PANEL_SIZES, Screen

    pygame.font.init()
    widgets._cached_font.cache_clear()
    for language, white, black in (("en", "Ala (White)", "Ola (Black)"), ("pl", "Ala (Białe)", "Ola (Czarne)")):
        for clock in ("", "10+5"):
            app = App(setup=GameSetup("classic", colours="first", time_control=clock), start_game=True,
                      players=["Ala", "Ola"], offer_resume=False)
            app.set_board_settings(BoardSettings(language=language))
            try:
                on_board(app)
                for size in PANEL_SIZES:
                    with widgets.recording() as texts:
                        Screen(size).render(app.view())
                    drawn = [t.words for t in texts]
                    assert white in drawn and black in drawn, (language, clock, size, drawn)
                assert app.view().status == catalogue.say("status.to_move", side="Ala")
            finally:
                catalogue.set_language("en")
