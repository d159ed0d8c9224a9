"""Who plays the seats the board does not read: `base.Opponent` says what a
player must and may do; the computer (`controller/players/computer.py`), the Hub
engines (`controller/players/hub_opponent.py`), the web page's remote seat
(`web/remote.py`), the DXP peer (`dxp/seat.py`) and several players at once
(`controller/players/seat_opponents.py`) are its kinds."""

from damka.controller.players.base import Opponent, Thinking

__all__ = ["Opponent", "Thinking"]
