"""The board's own settings, changed from a menu while playing: LED
brightness, night mode, whether the last move stays lit, the colour-blind
safe palette, sound, voice and the language the board speaks. Start values come from the board config
([leds] brightness, [light], [sound], [voice], [board] language); the app tells its listeners
(the LEDs, the cues) each time one changes.

    settings = BoardSettings(brightness=64)
    menu = settings_menu(settings)       # rows; ok steps a value, menu goes back
    settings = read_menu(menu, settings) # after each press
    settings = with_choices(settings, {"brightness": "128"})  # the web page: the same rows, checked

Every setting's allowed values are the menu's rows: the web page reads them
(`setting_rows`) and its changes are checked against them (`with_choices`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, Mapping

from damka.controller.app.menus import Choices, Menu, Row
from damka.controller.words import LANGUAGE_NAMES, LANGUAGES, language, say

SETTINGS_MENU = "settings"  # the settings menu's name: how the app knows it (its title is in the board's language)


def brightness_choices() -> Choices:
    """Brightness steps (of 255) as the menu offers them; night mode uses its own, low one."""
    return tuple((value, say(f"settings.{word}")) for value, word in
                 (("16", "dim"), ("32", "low"), ("64", "normal"), ("128", "bright"), ("255", "full")))


def on_off() -> Choices:
    return (("on", say("settings.on")), ("off", say("settings.off")))


def palette_choices() -> Choices:
    return (("standard", say("settings.standard")), ("colour-blind", say("settings.colour_blind")))


def language_choices() -> Choices:
    """Each language in its own words ("English", "Polski"): found by one who reads only that one."""
    return tuple((code, LANGUAGE_NAMES[code]) for code in LANGUAGES)


@dataclass(frozen=True)
class BoardSettings:
    brightness: int = 64
    night: bool = False
    night_brightness: int = 8
    last_move: bool = True
    palette: str = "standard"
    sound: bool = True
    voice: bool = False
    language: str = "en"

    @property
    def led_brightness(self) -> int:
        """What the LEDs use now: the night brightness at night."""
        return self.night_brightness if self.night else self.brightness


def _on(flag: bool) -> str:
    return "on" if flag else "off"


def settings_menu(settings: BoardSettings) -> Menu:
    brightness = brightness_choices()
    if str(settings.brightness) not in {value for value, _ in brightness}:
        brightness += ((str(settings.brightness), say("settings.config", value=settings.brightness)),)
    menu = Menu(
        title=say("settings.title"),
        rows=[
            Row("brightness", say("settings.brightness"), brightness),
            Row("night", say("settings.night"), on_off()),
            Row("last_move", say("settings.last_move"), on_off()),
            Row("palette", say("settings.palette"), palette_choices()),
            Row("sound", say("settings.sound"), on_off()),
            Row("voice", say("settings.voice"), on_off()),
            Row("language", say("settings.language"), language_choices()),
            Row("back", say("settings.done")),
        ],
        footer=say("settings.footer"),
        name=SETTINGS_MENU,
    )
    menu.row("brightness").select(str(settings.brightness))
    for key in ("night", "last_move", "sound", "voice"):
        menu.row(key).select(_on(getattr(settings, key)))
    menu.row("palette").select(settings.palette)
    menu.row("language").select(settings.language)
    return menu


def setting_rows(settings: BoardSettings) -> dict[str, dict[str, Any]]:
    """Each setting row of the board's menu: label, value now and choices (the web page's form),
    in the board's language. Cached: the page's picture asks for it after every move; do not
    change what it returns."""
    return _setting_rows(settings, language())


@lru_cache(maxsize=8)
def _setting_rows(settings: BoardSettings, code: str) -> dict[str, dict[str, Any]]:
    return {row.key: {"label": row.label, "value": row.value, "choices": [list(pair) for pair in row.choices]}
            for row in settings_menu(settings).rows if not row.is_action}


def with_choices(settings: BoardSettings, changes: Mapping[str, Any]) -> BoardSettings:
    """`settings` with `changes` (row key: one of that row's values; true/false for on/off, a number
    for the brightness) set as the menu would set them. ValueError naming the field for anything else."""
    menu = settings_menu(settings)
    keys = [row.key for row in menu.rows if not row.is_action]
    for key, value in changes.items():
        if key not in keys:
            raise ValueError(f"{key!r} is not a board setting (known: {', '.join(keys)})")
        row = menu.row(key)
        text = _on(value) if isinstance(value, bool) else str(value) if isinstance(value, (int, str)) else None
        allowed = [choice for choice, _ in row.choices]
        if text not in allowed:
            raise ValueError(f"{key}: {value!r} is not one of {', '.join(allowed)}")
        row.select(text)
    return read_menu(menu, settings)


def changes_text(old: BoardSettings, new: BoardSettings) -> str:
    """What changed, in the menu's words: "LED brightness Bright (50%), LED colours Colour-blind safe"."""
    before, after = settings_menu(old), settings_menu(new)
    return ", ".join(f"{row.label} {row.value_label}" for row in after.rows
                     if not row.is_action and row.value != before.row(row.key).value)


def read_menu(menu: Menu, settings: BoardSettings) -> BoardSettings:
    """The settings as the menu's rows show them now."""
    return replace(
        settings,
        brightness=int(menu.row("brightness").value),
        night=menu.row("night").value == "on",
        last_move=menu.row("last_move").value == "on",
        palette=menu.row("palette").value,
        sound=menu.row("sound").value == "on",
        voice=menu.row("voice").value == "on",
        language=menu.row("language").value,
    )
