"""The arbiter's console: the page's request turned into one App command, behind the arbiter PIN.

Runs on the board's thread (through `Driver.call`). The App does the work and
logs it (`controller/app/commands.py`: the clock's log, the stored game's
arbiter log, an `ArbiterActed` event the page's feed turns into the console's
list); this only reads the request's fields and names the one that is wrong.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from damka.web.driver import CommandError

if TYPE_CHECKING:
    from damka.controller.app import App

ACTIONS = ("add_time", "set_time", "pause", "resume", "undo", "result")


def _int(data: dict[str, Any], name: str, what: str) -> int:
    value = data.get(name)
    if not isinstance(value, int) or isinstance(value, bool):
        raise CommandError(f"{name}: {value!r} is not {what}", 400)
    return value


def act(app: App, action: str, data: dict[str, Any], who: str) -> str:
    """One arbiter action; the line the App says it did (for the board's screen)."""
    if action == "add_time":
        return app.adjust_clock(_int(data, "side", "a side"), _int(data, "ms", "a time in ms"), who)
    if action == "set_time":
        return app.set_clock(_int(data, "side", "a side"), _int(data, "ms", "a time in ms"), who)
    if action == "pause":
        return app.pause_clock(who)
    if action == "resume":
        return app.resume_clock(who)
    if action == "undo":
        return app.undo_clock_press(who)
    if action == "result":
        winner = data.get("winner")
        if winner is not None:
            winner = _int(data, "winner", "a side (or null: a draw)")
        return app.declare_result(winner, "arbiter's decision", who)
    raise CommandError(f"unknown arbiter action {action!r} ({', '.join(ACTIONS)})", 404)


def run(app: App, action: str, data: dict[str, Any], who: str, announce: Callable[[str], None]) -> dict[str, Any]:
    line = act(app, action, data, who)
    announce(f"arbiter: {line}")
    return {"ok": True, "done": line}
