"""The sensor log: every event the board saw, one per line, with its time.

    # comment lines and blank lines are ignored
    0 up c3
    180 down d4
    2400 press white        # a clock press: white/black, or 1-4 in multiwarcaby
    2600 button hint        # a menu button: hint, takeback, menu, ok, up, down

`SQ` is an algebraic name of the variant's board (`a1`-`i9` on the 9x9
board; `a1`-`j10` for international, `a1`-`l12` for canadian), never a PDN
number. `MS` is milliseconds since the session started (non-decreasing). The session
writes this log as it runs (an `up`/`down` for every square whose sensed
occupancy changed between two snapshots); `damka replay` reads it back and
re-runs the game headless. A line that cannot be read raises `EventLogError`
naming the file and the line.

`read_log` reads at most `MAX_LOG_BYTES`, a line at most `MAX_LINE_BYTES`:
a log is small (a long game is a few thousand lines of ~15 bytes), so
anything larger (`/dev/zero`, a disk image given by mistake) is refused at
once with one line instead of filling the memory.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import BinaryIO, Iterable, Iterator, Sequence

from damka.base.files import open_regular, too_large
from damka.engine.errors import DamkaError
from damka.engine.variant import Variant
from damka.hardware.interfaces import Button

KINDS = ("up", "down", "press", "button")
_SQUARE_RE = re.compile(r"^[a-z]\d{1,2}$")
_BUTTONS = {button.value: button for button in Button}

MAX_LINE_BYTES = 1024             # a line is ~15 bytes; room for a long comment
MAX_LOG_BYTES = 8 * 1024 * 1024   # ~500,000 events: days of play
MAX_TIME_MS = 10**12 - 1          # 31 years: past this a time is a typing error (and would overflow SQLite)


class EventLogError(DamkaError, ValueError):
    """A sensor log line that cannot be read."""


@dataclass(frozen=True, slots=True)
class LogEvent:
    """One logged event: `kind` is up/down (arg a square), press (arg a side
    name or 1-4) or button (arg a button name)."""

    time_ms: int
    kind: str
    arg: str
    line: int = 0  # where it was read from (0: not read from a file)

    def __str__(self) -> str:
        return f"{self.time_ms} {self.kind} {self.arg}"


def side_token(variant: Variant, side: int) -> str:
    """How a side is written in the log: its name for draughts, 1-4 for multiwarcaby."""
    return variant.side_token(side)


def parse_side(token: str, sides: Sequence[str]) -> int | None:
    """A side index from `white`/`black` or `1`..`4`; None when unknown."""
    token = token.lower()
    if token.isdigit():
        index = int(token) - 1
        return index if 0 <= index < len(sides) else None
    return sides.index(token) if token in sides else None


def parse_line(line: str, number: int = 0, last_time: int = 0) -> LogEvent | None:
    """One line to an event; None for blank and comment lines."""
    text = line.split("#", 1)[0].strip()
    if not text:
        return None
    where = f"line {number}: " if number else ""
    parts = text.split()
    if len(parts) != 3:
        raise EventLogError(f"{where}expected 'MS KIND ARG' (e.g. '120 up c3'), got {line.strip()!r}")
    ms, kind, arg = parts
    if not (ms.isascii() and ms.isdigit()):  # isdigit alone takes '²', which int() refuses
        raise EventLogError(f"{where}time {ms!r} is not a whole number of milliseconds")
    if len(ms) > len(str(MAX_TIME_MS)) or int(ms) > MAX_TIME_MS:
        shown = ms if len(ms) <= 20 else f"{ms[:20]}..."
        raise EventLogError(f"{where}time {shown} is past {MAX_TIME_MS} ms (31 years)")
    time_ms = int(ms)
    if time_ms < last_time:
        raise EventLogError(f"{where}time {time_ms} goes back before {last_time}")
    kind = kind.lower()
    arg = arg.lower()
    if kind not in KINDS:
        raise EventLogError(f"{where}unknown event {kind!r} (expected one of {', '.join(KINDS)})")
    if kind in ("up", "down") and not _SQUARE_RE.match(arg):
        raise EventLogError(f"{where}{arg!r} is not a square name (like e5)")
    if kind == "button" and arg not in _BUTTONS:
        raise EventLogError(f"{where}unknown button {arg!r} (expected one of {', '.join(_BUTTONS)})")
    if kind == "press" and not (arg.isascii() and (arg.isdigit() or arg.isalpha())):
        raise EventLogError(f"{where}{arg!r} is not a side (white, black, or 1-4)")
    return LogEvent(time_ms, kind, arg, number)


def parse_log(lines: Iterable[str], source: str = "") -> list[LogEvent]:
    """Every event of a log, in order; EventLogError on the first bad line
    (naming `source`, the file, when given)."""
    events: list[LogEvent] = []
    last = 0
    for number, line in enumerate(lines, 1):
        try:
            event = parse_line(line, number, last)
        except EventLogError as exc:
            if not source:
                raise
            raise EventLogError(f"{source}: {exc}") from None
        if event is not None:
            events.append(event)
            last = event.time_ms
    return events


def read_log(path: str) -> list[LogEvent]:
    """Every event of the log file at `path`; EventLogError, one line, when it is not a
    regular file (a FIFO would wait for a writer forever) or cannot be opened."""
    with open_regular(path, "sensor log", EventLogError, MAX_LOG_BYTES) as handle:
        return read_log_stream(handle, path)


def read_log_stream(handle: BinaryIO, source: str) -> list[LogEvent]:
    """Every event of a log read from `handle` (a file, standard input),
    within the size bounds; `source` names it in errors."""
    return parse_log(_bounded_lines(handle, source), source)


def _bounded_lines(handle: BinaryIO, source: str) -> Iterator[str]:
    """The lines of `handle` as text; EventLogError for a line or a file too
    long to be a sensor log, or bytes that are not UTF-8."""
    total = 0
    number = 0
    while raw := handle.readline(MAX_LINE_BYTES + 1):
        number += 1
        total += len(raw)
        if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
            raise EventLogError(f"{source}: line {number}: longer than {MAX_LINE_BYTES} bytes; not a sensor log")
        if total > MAX_LOG_BYTES:
            raise EventLogError(too_large(source, "sensor log", MAX_LOG_BYTES))
        try:
            yield raw.decode("utf-8-sig" if number == 1 else "utf-8")
        except UnicodeDecodeError as exc:
            raise EventLogError(f"{source}: line {number}: not UTF-8 text "
                                f"(byte 0x{raw[exc.start]:02x} at column {exc.start + 1})") from None


def format_log(events: Iterable[LogEvent]) -> str:
    return "".join(f"{event}\n" for event in events)


def occupancy_events(before: frozenset[str], after: frozenset[str], time_ms: int) -> Iterator[LogEvent]:
    """The up/down events that turn one sensed occupancy into the next (sorted, ups first)."""
    for square in sorted(before - after):
        yield LogEvent(time_ms, "up", square)
    for square in sorted(after - before):
        yield LogEvent(time_ms, "down", square)
