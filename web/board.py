"""The board's own menu from the page: its settings (LED brightness, night mode, last move,
palette, sound, voice) and pausing or starting the clock, as any player may from the game menu.

Behind the pairing code like every change (`api.guarded`), run on the board's thread
(`Driver.call`). Settings are checked against the board menu's own rows
(`board_settings.with_choices`) and applied with `App.set_board_settings`, so the LEDs and
the cues follow as they do after the menu; the page sees them in its picture (`state.snapshot`,
pushed by the feed). The clock goes through the menu's own action (`Driver.menu_action`). The
board's screen says what was changed from where (`WebServer.announce`).

    POST /api/board/settings  {"settings": {"brightness": "128", "palette": "colour-blind"}}
    POST /api/board/clock     {"action": "pause"}   (or "start")
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from starlette.routing import Route

from damka.controller.app.board_settings import changes_text, setting_rows, with_choices
from damka.controller.clock.records import State
from damka.controller.words import say
from damka.web.driver import CommandError

if TYPE_CHECKING:
    from damka.web.server import WebServer

CLOCK_ACTIONS = {"pause": ("pause", State.RUNNING, "paused"), "start": ("unpause", State.PAUSED, "started")}


def routes(web: WebServer, post: Callable[..., Route]) -> list[Route]:
    """The routes, each made by `post` (api.routes' guarded POST route)."""
    return [post("/api/board/settings", change_settings), post("/api/board/clock", clock_action)]


async def change_settings(web: WebServer, data: dict, role: str, who: str) -> dict:
    changes = data.get("settings")
    if not isinstance(changes, dict) or not changes:
        raise CommandError('settings: an object of the settings to change, e.g. {"brightness": "128"}', 400)
    return await web.driver.call(lambda: apply_settings(web, changes, who))


def apply_settings(web: WebServer, changes: dict[str, Any], who: str) -> dict[str, Any]:
    """On the board's thread: the settings as the menu would set them; the screen says who."""
    app = web.app
    old = app.board_settings
    try:
        new = with_choices(old, changes)
    except ValueError as error:
        raise CommandError(f"settings: {error}", 400) from None
    app.set_board_settings(new)
    what = changes_text(old, new)
    if what:
        web.announce(say("web.changed_from", what=what, who=who))
    return {"ok": True, "settings": {key: row["value"] for key, row in setting_rows(new).items()}}


async def clock_action(web: WebServer, data: dict, role: str, who: str) -> dict:
    name = data.get("action")
    if name not in CLOCK_ACTIONS:
        raise CommandError(f"action: {name!r} is not one of {', '.join(CLOCK_ACTIONS)}", 400)
    return await web.driver.call(lambda: pause_or_start(web, name, who))


def pause_or_start(web: WebServer, name: str, who: str) -> dict[str, Any]:
    """On the board's thread: the game menu's "Pause the clock" / "Start the clock"."""
    menu_action, wanted, done = CLOCK_ACTIONS[name]
    game = web.app.read_model().game
    if game is None:
        raise CommandError(say("command.no_game"))
    if game.clock_state is None:
        raise CommandError(say("command.no_clock"))
    if game.clock_state is not wanted:
        why = (say("web.starts_first_move") if game.clock_state is State.READY
               else say("web.clock_is", state=game.clock_state))
        raise CommandError(say("web.cannot_clock", action=name, why=why))
    web.driver.menu_action(menu_action, who)
    web.announce(say("web.clock_from", done=say(f"web.clock_{done}"), who=who))
    after = web.app.read_model().game
    return {"ok": True, "clock": str(after.clock_state if after is not None else None)}
