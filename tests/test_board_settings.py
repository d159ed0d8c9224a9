"""Light from the menu: LED brightness, night mode, the last move shown or
not, the colour-blind safe palette (roles also told apart by blink pattern),
sound and voice on or off; reached with the board's buttons alone."""

from __future__ import annotations

import re

import pytest

from damka.controller.app import App
from damka.controller.app.board_settings import BoardSettings
from damka.controller.cues.sinks import RecordingSink
from app_listeners import SettingsHeard
from damka.controller.cues.listener import CueListener
from damka.controller.game.setup import GameSetup
from damka.firmware import protocol as P
from damka.hardware.interfaces import Role
from damka.hardware.layout import Layout
from damka.hardware.leds import LedStyle
from damka.hardware.palette import COLOUR_BLIND_STYLE, MONO_STYLE, RGB_STYLE
from damka.sim.virtual_board import VirtualBoard
from test_app import make, on_board
from test_board_play import FULL, MINIMAL, go_to_row, set_row, shown_menu


def open_settings(app: App, board: VirtualBoard, kit) -> None:
    go_to_row(app, board, kit, "settings")
    kit.ok(board)
    assert shown_menu(app).menu.title == "Board settings"


def test_the_minimal_board_reaches_every_light_setting_and_each_is_applied_at_once() -> None:
    app = App()
    seen: list[BoardSettings] = []
    app.listen(SettingsHeard(seen.append))
    board = VirtualBoard()
    board.connect(app)
    open_settings(app, board, MINIMAL)
    set_row(app, board, MINIMAL, "brightness", "16")
    set_row(app, board, MINIMAL, "night", "on")
    set_row(app, board, MINIMAL, "last_move", "off")
    set_row(app, board, MINIMAL, "palette", "colour-blind")
    assert seen[-1] == BoardSettings(brightness=16, night=True, last_move=False, palette="colour-blind")
    assert seen[-1].led_brightness == 8  # night mode's own brightness
    assert len(seen) > 4  # each press told the LEDs, not only the last
    go_to_row(app, board, MINIMAL, "back")
    MINIMAL.ok(board)
    assert shown_menu(app).menu.title == "New game"


def test_the_last_move_is_lit_only_when_asked() -> None:
    app = App(setup=GameSetup("russian"), start_game=True)
    board = on_board(app)
    make(board, app, app.session.game.legal_moves()[0])
    board.advance(2500)
    assert Role.LAST_MOVE in board.leds.values()
    board.button("menu")
    open_settings(app, board, FULL)
    set_row(app, board, FULL, "last_move", "off")
    board.button("menu")  # back to the game
    assert Role.LAST_MOVE not in board.leds.values()  # what the LEDs show
    board.button("menu")
    open_settings(app, board, FULL)
    set_row(app, board, FULL, "last_move", "on")
    board.button("menu")
    assert Role.LAST_MOVE in board.leds.values()


def test_sound_and_voice_follow_the_menu_during_a_game() -> None:
    app = App(setup=GameSetup("russian"), start_game=True)
    sink = RecordingSink()
    CueListener.attach(app, [sink])
    board = on_board(app)
    board.button("menu")
    open_settings(app, board, FULL)
    set_row(app, board, FULL, "voice", "on")
    board.button("menu")                      # back to the game
    assert app.view().__class__.__name__ == "GameView"
    make(board, app, app.session.game.legal_moves()[0])
    board.advance(2500)
    assert sink.items and sink.items[-1].text.startswith("White: ")


def test_the_colour_blind_palette_keeps_the_one_colour_board_s_blink_patterns() -> None:
    for role in Role:
        assert COLOUR_BLIND_STYLE[role][1] == MONO_STYLE[role]
    # No red-green pair for "wrong" and "may go": vermillion against bluish green.
    assert COLOUR_BLIND_STYLE[Role.FLAG][0] == (213, 94, 0)
    assert COLOUR_BLIND_STYLE[Role.LEGAL_TARGET][0] == (0, 158, 115)
    assert RGB_STYLE[Role.LEGAL_TARGET][0] == (0, 255, 0)  # the standard palette is unchanged


def test_a_led_style_relit_from_the_menu_changes_the_frame_sent() -> None:
    style = LedStyle(Layout(9, 9), brightness=64)
    frame = {"c3": Role.LEGAL_TARGET, "d4": Role.FLAG}
    before = P.unpack_leds(P.pack_leds(style.brightness, *style.encode(frame)), 81)
    style.set_light(8, "colour-blind")
    after = P.unpack_leds(P.pack_leds(style.brightness, *style.encode(frame)), 81)
    assert before[0] == 64 and after[0] == 8
    assert (0, 158, 115, MONO_STYLE[Role.LEGAL_TARGET]) in after[1]


def test_changes_from_outside_the_menu_take_exactly_the_menu_s_values() -> None:
    from damka.controller.app.board_settings import changes_text, setting_rows, with_choices

    config = BoardSettings(brightness=100)                    # a brightness from the config: the menu offers it
    assert setting_rows(config)["brightness"]["choices"][-1] == ["100", "100 (config)"]
    assert with_choices(config, {"brightness": 100, "night": True}) == BoardSettings(brightness=100, night=True)
    changed = with_choices(config, {"brightness": "255", "palette": "colour-blind"})
    assert changed == BoardSettings(brightness=255, palette="colour-blind")
    assert changes_text(config, changed) == "LED brightness Full, LED colours Colour-blind safe"
    for bad, start in [({"brightness": "100"}, "brightness: '100'"), ({"brightness": True}, "brightness: True"),
                       ({"night": 1}, "night: 1 is not one of on, off"), ({"back": "back"}, "'back' is not a board")]:
        with pytest.raises(ValueError, match="^" + re.escape(start)):   # no longer offered, not a value, not a setting
            with_choices(changed, bad)
