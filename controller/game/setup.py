"""A game as chosen: variant, players, mode, clock, computer and coach.

One frozen value that the menu, the command line, a stored game and (later)
the web page all produce, and that `factory.build_game` turns into a
running game: one path for the board, the simulator and `damka replay`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from damka.engine import levels
from damka.engine.variants import variant_class

# Learning mode: the coach's hints per game by default.
DEFAULT_HINT_LIMIT = 3
# The name of Damka's own engine among the engines a game may use (no
# configured engine may take it).
OWN_ENGINE = "Damka"


# (variant, name, command) per configured external engine, or (variant, name,
# command, working directory) for one that must run in its own folder (Scan reads scan.ini there).
Engines = tuple[tuple[str, ...], ...]


def engine_names(engines: Engines, variant: str) -> tuple[str, ...]:
    """The names of the external engines configured for `variant`, in the config's order."""
    return tuple(entry[1] for entry in engines if entry[0] == variant)


@dataclass(frozen=True)
class GameSetup:
    """A new game as chosen in the menu."""

    variant: str = "classic"
    sides: int = 2
    teams: bool = False
    mode: str = "casual"
    time_control: str = ""
    colours: str = "lot"     # lot, first, second: which side the person plays against the computer
    level: str = levels.DEFAULT_LEVEL
    computers: int = 0       # 3-4 players against the computer: seats it fills (0: all but one)
    hint_limit: int | None = DEFAULT_HINT_LIMIT  # learning mode: the coach's hints per game (None: no limit)
    move_time: float | None = None  # the computer's seconds per move (None: the level's own)
    options: tuple[tuple[str, Any], ...] = ()  # further variant options (name, value), e.g. (("draw_moves", 25),)
    # The external Hub engines the board config names: (variant, name, command), in the config's order.
    engines: Engines = ()
    # The computer's and the coach's engine by its config name; OWN_ENGINE: Damka's own;
    # "": the variant's default (the first engine the config names for it, else Damka's own).
    engine: str = ""

    def computer_seats(self, sides: int, draw: Callable[[Sequence[int], int], list[int]] | None = None
                       ) -> frozenset[int]:
        """The sides the computer plays: against one person every side but
        theirs (`colours`: first, second, or drawn by lot with `draw`, a
        `random.sample`); with three or four players `computers` seats."""
        wanted = sides - 1 if sides <= 2 or not self.computers else max(1, min(self.computers, sides - 1))
        people = sides - wanted
        if self.colours == "first":
            humans = list(range(people))
        elif self.colours == "second":
            humans = [(1 + i) % sides for i in range(people)]
        else:
            humans = (draw or random.sample)(range(sides), people)
        return frozenset(side for side in range(sides) if side not in humans)

    def engine_names(self, variant: str | None = None) -> tuple[str, ...]:
        """The names of the external engines configured for `variant` (default: this setup's)."""
        return engine_names(self.engines, variant or self.variant)

    def engine_name(self) -> str:
        """The engine this game uses: a configured name, or OWN_ENGINE (also
        when the chosen one is not configured for the variant: `engine_missing`)."""
        names = self.engine_names()
        if not self.engine:
            return names[0] if names else OWN_ENGINE
        return self.engine if self.engine in names else OWN_ENGINE

    def engine_missing(self) -> str:
        """Why the chosen engine cannot play ("" when it can): it is not configured for the variant."""
        if not self.engine or self.engine == OWN_ENGINE or self.engine in self.engine_names():
            return ""
        return f"is not configured for {self.variant} (board config [engines])"

    def _engine_entry(self) -> tuple[str, ...]:
        name = self.engine_name()
        return next((entry for entry in self.engines if entry[0] == self.variant and entry[1] == name), ())

    def engine_command(self) -> str:
        """The command of the chosen external engine ("": Damka's own engine plays)."""
        entry = self._engine_entry()
        return entry[2].strip() if entry else ""

    def engine_dir(self) -> str:
        """The chosen external engine's working directory ("": the board's own)."""
        entry = self._engine_entry()
        return entry[3] if len(entry) > 3 else ""

    def variant_options(self) -> dict[str, object]:
        """find_variant options for this setup."""
        options: dict[str, object] = dict(self.options)
        if not variant_class(self.variant).takes_option("sides"):
            return options
        if self.teams:
            options["teams"] = True
        elif self.sides != 2:
            options["sides"] = self.sides
        return options
