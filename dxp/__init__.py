"""DXP (DamExchange): the board against another program over TCP, a feature
beside `web/` and `hall/`. The controller knows nothing of it: the peer plays
its seat as an `Opponent` (`seat.py`) and the App is told through its public
hooks (`feature.py`); the protocol (`protocol.py`), the socket (`link.py`,
`door.py`, `redial.py`) and the game around it (`game.py`, `reconnect.py`,
`resume.py`, `refusals.py`, `clock_hold.py`, `start.py`) are all here.
`damka dxp` (damka/commands/dxp.py) is its command. See docs/dxp.md."""
