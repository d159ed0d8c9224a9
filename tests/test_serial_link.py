"""End to end over a real pty: the firmware (device.Device) in a thread on the
master side, feeding snapshots from a simulated matrix; the host's SerialLink
on the slave side (through a by-id style symlink, so an unplug can re-appear)."""

from __future__ import annotations

import logging
import random
import sys
import time

import pytest

pytest.importorskip("serial")
if sys.platform == "win32":
    pytest.skip("ptys are POSIX only", allow_module_level=True)

from damka.firmware import protocol as P  # noqa: E402
from damka.hardware.errors import DeviceNotFoundError  # noqa: E402
from damka.hardware.interfaces import Button, ButtonPress, ClockPress, Role  # noqa: E402
from damka.hardware.pty_device import PtyBoard  # noqa: E402
from damka.hardware.serial_link import SerialLink, find_port  # noqa: E402

from serial_rig import BUTTONS, DEADLINE_S, LAYOUT, board, heartbeats, link, press, squares, wait_for  # noqa: E402,F401 (fixtures)


def test_snapshots_flow(board, link):
    assert link.device[:3] == (P.PROTOCOL_VERSION, 9, 9)
    for cells in ({(0, 0)}, {(0, 0), (4, 4), (8, 8)}, set(), {(r, c) for r in range(3) for c in range(9)}):
        board.matrix.set(cells)
        assert wait_for(lambda: link.snapshot().occupied == squares(cells))
    assert link.stats.frames_bad == 0 and link.stats.lost == 0


def test_heartbeat_keeps_coming(board, link):
    before = link.stats.snapshots
    # every 250 ms without a change (waited for, not timed: how often is the benchmark's business)
    assert wait_for(lambda: link.stats.snapshots - before >= 2)


def test_every_change_arrives_as_a_snapshot(board, link):
    # How fast is measured by benchmarks/hardware_bench.py; here: each change arrives, in order.
    seen = []
    for i in range(10):
        cells = {(i % 9, (i * 2) % 9)}
        board.matrix.set(cells)
        assert wait_for(lambda: link.snapshot().occupied == squares(cells))
        seen.append(link.snapshot())
    assert all(a.time_ms <= b.time_ms for a, b in zip(seen, seen[1:]))
    assert link.stats.frames_bad == 0


def test_led_frames_flow_back(board, link):
    link.show({"a1": Role.LEGAL_TARGET, "a2": Role.FLAG, "i9": Role.LEGAL_TARGET})
    assert wait_for(lambda: link.stats.led_acks >= 1)
    dev = board.device
    palette = dev.palette
    assert palette[dev.cells[0]][:3] == (0, 255, 0)           # a1: cell (0, 0)
    assert palette[dev.cells[9]] == (255, 0, 0, P.BLINK_FAST)  # a2: cell (1, 0)
    assert dev.cells[80] == dev.cells[0]                        # same role, same palette entry
    assert len(palette) == 3
    # Rendered on the chain, serpentine: a2 is chain index 17; brightness 64.
    assert wait_for(lambda: board.pixels.shown[0] == (0, 64, 0))
    link.show({})
    assert wait_for(lambda: link.stats.led_acks >= 2 and not any(board.device.cells))


def test_button_presses_counted_once(board, link):
    for index in (0, 2, 0):
        press(board, index)
    heartbeats(link)  # the counters repeated: no double count
    presses = link.presses()
    assert [type(p) for p in presses] == [ClockPress, ButtonPress, ClockPress]
    assert presses[1].button is Button.HINT
    assert link.presses() == []


