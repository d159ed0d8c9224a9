"""The hall's web page: every board live, one board followed, standings; the round's live PDN; results CSV.

    GET /                 the hall page (polls /api/hall every second)
    GET /board/<board>    one board followed: its game's moves, live
    GET /api/hall         JSON: boards (online, flagged), their games, standings, counters
    GET /round.pdn        every game of the hall, as each board exports it (with %clock)
    GET /round/<r>.pdn    the games of round r (the `Round` tag): the URL a broadcast polls
    GET /results.csv      one line per game, for tournament software
"""

from __future__ import annotations

import html
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from damka.hall import views
from damka.hall.topics import NAME

PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>Damka hall {hall}</title>
<style>body{{font-family:sans-serif;margin:1em}} .boards{{display:flex;flex-wrap:wrap;gap:.6em}}
.b{{border:1px solid #999;border-radius:6px;padding:.5em;min-width:14em;cursor:pointer}}
.offline{{background:#eee;color:#777}} .problem{{border:3px solid #c00}} table{{border-collapse:collapse}}
td,th{{padding:.2em .6em;border-bottom:1px solid #ccc}}</style></head><body>
<h1>Hall {hall}</h1><p><a href="round.pdn">Live PDN</a> · <a href="results.csv">Results (CSV)</a></p>
<div class="boards" id="boards"></div><h2>Standings</h2><table id="standings"></table>
<script>
function esc(t){{return String(t).replace(/[&<>"]/g,c=>({{'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;'}})[c])}}
async function poll(){{
  const r = await fetch('api/hall'); const d = await r.json();
  document.getElementById('boards').innerHTML = d.boards.map(b => {{
    const g = b.game || {{}};
    const flag = (b.online ? 'live' : 'OFFLINE') + (b.bad ? ' · PROBLEM (' + b.bad + '): ' + esc(b.problem) : '');
    return `<div class="b ${{b.flag}}" data-board="${{esc(b.board)}}" onclick="location='board/${{encodeURIComponent(b.board)}}'">
      <b>${{esc(b.board)}}</b> — ${{flag}}<br>${{esc((g.players||[]).join(' – '))}}<br>
      ${{esc(g.variant||'')}} · ${{g.moves||0}} moves · ${{esc(g.result||'')}}</div>`}}).join('');
  document.getElementById('standings').innerHTML = '<tr><th>Player</th><th>Points</th><th>Games</th></tr>' +
    d.standings.map(s => `<tr><td>${{esc(s.player)}}</td><td>${{s.points}}</td><td>${{s.games}}</td></tr>`).join('');
}}
poll(); setInterval(poll, 1000);
</script></body></html>"""

BOARD_PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>Board {board}</title></head>
<body style="font-family:sans-serif"><p><a href="../">Hall</a></p><h1>Board {board}</h1><pre id="pdn"></pre>
<script>async function poll(){{const r = await fetch('../api/board/{board}.pdn');
document.getElementById('pdn').textContent = await r.text()}} poll(); setInterval(poll, 1000);</script></body></html>"""


def hall_app(service: Any) -> Starlette:
    """The page's ASGI app over a running `HallService` (its record read under its lock)."""
    record = service.record

    async def index(request: Request) -> Response:
        return HTMLResponse(PAGE.format(hall=html.escape(service.hall)))

    async def api(request: Request) -> Response:
        with service.lock:
            return JSONResponse(views.hall_data(record))

    async def board_page(request: Request) -> Response:
        board = request.path_params["board"]
        if not NAME.match(board):
            return PlainTextResponse("no such board", status_code=404)
        return HTMLResponse(BOARD_PAGE.format(board=board))

    async def board_pdn(request: Request) -> Response:
        board = request.path_params["board"]
        with service.lock:
            keys = [k for k in record.game_keys() if k[0] == board]
            text = record.game_pdn(keys[-1][1], keys[-1][2]) if keys else ""
        return PlainTextResponse(text, media_type="application/x-chess-pdn")

    async def pdn(request: Request) -> Response:
        round_name = request.path_params.get("round")
        with service.lock:
            text = views.round_pdn(record, round_name)
        return PlainTextResponse(text, media_type="application/x-chess-pdn", headers={"Cache-Control": "no-cache"})

    async def results(request: Request) -> Response:
        with service.lock:
            text = views.results_csv(record)
        return PlainTextResponse(text, media_type="text/csv")

    return Starlette(routes=[
        Route("/", index), Route("/api/hall", api), Route("/board/{board}", board_page),
        Route("/api/board/{board}.pdn", board_pdn), Route("/round.pdn", pdn), Route("/round/{round}.pdn", pdn),
        Route("/results.csv", results),
    ])
