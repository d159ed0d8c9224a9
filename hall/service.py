"""`damka hall`'s core: subscribe to a hall on the broker and keep its record.

The hall logs in with a persistent session (clean session off; the broker
makes its account's name its client id): while it is down the broker keeps
its QoS 1 messages, and the record (hall/record.py) drops whatever comes
twice. The broker's queue is not trusted to be whole: each board's retained
state names the games the hall has not confirmed, and the record asks again
for what it lacks and confirms what it has. paho's network thread calls
`_on_message`; the record is guarded by one lock that the page's readers take too.
While the broker does not answer, paho keeps trying (1-5 s apart) and the hall
says so once, and once more when it is connected (`_say`): never silent, never
a line per attempt.
"""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path
from typing import Any, Callable

from damka.hall import topics
from damka.hall.broker import BrokerSettings, mqtt_client
from damka.hall.limits import AccountLimits
from damka.hall.record import HallRecord

log = logging.getLogger("damka.hall")


class HallService:
    def __init__(self, hall: str, settings: BrokerSettings, db_path: Path, *,
                 on_applied: Callable[[str, dict[str, Any]], None] | None = None,
                 account_limits: AccountLimits | None = None) -> None:
        self.hall = topics.check_name(hall, "hall")
        self.settings = settings
        self.lock = threading.RLock()
        self.record = HallRecord(Path(db_path), request=self._request, confirm=self._confirm,
                                 account_limits=account_limits)
        self.on_applied = on_applied
        self.clocks: dict[str, dict[str, Any]] = {}   # board -> its last clock event (not stored)
        self.received = 0
        self.version = 0   # +1 under the lock once a message is applied: the page builds its picture again
        self.connected = threading.Event()   # connected and subscribed: what boards send now reaches the hall
        self._stop = threading.Event()
        self._ticker = threading.Thread(target=self._tick, name=f"damka-hall-{hall}-tick", daemon=True)
        self.client = mqtt_client(f"damka-hall-{hall}", settings, clean=False)
        self.client.on_connect = self._on_connect
        self.client.on_connect_fail = self._on_connect_fail
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.client.on_subscribe = self._on_subscribe
        self._said = ""  # the broker's state last said: "", "down", "up" (paho's thread alone writes it)

    def start(self) -> "HallService":
        self.client.connect_async(self.settings.host, self.settings.port, keepalive=10)
        self.client.loop_start()
        self._ticker.start()
        return self

    def _tick(self) -> None:
        while not self._stop.wait(0.5):
            with self.lock:
                self.record.tick()

    def close(self) -> None:
        self._stop.set()
        if self._ticker.is_alive():
            self._ticker.join(2)
        self.client.disconnect()
        self.client.loop_stop()
        with self.lock:
            self.record.close()

    def _where(self) -> str:
        return f"the broker at {self.settings.host}:{self.settings.port}"

    def _say(self, state: str, line: str, level: int = logging.WARNING) -> None:
        """`line`, when the broker's state changed since the last one said."""
        if state != self._said:
            self._said = state
            log.log(level, "hall %s: %s", self.hall, line)

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if reason.is_failure:
            log.warning("hall %s: the broker refused the connection: %s", self.hall, reason)
            return
        client.subscribe([(topics.topic(self.hall, "+", leaf), 1) for leaf in topics.READ])  # never `cmd`

    def _on_subscribe(self, client: Any, userdata: Any, mid: int, reasons: Any, properties: Any) -> None:
        """Up only once the broker has the subscription: a message sent before it would never reach the hall."""
        if any(reason.is_failure for reason in reasons):
            log.warning("hall %s: the broker refused the subscription: %s", self.hall, reasons)
            return
        self.connected.set()
        self._say("up", f"connected to {self._where()}", logging.INFO)

    def _on_connect_fail(self, client: Any, userdata: Any) -> None:
        self._say("down", f"{self._where()} does not answer; trying again every few seconds "
                          "(is mosquitto running? sudo systemctl start mosquitto)")

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        self.connected.clear()
        if not self._stop.is_set():
            self._say("down", f"lost {self._where()} ({reason}); trying again every few seconds")

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        address = topics.parse_topic(message.topic)
        if address is None or address.hall != self.hall or address.leaf == "cmd":
            return
        self.received += 1
        if address.leaf == "clock":
            try:
                self.clocks[address.board] = topics.decode(message.payload, message.topic)
            except topics.MessageError:
                pass
            return
        try:
            with self.lock:
                outcome = self.record.apply(address.board, address.leaf, message.payload)
                self.version += 1
        except Exception as exc:  # noqa: BLE001 - one board's bad data never stops the hall
            log.error("hall %s: message on %s failed: %s", self.hall, message.topic, exc, exc_info=exc)
            return
        if outcome == "applied" and self.on_applied is not None:
            self.on_applied(address.board, {"t": time.time(), "payload": message.payload})

    def _request(self, board: str, game: int, from_seq: int) -> None:
        """Ask a board to send a game again from `from_seq` (a gap, or the hall is behind)."""
        self.client.publish(topics.topic(self.hall, board, "cmd"),
                            topics.encode({"cmd": "resend", "game": game, "from": from_seq}), qos=1)

    def _confirm(self, board: str, game: int, seq: int) -> None:
        """Tell a board the hall has `game` up to `seq`: it may stop keeping those messages for sending."""
        self.client.publish(topics.topic(self.hall, board, "cmd"),
                            topics.encode({"cmd": "confirm", "game": game, "seq": seq}), qos=1)