def test_corrupted_bytes_never_give_a_wrong_snapshot():
    rng = random.Random(5)
    with PtyBoard(corrupt=0.01, seed=17) as board:
        received = []
        link = SerialLink(board.port, buttons=BUTTONS, on_snapshot=received.append, stale_ms=2000)
        link.start()
        try:
            assert link.wait_synced(DEADLINE_S)
            patterns = []
            for _ in range(60):
                cells = {(rng.randrange(9), rng.randrange(9)) for _ in range(rng.randrange(12))}
                patterns.append(cells)
                board.matrix.set(cells)
                time.sleep(0.02)
            # A change arrives despite the noise (re-sent on change and every 250 ms).
            assert wait_for(lambda: link.snapshot().occupied == squares(patterns[-1]))
            # The noise the other way: the host sends little (a few LED frames), so whether one of them
            # was hit by 1% a byte depended on the machine's timing. LED frames go until one reaches the
            # device damaged; then the last one still shows, re-sent until acknowledged.
            deadline = time.monotonic() + DEADLINE_S
            frames = [{"d4": Role.HINT_TO}, {"f6": Role.HINT_TO}]
            while board.device.decoder.bad == 0:
                assert time.monotonic() < deadline, "no LED frame reached the device damaged"
                link.show(frames[link.stats.led_frames_sent % 2])
                time.sleep(0.02)
            acks = link.stats.led_acks
            link.show({"e5": Role.HINT_TO})
            assert wait_for(lambda: link.stats.led_acks > acks)
            assert wait_for(lambda: board.device.cells[LAYOUT.cell("e5")[0] * 9 + 4] != 0)
        finally:
            link.close()
        truth = {LAYOUT.occupied(state) for state in board.truth}
        assert received and all(s.occupied in truth for s in received)
        assert link.stats.frames_bad > 0  # the noise was real


def test_unplug_and_replug_recovers(board, link):
    board.matrix.set({(1, 1)})
    assert wait_for(lambda: link.snapshot().occupied == {"b2"})
    link.show({"c3": Role.LIFTED})
    assert wait_for(lambda: link.stats.led_acks >= 1)
    board.unplug()
    assert wait_for(lambda: not link.connected)
    board.matrix.set({(2, 2), (3, 3)})  # pieces moved while unplugged
    board.replug()
    assert wait_for(lambda: link.snapshot().occupied == {"c3", "d4"})
    assert link.stats.reconnects == 2
    # The LED frame is sent again to the rebooted device.
    assert wait_for(lambda: board.device.cells[2 * 9 + 2] != 0)


def retries(caplog) -> list[float]:
    """The waits between the link's attempts to connect, as it logged them (seconds)."""
    return [record.args[1] for record in caplog.records if record.getMessage().startswith("connect failed")]


def test_long_unplug_still_recovers_within_a_second(board, link, caplog):
    """However long the cable is out, the link tries again at least every half
    second (`max_backoff_s`), so a replug is seen within a second."""
    caplog.set_level(logging.DEBUG, logger="damka.hardware.serial_link")
    board.unplug()
    wait_for(lambda: len(retries(caplog)) >= 6, "the backoff grown past its cap (0.05 s doubled 5 times)")
    assert max(retries(caplog)) == link.max_backoff_s == 0.5
    board.matrix.set({(6, 6)})
    board.replug()
    assert wait_for(lambda: link.snapshot().occupied == {"g7"})


def test_silent_device_is_treated_as_unplugged(board):
    link = SerialLink(board.port, stale_ms=300).start()
    try:
        assert link.wait_synced(DEADLINE_S)
        board._stop.set()  # the firmware hangs: no heartbeat, but the port stays
        board._thread.join(1)
        assert wait_for(lambda: link.stats.reconnects >= 2)
    finally:
        link.close()


def test_wrong_matrix_size_is_reported_and_rejected():
    with PtyBoard(rows=8, cols=8) as board:
        link = SerialLink(board.port).start()
        try:
            assert wait_for(lambda: link.error is not None)
            assert "8x8" in str(link.error)
            wait_for(lambda: link.stats.frames_bad >= 3, "the device's next snapshots refused")
            assert link.stats.snapshots == 0
        finally:
            link.close()


