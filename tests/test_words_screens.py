"""Every screen the simulator draws, in Polish, at the board's 480x320 panel
(and the other panel sizes): Polish sentences are longer than English ones,
so each is checked the way a person would read it: shown whole (not cut short
with "...", no line left out), inside the screen, no text over another, none
below 14 px. The views are built by the real builders (menus, wording, the
app itself) on a board set to Polish."""

from __future__ import annotations

import os
from pathlib import Path

import pygame
import pytest

from damka.controller import words

from damka.controller.words import wording
from damka.controller.app import App
from damka.controller.app.board_settings import BoardSettings, settings_menu
from damka.controller.app.lesson_desk import lessons_menu
from damka.controller.app.menus import board_note, game_actions_menu, game_menu, resume_menu
from damka.controller.game.setup import GameSetup
from damka.controller.board.takeback_guide import PieceStep, TakebackGuide
from damka.controller.words import say
from damka.display import widgets
from damka.display.screen import PANEL_SIZES, GameView, MenuView, ResultView, Screen, SideLine, Standing, View
from damka.display.widgets import PLAYER_COLOURS, SIDE_COLOURS
from damka.engine.variants import variant_class
from test_clock_face import four_sides_paused_in_byoyomi, three_sides_one_flagged, tournament_clock_after_21_presses
from test_screen_sizes import game_four

MIN_GLYPH = 14
IMAGES = Path(__file__).resolve().parent.parent / "docs" / "images" / "screens" / "pl"


@pytest.fixture(autouse=True)
def polish_board():
    pygame.font.init()
    widgets._cached_font.cache_clear()
    words.set_language("pl")
    yield


def white_black(to_move: int = 0) -> list[SideLine]:
    return [SideLine(say("side.white"), SIDE_COLOURS["white"], to_move=to_move == 0),
            SideLine(say("side.black"), SIDE_COLOURS["black"], to_move=to_move == 1)]


def players(count: int, scores: list[int], out: int | None = None, to_move: int = 0) -> list[SideLine]:
    return [SideLine(say("side.player", number=i + 1), PLAYER_COLOURS[i], score=scores[i], to_move=i == to_move,
                     out=i == out) for i in range(count)]


def title(variant: str, mode: str) -> str:
    return wording.game_title(variant_class(variant)().title, mode)


class Loses:
    men = 3


def guide() -> TakebackGuide:
    return TakebackGuide(((0, "c3xe5"), (1, "f6xd4")), (PieceStep("c3", True, 0), PieceStep("d4", True, 1, True),
                                                        PieceStep("e5", False), PieceStep("f6", True, 1)))


