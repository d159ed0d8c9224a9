"""The page's API: read-only GETs for anyone, POSTs that change a game behind the codes.

Every POST goes through `guarded`: the body is read with a size limit and
must be a JSON object, the request must be same-origin with the CSRF token,
and the pairing code (or the arbiter PIN) must be right; only then is the
command queued for the board's thread. Anything wrong is a 4xx with one
clear line and changes nothing. A GET never changes anything.
"""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Any, Awaitable, Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from damka.controller.app.board_settings import BoardSettings, setting_rows
from damka.controller.clock import presets
from damka.hardware.palette import PALETTES
from damka.controller.app.menus import (colour_choices, engine_choices, hint_choices, level_choices, mode_choices,
                                   side_choices, time_choices, variant_choices)
from damka.controller import words
from damka.controller.words import catalogue, say
from damka.controller.game.setup import Engines
from damka.controller.store.pdn import import_variant
from damka.engine.errors import EngineError
from damka.engine.variants import variant_class
from damka.web import archive
from damka.web import arbiter as arbiter_mod
from damka.web import board, learn
from damka.web.driver import CommandError, setup_from
from damka.web.importer import ImportBusy
from damka.web.security import Refused, check_csrf, check_origin
from damka.web.state import role_colours

if TYPE_CHECKING:
    from damka.web.server import WebServer

BODY_LIMIT = 64 * 1024
PDN_LIMIT = 2 * 1024 * 1024
ACTIONS = ("resign", "draw", "takeback", "accept", "decline", "new", "resume")  # draw, takeback: offers

Handler = Callable[["WebServer", dict[str, Any], str, str], Awaitable[Any]]


