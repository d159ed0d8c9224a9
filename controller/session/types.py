"""The session's vocabulary: modes, phases, settings, and what the session
needs of a clock; the players' base class (`Opponent`, controller/players/)
and the committed-move record (`CommittedMove`, controller/game/record.py)
are re-exported here."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from damka.controller.game.record import CommittedMove
from damka.controller.players import Opponent
from damka.controller.board.tracker import TrackerSettings

__all__ = ["CarryingOut", "CommittedMove", "Mode", "Opponent", "POLL_MS", "Phase", "PolledClock", "SessionSettings", "TurnClock",
           "seat_away", "seat_label"]


class Mode(enum.Enum):
    CASUAL = "casual"
    LEARNING = "learning"
    TOURNAMENT = "tournament"
    COMPUTER = "computer"


class Phase(enum.Enum):
    SETUP = "setup"      # waiting for the board to show the start position
    PLAYING = "playing"
    OVER = "over"


class CarryingOut(enum.Enum):
    """Whose time it is while people carry out an outside program's move (a DXP
    peer's, a Hub engine's at the board): its own clock stopped when it sent
    the move. The board's config chooses ([clock] carrying_out, docs/clock.md)."""

    NOBODY = "nobody"   # the board's clock stops until the move stands ("carrying out" on the screen)
    MOVER = "mover"     # the program's clock runs on, as a person's would at a real board
    NEXT = "next"       # the side to move next: its clock starts as soon as the move arrives


# While the computer (or the coach) thinks off the loop, the session asks to be
# ticked this often to pick up the answer.
POLL_MS = 20


@dataclass(frozen=True)
class SessionSettings:
    mode: Mode = Mode.CASUAL
    tracker: TrackerSettings = field(default_factory=TrackerSettings)
    computer_sides: frozenset[int] = frozenset({1})
    flag_ms: int = 2000            # how long a refused press shows FLAG
    hints: bool | None = None      # LEDs for beginners; default: on in learning mode only
    warn_ms: int = 8000            # learning: a move the coach warned about is committed after this quiet
    carrying_out: CarryingOut = CarryingOut.NOBODY  # whose time carrying out an outside program's move is


def seat_away(opponent: Opponent | None, seat: int) -> bool:
    """Whether who plays `seat` is gone for now (a DXP peer whose connection
    dropped): no move will come until it is back, so the screen must not ask for one."""
    return opponent is not None and opponent.away_for(seat)


def seat_label(opponent: Opponent | None, seat: int) -> str:
    """Who plays `seat` for the screen ("computer", "remote player", a peer's
    name): an opponent of several players (`controller/players/seat_opponents.py`) names each seat's."""
    return "computer" if opponent is None else opponent.label_for(seat)


@runtime_checkable
class TurnClock(Protocol):
    """The least the session needs of a clock: `press` when a side's turn is
    accepted (`board_ok=True`, `moves` = the moves of the turn: the clock
    switches) and when a press is refused (`board_ok=False` with the reason,
    so the clock records it). The result may carry `events` (a flag the press
    itself found). Starting and pausing the clock stay its owner's business."""

    def press(self, side: int, now: int | None = None, *, board_ok: bool = True, reason: str = "",
              moves: int = 1) -> Any: ...


@runtime_checkable
class PolledClock(TurnClock, Protocol):
    """A clock the session drains itself (`controller/clock/clock.py`'s `Clock`):
    flags found at their exact millisecond, times read for the record, stopped
    when the game ends on the board."""

    @property
    def state(self) -> Any: ...

    def start(self, now: int | None = None, first: int = 0) -> None: ...

    def update(self, now: int | None = None) -> list: ...

    def next_deadline(self, now: int | None = None) -> int | None: ...

    def view(self, now: int | None = None) -> Any: ...

    def stop(self, now: int | None = None, reason: str = "game over", loser: int | None = None) -> None: ...
