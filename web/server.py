"""The web server beside the board loop: Starlette on uvicorn, in a thread of its own.

    web = WebServer(app, WebConfig(port=8080, pin="2468"))
    web.start()        # returns once the port is open; the board loop goes on as before
    ...
    web.stop()

The server owns an asyncio loop in its thread. The board's thread only hands
items over to it (`WebFeed`) and runs the commands it queued (`Driver`):
nothing here ever blocks the board. Pages get live updates as server-sent
events (`/api/events`), pushed, never polled.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import uvicorn
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from damka.controller.store.budget import ArchiveBudget
from damka.controller.words import say
from damka.web import api, learn
from damka.web.driver import CommandError, Driver
from damka.web.feed import WebFeed
from damka.web.guard import Limits, StreamCap, guarded_listener, guarded_protocol
from damka.web.hosts import HostCheck, board_names
from damka.web.importer import Importer
from damka.web.security import Access, new_pin

if TYPE_CHECKING:
    from damka.controller.app import App

STATIC = Path(__file__).resolve().parent / "static"
HEARTBEAT_S = 15.0
log = logging.getLogger("damka.web")


@dataclass(frozen=True)
class WebConfig:
    port: int = 8080
    bind: str = "0.0.0.0"
    pin: str = ""          # the arbiter PIN ("": one of 8 digits is made up, shown on the board and logged)
    proxies: tuple[str, ...] = ()    # a reverse proxy in front: only these may set X-Forwarded-For
    hosts: tuple[str, ...] = ()      # more names the board answers to (Host); "*": any (web/hosts.py)
    enabled: bool = True
    per_address: int = 64            # open sockets one address may hold (a phone opens about 6; a NAT many)
    streams_per_address: int = 24    # open event streams (pages watching) one address may hold
    request_timeout_s: float = 10.0  # a request must arrive whole within this: idle and slowloris sockets close
    write_timeout_s: float = 20.0    # a client that takes nothing written to it for this long is closed
    keep_alive_s: int = 5            # uvicorn's timeout_keep_alive: an idle socket between requests
    max_connections: int = 1000      # uvicorn's limit_concurrency: everyone together (503 beyond)
    archive: ArchiveBudget = ArchiveBudget()   # [archive]: where an upload's import stops
    unpaired_sockets: int = 512      # sockets of every address that has not paired, together: the rest of
                                     # max_connections is kept for paired phones (web/guard.py)
    unpaired_streams: int = 128      # event streams of every address that has not paired, together


class WebServer:
    """The page's server for one App: feed, driver, access codes, uvicorn thread."""

    def __init__(self, app: App, config: WebConfig = WebConfig(), *, feed: WebFeed | None = None) -> None:
        self.app = app
        self.config = config
        self.feed = feed or WebFeed(app)
        self.access = Access(pin=config.pin or new_pin())
        self.show_pin = not config.pin      # a made-up PIN is only known from the board's screen (and the log)
        self.driver = Driver(app, self.feed)
        store = getattr(app, "store", None)
        self.importer = Importer(store.path if store is not None else None,
                                 lambda progress: self.feed.notice({"type": "ImportProgress", **progress.data()}),
                                 config.archive)
        self.driver.announce = self.announce
        self._note = ""
        self.announce("")
        self._thread: threading.Thread | None = None
        self._server: uvicorn.Server | None = None
        self._started = threading.Event()
        self.port = config.port
        if not 0 < config.unpaired_sockets < config.max_connections:
            raise ValueError(f"unpaired_sockets ({config.unpaired_sockets}) must be below max_connections "
                             f"({config.max_connections}): the rest is kept for paired phones")
        proxies = frozenset(config.proxies)   # a trusted proxy's sockets carry paired phones too
        self.limits = Limits(per_address=config.per_address, streams_per_address=config.streams_per_address,
                             request_s=config.request_timeout_s, write_s=config.write_timeout_s,
                             unpaired_sockets=config.unpaired_sockets, unpaired_streams=config.unpaired_streams,
                             paired=lambda host: host in proxies or self.access.paired(host))
        self._waiting: set[asyncio.Task] = set()

    def announce(self, note: str | None = None) -> None:
        """The board's screen line (on the board's thread): the pairing code (its long form while the
        board is sent many wrong codes), and what the page changed last (None: the last note again)."""
        self._note = self._note if note is None else note
        access = self.access
        line = (say("web.code_long", code=access.code, more=access.long_code[len(access.code):]) if access.busy()
                else say("web.code", code=access.code)) + (say("web.pin", pin=access.pin) if self.show_pin else "")
        self.app.banner = say("web.banner", line=line, note=self._note) if self._note else line

    def _busy_changed(self) -> None:
        """On the server's loop: the board-wide bucket of wrong codes emptied (Access.on_busy), or the time
        to show the long form may be over: the board's screen line is made again on the board's thread."""
        async def again() -> None:
            try:
                await self.driver.call(self.announce)
            except CommandError:
                pass                         # the board did not run it in time: the next change says it
        loop = asyncio.get_running_loop()
        task = loop.create_task(again())
        self._waiting.add(task)
        task.add_done_callback(self._waiting.discard)
        if (left := self.access.busy()) > 0:
            loop.call_later(left + 0.1, self._busy_changed)

    # -- life cycle -----------------------------------------------------------------

    def asgi(self) -> Starlette:
        @asynccontextmanager
        async def lifespan(_app: Starlette) -> AsyncIterator[None]:
            self.feed.attach(asyncio.get_running_loop())
            self._started.set()
            try:
                yield
            finally:
                for queue in list(self.feed.pages):
                    queue.put_nowait(None)   # end every page's stream: the server stops
                self.feed.attach(None)

        routes = [Route("/", self.index), Route("/api/events", self.events), *api.routes(self),
                  Mount("/static", StaticFiles(directory=STATIC), name="static")]
        return Starlette(routes=routes, lifespan=lifespan,
                         middleware=[Middleware(HostCheck, names=board_names(self.config.hosts)),
                                     Middleware(StreamCap, limits=self.limits)])

    def start(self, timeout: float = 10.0) -> None:
        self.access.on_busy = self._busy_changed
        # connections wait from now on, even before uvicorn serves (after the lifespan start); an address
        # at its cap is refused as it is accepted (guard.GuardedListener)
        sock = guarded_listener(self.limits, (self.config.bind, self.config.port))
        self.port = sock.getsockname()[1]
        config = uvicorn.Config(self.asgi(), log_level="warning", access_log=False, lifespan="on",
                                timeout_graceful_shutdown=1, ws="none",
                                http=guarded_protocol(self.limits),       # per-address caps, request deadline
                                limit_concurrency=self.config.max_connections,
                                timeout_keep_alive=self.config.keep_alive_s,
                                h11_max_incomplete_event_size=16 * 1024,  # headers: at most 16 KiB
                                # the socket's address is the client's, unless the config names a proxy
                                proxy_headers=bool(self.config.proxies),
                                forwarded_allow_ips=list(self.config.proxies) or None)
        self._server = uvicorn.Server(config)
        self._started.clear()
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [sock]},
                                        name="damka-web", daemon=True)
        self._thread.start()
        threading.Thread(target=learn.warm, name="damka-learn-warm", daemon=True).start()
        if not self._started.wait(timeout):
            raise RuntimeError(f"the web server did not start on {self.config.bind}:{self.port}")
        log.debug("web page on http://%s:%d/ (pairing code %s, arbiter PIN %s)",  # the command says it
                    self.config.bind, self.port, self.access.code, self.access.pin)

    @property
    def thread_id(self) -> int | None:
        """The server thread's id for the system (a benchmark reads its CPU time in /proc); None when stopped."""
        return self._thread.native_id if self._thread is not None else None

    def stop(self) -> None:
        if self.feed.end_pages():   # every stream ends: uvicorn can close at once
            time.sleep(0.05)
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(10)
        self._thread = None

    def close(self) -> None:
        self.stop()
        self.importer.wait(30)
        self.driver.close()
        self.feed.close()

    # -- pages ----------------------------------------------------------------------

    async def index(self, request: Request) -> Response:
        response = FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})
        token = request.cookies.get("damka_csrf") or secrets.token_urlsafe(24)
        response.set_cookie("damka_csrf", token, samesite="strict", httponly=False)
        return response

    async def events(self, request: Request) -> Response:
        """Server-sent events: the latest picture and what follows, each with id boot:seq."""
        last = request.headers.get("last-event-id") or request.query_params.get("last")
        backlog, queue = self.feed.open_page(last)

        async def stream():
            try:
                yield "retry: 1000\n\n"
                for item in backlog:
                    yield item.frame
                while True:
                    try:
                        async with asyncio.timeout(HEARTBEAT_S):   # a timer, not a task per item and page
                            item = await queue.get()
                    except TimeoutError:
                        yield ": still here\n\n"
                        continue
                    if item is None:
                        return
                    yield item.frame
            finally:
                self.feed.close_page(queue)

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


def json_error(status: int, message: str, retry_after: float | None = None) -> JSONResponse:
    headers = {"Retry-After": str(max(1, round(retry_after)))} if retry_after else None
    return JSONResponse({"ok": False, "error": message}, status_code=status, headers=headers)
