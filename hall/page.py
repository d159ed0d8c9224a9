"""The hall's web page: every board drawn live, one board followed, the big screen, standings;
the round's live PDN; results CSV. The boards are drawn by the board page's own web/static/board.js.

    GET /                 the hall page: every board drawn (polls /api/hall every second)
    GET /screen           the playing hall's big screen (also /?view=screen): all boards, large, no controls
    GET /board/<board>    one board followed, fit for a phone: drawn, clocks, moves, the PDN to download
    GET /api/board/<b>    that board's JSON; /api/board/<b>.pdn its current game's PDN
    GET /api/hall         JSON: boards (online, flagged), their games, standings, counters
    GET /round.pdn        every game of the hall, as each board exports it (with %clock), streamed a game at a
                          time, at most ROUND_GAMES games / ROUND_BYTES (a `%` line at the end says it was cut)
    GET /round/<r>.pdn    the games of round r (the `Round` tag): the URL a broadcast polls
    GET /results.csv      one line per game, for tournament software
"""

from __future__ import annotations

import html
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

from damka.controller.store.schema import StoreError
from damka.hall import views
from damka.hall.topics import NAME
from damka.web import static as board_js
from damka.web.state import role_colours

if TYPE_CHECKING:
    from damka.hall.service import HallService

ROLES = role_colours()   # the last move is lit in the board's own last-move colour
FRESH_S = 0.5            # /api/hall is built at most this often, however many spectators poll it
ROUND_GAMES = 5000       # games in one /round.pdn at most (a round of 200 boards is 200)
ROUND_BYTES = 32 * 2 ** 20   # ... and bytes, about (a game is some 3 KB)

STATIC = Path(__file__).resolve().parent / "static"
BOARD_JS = Path(board_js.__file__).resolve().parent / "board.js"   # the board page's drawing code
SECURITY = {"Content-Security-Policy": "default-src 'self'; img-src 'self' data:; object-src 'none';"
                                       " base-uri 'none'; frame-ancestors 'none'",
            "X-Content-Type-Options": "nosniff", "Cache-Control": "no-store"}

PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>{title}</title>
<link rel="stylesheet" href="{root}static/hall.css"></head>
<body class="{view}" data-view="{view}" data-root="{root}" data-board="{board}">
<header><h1>{heading}</h1>{nav}</header>
<main id="boards" class="boards"></main>{tail}
<script src="{root}static/board.js"></script><script src="{root}static/hall.js"></script></body></html>"""

LIST_NAV = ('<nav><a href="screen">Big screen</a><a href="round.pdn">Live PDN</a>'
            '<a href="results.csv">Results (CSV)</a></nav>')
STANDINGS = '<h2>Standings</h2><table id="standings"></table>'
BOARD_NAV = '<nav><a href="../">All boards</a></nav>'
BOARD_TAIL = ('<h2>Moves</h2><ol id="moves"></ol><p class="download">'
              '<a id="pdn" href="../api/board/{board}.pdn" download="{board}.pdn">Download the game (PDN)</a></p>')


def page(view: str, hall: str, board: str = "") -> HTMLResponse:
    """One of the three views; `hall` and `board` are checked names, escaped all the same."""
    hall, board = html.escape(hall), html.escape(board)
    if view == "board":
        parts = {"title": f"Board {board} - hall {hall}", "heading": f"Board {board}", "nav": BOARD_NAV,
                 "tail": BOARD_TAIL.format(board=board), "root": "../"}
    else:
        parts = {"title": f"Damka hall {hall}", "heading": f"Hall {hall}", "root": "",
                 "nav": LIST_NAV if view == "list" else "", "tail": STANDINGS if view == "list" else ""}
    return HTMLResponse(PAGE.format(view=view, board=board, **parts), headers=SECURITY)


def round_chunks(service: HallService, round_name: str | None) -> Iterator[str]:
    """The round's PDN a game at a time, each written under the record's lock (a download never holds it for
    the whole round, nor the hall's memory for the whole file); cut after ROUND_GAMES games or ROUND_BYTES,
    with a last `%` line (PDN's escape line: readers skip it) saying so and where the rest is."""
    with service.lock:
        keys = views.round_keys(service.record, round_name)
    sent = games = 0
    for _, board_game, game_id in keys:
        if games >= ROUND_GAMES or sent >= ROUND_BYTES:
            yield (f"\n% The hall cut this file after {games:,} of {len(keys):,} games ({sent:,} bytes): ask for"
                   f" one round (/round/<round>.pdn) or one board (/api/board/<board>.pdn).\n")
            return
        with service.lock:
            try:
                text = service.record.game_pdn(board_game, game_id)
            except StoreError:
                continue   # dropped since the list was read (the retention rule, hall/record.py)
        chunk = text if games == 0 else "\n" + text
        games += 1
        sent += len(chunk.encode())
        yield chunk


def hall_app(service: HallService) -> Starlette:
    """The page's ASGI app over a running `HallService` (its record read under its lock)."""
    record = service.record

    async def index(request: Request) -> Response:
        return page("screen" if request.query_params.get("view") == "screen" else "list", service.hall)

    async def screen(request: Request) -> Response:
        return page("screen", service.hall)

    shown: dict[str, Any] = {"at": float("-inf"), "version": -1, "data": {}}   # shared by every spectator

    async def api(request: Request) -> Response:
        """Built again once a message was applied since, at most every FRESH_S: many spectators, one build."""
        if service.version != shown["version"] and time.monotonic() - shown["at"] >= FRESH_S:
            with service.lock:
                shown.update(at=time.monotonic(), version=service.version, data=views.hall_data(record))
        return JSONResponse({**shown["data"], "now": int(time.time() * 1000), "roles": ROLES},
                            headers={"Cache-Control": "no-store"})

    async def board_page(request: Request) -> Response:
        board = request.path_params["board"]
        if not NAME.match(board):
            return PlainTextResponse("no such board", status_code=404)
        return page("board", service.hall, board)

    async def board_api(request: Request) -> Response:
        board = request.path_params["board"]
        with service.lock:
            data = views.board_data(record, board) if NAME.match(board) else None
        if data is None:
            return JSONResponse({"error": "no such board"}, status_code=404)
        return JSONResponse({**data, "roles": ROLES}, headers={"Cache-Control": "no-store"})

    async def board_pdn(request: Request) -> Response:
        board = request.path_params["board"]
        if not NAME.match(board):
            return PlainTextResponse("no such board", status_code=404)
        with service.lock:
            keys = [k for k in record.game_keys() if k[0] == board]
            text = record.game_pdn(keys[-1][1], keys[-1][2]) if keys else ""
        return PlainTextResponse(text, media_type="application/x-chess-pdn",
                                 headers={"Content-Disposition": f'attachment; filename="{board}.pdn"'})

    async def script(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in ("board.js", "hall.js", "hall.css"):
            return PlainTextResponse("not found", status_code=404)
        return FileResponse(BOARD_JS if name == "board.js" else STATIC / name,
                            headers={"X-Content-Type-Options": "nosniff", "Cache-Control": "no-cache"})

    async def pdn(request: Request) -> Response:
        return StreamingResponse(round_chunks(service, request.path_params.get("round")),
                                 media_type="application/x-chess-pdn; charset=utf-8",
                                 headers={"Cache-Control": "no-cache"})

    async def results(request: Request) -> Response:
        with service.lock:
            text = views.results_csv(record)
        return PlainTextResponse(text, media_type="text/csv")

    return Starlette(routes=[
        Route("/", index), Route("/screen", screen), Route("/api/hall", api), Route("/board/{board}", board_page),
        Route("/api/board/{board}.pdn", board_pdn), Route("/api/board/{board}", board_api),
        Route("/round.pdn", pdn), Route("/round/{round}.pdn", pdn), Route("/results.csv", results),
        Route("/static/{name}", script),
    ])
