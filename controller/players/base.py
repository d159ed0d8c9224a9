"""The one base class of every player the session asks for a move.

The session calls `start`, `poll` and `cancel` (every player must override
them); the rest has a default that fits a player that needs nothing more, so
a player overrides only what it has (gpiozero's `Factory` and `Pin` work the
same way). Nobody probes a player with `getattr`: what it may say is here.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from damka.engine.game import Game


@dataclass(frozen=True)
class Thinking:
    """What `poll()` reports while no move is ready."""

    elapsed: float


class Opponent(ABC):
    """A player of one or more seats, thinking (or waiting) off the controller's loop.

    Must override: `start`, `poll`, `cancel`.
    May override (the defaults are for a computer at the table): `label`,
    `label_for`, `remote`, `seats`, `claimed`, `away`, `away_for`,
    `keeps_own_clock_for`, `engine_name`, `take_notices`, `stop`, `close_engine`, `close`."""

    remote: bool = False               # played from afar: a draw or a take-back is asked of it
    seats: frozenset[int] | None = None  # a remote player's own seats (None: the seats the setup gives it)
    claimed: bool = True               # a remote seat some page holds (False: nobody yet)
    away: bool = False                 # gone for now (a DXP peer whose connection dropped)

    # -- must -------------------------------------------------------------------------

    @abstractmethod
    def start(self, game: Game, *, whole_turn: bool = False) -> None:
        """Begin the turn of `game.turn` (all of it with `whole_turn`); returns at once."""

    @abstractmethod
    def poll(self) -> Any:
        """Never blocks: the move (or a tuple of moves), `Thinking`, or None (nothing asked)."""

    @abstractmethod
    def cancel(self) -> None:
        """Forget the turn asked for: its move is never delivered."""

    # -- may --------------------------------------------------------------------------

    @property
    def label(self) -> str:
        """Who it is on the screen ("computer", "remote player", a peer's name)."""
        return "computer"

    @property
    def engine_name(self) -> str:
        """An external engine's name, for the title ("" : none)."""
        return ""

    def label_for(self, seat: int) -> str:
        """Who plays `seat`: one player plays all of its seats under one label."""
        return self.label

    def away_for(self, seat: int) -> bool:
        """Whether who plays `seat` is gone for now: no move comes until it is back."""
        return self.away

    def keeps_own_clock_for(self, seat: int) -> bool:
        """Whether who plays `seat` is an outside program whose own clock stopped
        when it sent its move (a DXP peer, a Hub engine): the time people take to
        carry the move out then counts as the board's config says (for nobody
        by default: the board's clock stops; `session.types.CarryingOut`)."""
        return False

    def stop(self) -> None:
        """Move now (the person pressed the button): a player who cannot hurry ignores it."""

    def take_notices(self) -> list[str]:
        """Lines for the screen that came up since last asked (an engine that failed)."""
        return []

    def close_engine(self) -> None:
        """Stop an external engine's process (the game ended); the player may be asked again."""

    def close(self) -> None:
        """The player is not needed any more: end its threads and processes."""
