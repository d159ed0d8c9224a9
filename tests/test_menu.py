"""The menus: four buttons are enough to set up any game."""

from __future__ import annotations

from damka.controller.app.menus import GameSetup, game_actions_menu, game_menu, resume_menu, variant_choices
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


def test_up_down_stop_at_the_ends_ok_steps_on_take_back_steps_back() -> None:
    menu = game_menu()
    menu.cursor = 0
    menu.press(Button.OK)                # classic -> the next game in the list
    assert menu.row("variant").value == "classic81"
    menu.press(Button.TAKE_BACK)         # the board's second button: one step back
    assert menu.row("variant").value == "classic"
    menu.press(Button.TAKE_BACK)         # and the one before it
    names = [name for name, _ in variant_choices()]
    assert menu.row("variant").value == names[names.index("classic") - 1]
    menu.press(Button.UP)                # the first row: up stays there
    assert menu.current.key == "variant"
    for _ in range(len(menu.rows) + 2):
        menu.press(Button.DOWN)          # the last row: down stays there
    assert menu.current.key == "start"
    assert menu.press(Button.MENU).name == "back"
    menu.press(Button.UP)
    assert menu.current.key != "start"
    assert menu.press(Button.TAKE_BACK) is None and menu.press(Button.DOWN) is None
    assert menu.press(Button.TAKE_BACK) is None and menu.current.key == "start"   # no setting to step


def test_a_tap_on_a_row_steps_a_setting_or_chooses_an_action() -> None:
    menu = game_menu()
    keys_shown = keys(menu.visible_rows())
    assert menu.choose(keys_shown.index("mode")) is None
    assert menu.current.key == "mode" and menu.row("mode").value == "learning"
    assert menu.choose(keys(menu.visible_rows()).index("start")).name == "start"   # a "Hints" row came in
    assert menu.choose(99) is None and menu.current.key == "start"


def test_changing_the_game_resets_a_clock_that_belonged_to_the_last_one() -> None:
    menu = game_menu(GameSetup("multiwarcaby", sides=4, time_control="multiwarcaby-4"))
    assert menu.row("time_control").value == "multiwarcaby-4"     # the same game again keeps its clock
    menu.row("variant").select("classic")
    menu.step(0)
    setup = menu.setup()
    assert setup.variant == "classic" and setup.sides == 2 and setup.time_control == "casual"
    assert menu.row("time_control").value_label == "Casual default (rapid-64, 10+3)"
    menu.row("variant").select("multiwarcaby")
    menu.step(0)
    menu.row("sides").select("3")
    menu.step(0)
    assert menu.row("time_control").value_label == "Casual default (multiwarcaby-3, 5+2)"
    # No clock stays no clock.
    menu.row("time_control").select("")
    menu.row("variant").select("international")
    menu.step(0)
    assert menu.setup().time_control == ""


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
                                                                 "settings", "new"]
    assert "takeback" not in keys(game_actions_menu(can_take_back=False).rows)
    menu = resume_menu("game 3, Classic, move 12")
    assert menu.press(Button.OK).name == "resume"
    menu.press(Button.DOWN)
    assert menu.press(Button.OK).name == "new"


def test_a_game_on_a_larger_board_says_what_it_needs() -> None:
    menu = game_menu()
    assert menu.description == ""
    menu.row("variant").select("international")
    menu.step(0)
    assert "10x10 board" in menu.description and "simulator" in menu.description
    assert dict(menu.row("variant").choices)["canadian"].endswith("(larger board)")
    assert "12x12 board" in game_menu(GameSetup("canadian")).description
