"""The interfaces between the board's devices and the controller.

The physical board is 9x9 (larger matrices may be configured for 10x10 and
12x12). Squares are named algebraically (`e5`), the one language shared by
sensor logs, LED frames, the engine's notation and people. Times are integer
milliseconds from a monotonic source the caller injects.

- A `BoardSensor` reports *whole* occupancy snapshots (a reed switch sees only
  that a square is occupied). The controller never trusts single events: it
  compares whole snapshots with what legal moves would produce.
- An `LedOutput` takes an `LedFrame`: squares mapped to *roles*, not colours;
  the backend maps roles to colours (RGB) or blink patterns (one colour).
- `Buttons` report presses: clock buttons per side and a few menu buttons.
"""

from __future__ import annotations

import enum
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Mapping


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Which squares hold a piece, at `time_ms`."""

    occupied: frozenset[str]
    time_ms: int


class Role(enum.Enum):
    """What an LED under a square means. Ordered by priority: when two roles
    claim one square, the frame keeps the one listed first."""

    FLAG = "flag"                    # a refused press, an alarm, a flag fall
    TAKE_AWAY = "take_away"          # guidance: take this piece off
    PUT_HERE = "put_here"            # guidance: put a piece back here
    LIFTED = "lifted"                # the piece in the hand came from here
    TO_CAPTURE = "to_capture"        # a captured piece still to be removed
    LEGAL_TARGET = "legal_target"    # the lifted piece may land here
    ILLEGAL_LIFT = "illegal_lift"    # the lifted piece may not move
    MUST_MOVE = "must_move"          # this piece can capture (compulsory)
    COMPUTER_FROM = "computer_from"  # the computer's move: from
    COMPUTER_TO = "computer_to"      # the computer's move: path and end
    HINT_FROM = "hint_from"
    HINT_TO = "hint_to"
    LAST_MOVE = "last_move"          # the move just committed


ROLE_PRIORITY: dict[Role, int] = {role: rank for rank, role in enumerate(Role)}

LedFrame = Mapping[str, Role]
"""Square name to role; squares not in the frame are dark."""


class Button(enum.Enum):
    """Menu buttons beside the board (clock buttons are `ClockPress` by side)."""

    HINT = "hint"
    TAKE_BACK = "takeback"
    MENU = "menu"
    OK = "ok"
    UP = "up"
    DOWN = "down"


@dataclass(frozen=True, slots=True)
class ClockPress:
    """A side's clock button (0-based side index in the variant's order)."""

    side: int
    time_ms: int


@dataclass(frozen=True, slots=True)
class ButtonPress:
    button: Button
    time_ms: int


InputEvent = Snapshot | ClockPress | ButtonPress


class BoardSensor(ABC):
    """Delivers occupancy snapshots."""

    @abstractmethod
    def snapshot(self) -> Snapshot:
        """The latest debounced occupancy."""


class LedOutput(ABC):
    """Shows an LED frame until the next one."""

    @abstractmethod
    def show(self, frame: LedFrame) -> None:
        """Light the frame's squares in their roles; every other LED off."""


class Buttons(ABC):
    """Clock and menu buttons."""

    @abstractmethod
    def presses(self) -> list[ClockPress | ButtonPress]:
        """Presses since the last call, oldest first."""
