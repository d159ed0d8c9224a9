"""What one board account may make the hall do (docs/hall.md, Limits).

A board's password sits on its SD card: whoever has it can publish as that
board. The broker (deploy/mosquitto) bounds the packets and its queues; the
hall bounds the rest per board account, before a message costs it a JSON
parse or a database write:

* messages: a token bucket of MESSAGE_BURST, refilled MESSAGES_PER_MINUTE;
* game opens: a bucket of OPEN_BURST, refilled OPENS_PER_MINUTE;
* a retained state of more than STATE_BYTES;
* a logged message more than SEQ_AHEAD ahead of the next one the hall expects;
* a game's tags: at most TAGS, names of at most TAG_NAME characters, values
  cut to TAG_VALUE characters; players' names cut to PLAYER_NAME characters;
  both kept on one line, without control characters or direction overrides.

A refused message is not lost: it is not applied (nor passed over), so the
hall asks the board for it again once it notices the gap, and an honest board
keeps every message until the hall confirms it (hall/outbox.py). An honest
board sends about one message a second at most, and a few hundred at once
after a reconnect: far under these limits.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Callable

from damka.engine.safe_text import one_line

MESSAGES_PER_MINUTE = 600   # sustained: 10 a second (a board playing at 10x human speed sends about 2)
MESSAGE_BURST = 1000        # at once: a board's backlog after an hour offline
OPENS_PER_MINUTE = 6        # game opens: a game every 10 s sustained (a real game lasts minutes)
OPEN_BURST = 30             # ... and 30 at once (a board back after a day of offline games)
STATE_BYTES = 16 * 1024     # a board's retained state (an honest one is under 2 KB)
SEQ_AHEAD = 500             # how far ahead of the next expected message one may be and still be held
TAGS = 40                   # tags of one game kept
TAG_NAME = 40               # characters of a tag's name (longer: the tag is dropped)
TAG_VALUE = 200             # characters of a tag's value kept
PLAYER_NAME = 100           # characters of a player's name kept
BOARDS = 4096               # board accounts whose buckets are remembered (the least recent go first)


class OverLimit(Exception):
    """A message over its board account's limits: refused, not applied (asked for again)."""


@dataclass
class Bucket:
    """A token bucket: full at `burst`, `per_minute` tokens back a minute; `take` one if there is one."""

    per_minute: float
    burst: float
    level: float = field(init=False)
    at: float | None = None

    def __post_init__(self) -> None:
        self.level = self.burst

    def take(self, now: float) -> bool:
        if self.at is not None:
            self.level = min(self.burst, self.level + max(0.0, now - self.at) * self.per_minute / 60)
        self.at = now
        if self.level < 1:
            return False
        self.level -= 1
        return True


@dataclass
class AccountLimits:
    """The buckets of every board account: `message(board)` and `open(board)` say whether it may."""

    messages_per_minute: float = MESSAGES_PER_MINUTE
    message_burst: float = MESSAGE_BURST
    opens_per_minute: float = OPENS_PER_MINUTE
    open_burst: float = OPEN_BURST
    clock: Callable[[], float] = time.monotonic
    _messages: OrderedDict[str, Bucket] = field(default_factory=OrderedDict)
    _opens: OrderedDict[str, Bucket] = field(default_factory=OrderedDict)

    def message(self, board: str) -> bool:
        return self._bucket(self._messages, board, self.messages_per_minute, self.message_burst).take(self.clock())

    def open(self, board: str) -> bool:
        return self._bucket(self._opens, board, self.opens_per_minute, self.open_burst).take(self.clock())

    @staticmethod
    def _bucket(book: OrderedDict[str, Bucket], board: str, per_minute: float, burst: float) -> Bucket:
        bucket = book.get(board)
        if bucket is None:
            bucket = book[board] = Bucket(per_minute, burst)
            while len(book) > BOARDS:
                book.popitem(last=False)
        book.move_to_end(board)
        return bucket


def bounded_tags(tags: object) -> tuple[dict[str, str], list[str]]:
    """A game's tags within the limits, each value on one line (engine/safe_text.py), and what was cut or
    dropped (for the log)."""
    if not isinstance(tags, dict):
        return {}, [f"tags are {type(tags).__name__}, not an object: dropped"] if tags else []
    kept: dict[str, str] = {}
    said: list[str] = []
    for name, value in tags.items():
        if len(kept) >= TAGS:
            said.append(f"{len(tags) - TAGS} tags over {TAGS} dropped")
            break
        if not isinstance(name, str) or not name or len(name) > TAG_NAME or not isinstance(value, str):
            said.append(f"tag {str(name)[:TAG_NAME]!r} dropped (a name of 1-{TAG_NAME} characters, a text value)")
            continue
        if len(value) > TAG_VALUE:
            said.append(f"tag {name} cut from {len(value):,} to {TAG_VALUE} characters")
            value = value[:TAG_VALUE]
        kept[name] = one_line(value)
    return kept, said
