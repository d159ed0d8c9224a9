"""The board's publisher: its games to the hall's broker, offline first.

One `Store` hook (the outbox, written in the move's own transaction) and one
App listener (`AppListener.on_event`: clock events, scores). Neither does any network work:
they write a row or append to a queue and wake the sender thread. The sender
sends unsent outbox rows in order (QoS 1), marks them sent when the broker
acknowledges, and starts again from the first unsent row after each
(re)connect, so a broker down, a dropped socket or a board restart loses
nothing (the hall drops the duplicates). The retained state lists every game
the hall has not confirmed yet (`games`: game id -> last seq), so the hall,
after each of its reconnects, asks again for whatever the broker acknowledged
but never delivered; its `confirm` command is what lets a row rest. paho's loop
runs in its own thread.
"""

from __future__ import annotations

import json
import logging
import threading
from collections import deque
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from damka.controller import events as ev
from damka.controller.app.hooks import AppListener
from damka.hall import topics
from damka.hall.broker import BrokerSettings, mqtt_client
from damka.hall.outbox import Outbox, OutboxReader

if TYPE_CHECKING:
    from damka.controller.app import App

log = logging.getLogger("damka.hall")
WINDOW = 200        # outbox rows handed to paho and not yet acknowledged, at most


class BoardPublisher(AppListener):
    """Attach with `attach(store)` and `App.listen`; `start()` connects in the background; `close()` stops."""

    def __init__(self, hall: str, board: str, settings: BrokerSettings, store_path: Path,
                 on_command: Callable[[dict[str, Any]], None] | None = None) -> None:
        self.hall, self.board = topics.check_name(hall, "hall"), topics.check_name(board, "board")
        self.settings = settings
        self.on_command = on_command
        self.reader = OutboxReader(Path(store_path))
        self.outbox = Outbox(self._changed)
        self.state: dict[str, Any] = {"online": True}
        self._state_dirty = True
        self._clock: deque[dict[str, Any]] = deque(maxlen=100)
        self._acked: deque[int] = deque()      # paho mids acknowledged (paho's thread appends)
        self._inflight: dict[int, int] = {}   # paho mid -> outbox id (the sender thread's only)
        self._after = 0                        # last outbox id handed to paho since the (re)connect
        self._restart = threading.Event()      # (re)connected: send again from the first unsent row
        self._resend: deque[tuple[int, int]] = deque()
        self._confirmed: deque[tuple[int, int]] = deque(maxlen=1000)  # (game, seq) the hall has (paho's thread)
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self.connected = threading.Event()
        self.sent = 0
        self.client = mqtt_client(f"damka-{hall}-{board}", settings)
        self.client.will_set(self.topic("status"), topics.encode({"online": False}), qos=1, retain=True)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_publish = self._on_publish
        self.client.on_message = self._on_message
        self._thread = threading.Thread(target=self._run, name=f"damka-hall-{board}", daemon=True)

    def topic(self, leaf: str) -> str:
        return topics.topic(self.hall, self.board, leaf)

    # -- the board's side: never blocks ------------------------------------------------

    def attach(self, store: Any) -> None:
        store.add_hook(self.outbox.hook, self._wake.set)
        self._resume_state(store)

    def _resume_state(self, store: Any) -> None:
        """After a restart the retained state is the store's last game, not an empty one."""
        games = store.list_games()
        if not games:
            return
        stored = store.load_game(max(summary.id for summary in games))
        game = stored.game
        seq = self.reader.conn.execute("SELECT coalesce(max(seq), 0) FROM outbox WHERE game_id = ?",
                                       (stored.id,)).fetchone()[0]
        result = stored.result
        with self._lock:
            self.state.update(game=stored.id, variant=stored.variant, options=stored.options,
                              players=list(stored.players), position=game.variant.format_position(game.position),
                              ply=game.ply, clock_ms=list(stored.clock_ms) if stored.clock_ms else None, seq=seq,
                              scores=list(game.scores),
                              result=None if result is None else {"points": list(result.points),
                                                                  "places": list(result.places),
                                                                  "reason": result.reason, "winner": result.winner})
            self._state_dirty = True

    def _changed(self, kind: str, game_id: int, message: dict[str, Any]) -> None:
        with self._lock:
            state = self.state
            if kind == "open":
                state.update(game=game_id, variant=message["variant"], options=json.loads(message["options"]),
                             players=json.loads(message["players"]), position=message["start_position"],
                             ply=0, result=None, clock_ms=json.loads(message["clock_start"] or "null"))
            elif kind == "move":
                state.update(position=message["position"], ply=message["ply"])
                if message["clock"]:
                    state["clock_ms"] = json.loads(message["clock"])
            elif kind == "finish":
                state["result"] = json.loads(message["result"]) if message["result"] else None
            state["seq"] = message["seq"]
            self._state_dirty = True  # (the sender is woken once the transaction commits)

    def on_event(self, event: ev.GameEvent) -> None:
        """The App listener's hook: scores and clock events (queued for the sender)."""
        clock: dict[str, Any] | None = None
        if isinstance(event, ev.MoveCommitted):
            with self._lock:
                self.state["scores"] = list(event.scores)
                self._state_dirty = True
        elif isinstance(event, (ev.TakenBack, ev.Redone)):
            with self._lock:
                self.state.update(position=event.position, ply=event.ply)
                if isinstance(event, ev.TakenBack) and event.clock_ms is not None:  # the clock handed back
                    self.state["clock_ms"] = list(event.clock_ms)
                self._state_dirty = True
            self._wake.set()
        elif isinstance(event, ev.ClockPressed):
            clock = {"event": "pressed", "side": event.side, "clock_ms": list(event.clock_ms or [])}
        elif isinstance(event, ev.ClockStarted):
            clock = {"event": "started", "side": event.side}
        elif isinstance(event, ev.FlagFell):
            clock = {"event": "flag", "side": event.side, "stage": event.stage, "final": event.final}
        if clock is not None:
            clock.update(game=self.state.get("game"), ply=event.ply)
            self._clock.append(clock)
            self._wake.set()

    # -- the sender thread ------------------------------------------------------------------

    def start(self) -> "BoardPublisher":
        s = self.settings
        self.client.connect_async(s.host, s.port, keepalive=10)
        self.client.loop_start()
        self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(5)
        if self.connected.is_set():
            self.client.publish(self.topic("status"), topics.encode({"online": False}), qos=1, retain=True)
        self.client.disconnect()
        self.client.loop_stop()
        self.reader.close()

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(0.5)
            self._wake.clear()
            try:
                self._step()
            except Exception as exc:  # noqa: BLE001 - the sender keeps going; the rows stay unsent
                log.error("hall %s board %s: sending failed: %s", self.hall, self.board, exc)
                self._stop.wait(1)

    def _step(self) -> None:
        acked = []
        while self._acked:
            row = self._inflight.pop(self._acked.popleft(), None)
            if row is not None:
                acked.append(row)
        self.reader.mark_sent(acked)
        self.sent += len(acked)
        if self._restart.is_set():
            self._restart.clear()
            self._after, self._inflight = 0, {}
        while self._confirmed:
            self.reader.confirm(*self._confirmed.popleft())
        while self._resend:
            game, seq = self._resend.popleft()
            self.reader.resend(game, seq)
            self._after = 0
            with self._lock:
                self._state_dirty = True   # said again after the rows: the hall then confirms them
        if not self.connected.is_set():
            return
        while self._clock:
            self.client.publish(self.topic("clock"), topics.encode(self._clock.popleft()), qos=0)
        room = WINDOW - len(self._inflight)
        for row_id, _game, _seq, leaf, payload in self.reader.unsent(self._after, room) if room > 0 else []:
            info = self.client.publish(self.topic(leaf), payload, qos=1)
            self._inflight[info.mid] = row_id
            self._after = row_id
        self._send_state()  # after the moves it tells of: the hall sees them first

    def _send_state(self) -> None:
        with self._lock:
            if not self._state_dirty:
                return
            state, self._state_dirty = dict(self.state), False
        state["games"] = {str(game): seq for game, seq in self.reader.unconfirmed(topics.GAMES_CLAIMED).items()}
        payload = topics.encode(state)
        self.client.publish(self.topic("state"), payload, qos=1, retain=True)

    # -- paho's thread --------------------------------------------------------------------------

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if reason.is_failure:
            log.warning("hall %s board %s: the broker refused the connection: %s", self.hall, self.board, reason)
            return
        # What paho still holds from the last connection is not sent again: after this callback it would
        # go out behind the fresh state, and the broker would keep an old state as the board's last. The
        # rows are sent again from the outbox (`_restart`), the state once more because it is marked new.
        client.drop_out_messages()
        client.publish(self.topic("status"), topics.encode({"online": True}), qos=1, retain=True)
        client.subscribe(self.topic("cmd"), qos=1)
        with self._lock:
            self._state_dirty = True
        self._restart.set()
        self.connected.set()
        self._wake.set()

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        self.connected.clear()

    def _on_publish(self, client: Any, userdata: Any, mid: int, reason: Any, properties: Any) -> None:
        self._acked.append(mid)
        self._wake.set()

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        try:
            data = topics.decode(message.payload, message.topic)
            if data.get("cmd") in ("resend", "confirm"):
                game = topics.field(data, "game", int, message.topic)
                seq = topics.field(data, "from" if data["cmd"] == "resend" else "seq", int, message.topic)
                (self._resend if data["cmd"] == "resend" else self._confirmed).append((game, seq))
                self._wake.set()
            elif self.on_command is not None:
                self.on_command(data)
            else:
                log.info("hall %s board %s: arbiter command %s", self.hall, self.board, data.get("cmd"))
        except topics.MessageError as exc:
            log.warning("%s", exc)


def start_publisher(settings: Any, store: Any, app: App) -> BoardPublisher:
    """The publisher of a board's `[hall]` section (`damka run`): attached to its store, listening to the App, started."""
    publisher = BoardPublisher(settings.hall, settings.board, settings.broker, store.path)
    publisher.attach(store)
    app.listen(publisher)
    log.info("publishing to hall %s as board %s at %s", settings.hall, settings.board, settings.broker)
    return publisher.start()
