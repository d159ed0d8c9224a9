"""Who may change a running clock, and the log of what was done to it.

A clock with a PIN lets only the arbiter resume it or change its times:
`unlock(pin)` gives a token, `lock()` ends every token given so far. Every
arbiter action, pause and failed unlock goes into the log with the clock's
time. The desk owns the PIN, the token key and the log; the clock asks it
before an arbiter action and tells it what happened."""

from __future__ import annotations

import hmac
import secrets
from dataclasses import asdict, dataclass, field
from typing import Iterator, Sequence

from damka.controller.clock.errors import ArbiterError


@dataclass(frozen=True)
class ArbiterToken:
    """Proof that the PIN was entered; valid for one clock until `lock()`."""

    name: str
    key: str = field(repr=False)
    epoch: int = 0


@dataclass(frozen=True)
class ArbiterLogEntry:
    """One logged action: when (the clock's ms), what, which side, details, and who."""

    at_ms: int
    action: str
    side: int | None = None
    detail: str = ""
    by: str = ""


class ArbiterLog:
    """The clock's log, oldest first: every arbiter action, pause, unlock (and failed unlock), restore."""

    def __init__(self, entries: Sequence[ArbiterLogEntry] = ()) -> None:
        self._entries = list(entries)

    def append(self, entry: ArbiterLogEntry) -> None:
        self._entries.append(entry)

    def __iter__(self) -> Iterator[ArbiterLogEntry]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __getitem__(self, index: int) -> ArbiterLogEntry:
        return self._entries[index]

    def actions(self) -> list[str]:
        return [entry.action for entry in self._entries]

    def by_arbiter(self) -> list[ArbiterLogEntry]:
        """Entries made with an arbiter token (not by a player, not the clock's own)."""
        return [entry for entry in self._entries if entry.by not in ("", "player")]

    def to_list(self) -> list[dict]:
        return [asdict(entry) for entry in self._entries]

    @classmethod
    def from_list(cls, data: Sequence[dict]) -> ArbiterLog:
        return cls([ArbiterLogEntry(**entry) for entry in data])


class ArbiterDesk:
    """The PIN, the tokens it gave out and the log of one clock."""

    def __init__(self, pin: str | None, log: ArbiterLog | None = None) -> None:
        self._pin = pin
        self._key = secrets.token_hex(8)
        self._epoch = 0
        self.log = log if log is not None else ArbiterLog()

    @property
    def pin_required(self) -> bool:
        return self._pin is not None

    def unlock(self, pin: str, at: int, name: str) -> ArbiterToken:
        """Check the PIN; a token for arbiter actions. Failed attempts are logged too."""
        if self._pin is not None and not hmac.compare_digest(str(pin).encode(), self._pin.encode()):
            self.record(at, "unlock-failed", None, by=name)
            raise ArbiterError("wrong arbiter PIN")
        self.record(at, "unlock", None, by=name)
        return ArbiterToken(name, self._key, self._epoch)

    def lock(self, at: int) -> None:
        """End the arbiter's session: every token issued so far stops working."""
        self._epoch += 1
        self.record(at, "lock")

    def authorize(self, arbiter: ArbiterToken | None, action: str) -> str:
        """Who does `action`: the token's name, or `player` on a clock without a PIN."""
        if arbiter is None:
            if self._pin is None:
                return "player"
            raise ArbiterError(f"{action} needs the arbiter (enter the PIN)")
        if not isinstance(arbiter, ArbiterToken) or arbiter.key != self._key or arbiter.epoch != self._epoch:
            raise ArbiterError(f"{action}: the arbiter token is not valid for this clock (unlock again)")
        return arbiter.name

    def record(self, at: int, action: str, side: int | None = None, detail: str = "", by: str = "") -> None:
        self.log.append(ArbiterLogEntry(at, action, side, detail, by))
