"""The arbiter's console: clock actions behind the arbiter PIN, each logged with who, when and what.

Run on the board's thread (through `Driver.call`). The clock's own log gets
the action (by "web arbiter"), the stored game gets it through the
recorder's arbiter log, and `ArbiterLog` keeps the page's list with the wall
time and the client's address.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from damka.controller.clock import State
from damka.controller.clock_errors import ClockError
from damka.web.driver import CommandError

MAX_ADJUST_MS = 4 * 3600 * 1000


@dataclass
class ArbiterLog:
    entries: list[dict[str, Any]] = field(default_factory=list)

    def add(self, who: str, action: str, detail: str, board_ms: int) -> dict[str, Any]:
        entry = {"at": time.strftime("%Y-%m-%d %H:%M:%S"), "board_ms": board_ms, "who": who, "action": action,
                 "detail": detail}
        self.entries.append(entry)
        del self.entries[:-200]
        return entry


def _side(app: Any, data: dict[str, Any]) -> int:
    side = data.get("side")
    sides = len(app.session.variant.sides)
    if not isinstance(side, int) or isinstance(side, bool) or not 0 <= side < sides:
        raise CommandError(f"side: {side!r} is not a side of this game (0-{sides - 1})", 400)
    return side


def _clock(app: Any):
    if app.session is None:
        raise CommandError("there is no game on the board")
    if app.clock is None:
        raise CommandError("this game has no clock")
    return app.clock


def act(app: Any, log: ArbiterLog, action: str, data: dict[str, Any], who: str,
        announce: Any = None) -> dict[str, Any]:
    """One arbiter action: add_time, pause, resume, undo, result."""
    now = app.now
    if action == "add_time":
        clock = _clock(app)
        side = _side(app, data)
        ms = data.get("ms")
        if not isinstance(ms, int) or isinstance(ms, bool) or not 0 < abs(ms) <= MAX_ADJUST_MS:
            raise CommandError(f"ms: {ms!r} is not a time in ms (non-zero, at most 4 h either way)", 400)
        try:
            clock.adjust(side, ms, now, reason=f"web arbiter {who}")
        except ClockError as error:
            raise CommandError(str(error)) from None
        detail = f"side {side} ({app.session.variant.sides[side]}) {ms:+d} ms"
    elif action in ("pause", "resume"):
        clock = _clock(app)
        wanted = State.RUNNING if action == "pause" else State.PAUSED
        if clock.state is not wanted:
            raise CommandError(f"the clock is {clock.state}: cannot {action} it")
        app._act(_menu(action))
        detail = "clock " + ("paused" if action == "pause" else "running again")
    elif action == "undo":
        clock = _clock(app)
        try:
            clock.undo(now)
        except ClockError as error:
            raise CommandError(str(error)) from None
        detail = "last clock press undone"
    elif action == "result":
        if app.session is None or app.session.result is not None:
            raise CommandError("there is no game in play")
        loser = data.get("loser")
        if loser is not None:
            loser = _side(app, {"side": loser})
        app._declare_end(loser, "arbiter")
        detail = "draw" if loser is None else f"side {loser} loses"
    else:
        raise CommandError(f"unknown arbiter action {action!r} (add_time, pause, resume, undo, result)", 404)
    if app.recorder is not None and action != "result":
        app.recorder.log_arbiter(action, f"{detail} by {who}", now)
    (announce or (lambda note: setattr(app, "banner", note)))(f"arbiter ({who}): {detail}")
    return {"ok": True, "log": log.add(who, action, detail, now)}


def _menu(action: str):
    from damka.controller.menus import MenuAction

    return MenuAction("pause" if action == "pause" else "unpause")
