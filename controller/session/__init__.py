"""One game on the board: `Session` and its vocabulary (see `core.py`)."""

from damka.controller.session.core import Session
from damka.controller.session.types import (POLL_MS, CommittedMove, Mode, Opponent, Phase, PolledClock,
                                            SessionSettings, TurnClock)

__all__ = ["CommittedMove", "Mode", "Opponent", "Phase", "PolledClock", "POLL_MS", "Session", "SessionSettings",
           "TurnClock"]
