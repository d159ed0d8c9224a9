"""Who may change a game: the pairing code, the arbiter PIN, wrong-code limits, CSRF.

Watching needs nothing. Every state-changing request is a POST with a JSON
body that carries the board's pairing code (shown on the board's screen,
rotated on request) or the arbiter PIN, in the body (`code`) or the
`X-Damka-Code` header. Cross-site requests are refused twice over: an
`Origin` (or `Referer`) that is not the board's own is refused, and the
request must carry the CSRF token the page was given in a cookie
(`damka_csrf`) back in the `X-CSRF-Token` header (double submit: another
site can neither read the cookie nor set the header). Wrong codes are
counted per client address: after `FREE_FAILURES` in a row each further one
locks that client out for a while that doubles up to `MAX_LOCK_S`. They are
counted for the whole board as well (`WrongCodes`, a bucket of
`GLOBAL_BURST` refilled at one per `GLOBAL_REFILL_S`), so that many
addresses cannot guess together: while it is empty, only addresses that
have given a right code before may try a code. The client address is the
socket's own: `X-Forwarded-For` counts only when the board's config names a
proxy in front (uvicorn's `proxy_headers`, `forwarded_allow_ips`).
What is remembered per address is bounded: an address's wrong codes are
forgotten `FORGET_S` after its last one, and at most `MAX_ADDRESSES` are
remembered (the oldest go first), so many addresses cannot fill the memory.
A player's right pairing code sent to an arbiter action is not a wrong code.

Pairing while codes are guessed (issue 36): the bucket is shared, so
guessers who keep it empty kept a new phone out too. Every pairing code
therefore has a long form, the code and six digits more (`Access.long_code`,
12 digits), shown on the board's screen while the bucket has been empty
within `LONG_SHOWN_S`. A code of 12 digits is checked first, before the
bucket: the right one always pairs, and a wrong one counts only against its
own address (5 free, then the doubling lock). With 10^12 long codes even
a fresh address for every guess, as fast as the server answers (650 a
second measured on the 2-core development machine), needs 24 years for
half of them; the short code stays behind the bucket as before (docs/web.md
says why not a rotating code).
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Callable
from urllib.parse import urlsplit

from damka.controller.words import say

FREE_FAILURES = 5
MAX_LOCK_S = 60.0
FIRST_LOCK_S = 0.5
GLOBAL_BURST = 20        # wrong codes from everyone together before the board slows them all down
GLOBAL_REFILL_S = 3.0    # then one more every 3 s: 20 a minute, about 35 days for half the 6-digit codes
FORGET_S = 900.0         # an address's wrong codes are forgotten 15 minutes after its last one
MAX_ADDRESSES = 4096     # addresses remembered (wrong codes, right codes) at most; the oldest go first
PIN_DIGITS = 8           # a made-up arbiter PIN; a configured one must be at least this long
LONG_DIGITS = 12         # the pairing code's long form: the code and 6 digits more
LONG_SHOWN_S = 120.0     # the board's screen shows the long form this long after the bucket was last empty


class Refused(Exception):
    """A request refused before it reaches the board: HTTP status and reason."""

    def __init__(self, status: int, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after


def new_code() -> str:
    return f"{secrets.randbelow(1_000_000):06d}"


def long_form(code: str) -> str:
    """`code` and 6 random digits more: the pairing code's long form, checked before the board-wide bucket."""
    return code + f"{secrets.randbelow(10 ** (LONG_DIGITS - len(code))):0{LONG_DIGITS - len(code)}d}"


def digits_of(given: str) -> str:
    """A typed code without the spaces and dashes the screen groups it with ('123456 789012')."""
    return "".join(ch for ch in given if ch not in " -")


def new_pin() -> str:
    """An arbiter PIN of `PIN_DIGITS` digits (the board shows it; it opens everything)."""
    return f"{secrets.randbelow(10 ** PIN_DIGITS):0{PIN_DIGITS}d}"


@dataclass
class WrongCodes:
    """The board-wide bucket of wrong codes: full at GLOBAL_BURST, one back every GLOBAL_REFILL_S."""

    level: float = GLOBAL_BURST
    at: float = 0.0

    def _refill(self, now: float) -> None:
        self.level = min(GLOBAL_BURST, self.level + max(0.0, now - self.at) / GLOBAL_REFILL_S)
        self.at = now

    def wait(self, now: float) -> float:
        """Seconds until a stranger may try a code again (0: now)."""
        self._refill(now)
        return 0.0 if self.level >= 1 else (1 - self.level) * GLOBAL_REFILL_S

    def take(self, now: float) -> None:
        self._refill(now)
        self.level = max(0.0, self.level - 1)


@dataclass
class _Failures:
    count: int = 0
    locked_until: float = 0.0
    last: float = 0.0      # when the last wrong code came


def _remember(book: dict, key: str, value: object) -> None:
    """Put `key` last in `book` (oldest first) and drop the oldest beyond MAX_ADDRESSES."""
    book.pop(key, None)
    book[key] = value
    while len(book) > MAX_ADDRESSES:
        del book[next(iter(book))]


