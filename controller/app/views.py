"""What the screen shows, as plain data: the views the app builds and any
screen (the board's, the simulator's, later the web page) draws.

Views carry no behaviour and draw nothing themselves, so they are easy to
build in tests and to compare; `display/screen.py` draws them with pygame.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from damka.controller.clock.view import ClockView
from damka.controller.app.menus import Menu
from damka.controller.words import say

Colour = tuple[int, int, int]

# Player colours for multiwarcaby (pieces are shared; a side is a colour on
# the screen and a clock button), and the piece colours of draughts.
SIDE_COLOURS: dict[str, Colour] = {
    "white": (240, 236, 222), "black": (40, 40, 44), "red": (200, 50, 45),
}
PLAYER_COLOURS: tuple[Colour, ...] = ((220, 70, 60), (70, 130, 230), (80, 180, 90), (235, 180, 50))


def side_colour(name: str, index: int) -> Colour:
    """The colour a side is shown in: its piece colour, else a player colour."""
    return SIDE_COLOURS.get(name.lower(), PLAYER_COLOURS[index % len(PLAYER_COLOURS)])


@dataclass(frozen=True)
class SideLine:
    """One side (player, team or colour) as the screen names it."""

    name: str
    colour: Colour
    score: int | None = None  # small points (multiwarcaby); None: not shown
    to_move: bool = False
    out: bool = False
    side: str = ""            # the side's own word beside a player's name ("Ala" plays "White"); "" for none

    def labels(self) -> tuple[str, ...]:
        """How the screen names it, longest first: "Ala (White)", then "Ala" where that does not fit."""
        if not self.side:
            return (self.name,)
        return (say("screen.named_side", name=self.name, side=self.side), self.name)


@dataclass(frozen=True)
class GameView:
    title: str                                # "Classic 8x8 - tournament"
    sides: Sequence[SideLine]
    clock: ClockView | None = None            # None: no clock in this game
    status: str = ""                          # "White to move", "Player 2: second move"
    last_move: str = ""                       # "c3-d4"
    move_number: int | None = 1               # None: not shown (a lesson, a puzzle)
    messages: Sequence[str] = ()              # "Put a piece back on d4"
    alert: bool = False                       # messages shown as a warning
    hint: str = ""                            # learning mode: "Hint: c3-d4"
    hints_left: int | None = None             # learning mode: the coach's hints left (None: not shown / no limit)
    thinking: bool = False                    # the computer is thinking about its move


@dataclass(frozen=True)
class MenuView:
    menu: Menu
    subtitle: str = ""
    warning: str = ""                         # "Board not connected: ...": in full, above the rows


@dataclass(frozen=True)
class Standing:
    name: str
    colour: Colour
    points: float
    small_points: int
    games: int


@dataclass(frozen=True)
class ResultView:
    title: str                                # "White wins", "Draw", "1st: Player 2"
    reason: str                               # "no legal move", "on time"
    standings: Sequence[Standing] = ()
    by_small_points: bool = False             # 3-4 players rank by small points
    next_first: str = ""                      # "Next game: Black starts"
    footer: str = field(default_factory=lambda: say("result.footer"))  # in the board's language when built
    warning: str = ""                         # "Board not connected: ...": in full, under the title


View = GameView | MenuView | ResultView
