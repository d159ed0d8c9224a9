"""The board's outbox: what the hall must get, in the store, in the move's own transaction.

`Outbox.hook` is a `Store` hook: each game write (a game opened, moves, a
take-back, a player out, the result) adds its messages to the `outbox` table
before the write commits, so a move is never stored without its message nor
the other way round. The sender (hall/publisher.py) reads the table on its
own connection and marks what the broker acknowledged (`sent` 1); after a
restart the unsent rows go first. A row is kept for sending again until the
hall itself confirms it (`sent` 2): a broker that acknowledged a message has
not yet delivered it, and a queue it loses (a session taken or wiped) must
not lose a game.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any, Callable

from damka.controller.store.schema import ensure_outbox
from damka.hall.topics import KIND_TOPIC, encode

OutboxRow = tuple[int, int, int, str, str]  # id, game_id, seq, leaf topic, payload


class Outbox:
    """Writes messages inside the store's transactions; `changed` is called after each (it only wakes the sender)."""

    def __init__(self, changed: Callable[[str, int, dict[str, Any]], None] = lambda kind, game, msg: None) -> None:
        self.changed = changed

    def hook(self, conn: sqlite3.Connection, kind: str, game_id: int, details: dict[str, Any]) -> None:
        ensure_outbox(conn)
        seq = conn.execute("SELECT coalesce(max(seq), 0) FROM outbox WHERE game_id = ?", (game_id,)).fetchone()[0]
        for message in _messages(kind, details):
            seq += 1
            message.update(game=game_id, seq=seq)
            conn.execute("INSERT INTO outbox (game_id, seq, topic, payload) VALUES (?,?,?,?)",
                         (game_id, seq, KIND_TOPIC[message["kind"]], encode(message)))
            self.changed(message["kind"], game_id, message)


def _messages(kind: str, details: dict[str, Any]) -> list[dict[str, Any]]:
    if kind == "moves":
        names = ("ply", "side", "text", "start", "path", "captures", "position", "clock", "time")
        return [{"kind": "move", **dict(zip(names, row))} for row in details["rows"]]
    if kind in KIND_TOPIC:
        return [{"kind": kind, **details}]
    return []


class OutboxReader:
    """The sender's side: its own connection to the store file (WAL: it never blocks the board's writes long)."""

    def __init__(self, path: Path) -> None:
        self.conn = sqlite3.connect(path, timeout=10.0, isolation_level=None, check_same_thread=False)
        self.conn.execute("PRAGMA busy_timeout=10000")
        ensure_outbox(self.conn)

    def unsent(self, after: int, limit: int) -> list[OutboxRow]:
        return self.conn.execute("SELECT id, game_id, seq, topic, payload FROM outbox WHERE sent = 0 AND id > ?"
                                 " ORDER BY id LIMIT ?", (after, limit)).fetchall()

    def mark_sent(self, ids: list[int]) -> None:
        """The broker acknowledged these rows (a row the hall confirmed already stays confirmed)."""
        if ids:
            self.conn.executemany("UPDATE outbox SET sent = 1 WHERE id = ? AND sent = 0", [(i,) for i in ids])

    def confirm(self, game_id: int, seq: int) -> int:
        """The hall has every message of `game_id` up to `seq`: never sent again unless it asks; how many."""
        cursor = self.conn.execute("UPDATE outbox SET sent = 2 WHERE game_id = ? AND seq <= ? AND sent < 2",
                                   (game_id, seq))
        return cursor.rowcount

    def unconfirmed(self, limit: int) -> dict[int, int]:
        """Game id -> its last seq, for the oldest `limit` games the hall has not confirmed in full."""
        rows = self.conn.execute("SELECT game_id, max(seq) FROM outbox WHERE sent < 2 GROUP BY game_id"
                                 " ORDER BY game_id LIMIT ?", (limit,)).fetchall()
        return dict(rows)

    def resend(self, game_id: int, from_seq: int) -> int:
        """The hall asks again (it lost messages): mark them unsent; how many."""
        cursor = self.conn.execute("UPDATE outbox SET sent = 0 WHERE game_id = ? AND seq >= ?", (game_id, from_seq))
        return cursor.rowcount

    def pending(self) -> int:
        """Messages the hall has not confirmed yet (sent or not): the board must keep them."""
        return self.conn.execute("SELECT count(*) FROM outbox WHERE sent < 2").fetchone()[0]

    def close(self) -> None:
        self.conn.close()