@dataclass
class Access:
    """The codes and the wrong-code counters of one server."""

    pin: str
    code: str = field(default_factory=new_code)
    clock: Callable[[], float] = time.monotonic
    on_busy: Callable[[], None] = lambda: None   # the bucket emptied after a while it had not: show the long form
    long_code: str = ""                          # the code's long form ("": made from `code`)
    busy_until: float = float("-inf")            # the long form is shown until then
    _failures: dict[str, _Failures] = field(default_factory=dict)   # by last wrong code, oldest first
    _wrong: WrongCodes = field(default_factory=WrongCodes)
    _known: dict[str, None] = field(default_factory=dict)  # gave a right code (spared the board-wide slow-down)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        if not self.long_code.startswith(self.code):
            self.long_code = long_form(self.code)

    def rotate(self) -> str:
        self.code = new_code()
        self.long_code = long_form(self.code)
        self._known.clear()     # a new code: who knew the old one is a stranger again
        return self.code

    def paired(self, client: str) -> bool:
        """True for an address that gave a right code (or the PIN) since the code was made."""
        with self._lock:
            return client in self._known

    def busy(self) -> float:
        """Seconds the board's screen should go on showing the long form (0: no more)."""
        return max(0.0, self.busy_until - self.clock())

    @property
    def remembered(self) -> int:
        """Addresses with wrong codes remembered now (bounded by MAX_ADDRESSES)."""
        with self._lock:
            return len(self._failures)

    def _forget_old(self, now: float) -> None:
        """Drop the addresses whose last wrong code is FORGET_S old (they are first in the dict)."""
        while self._failures:
            oldest = next(iter(self._failures))
            if now - self._failures[oldest].last < FORGET_S:
                return
            del self._failures[oldest]

    def check(self, client: str, given: str | None, *, arbiter: bool = False) -> str:
        """'arbiter' or 'player' for a right code (the PIN also opens the
        player's actions); Refused 401/403/429 otherwise."""
        now = self.clock()
        with self._lock:
            self._forget_old(now)
            failures = self._failures.get(client) or _Failures()
            if failures.locked_until > now:
                wait = failures.locked_until - now
                raise Refused(429, say("web.locked_client", client=client, wait=f"{wait:.1f}"), wait)
            if given and len(typed := digits_of(str(given).strip())) == LONG_DIGITS and typed.isdigit():
                right = hmac.compare_digest(typed.encode(), self.long_code.encode())
                role = "player" if right else self._role(given)   # (an arbiter PIN of 12 digits)
            elif given and client not in self._known and (wait := self._wrong.wait(now)) > 0:
                self._busy(now)
                raise Refused(429, say("web.locked_board", wait=f"{wait:.1f}", digits=LONG_DIGITS), wait)
            else:
                role = self._role(given)
            if role is not None:
                _remember(self._known, client, None)
            if role is not None and (role == "arbiter" or not arbiter):
                self._failures.pop(client, None)
                return role
            if given and role is None:   # the pairing code at an arbiter action is right, only not enough
                self._wrong.take(now)
                if self._wrong.wait(now) > 0:
                    self._busy(now)
                failures.count += 1
                failures.last = now
                _remember(self._failures, client, failures)
                if failures.count > FREE_FAILURES:
                    lock = min(MAX_LOCK_S, FIRST_LOCK_S * 2 ** (failures.count - FREE_FAILURES - 1))
                    failures.locked_until = now + lock
        if not given:
            raise Refused(401, say("web.needs_pin") if arbiter else say("web.needs_code"))
        if role == "player":
            raise Refused(403, say("web.code_not_enough"))
        raise Refused(403, say("web.wrong_pin") if arbiter else say("web.wrong_code"))

    def _busy(self, now: float) -> None:
        """The bucket is empty: the screen shows the long form for LONG_SHOWN_S more (told once it starts)."""
        started = self.busy_until <= now
        self.busy_until = now + LONG_SHOWN_S
        if started:
            self.on_busy()

    def _role(self, given: str | None) -> str | None:
        if not given:
            return None
        given_b = str(given).strip().encode()
        if self.pin and hmac.compare_digest(given_b, self.pin.encode()):
            return "arbiter"
        if hmac.compare_digest(given_b, self.code.encode()):
            return "player"
        return None


def check_origin(headers: dict[str, str], host: str) -> None:
    """Refused(403) for a request whose Origin or Referer is another site's."""
    for name in ("origin", "referer"):
        value = headers.get(name)
        if not value:
            continue
        if value == "null":
            raise Refused(403, "cross-site request refused (Origin: null)")
        netloc = urlsplit(value).netloc
        if netloc.lower() != host.lower():
            raise Refused(403, f"cross-site request refused ({name.capitalize()} {value} is not this board)")
        return


def check_csrf(cookie: str | None, header: str | None) -> None:
    if not cookie or not header or not hmac.compare_digest(cookie.encode(), header.encode()):
        raise Refused(403, "missing or wrong CSRF token: reload the page (header X-CSRF-Token must match "
                           "the damka_csrf cookie)")
