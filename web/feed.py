"""The one listener between the App and the page: events and pictures, numbered, handed to the server.

On the board's thread: `WebFeed` is an App listener (`App.listen`): it hears
every event of every game (`on_event`) and is told after every input and tick
(`after_input`). Each event becomes an item at once; after the input that
caused it the pump adds a fresh picture of the app (`state.snapshot` of
`App.read_model()`) whenever the read model's `version` moved: something the
page shows changed. Between inputs and events the version is looked at every
`QUIET_CHECK_MS` of the board's time, not on each of the loop's idle ticks. Handing an item over costs the board one
`call_soon_threadsafe`: the board never waits for the server or a page.

On the server's loop: items get their sequence number, go into the history
(kept for pages that reconnect) and to every open page's queue. A page that
connects is given the latest picture and what followed it; a page that
reconnects with `Last-Event-ID` is given exactly the items after its last
one, or, when those are gone (a new boot, a long absence), the latest
picture again: no gap, no duplicate.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import threading
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from damka.controller.app.hooks import AppListener
from damka.controller.events import ArbiterActed, GameEvent
from damka.web import state
from damka.web.arbiter_log import ArbiterLog

if TYPE_CHECKING:
    from damka.controller.app import App
    from damka.web.remote import RemoteOpponent

HISTORY = 4000        # items kept for reconnecting pages
QUEUE_LIMIT = 1000    # a page this far behind is dropped (it reconnects and catches up)
QUIET_CHECK_MS = 50   # with no input and no event, the read model is looked at this often (board time)


@dataclass(frozen=True)
class Item:
    seq: int
    kind: str            # "event" or "state"
    data: dict[str, Any]
    text: str            # the JSON sent, made once for every page
    frame: bytes = b""   # the whole server-sent event, encoded once: each page only writes it


class WebFeed(AppListener):
    """Listener and pump on the board's side; history and fan-out on the server's side."""

    def __init__(self, app: App, *, remote: Callable[[], RemoteOpponent | None] = lambda: None) -> None:
        self.app = app
        self.boot = secrets.token_hex(4)      # a restarted board numbers afresh: pages see a new boot
        self.remote = remote
        self._loop: asyncio.AbstractEventLoop | None = None
        self._loop_lock = threading.Lock()
        self._version = -1                     # the read model's version last pictured
        self._dirty = True
        self.seq = 0
        self.commands = 0                      # the pages' commands run (`command_ran`)
        self.history: deque[Item] = deque(maxlen=HISTORY)
        self.latest_state: Item | None = None
        self.pages: set[asyncio.Queue] = set()
        self.dropped_pages = 0
        self.arbiter_log = ArbiterLog()       # the console's list (kept across server restarts with the feed)
        self._ticked = False                  # told of a tick (no input) since the last pump
        self._check_at = 0                    # the board's time to look at the read model again
        app.listen(self)
        self.pump()

    def close(self) -> None:
        self.app.unlisten(self)

    # -- the board's thread ----------------------------------------------------------

    def on_event(self, event: GameEvent) -> None:
        """The event goes to the pages as it is."""
        self._dirty = True
        if isinstance(event, ArbiterActed):
            self.arbiter_log.add(event.who, event.action, event.detail, event.time_ms)
        self._hand_over("event", state.event_data(event))

    def log_action(self, who: str, action: str, detail: str) -> None:
        """An action of the page's own (a new pairing code) for the console's list."""
        self.arbiter_log.add(who, action, detail, self.app.now)
        self._dirty = True

    def command_ran(self) -> int:
        """A page's command ran (what the page shows may have changed outside the
        bus): picture it. Its number, which every state pictured from now on
        carries as `commands`, so the page that sent it knows which state is
        the first to show what it did (its answer and the state race each other)."""
        self.commands += 1
        self._dirty = True
        return self.commands

    def notice(self, data: dict[str, Any]) -> None:
        """From any thread: an event that is not the board's (an upload's progress) for every page."""
        self._hand_over("event", data)

    def tick(self, now: int) -> None:
        self._ticked = True

    def after_input(self) -> None:
        self.pump()

    def pump(self) -> None:
        """After an input or a tick: a new picture when what the page shows changed.
        An idle tick (no input, no event, nothing run for the page) looks only every
        QUIET_CHECK_MS: building the read model costs more than the loop's pass."""
        ticked, self._ticked = self._ticked, False
        now = self.app.now
        if ticked and not self._dirty and now < self._check_at:
            return
        self._check_at = now + QUIET_CHECK_MS
        model = self.app.read_model()
        if not self._dirty and model.version == self._version:
            return
        self._version = model.version
        self._dirty = False
        self._hand_over("state", dict(state.snapshot(model, self.remote(), self.arbiter_log.entries),
                                      commands=self.commands))

    def _hand_over(self, kind: str, data: dict[str, Any]) -> None:
        with self._loop_lock:
            loop = self._loop
        if loop is None:
            self._accept(kind, data)            # no server yet: keep it for the first page
            return
        try:
            loop.call_soon_threadsafe(self._accept, kind, data)
        except RuntimeError:                    # the server's loop closed under us
            self._accept(kind, data)

    # -- the server's loop ------------------------------------------------------------

    def attach(self, loop: asyncio.AbstractEventLoop | None) -> None:
        with self._loop_lock:
            self._loop = loop
            if loop is None:
                self.pages.clear()

    def _accept(self, kind: str, data: dict[str, Any]) -> None:
        with self._loop_lock:  # the board's thread appends here too while no server runs
            self.seq += 1
            data = dict(data, seq=self.seq, kind=kind)
            text = json.dumps(data, separators=(",", ":"))
            frame = f"id: {self.boot}:{self.seq}\nevent: {kind}\ndata: {text}\n\n".encode()
            item = Item(self.seq, kind, data, text, frame)
            self.history.append(item)
            if kind == "state":
                self.latest_state = item
            pages = list(self.pages)
        for queue in pages:
            if queue.qsize() >= QUEUE_LIMIT:
                self.pages.discard(queue)      # too slow: it reconnects and catches up from the history
                self.dropped_pages += 1
                queue.put_nowait(None)
            else:
                queue.put_nowait(item)

    def open_page(self, last_event_id: str | None) -> tuple[list[Item], asyncio.Queue]:
        """On the server's loop: what a page is sent first, and its queue for what follows."""
        queue: asyncio.Queue = asyncio.Queue()
        with self._loop_lock:
            backlog = self._backlog(last_event_id)
            self.pages.add(queue)
        return backlog, queue

    def end_pages(self) -> bool:
        """From any thread: every open page's stream ends (the server stops).
        False when no server loop is attached (no page to end)."""
        with self._loop_lock:
            loop = self._loop
        if loop is None:
            return False
        try:
            loop.call_soon_threadsafe(self._end_pages)
        except RuntimeError:                    # the loop closed already: its pages are gone
            pass
        return True

    def _end_pages(self) -> None:
        for queue in list(self.pages):
            queue.put_nowait(None)

    def close_page(self, queue: asyncio.Queue) -> None:
        self.pages.discard(queue)

    def _backlog(self, last_event_id: str | None) -> list[Item]:
        history = list(self.history)
        last = _parse_id(last_event_id, self.boot)
        if last is not None and history and (history[0].seq <= last + 1) and last <= self.seq:
            return [item for item in history if item.seq > last]   # exactly what it missed
        start = self.latest_state
        if start is None:
            return history
        return [item for item in history if item.seq >= start.seq]


def _parse_id(text: str | None, boot: str) -> int | None:
    if not text or ":" not in text:
        return None
    their_boot, _, seq = text.partition(":")
    if their_boot != boot or not seq.isdigit():
        return None
    return int(seq)
