"""Frames out of order over a real pty: the firmware restarting on the open port,
frames from the device dropped, repeated late or delayed (as a flaky UART
bridge or TCP relay would), and a forged counter jump. What a user would see
is counted: phantom clock presses, snapshots that go back in time, and the
`lost` statistic `damka doctor` prints against the frames really dropped."""

from __future__ import annotations

import random
import sys
import time

import pytest

pytest.importorskip("serial")
if sys.platform == "win32":
    pytest.skip("ptys are POSIX only", allow_module_level=True)

from damka.firmware import protocol as P  # noqa: E402
from damka.hardware.interfaces import ClockPress  # noqa: E402
from damka.hardware.pty_device import FrameFaults, PtyBoard  # noqa: E402
from damka.hardware.serial_link import SerialLink  # noqa: E402

from serial_rig import BUTTONS, DEADLINE_S, LAYOUT, board, collect_presses, heartbeats, link, press, wait_for  # noqa: E402,F401 (fixtures)
CELLS = [(r, c) for r in range(9) for c in range(9)]


def test_firmware_restart_on_the_open_port_gives_no_phantom_presses(board, link):
    for _ in range(3):
        press(board, 0)
    assert [p.side for p in collect_presses(link, 3)] == [0, 0, 0]
    board.reset()  # the device starts over: counters, sequence and clock from zero
    board.matrix.set({(2, 2)})
    assert wait_for(lambda: link.snapshot().occupied == {"c3"})
    assert link.presses() == []  # not 253 presses of clock 0
    assert link.stats.restarts == 1 and link.stats.reconnects == 1  # the port stayed open
    for _ in range(2):
        press(board, 1)
    assert [p.side for p in collect_presses(link, 2)] == [1, 1]
    assert link.stats.lost == 0 and link.stats.jumps == 0


class DropHello:
    """Drops the device's HELLO frames (corrupted on the line, say)."""

    def __init__(self) -> None:
        self.dropped = 0

    def apply(self, data: bytes) -> list[bytes]:
        frames = P.FrameDecoder().feed(data)
        if frames and frames[0][0] == P.HELLO:
            self.dropped += 1
            return []
        return [data]


def test_restart_whose_hello_is_lost_gives_no_phantom_presses(board, link):
    for _ in range(4):
        press(board, 0)
    assert len(collect_presses(link, 4)) == 4
    board.transport.faults = faults = DropHello()
    board.reset()
    board.matrix.set({(5, 5)})
    assert wait_for(lambda: link.snapshot().occupied == {"f6"})
    assert faults.dropped == 1
    assert link.presses() == []
    press(board, 2)
    assert [p.button.name for p in collect_presses(link, 1)] == ["HINT"]


def test_late_repeated_and_dropped_frames_change_nothing_a_user_sees():
    with PtyBoard(seed=3) as board:
        received = []
        link = SerialLink(board.port, buttons=BUTTONS, on_snapshot=received.append).start()
        try:
            assert link.wait_synced(DEADLINE_S)
            faults = FrameFaults(random.Random(11), drop=0.08, repeat=0.08, delay=0.08)
            board.transport.faults = faults
            occupied: set[tuple[int, int]] = set()
            for step, cell in enumerate(CELLS):  # one more piece each step: every state new
                occupied.add(cell)
                board.matrix.set(occupied)
                if step % 3 == 0:
                    press(board, step % 2)
                time.sleep(0.01)
            board.transport.flush_faults()
            real = sum(board.device.buttons.counts)
            presses = collect_presses(link, real)
            assert wait_for(lambda: link.snapshot().occupied == LAYOUT.occupied(board.truth[-1]))
            heartbeats(link, 3)  # after the last fault: a trailing lost frame is counted
        finally:
            link.close()
    assert faults.dropped >= 2 and faults.late >= 5  # the faults were real (about 12 and 24)
    assert len(presses) == real == 27 and all(isinstance(p, ClockPress) for p in presses)
    order = {LAYOUT.occupied(state): i for i, state in enumerate(board.truth)}
    shown = [order[s.occupied] for s in received]
    stale = sum(1 for i, k in enumerate(shown) if k < max(shown[:i], default=-1))
    assert stale == 0
    assert link.stats.lost == faults.dropped
    assert link.stats.stale == faults.late
    assert link.stats.restarts == 0 and link.stats.jumps == 0


def test_a_counter_jump_that_cannot_be_real_is_discarded(board, link, caplog):
    for _ in range(3):
        press(board, 0)
    assert len(collect_presses(link, 3)) == 3
    board._halt()  # the firmware stops; a frame in order but with counters gone back comes
    dev = board.device
    body = P.pack_snapshot(dev.now + 1, dev.debouncer.stable, 9, 0, [0, 0, 0, 0, 0, 0])
    before = link.stats.frames_ok
    board.transport.write(P.encode_frame(P.SNAPSHOT, dev.seq, body))
    assert wait_for(lambda: link.stats.frames_ok > before)  # in order: acted on
    assert link.presses() == []  # not 253 presses of clock 0
    assert link.stats.jumps == 1
    assert "cannot be real" in caplog.text


def test_the_device_clock_wrapping_after_49_days_is_still_in_order():
    from damka.hardware.rx_order import RxOrder
    from damka.hardware.serial_link import LinkStats

    stats = LinkStats()
    order = RxOrder(stats)
    assert order.admit(P.SNAPSHOT, 7, 0xFFFF_FFF0) == 0
    assert order.admit(P.BUTTON, 8, 0xFFFF_FFFA) == 1
    assert order.admit(P.SNAPSHOT, 10, 4) == 2     # past the wrap of the u32 ms: newer, one lost
    assert order.admit(P.SNAPSHOT, 9, 1) is None   # the lost one, late
    assert order.admit(P.SNAPSHOT, 8, 0xFFFF_FFFA) is None  # a copy
    assert (stats.lost, stats.stale, stats.restarts) == (0, 2, 0)
