"""The console's list of arbiter actions: who, when (the wall clock and the board's ms) and what.

Fed on the board's thread by the page's feed from the `ArbiterActed` events
of `App.bus` (the page's commands and the board's own menu alike) and by the
page's own actions that are not the App's (a new pairing code). Each picture
of the page carries the list, so a page opened later sees it whole.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

KEEP = 200


@dataclass
class ArbiterLog:
    entries: list[dict[str, Any]] = field(default_factory=list)

    def add(self, who: str, action: str, detail: str, board_ms: int) -> dict[str, Any]:
        entry = {"at": time.strftime("%Y-%m-%d %H:%M:%S"), "board_ms": board_ms, "who": who, "action": action,
                 "detail": detail}
        self.entries.append(entry)
        del self.entries[:-KEEP]
        return entry
