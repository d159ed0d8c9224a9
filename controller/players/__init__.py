"""Who plays the seats the board does not read, and who advises those it does.

`base.Opponent` says what a player must and may do; the computer
(`computer.py`, its move picked by a `chooser.Chooser`), the Hub engines
(`hub_opponent.py`), the web page's remote seat (`web/remote.py`), the DXP
peer (`dxp/seat.py`) and several players at once (`seat_opponents.py`) are
its kinds. The coach (`coach.py`; with a Hub engine: `hub_coach.py`) gives
hints and warns of blunders."""

from damka.controller.players.base import Opponent, Thinking

__all__ = ["Opponent", "Thinking"]
