"""What the board refused from its DXP peer, and the peer's chat, said without
flooding anything (a chat is announced and logged at most once a second:
`Chats`).

One bad message now and then is said in full, on the screen and in the log
(what and why). A peer sending them fast (a broken or hostile program: tens
of thousands a second) would otherwise write one log line and one screen
message each; past FLOOD refusals within WINDOW_S seconds they are
summarised instead: the screen line says "ignored 1,234 bad messages from
Fuzzer (127.0.0.1:40112); the last: ..." and is re-announced at most once a
second, the log gets a line at most every LOG_EVERY_S seconds with the count
(`LogLimit`), and only the latest KEEP texts are kept.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable

from damka.controller.words import say
from damka.log_limit import LogLimit

log = logging.getLogger("damka.dxp")

FLOOD = 5             # more refusals than this within WINDOW_S: a flood, summarised
WINDOW_S = 1.0
SAY_EVERY_S = 1.0     # a flood's screen line is announced (MessageShown) at most this often
LOG_EVERY_S = 5.0
KEEP = 500            # refusal texts kept (tests, a look at the latest)
CHAT_CHARS = 80       # the most of a chat message the board's screen shows
CHAT_EVERY_S = 1.0    # the peer's chat: at most one log line and one screen message a second


def clean_chat(text: str) -> str:
    """A peer's chat fit for the screen: printable characters only, one line,
    at most CHAT_CHARS (a peer may send anything, up to the framer's limit)."""
    words = " ".join("".join(c if c.isprintable() else " " for c in text).split())
    return words if len(words) <= CHAT_CHARS else words[:CHAT_CHARS - 3].rstrip() + "..."


class Chats:
    """`add(peer, text)`: the screen line for a chat, and whether to announce it now."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._log = LogLimit(log, every_s=CHAT_EVERY_S, clock=clock)
        self._said_at: float | None = None

    def add(self, peer: str, text: str) -> tuple[str, bool]:
        self._log.log(logging.INFO, "DXP chat from %s: %r", peer, text[:CHAT_CHARS * 2])
        now = self.clock()
        announce = self._said_at is None or now - self._said_at >= CHAT_EVERY_S
        if announce:
            self._said_at = now
        return say("dxp.says", peer=peer, text=clean_chat(text)), announce


class Refusals:
    """`add(why, peer)` for each refusal; it says what the screen should show, and when."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.texts: list[str] = []        # the latest KEEP refusals, oldest first
        self.count = 0                    # every refusal since the game started
        self.flood = 0                    # refusals in the current flood (0: none)
        self._recent: deque[float] = deque(maxlen=FLOOD + 1)
        self._said_at: float | None = None
        self._log = LogLimit(log, every_s=LOG_EVERY_S, clock=clock)

    def add(self, why: str, peer: str, full: str, logged: bool = False) -> tuple[str, bool]:
        """Count `why` (refused from `peer`); (the screen line, whether to announce it now).
        `full`: the line for a refusal that is no flood; `logged`: the link logged it already."""
        now = self.clock()
        self.count += 1
        self.texts.append(why)
        if len(self.texts) > KEEP:
            del self.texts[:-KEEP]
        if not logged:
            self._log.log(logging.WARNING, "DXP: refused from %s: %s", peer, why)
        self._recent.append(now)
        if not self.flood and not (len(self._recent) > FLOOD and now - self._recent[0] <= WINDOW_S):
            return full, True
        self.flood = self.flood + 1 if self.flood else len(self._recent)
        line = say("dxp.ignored", count=f"{self.flood:,}", peer=peer, why=why)
        announce = self._said_at is None or now - self._said_at >= SAY_EVERY_S
        if announce:
            self._said_at = now
        return line, announce

    def flush(self) -> None:
        """Log how many refusals were not logged (the connection ended)."""
        self._log.flush(logging.WARNING, "DXP: refusals from the peer")

    def calm(self) -> None:
        """The game moved on (a right move, a committed move): the next refusal is said in full."""
        self.flood = 0
        self._recent.clear()
        self._said_at = None
