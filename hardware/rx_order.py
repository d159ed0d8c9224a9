"""Which frames from the device the host acts on, by their sequence numbers
(the rules are docs/protocol.md, "Order and restarts").

The device numbers its frames with a wrapping u8. A UART bridge or a TCP relay
may repeat a frame or deliver it late, and the device may restart while the
port stays open; acting on such a frame would show an old board or count a
press counter that went back as ~255 presses. So a frame is acted on only when
it is newer than the last one (by the sequence number and, for SNAPSHOT and
BUTTON, by the device's clock too); a HELLO with seq 0 (the device's first
frame after a start), or two frames in a row that continue each other but not
what came before, start a new sequence: the device restarted.
"""

from __future__ import annotations

import logging
from typing import Protocol

from damka.firmware import protocol as P
from damka.log_limit import LogLimit

log = logging.getLogger(__name__)

HALF = 1 << 31  # device clocks are wrapping u32 ms: later within half the circle


def ms_delta(ms: int, last: int) -> int:
    """`ms - last` on the device's wrapping u32 clock (negative: earlier)."""
    d = (ms - last) & 0xFFFFFFFF
    return d - (1 << 32) if d >= HALF else d


class OrderStats(Protocol):
    lost: int       # frames never received
    stale: int      # frames received twice, or after a newer one: dropped
    restarts: int   # the device started over (its sequence and clock from zero)


class RxOrder:
    """`admit()` each good frame from the device, in arrival order."""

    def __init__(self, stats: OrderStats) -> None:
        self.stats = stats
        self._restart_log = LogLimit(log, every_s=5.0)
        self.reset()

    def reset(self) -> None:
        """A new connection: the next frame is taken as it comes."""
        self._start(None, None)

    def _start(self, seq: int | None, ms: int | None) -> None:
        self.last = seq
        self.last_ms = ms
        self._ms: dict[int, int] = {} if seq is None or ms is None else {seq: ms}  # seq -> device ms, frames acted on
        self._missing: list[int] = []            # seqs skipped (counted lost), oldest first
        self._odd: tuple[int, int] | None = None  # the last frame out of line: (seq, ms)

    def admit(self, msg_type: int, seq: int, ms: int | None = None) -> int | None:
        """None: drop the frame. 0: act on it, a new start (first frame of a
        connection or of a restarted device: press counters are a baseline).
        n > 0: act on it, n frames after the previous one (n - 1 were lost).
        `ms` is the device's clock in the frame, if it has one."""
        if self.last is None or (msg_type == P.HELLO and seq == 0):
            if self.last is not None:
                self._restarted("its start-up HELLO")
            self._start(seq, ms)
            return 0
        d = P.seq_delta(seq, self.last)
        earlier = ms is not None and self.last_ms is not None and ms_delta(ms, self.last_ms) < 0
        if d > 0 and not earlier:
            self._advance(seq, d, ms)
            return d
        if seq in self._missing:  # counted lost, came after all: late
            self._missing.remove(seq)
            self.stats.lost -= 1
            self.stats.stale += 1
            return None
        if ms is None or self._ms.get(seq) == ms:  # a copy of a frame already acted on
            self.stats.stale += 1
            return None
        # Neither new nor a copy: a very late frame, or a restarted device whose HELLO
        # was lost. Only a next frame continuing this one tells them apart.
        odd = self._odd
        if odd is not None and seq == (odd[0] + 1) & 0xFF and ms_delta(ms, odd[1]) >= 0:
            self.stats.stale -= 1  # the frame before was the new sequence's first, not stale
            self._restarted("a new sequence")
            self._start(seq, ms)
            return 0
        self._odd = (seq, ms)
        self.stats.stale += 1
        return None

    def _advance(self, seq: int, d: int, ms: int | None) -> None:
        self.stats.lost += d - 1
        self._missing.extend((seq - k) & 0xFF for k in range(d - 1, 0, -1))
        # Skipped frames half the circle behind can no longer be told from new ones.
        while self._missing and (seq - self._missing[0]) & 0xFF >= 128:
            del self._missing[0]
        self.last = seq
        if ms is not None:
            self.last_ms = ms
            self._ms[seq] = ms
        self._odd = None

    def _restarted(self, how: str) -> None:
        self.stats.restarts += 1
        self._restart_log.log(logging.WARNING, "the device restarted (%s): its press counters start a new "
                              "baseline", how)   # (a device restarting in a loop logs a count, not a flood)