def views() -> dict[str, View]:
    variant = variant_class("classic")()
    standings = [Standing("Bartek", PLAYER_COLOURS[1], 1.5, 21, 3), Standing("Ala", PLAYER_COLOURS[0], 1, 14, 3),
                 Standing("Celina", PLAYER_COLOURS[2], 0.5, 9, 3),
                 Standing("Dominika Wiśniewska", PLAYER_COLOURS[3], 0, 3, 3)]
    description = "gra 12, " + title("classic", "tournament") + ", ruch 23, Ala - Ola"
    return {
        "menu-new": MenuView(game_menu(GameSetup("international", mode="tournament", time_control="fmjd-classical"))),
        "menu-long": MenuView(game_menu(GameSetup("multiwarcaby", sides=4, mode="computer", computers=3))),
        "menu-learning": MenuView(game_menu(GameSetup("canadian", mode="learning", hint_limit=3)),
                                  warning=board_note("canadian")),
        "menu-game": MenuView(game_actions_menu(clock_running=True, offer="Remis: propozycja od: Czarne", asks=True),
                              subtitle=title("multiwarcaby", "casual")),
        "menu-game-paused": MenuView(game_actions_menu(clock_paused=True), subtitle=title("classic", "tournament")),
        "resume": MenuView(resume_menu(description), subtitle=description),
        "settings": MenuView(settings_menu(BoardSettings(brightness=16, night=True, palette="colour-blind",
                                                         language="pl"))),
        "unplugged": MenuView(game_menu(), warning=wording.board_missing_text("/dev/ttyACM0")),
        "game-2-learning": GameView(title("classic", "learning"), white_black(), status=say("status.to_move",
                                    side=say("side.white")), last_move="c3-d4", move_number=12,
                                    hint="podpowiedź: g7xe5", hints_left=2,
                                    messages=[wording.lift_advice("e3", ["a1", "c3", "e5"], False)], alert=True),
        "game-2-warning": GameView(title("classic", "learning"), white_black(), status=say("status.setup"),
                                   hints_left=0, messages=[wording.warning_text(Loses())], alert=True),
        "game-2-takeback": GameView(title("classic", "casual"), white_black(1),
                                    status=say("status.taking_back", turns=wording.takeback_turns(variant, guide())),
                                    last_move="c3xe5", move_number=9, messages=[wording.takeback_text(variant, guide())],
                                    alert=True),
        "game-2-clock": GameView(title("classic", "tournament"), white_black(1),
                                 clock=tournament_clock_after_21_presses().view(),
                                 status=say("status.to_move", side=say("side.black")) + say("status.clock_paused"),
                                 last_move="23x14x5", move_number=11),
        "game-2-thinking": GameView(title("classic", "computer"), white_black(1),
                                    status=say("status.computer_thinking"), last_move="c3-d4", move_number=3,
                                    thinking=True),
        "game-3-clock": GameView(title("multiwarcaby", "tournament"), players(3, [3, 1, 12], out=1, to_move=2),
                                 clock=three_sides_one_flagged().view(),
                                 status=say("status.second_move", side=say("side.player", number=3)),
                                 last_move="d2xb2 a2xc2", move_number=4,
                                 messages=[wording.second_move_text(True)]),
        "game-4-clock": GameView(title("multiwarcaby", "casual"), players(4, [2, 10, 0, 5], to_move=1),
                                 clock=game_four().clock,
                                 status=say("turn.two_moves", side=say("side.player", number=2)),
                                 last_move="d2xb2 a2xc2", move_number=2, messages=[wording.last_move_text()]),
        "game-4-paused": GameView(title("multiwarcaby", "tournament"), players(4, [2, 10, 0, 5], to_move=1),
                                  clock=four_sides_paused_in_byoyomi().view(),
                                  status=say("status.to_move", side=say("side.player", number=2)),
                                  last_move="d2xb2 a2xc2", move_number=2),
        "game-4-no-clock": GameView(title("multiwarcaby", "casual"), players(4, [2, 10, 0, 5], out=3, to_move=1),
                                    status=say("status.to_move", side=say("side.player", number=2)),
                                    last_move="e5-e4", move_number=7),
        "result-4": ResultView(say("result.first", names="Bartek"),
                               wording.reason_text("no legal move") + say("result.small_points", scores="21 14 9 3"),
                               standings, by_small_points=True, next_first=say("result.next_first", side="Celina"),
                               footer=say("result.footer")),
        "result-2": ResultView(say("result.title_wins", side="Ala"), wording.reason_text("threefold repetition"),
                               standings[:2], next_first=say("result.next_first", side="Ola"),
                               footer=say("result.footer")),
        "result-abandoned": ResultView(say("result.abandoned"), "", footer=say("result.footer"),
                                       warning=wording.board_missing_text("/dev/ttyACM0")),
    }


def whole_texts(view: View) -> list[str]:
    """The sentences of `view` a player must be able to read in full."""
    if isinstance(view, GameView):
        return [view.title, view.status, *view.messages, view.hint]
    if isinstance(view, MenuView):
        return [view.menu.title, view.menu.footer, view.subtitle, view.warning]
    return [view.title, view.reason, view.next_first, view.footer, view.warning]


