"""The menus: four buttons are enough to set up any game."""

from __future__ import annotations

from damka.controller.menus import GameSetup, game_actions_menu, game_menu, resume_menu
from damka.engine import find_variant
from damka.hardware.interfaces import Button


def keys(rows) -> list[str]:
    return [row.key for row in rows]


def test_default_menu_starts_with_one_press() -> None:
    menu = game_menu()
    assert menu.current.key == "start"
    assert menu.press(Button.OK).name == "start"
    assert menu.setup() == GameSetup()


def test_rows_follow_the_variant_and_mode() -> None:
    menu = game_menu()
    assert "sides" not in keys(menu.visible_rows()) and "level" not in keys(menu.visible_rows())
    menu.row("variant").select("multiwarcaby")
    menu.row("mode").select("computer")
    menu._changed()
    assert {"sides", "level", "colours"} <= set(keys(menu.visible_rows()))


def test_computer_seats_and_hint_limit_rows() -> None:
    menu = game_menu()
    assert "computers" not in keys(menu.visible_rows()) and "hints" not in keys(menu.visible_rows())
    menu.row("mode").select("learning")
    menu._changed()
    assert "hints" in keys(menu.visible_rows())
    menu.row("hints").select("")
    assert menu.setup().hint_limit is None
    menu.row("variant").select("multiwarcaby")
    menu.row("sides").select("4")
    menu.row("mode").select("computer")
    menu._changed()
    assert "computers" in keys(menu.visible_rows()) and "hints" not in keys(menu.visible_rows())
    menu.row("computers").select("2")
    setup = menu.setup()
    assert setup.computers == 2 and game_menu(setup).setup() == setup
    assert setup.computer_seats(4, draw=lambda seats, k: [3, 1]) == frozenset({0, 2})
    assert GameSetup(colours="first", computers=2).computer_seats(4) == frozenset({2, 3})
    assert GameSetup(colours="second").computer_seats(2) == frozenset({0})
    assert GameSetup(colours="first").computer_seats(3) == frozenset({1, 2})   # all but me


def test_up_down_ok_and_back() -> None:
    menu = game_menu()
    menu.cursor = 0
    for _ in range(1):
        menu.press(Button.OK)            # classic -> next variant in the list
    assert menu.row("variant").value == "classic81"
    menu.press(Button.UP)                # wraps to the last row: start
    assert menu.current.key == "start"
    assert menu.press(Button.MENU).name == "back"
    menu.press(Button.DOWN)
    assert menu.current.key == "variant"


def test_cursor_stays_on_its_row_when_rows_appear() -> None:
    menu = game_menu()
    menu.cursor = 0
    for _ in range(len(menu.row("variant").choices)):
        menu.press(Button.OK)
        if menu.row("variant").value == "multiwarcaby":
            break
    assert menu.current.key == "variant" and "sides" in keys(menu.visible_rows())


def test_setup_gives_the_variant_options() -> None:
    menu = game_menu(GameSetup("multiwarcaby", sides=2, teams=True, mode="tournament", time_control="blitz-64"))
    setup = menu.setup()
    assert setup.teams and setup.variant_options() == {"teams": True}
    assert find_variant(setup.variant, **setup.variant_options()).sides == ("team A", "team B")
    assert GameSetup("multiwarcaby", sides=4).variant_options() == {"sides": 4}
    assert GameSetup("classic", sides=4).variant_options() == {}


def test_every_preset_can_be_chosen() -> None:
    menu = game_menu()
    row = menu.row("time_control")
    seen = set()
    for _ in range(len(row.choices)):
        row.step(1)
        seen.add(row.value)
    assert {"", "casual", "blitz-64", "fmjd-classical"} <= seen


def test_in_game_and_resume_menus() -> None:
    assert keys(game_actions_menu(clock_running=True).rows) == ["continue", "draw", "resign", "takeback", "pause",
                                                                 "new"]
    assert "takeback" not in keys(game_actions_menu(can_take_back=False).rows)
    menu = resume_menu("game 3, Classic, move 12")
    assert menu.press(Button.OK).name == "resume"
    menu.press(Button.DOWN)
    assert menu.press(Button.OK).name == "new"
