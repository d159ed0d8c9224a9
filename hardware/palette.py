"""The one LED palette: what colour (and blink pattern) each `Role` shows.

The board's LED output (`leds.LedStyle`, the firmware via the LEDS frame)
and the simulator window (`damka.sim.window`) both read these tables, so a
screenshot shows the colours the board shows. Plain data: importing it pulls
in no hardware library and no pygame.

RGB boards (`ws2812`) tell roles apart by colour (and blink the urgent ones);
one-colour boards (`mono`) by blink pattern alone.
"""

from __future__ import annotations

from damka.firmware import lights
from damka.hardware.interfaces import Role

RGB = tuple[int, int, int]

STEADY, BLINK_SLOW, BLINK_FAST, BLINK_ALT, DOUBLE = (
    lights.STEADY, lights.BLINK_SLOW, lights.BLINK_FAST, lights.BLINK_ALT, lights.DOUBLE)

# Role -> (colour, pattern) on an RGB board. Alarms and "do something here"
# blink; information is steady. Red = wrong, green = may go, blue = put back,
# purple = the computer, cyan = hint.
RGB_STYLE: dict[Role, tuple[RGB, int]] = {
    Role.FLAG: ((255, 0, 0), BLINK_FAST),
    Role.TAKE_AWAY: ((255, 0, 0), BLINK_SLOW),
    Role.PUT_HERE: ((0, 64, 255), BLINK_SLOW),
    Role.LIFTED: ((255, 255, 255), STEADY),
    Role.TO_CAPTURE: ((255, 96, 0), BLINK_SLOW),
    Role.LEGAL_TARGET: ((0, 255, 0), STEADY),
    Role.ILLEGAL_LIFT: ((255, 0, 0), STEADY),
    Role.MUST_MOVE: ((255, 160, 0), BLINK_ALT),
    Role.COMPUTER_FROM: ((160, 0, 255), STEADY),
    Role.COMPUTER_TO: ((160, 0, 255), BLINK_SLOW),
    Role.HINT_FROM: ((0, 200, 200), STEADY),
    Role.HINT_TO: ((0, 200, 200), BLINK_SLOW),
    Role.LAST_MOVE: ((96, 96, 0), STEADY),
}

# Role -> pattern on a one-colour board: four blink patterns and steady.
MONO_STYLE: dict[Role, int] = {
    Role.FLAG: BLINK_FAST,
    Role.TAKE_AWAY: DOUBLE,
    Role.PUT_HERE: DOUBLE,
    Role.LIFTED: STEADY,
    Role.TO_CAPTURE: BLINK_FAST,
    Role.LEGAL_TARGET: STEADY,
    Role.ILLEGAL_LIFT: BLINK_FAST,
    Role.MUST_MOVE: BLINK_SLOW,
    Role.COMPUTER_FROM: BLINK_ALT,
    Role.COMPUTER_TO: BLINK_SLOW,
    Role.HINT_FROM: BLINK_ALT,
    Role.HINT_TO: BLINK_SLOW,
    Role.LAST_MOVE: STEADY,
}

# Colour-blind safe (Okabe-Ito colours, told apart with any of the common
# colour vision deficiencies), and every role ALSO has the one-colour board's
# blink pattern, so no role depends on colour alone: wrong = vermillion,
# may go = bluish green, put back = blue, the computer = reddish purple,
# hint = sky blue, capture = orange, last move = dim yellow.
VERMILLION, ORANGE, SKY_BLUE, BLUISH_GREEN = (213, 94, 0), (230, 159, 0), (86, 180, 233), (0, 158, 115)
YELLOW, BLUE, REDDISH_PURPLE = (240, 228, 66), (0, 114, 178), (204, 121, 167)
COLOUR_BLIND_COLOURS: dict[Role, RGB] = {
    Role.FLAG: VERMILLION, Role.TAKE_AWAY: VERMILLION, Role.PUT_HERE: BLUE, Role.LIFTED: (255, 255, 255),
    Role.TO_CAPTURE: ORANGE, Role.LEGAL_TARGET: BLUISH_GREEN, Role.ILLEGAL_LIFT: VERMILLION,
    Role.MUST_MOVE: ORANGE, Role.COMPUTER_FROM: REDDISH_PURPLE, Role.COMPUTER_TO: REDDISH_PURPLE,
    Role.HINT_FROM: SKY_BLUE, Role.HINT_TO: SKY_BLUE, Role.LAST_MOVE: (120, 114, 33),
}
COLOUR_BLIND_STYLE: dict[Role, tuple[RGB, int]] = {
    role: (COLOUR_BLIND_COLOURS[role], MONO_STYLE[role]) for role in Role}

PALETTES: dict[str, dict[Role, tuple[RGB, int]]] = {"standard": RGB_STYLE, "colour-blind": COLOUR_BLIND_STYLE}

WHITE: RGB = (255, 255, 255)


def role_style(role: Role, palette: str = "standard") -> tuple[RGB, int]:
    """(colour, blink pattern) of `role` on an RGB board in `palette` ("standard", "colour-blind")."""
    return PALETTES[palette][role]


def role_colour(role: Role, palette: str = "standard") -> RGB:
    """The RGB board's colour for `role` (before brightness and [leds.colours])."""
    return PALETTES[palette][role][0]
