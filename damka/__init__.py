"""Damka: the software of a smart draughts board.

The layers live in sub-packages: `damka.engine` (rules, pure), `damka.controller`
(tracker, session, clock, store), `damka.hardware`, `damka.firmware`,
`damka.display` and `damka.sim`.
"""

__version__ = "0.1.0"