def routes(web: WebServer) -> list[Route]:
    def post(path: str, handler: Handler, *, arbiter: bool = False, limit: int = BODY_LIMIT) -> Route:
        async def endpoint(request: Request) -> Response:
            return await guarded(web, request, handler, arbiter=arbiter, limit=limit)
        return Route(path, endpoint, methods=["POST", "GET", "PUT", "DELETE", "PATCH"])

    async def state(request: Request) -> Response:
        item = web.feed.latest_state
        return JSONResponse(item.data if item else {}, headers={"Cache-Control": "no-store"})

    async def options(request: Request) -> Response:
        with words.speaking(asked_language(request)):
            return JSONResponse(form_options(web.app.engines))

    async def page_words(request: Request) -> Response:
        """The page's own words in the language it asks for (else the board's), and the choices."""
        code = asked_language(request)
        with words.speaking(code):   # the board settings' rows as the page's own words (the state's are the board's)
            rows = {key: {"label": row["label"], "choices": row["choices"]}
                    for key, row in setting_rows(BoardSettings()).items()}
        return JSONResponse({"language": code, "board": words.language(), "names": dict(words.LANGUAGE_NAMES),
                             "words": catalogue.page_words(code), "settings": rows})

    async def games(request: Request) -> Response:
        try:
            before, limit = archive.page_of(request.query_params.get("before"), request.query_params.get("limit"))
        except archive.ArchiveError as error:
            return _error(error.status, str(error))
        return _archive(lambda: archive.list_games(web.app.store, before, limit), asked_language(request))

    async def import_progress(request: Request) -> Response:
        return JSONResponse(web.importer.progress.data(), headers={"Cache-Control": "no-store"})

    async def game(request: Request) -> Response:
        return _archive(lambda: archive.replay(web.app.store, request.path_params["id"]), asked_language(request))

    async def pdn(request: Request) -> Response:
        try:
            text = archive.pdn(web.app.store, request.path_params["id"])
        except archive.ArchiveError as error:
            return _error(error.status, str(error))
        name = f"damka-game-{request.path_params['id']}.pdn"
        return PlainTextResponse(text, headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def learning(request: Request) -> Response:
        try:
            data = await learn.overview(web, request.query_params.get("learner"), asked_language(request))
        except CommandError as error:
            return _error(error.status, str(error))
        return JSONResponse(data, headers={"Cache-Control": "no-store"})

    return [
        Route("/api/state", state), Route("/api/options", options), Route("/api/words", page_words), Route("/api/games", games),
        Route("/api/import", import_progress), Route("/api/learn", learning),
        Route("/api/games/{id:int}", game), Route("/api/games/{id:int}.pdn", pdn),
        post("/api/game/new", new_game), post("/api/game/action", action), post("/api/game/move", move),
        post("/api/game/claim", claim),
        post("/api/code/rotate", rotate, arbiter=True), post("/api/login", login),
        post("/api/arbiter/{action}", arbiter_action, arbiter=True),
        post("/api/games/import", import_pdn, limit=PDN_LIMIT),
        *board.routes(web, post), *learn.routes(web, post),
    ]


def asked_language(request: Request) -> str:
    """The language a page asks for (`?language=pl`); the board's when it names none the board speaks."""
    code = request.query_params.get("language", "")
    return code if code in words.LANGUAGES else words.language()


def form_options(engines: Engines = ()) -> dict[str, Any]:
    """The choices of the board's new-game menu, for the page's form; `engines`
    (the board config's): per variant, the engines it may choose (names only)."""
    return {"engines": {variant: [list(p) for p in engine_choices(engines, variant)]
                        for variant in dict.fromkeys(entry[0] for entry in engines)},
            "variants": [list(pair) for pair in variant_choices()], "sides": [list(p) for p in side_choices()],
            "modes": [list(p) for p in mode_choices()] + [["remote", say("mode.remote")]],
            "time_controls": [list(p) for p in time_choices()], "colours": [list(p) for p in colour_choices()],
            "levels": [list(p) for p in level_choices()], "hints": [list(p) for p in hint_choices()],
            "presets": [{"name": p.name, "text": p.text} for p in presets.PRESETS],
            "sided": [name for name, _ in variant_choices() if variant_class(name).takes_option("sides")],
            "roles": role_colours(),
            # Every palette: the page draws the one chosen in the board settings (state.settings.palette).
            "palettes": {name: role_colours(name) for name in PALETTES}}


def _error(status: int, message: str, retry_after: float | None = None) -> JSONResponse:
    headers = {"Retry-After": str(max(1, round(retry_after)))} if retry_after else None
    return JSONResponse({"ok": False, "error": message}, status_code=status, headers=headers)


def _archive(read: Callable[[], Any], language: str) -> Response:
    """An archive read, its words (a variant's name, a refusal) in the page's `language`."""
    try:
        with words.speaking(language):
            return JSONResponse(read())
    except archive.ArchiveError as error:
        return _error(error.status, str(error))


def media_type(header: str) -> str:
    """The media type of a Content-Type header, without its parameters: 'application/json; charset=utf-8'
    is application/json, 'text/plain; x=application/json' is not."""
    return header.split(";", 1)[0].strip().lower()


async def read_json(request: Request, limit: int) -> dict[str, Any]:
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or len(length) > 12 or int(length) > limit):
        raise Refused(413, say("web.too_large", kib=limit // 1024))
    if media_type(request.headers.get("content-type", "")) != "application/json":
        raise Refused(415, "send JSON (Content-Type: application/json)")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise Refused(413, say("web.too_large", kib=limit // 1024))
    try:
        data = json.loads(body.decode("utf-8") or "null")
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise Refused(400, f"bad JSON: {error}") from None
    except RecursionError:
        raise Refused(400, "bad JSON: nested too deep") from None
    except ValueError as error:        # an integer of more than 4,300 digits (Python's int limit)
        raise Refused(400, f"bad JSON: {error}") from None
    if not isinstance(data, dict):
        raise Refused(400, "the body must be a JSON object")
    return data


async def guarded(web: WebServer, request: Request, handler: Handler, *, arbiter: bool, limit: int) -> Response:
    if request.method != "POST":
        return _error(405, f"{request.method} changes nothing here: send a POST", None)
    client = request.client.host if request.client else "?"
    try:
        check_origin({k.lower(): v for k, v in request.headers.items()}, request.headers.get("host", ""))
        check_csrf(request.cookies.get("damka_csrf"), request.headers.get("x-csrf-token"))
        data = await read_json(request, limit)
        code = request.headers.get("x-damka-code") or data.get("code")
        role = web.access.check(client, str(code) if code is not None else None, arbiter=arbiter)
        seat = request.headers.get("x-damka-seat")   # the remote seat's token (web/remote.py SeatKey)
        data = {**data, **request.path_params, **({"seat": seat} if seat else {})}
        result = await handler(web, data, role, f"web {role}@{client}")
    except Refused as error:
        return _error(error.status, str(error), error.retry_after)
    except CommandError as error:
        return _error(error.status, str(error))
    return JSONResponse(result if isinstance(result, dict) else {"ok": True})


async def login(web: WebServer, data: dict, role: str, who: str) -> dict:
    return {"ok": True, "role": role}


async def new_game(web: WebServer, data: dict, role: str, who: str) -> dict:
    setup, names, remote = setup_from(data.get("game"), web.app.engines)
    return await web.driver.call(lambda: web.driver.new_game(setup, names, remote, who))


async def action(web: WebServer, data: dict, role: str, who: str) -> dict:
    name = data.get("action")
    if name not in ACTIONS:
        raise CommandError(f"action: {name!r} is not one of {', '.join(ACTIONS)}", 400)
    return await web.driver.call(lambda: web.driver.menu_action(name, who, data.get("seat")))


async def move(web: WebServer, data: dict, role: str, who: str) -> dict:
    text = data.get("move")
    if not isinstance(text, str) or not 0 < len(text) <= 80:
        raise CommandError("move: the move's text, as the page lists it (e.g. 11-15)", 400)
    return await web.driver.call(lambda: web.driver.remote_move(text, data.get("seat")))


async def claim(web: WebServer, data: dict, role: str, who: str) -> dict:
    """The remote seat for this page (a resumed game's open seat; with the arbiter PIN, one another page held)."""
    return await web.driver.call(lambda: web.driver.claim(role, who, data.get("seat")))


async def rotate(web: WebServer, data: dict, role: str, who: str) -> dict:
    """A new pairing code (the arbiter's): the board's screen shows it; pages unlocked with the old one must ask again."""
    def run() -> dict:
        web.access.rotate()
        web.announce(say("web.new_code", who=who))
        web.feed.log_action(who, "rotate-code", "new pairing code (shown on the board's screen)")
        return {"ok": True}
    return await web.driver.call(run)


async def arbiter_action(web: WebServer, data: dict, role: str, who: str) -> dict:
    name = str(data.get("action"))
    if name not in arbiter_mod.ACTIONS:
        raise CommandError(f"unknown arbiter action {name!r} ({', '.join(arbiter_mod.ACTIONS)})", 404)
    return await web.driver.call(lambda: arbiter_mod.run(web.app, name, data, who, web.announce))


async def import_pdn(web: WebServer, data: dict, role: str, who: str) -> dict:
    """The upload is read and stored by the import job (web/importer.py): the answer comes at once,
    the progress follows in the page's events (ImportProgress) and at GET /api/import."""
    text = data.get("pdn")
    if not isinstance(text, str) or not text.strip():
        raise CommandError("pdn: the text of a PDN file", 400)
    name = str(data.get("name") or "upload")[:200]
    try:
        variant = import_variant(str(data["variant"])) if data.get("variant") else None  # None: found per record
    except (EngineError, ValueError) as error:
        raise CommandError(f"variant: {error}", 400) from None
    await asyncio.to_thread(archive.check_first_record, text, name, variant)   # a bad file is refused at once
    try:
        progress = web.importer.start(text, name, variant)
    except ImportBusy as error:
        raise CommandError(str(error), 409) from None
    return {"ok": True, "import": progress.data()}
