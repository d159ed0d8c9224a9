"""The standings over the games of one sitting."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from damka.controller.app.views import Colour, Standing
from damka.engine.variant import Result


@dataclass
class Match:
    """Points for two sides, small points for three or four players; the
    first turn rotates after each game among players with names. Without
    names (`by_side`: the sides' own words, "White", "Black (computer)") the
    names stay with their sides: rotating them would call White "Black"."""

    players: list[str]
    points: dict[str, float] = field(default_factory=dict)
    small_points: dict[str, int] = field(default_factory=dict)
    games: int = 0
    by_side: bool = False

    def order(self) -> list[str]:
        """Players in the order of the sides for the next game (named players: rotates each game)."""
        if self.by_side:
            return list(self.players)
        shift = self.games % len(self.players)
        return self.players[shift:] + self.players[:shift]

    def record(self, players: Sequence[str], result: Result, scores: Sequence[int]) -> None:
        for index, name in enumerate(players):
            self.points[name] = self.points.get(name, 0.0) + (result.points[index] if index < len(result.points) else 0)
            self.small_points[name] = self.small_points.get(name, 0) + (scores[index] if index < len(scores) else 0)
        self.games += 1

    def standings(self, colours: dict[str, Colour]) -> list[Standing]:
        return [Standing(name, colours.get(name, (200, 200, 200)), self.points.get(name, 0.0),
                         self.small_points.get(name, 0), self.games) for name in self.players]