def test_port_that_never_appears_keeps_retrying(tmp_path, caplog):
    caplog.set_level(logging.DEBUG, logger="damka.hardware.serial_link")
    link = SerialLink(str(tmp_path / "nothing"), max_backoff_s=0.05).start()
    try:
        wait_for(lambda: len(retries(caplog)) >= 3, "three attempts to connect")
        assert not link.connected and link.snapshot().occupied == frozenset()
    finally:
        link.close()


class FakePort:
    def __init__(self, device, vid, pid):
        self.device, self.vid, self.pid = device, vid, pid


def test_find_port_by_vid_pid(monkeypatch):
    from serial.tools import list_ports

    ports = [FakePort("/dev/ttyUSB0", 0x0403, 0x6001), FakePort("/dev/ttyACM1", 0x2E8A, 0x0005),
             FakePort("/dev/ttyACM0", 0x2E8A, 0x0005)]
    monkeypatch.setattr(list_ports, "comports", lambda: ports)
    assert find_port() == "/dev/ttyACM0"
    assert find_port(0x0403, 0x6001) == "/dev/ttyUSB0"
    with pytest.raises(DeviceNotFoundError, match="2e8a:000a"):
        find_port(0x2E8A, 0x000A)


def test_loop_url_opens(monkeypatch):
    """`loop://` echoes the host's own frames: the link opens by URL and hears its HELLO."""
    link = SerialLink("loop://", stale_ms=10_000).start()
    try:
        assert wait_for(lambda: link.device is not None)
        assert link.device[4] == "damka host"
    finally:
        link.close()


def test_socket_url_reaches_firmware_over_tcp():
    """`socket://host:port`: the same link to a board served over TCP (e.g. ser2net on another Pi)."""
    import socket
    import threading

    from damka.firmware.device import Device
    from damka.hardware.pty_device import SimMatrix

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    port = server.getsockname()[1]
    matrix = SimMatrix()
    matrix.set({(4, 4)})
    stop = threading.Event()

    class SocketTransport:
        def __init__(self, conn):
            self.conn = conn

        def read(self):
            try:
                return self.conn.recv(4096)
            except BlockingIOError:
                return b""
            except OSError:  # the host hung up
                stop.set()
                return b""

        def write(self, data):
            try:
                self.conn.sendall(data)
            except BlockingIOError:
                pass
            except OSError:
                stop.set()

    def serve():
        conn, _ = server.accept()
        conn.setblocking(False)
        dev = Device(matrix, SocketTransport(conn), None, lambda: time.monotonic_ns() // 1_000_000)
        dev.run(sleep_ms=lambda: time.sleep(0.001), until=stop.is_set)
        conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    link = SerialLink(f"socket://127.0.0.1:{port}").start()
    try:
        assert link.wait_synced(DEADLINE_S)
        assert link.snapshot().occupied == {"e5"}
    finally:
        link.close()
        stop.set()
        thread.join(2)
        server.close()


def test_a_fast_spin_reaches_the_host_as_every_step(board):
    """Detents faster than the firmware's loop (several in one poll) are as many
    presses, each with its own counter: the host counts every one, none as a jump."""
    from damka.hardware.backend_serial import DEFAULT_BUTTONS

    with SerialLink(board.port, buttons=DEFAULT_BUTTONS) as lk:
        assert lk.wait_synced(5.0)
        got: list = []

        def counted(name: str) -> int:
            got.extend(lk.presses())
            return sum(1 for p in got if isinstance(p, ButtonPress) and p.button == Button(name))

        board.encoder.turn(5, dwell_s=0)     # five detents in a few microseconds
        assert wait_for(lambda: counted("down") == 5, 5.0)
        board.encoder.turn(-40, dwell_s=0)   # a fast spin the other way
        assert wait_for(lambda: counted("up") == 40, 5.0)
        assert counted("down") == 5 and lk.stats.jumps == 0
