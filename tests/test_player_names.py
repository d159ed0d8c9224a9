"""One name for each side on the screen: the player's name when one was given,
else the variant's own word; the session's message line and the status agree."""

from __future__ import annotations

from damka.controller.app import App
from damka.controller.game.setup import GameSetup
from app_rig import on_board
from damka.sim.virtual_board import carry_out


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