def check(name: str, view: View, size: tuple[int, int], save: bool = True) -> None:
    """`view` drawn at `size` reads whole (see the module docstring); `save`: its picture for docs/screens.md."""
    with widgets.recording() as texts:
        surface = Screen(size).render(view)
    where = f"{name} at {size[0]}x{size[1]}"
    assert len(texts) >= 3, f"{where}: almost nothing drawn"
    shown = "".join(t.words for t in texts).replace(" ", "")
    for sentence in whole_texts(view):
        assert sentence.replace(" ", "") in shown, f"{where}: {sentence!r} not shown whole"
    meant = [s for s in whole_texts(view) if s.endswith(widgets.ELLIPSIS)]
    names = [s.name for s in view.standings] if isinstance(view, ResultView) else []  # a player's, not our words
    shortened = [t.words for t in texts if t.words.endswith(widgets.ELLIPSIS)
                 and not any(s.endswith(t.words) for s in meant)
                 and not any(name.startswith(t.words[:-len(widgets.ELLIPSIS)]) for name in names)]
    assert not shortened, f"{where}: cut short: {shortened}"
    small = [(t.words, t.glyph_height) for t in texts if t.glyph_height < MIN_GLYPH]
    assert not small, f"{where}: text below {MIN_GLYPH} px: {small}"
    cut = [(t.words, t.rect) for t in texts if not surface.get_rect().contains(t.rect)]
    assert not cut, f"{where}: text cut at the edge: {cut}"
    overlaps = [(a.words, b.words) for i, a in enumerate(texts) for b in texts[i + 1:] if a.rect.colliderect(b.rect)]
    assert not overlaps, f"{where}: texts over each other: {overlaps}"
    path = IMAGES / f"{name}-{size[0]}x{size[1]}.png"
    if save and size == (480, 320) and (os.environ.get("DAMKA_UPDATE_IMAGES") == "1" or not path.exists()):
        IMAGES.mkdir(parents=True, exist_ok=True)   # docs/screens.md shows them
        pygame.image.save(surface, str(path))


@pytest.mark.parametrize("size", PANEL_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_screen_reads_whole_in_polish(size: tuple[int, int]) -> None:
    built = views()
    assert len(built) >= 18
    for name, view in built.items():
        check(name, view, size)


def test_the_menus_show_every_row_in_polish_at_480x320() -> None:
    """A menu scrolls: each row, scrolled to, shows its label and value whole."""
    for menu in (game_menu(GameSetup("multiwarcaby", sides=4, mode="computer", computers=3)),
                 settings_menu(BoardSettings(language="pl")), game_actions_menu(clock_running=True, offer="x"),
                 lessons_menu()):
        for cursor in range(len(menu.visible_rows())):
            menu.cursor = cursor
            row = menu.current
            with widgets.recording() as texts:
                Screen((480, 320)).render(MenuView(menu))
            drawn = {t.words for t in texts}
            assert row.label in drawn and (row.is_action or row.value_label in drawn), (menu.title, row.label)


def test_the_apps_own_screens_in_polish() -> None:
    """The app's screens as the simulator shows them on a board set to Polish: the new-game
    menu, a game being set up and played, the game menu and the board settings over it."""
    app = App(setup=GameSetup("classic"))
    app.set_board_settings(BoardSettings(language="pl"))
    assert words.language() == "pl"
    shown = {"start": app.view()}
    assert isinstance(shown["start"], MenuView) and shown["start"].menu.title == "Nowa gra"
    app.new_game(GameSetup("classic", mode="learning"))
    shown["game"] = app.view()
    assert isinstance(shown["game"], GameView)
    assert shown["game"].sides[0].name == "Białe" and shown["game"].status == "Ustaw pionki"
    for name, view in shown.items():
        check(name, view, (480, 320))


def test_the_language_changes_from_the_board_settings_menu() -> None:
    """Language on the settings menu: the menu open under the player's finger, and the
    new-game menu under it, speak the new language at once, their cursor and values kept."""
    words.set_language("en")
    app = App(setup=GameSetup("classic"))
    start = app.view()
    assert isinstance(start, MenuView) and start.menu.title == "New game"
    rows = [row.key for row in start.menu.visible_rows()]
    app.tap_menu(rows.index("settings"))  # a tap on "Board settings"
    menu = app.shown_menu
    assert menu is not None and menu.title == "Board settings"
    app.tap_menu([row.key for row in menu.visible_rows()].index("language"))  # English -> Polski
    assert app.board_settings.language == "pl" and words.language() == "pl"
    shown = app.shown_menu
    assert shown is not None and shown.title == "Ustawienia planszy" and shown.current.label == "Język"
    check("settings", MenuView(shown), (480, 320))
    app.tap_menu([row.key for row in shown.visible_rows()].index("back"))  # "Gotowe"
    under = app.shown_menu
    assert under is not None and under.title == "Nowa gra" and under.row("variant").value_label == "Klasyczne 8x8"
    assert under.current.key == "settings"
