"""The board's own settings, changed from a menu while playing: LED
brightness, night mode, whether the last move stays lit, the colour-blind
safe palette, sound and voice. Start values come from the board config
([leds] brightness, [light], [sound], [voice]); the app tells its listeners
(the LEDs, the cues) each time one changes.

    settings = BoardSettings(brightness=64)
    menu = settings_menu(settings)       # rows; ok steps a value, menu goes back
    settings = read_menu(menu, settings) # after each press
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from damka.controller.menus import Menu, Row

SETTINGS_TITLE = "Board settings"  # the settings menu's title: how the app knows it

# Brightness steps (of 255) as the menu offers them; night mode uses its own, low one.
BRIGHTNESS: tuple[tuple[str, str], ...] = (
    ("16", "Dim (6%)"), ("32", "Low (12%)"), ("64", "Normal (25%)"), ("128", "Bright (50%)"), ("255", "Full"),
)
ON_OFF: tuple[tuple[str, str], ...] = (("on", "On"), ("off", "Off"))
PALETTE_CHOICES: tuple[tuple[str, str], ...] = (("standard", "Standard"), ("colour-blind", "Colour-blind safe"))


@dataclass(frozen=True)
class BoardSettings:
    brightness: int = 64
    night: bool = False
    night_brightness: int = 8
    last_move: bool = True
    palette: str = "standard"
    sound: bool = True
    voice: bool = False

    @property
    def led_brightness(self) -> int:
        """What the LEDs use now: the night brightness at night."""
        return self.night_brightness if self.night else self.brightness


def _on(flag: bool) -> str:
    return "on" if flag else "off"


def settings_menu(settings: BoardSettings) -> Menu:
    brightness = tuple(BRIGHTNESS)
    if str(settings.brightness) not in {value for value, _ in brightness}:
        brightness += ((str(settings.brightness), f"{settings.brightness} (config)"),)
    menu = Menu(
        title=SETTINGS_TITLE,
        rows=[
            Row("brightness", "LED brightness", brightness),
            Row("night", "Night mode", ON_OFF),
            Row("last_move", "Show the last move", ON_OFF),
            Row("palette", "LED colours", PALETTE_CHOICES),
            Row("sound", "Sound", ON_OFF),
            Row("voice", "Voice", ON_OFF),
            Row("back", "Done"),
        ],
        footer="up/down: row   ok: change   menu: back",
    )
    menu.row("brightness").select(str(settings.brightness))
    for key in ("night", "last_move", "sound", "voice"):
        menu.row(key).select(_on(getattr(settings, key)))
    menu.row("palette").select(settings.palette)
    return menu


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
    )
