"""The host end of the serial link to the board's microcontroller (pyserial).

The port is opened by URL (`serial.serial_for_url`): `/dev/ttyACM0`, a pty
path, `socket://host:port`, `loop://`; with no port, the first USB device with
the board's vid (Raspberry Pi Pico: 0x2E8A) is used. A reader thread decodes
frames (the codec is the firmware's own `damka.firmware.protocol`), keeps the
latest snapshot, counts presses from the device's press counters, re-sends
the LED frame until the device ACKs it, and reconnects with backoff after an
unplug (open fails, read raises, or the heartbeat stops), re-synchronising
from the device's next snapshot. Frames repeated, late or from before a device
restart are dropped by their sequence numbers (`rx_order.RxOrder`), so no old
snapshot is shown and no counter going back counts as presses.

A device that misbehaves fast cannot flood the host: the same protocol
problem (a HELLO of another version, say, sent thousands of times a second)
is logged at most once every few seconds with a count (`LogLimit`), the
error clears when a right HELLO comes, and presses are acted on at most
PRESS_BURST at once and PRESS_RATE a second (far more than fingers or a
spun encoder make); more are dropped, with a log line saying how many.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from damka.engine.safe_text import safe_text
from damka.firmware import protocol as P
from damka.hardware.errors import BackendUnavailableError, DeviceNotFoundError, ProtocolError
from damka.hardware.gpio_matrix import make_press, monotonic_ms
from damka.hardware.interfaces import BoardSensor, Buttons, ButtonPress, ClockPress, LedFrame, LedOutput, Snapshot
from damka.hardware.layout import Layout
from damka.hardware.leds import LedStyle
from damka.hardware.pico_firmware import mismatch as firmware_mismatch
from damka.hardware.rx_order import RxOrder
from damka.log_limit import LogLimit

log = logging.getLogger(__name__)

PICO_VID = 0x2E8A
SYNC_RETRY_MS = 50    # after a (re)connect, ask for a snapshot again this often until one arrives,
SYNC_RETRIES = 10     # at most this many times (a lost HELLO or answer costs 50 ms, not a heartbeat)
NOISY_STALE = 3       # while bytes keep arriving (line noise), wait this many times stale_ms
PRESS_RATE = 100      # presses a second the host acts on, at most (a fast encoder spin is ~50)
PRESS_BURST = 200     # ... and at most this many at once
UNPACK = {P.SNAPSHOT: P.unpack_snapshot, P.BUTTON: P.unpack_button, P.ACK: P.unpack_ack,
          P.HELLO: P.unpack_hello, P.ERROR: P.unpack_error}  # the frames a device sends


def _serial():
    try:
        import serial
    except ImportError as exc:
        raise BackendUnavailableError("the serial backend needs pyserial (pip install damka[serial])") from exc
    return serial


def find_port(vid: int = PICO_VID, pid: int | None = None) -> str:
    """The device path of the first USB serial port with this vid (and pid)."""
    _serial()
    from serial.tools import list_ports

    ports = sorted((p for p in list_ports.comports() if p.vid == vid and (pid is None or p.pid == pid)),
                   key=lambda p: p.device)
    if not ports:
        want = f"{vid:04x}:{pid:04x}" if pid is not None else f"{vid:04x}:*"
        raise DeviceNotFoundError(f"no USB serial device {want} is plugged in (give [serial] port to choose one)")
    if len(ports) > 1:
        log.warning("several boards found (%s); using %s", ", ".join(p.device for p in ports), ports[0].device)
    return ports[0].device


@dataclass
class LinkStats:
    frames_ok: int = 0
    frames_bad: int = 0        # CRC/COBS failures and impossible bodies
    lost: int = 0              # frames of the device never received (gaps not filled by a late frame)
    stale: int = 0             # frames received twice or after a newer one: dropped
    restarts: int = 0          # the device started over with the port open (press counters re-baselined)
    jumps: int = 0             # press-counter changes that cannot be real: discarded
    reconnects: int = 0
    snapshots: int = 0
    led_frames_sent: int = 0
    led_acks: int = 0
    device_errors: list[str] = field(default_factory=list)
    presses_dropped: int = 0   # presses over PRESS_RATE / PRESS_BURST: not acted on


class SerialLink(BoardSensor, LedOutput, Buttons):
    """A board behind a microcontroller. `start()` it (or use it as a context
    manager); `snapshot()` is the latest debounced occupancy the device sent."""

    def __init__(self, port: str | None = None, *, layout: Layout | None = None,
                 style: LedStyle | None = None, buttons: Mapping[str, int] | None = None,
                 vid: int = PICO_VID, pid: int | None = None, baudrate: int = 115200,
                 clock: Callable[[], int] = monotonic_ms,
                 on_snapshot: Callable[[Snapshot], None] | None = None,
                 stale_ms: int = 1000, ack_timeout_ms: int = 300, max_backoff_s: float = 0.5) -> None:
        self.serial = _serial()
        self.port, self.vid, self.pid, self.baudrate = port, vid, pid, baudrate
        self.layout = layout or Layout()
        self.style = style or LedStyle(self.layout)
        self.button_names = {index: name for name, index in (buttons or {}).items()}
        self.clock, self.on_snapshot = clock, on_snapshot
        self.stale_ms, self.ack_timeout_ms, self.max_backoff_s = stale_ms, ack_timeout_ms, max_backoff_s
        self.stats = LinkStats()
        self.device: tuple[int, int, int, int, str] | None = None  # the HELLO
        self.error: ProtocolError | None = None
        self.firmware_problem: str | None = None  # the board's firmware is not this host's copy: why
        self.last_problem: str | None = None  # why the last connect or read failed (for the doctor)
        self._decoder = P.FrameDecoder()
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._ser = None
        self._seq = 0
        self._order = RxOrder(self.stats)
        self._snapshot = Snapshot(frozenset(), clock())
        self._synced = threading.Event()
        self._settled = threading.Event()   # synced, or a connect failed: nothing more to wait for at the start
        self._counts: dict[int, int] | None = None  # the device's press counters (None: no baseline)
        self._since_counts = 0        # frames from the device since the counters were last read
        self._presses: list[ClockPress | ButtonPress] = []
        self._led_body: bytes | None = None
        self._led_pending: tuple[int, int] | None = None  # (seq, sent at ms)
        self._last_rx = 0             # when the last good frame arrived
        self._last_bytes = 0          # when the last bytes of any kind arrived
        self._sync_asked = (0, 0)     # (REQUESTs sent since the connect, when the last was sent)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._problems = LogLimit(log, every_s=5.0, clock=lambda: self.clock() / 1000)  # protocol errors
        self._dropping = LogLimit(log, every_s=5.0, clock=lambda: self.clock() / 1000)  # presses over the rate
        self._press_tokens = float(PRESS_BURST)
        self._press_at: int | None = None     # when the tokens were last filled (ms)

    # -- life cycle ------------------------------------------------------------
    def start(self) -> "SerialLink":
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="damka-serial", daemon=True)
            self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(2)
            self._thread = None
        self._disconnect()

    def __enter__(self) -> "SerialLink":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def connected(self) -> bool:
        return self._ser is not None

    @property
    def synced(self) -> bool:
        """A snapshot arrived since the last (re)connect: the board answers."""
        return self._synced.is_set()

    def where(self) -> str:
        """The device as a person finds it: the port, or the USB ids looked for."""
        if self.port:
            return self.port
        pid = "*" if self.pid is None else f"{self.pid:04x}"
        return f"the first USB device {self.vid:04x}:{pid}"

    def wait_synced(self, timeout: float) -> bool:
        """Wait until a snapshot arrived since the last (re)connect."""
        return self._synced.wait(timeout)

    def wait_answer(self, timeout: float) -> bool:
        """Wait until the board answers (True), or until its device is found missing (a port that is
        not there, no USB device of its ids: False at once, for the board to say so without delay)."""
        self._settled.wait(timeout)
        return self.synced

    # -- the reader thread ---------------------------------------------------
    def _run(self) -> None:
        backoff = 0.05
        while not self._stop.is_set():
            if self._ser is None:
                try:
                    self._connect()
                    backoff = 0.05
                except (OSError, self.serial.SerialException, DeviceNotFoundError) as exc:
                    self.last_problem = str(exc)
                    self._settled.set()
                    log.debug("connect failed: %s (retry in %.2f s)", exc, backoff)
                    self._stop.wait(backoff)
                    backoff = min(backoff * 2, self.max_backoff_s)
                    continue
            try:
                self._pump()
            except (OSError, self.serial.SerialException) as exc:
                self.last_problem = str(exc)
                log.info("serial link lost: %s", exc)
                self._disconnect()

    def _connect(self) -> None:
        port = self.port or find_port(self.vid, self.pid)
        ser = self.serial.serial_for_url(port, baudrate=self.baudrate, timeout=0.02, write_timeout=0.5)
        try:
            ser.reset_input_buffer()
        except Exception:  # not every URL handler has a buffer to reset
            pass
        with self._lock:
            self._decoder.reset()
            self._order.reset()
            self._counts = None
            self._synced.clear()
            self._ser = ser
            self._last_rx = self._last_bytes = self.clock()
            self._sync_asked = (0, self._last_rx)
            if self._led_body is not None:
                self._led_pending = (-1, -self.ack_timeout_ms)  # re-send it on the next pump
        # A leading delimiter ends whatever half frame the device holds.
        self._write(b"\x00" + P.encode_frame(P.HELLO, self._next_seq(),
                                              P.pack_hello(self.layout.rows, self.layout.cols, 0, "damka host")))
        self.stats.reconnects += 1
        log.info("serial link open on %s", port)

    def _disconnect(self) -> None:
        # Under the write lock: a write of the board's thread (an LED frame, a tone) ends
        # before the port closes, never meets a closed port (pyserial then raised TypeError,
        # which reached the board loop: a loaded run saw it when the cable was pulled).
        with self._write_lock, self._lock:
            ser, self._ser = self._ser, None
            self._synced.clear()
        if ser is not None:
            try:
                ser.close()
            except Exception:
                log.debug("closing the port failed", exc_info=True)

    def _pump(self) -> None:
        ser = self._ser
        if ser is None:
            return
        data = ser.read(1)
        if data:
            self._last_bytes = self.clock()
            waiting = ser.in_waiting
            if waiting:
                data += ser.read(waiting)
            bad_before = self._decoder.bad
            frames = self._decoder.feed(data)
            self.stats.frames_bad += self._decoder.bad - bad_before
            for msg_type, seq, body in frames:
                self._handle(msg_type, seq, body)
        now = self.clock()
        silent = now - self._last_rx
        # A silent port is a lost device after stale_ms; one that still sends bytes but
        # no good frame (line noise eating the heartbeats) gets longer: reconnecting
        # would not help it, and would make the next press counters a baseline.
        if silent > self.stale_ms and (now - self._last_bytes > self.stale_ms
                                       or silent > NOISY_STALE * self.stale_ms):
            raise OSError(f"no frame from the device for {silent} ms")
        asked, last_ask = self._sync_asked
        if not self._synced.is_set() and asked < SYNC_RETRIES and now - last_ask >= SYNC_RETRY_MS:
            self._sync_asked = (asked + 1, now)
            self.request_snapshot()
        pending = self._led_pending
        if pending is not None and now - pending[1] >= self.ack_timeout_ms:
            self._send_leds()

    def _next_seq(self) -> int:
        with self._lock:
            seq = self._seq
            self._seq = (seq + 1) & 0xFF
        return seq

    def _write(self, data: bytes) -> None:
        with self._write_lock:
            ser = self._ser   # read under the lock: `_disconnect` cannot close it meanwhile
            if ser is None:
                return
            ser.write(data)

    # -- frames from the device -------------------------------------------------
    def _handle(self, msg_type: int, seq: int, body: bytes) -> None:
        self._last_rx = self.clock()
        unpack = UNPACK.get(msg_type)
        try:
            if unpack is None:
                raise ValueError(f"unknown message type {msg_type}")
            message = unpack(body)
        except ValueError:
            self.stats.frames_bad += 1  # a good CRC around an impossible body
            return
        device_ms = message[0] if msg_type == P.SNAPSHOT else message[2] if msg_type == P.BUTTON else None
        frames = self._order.admit(msg_type, seq, device_ms)
        if frames is None:
            return  # a copy, or older than a frame already acted on
        with self._lock:
            if frames == 0:
                self._counts = None  # a new start: the next counters are a baseline
            self._since_counts += frames
        try:
            self._act(msg_type, message)
        except ValueError:
            self.stats.frames_bad += 1
            return
        self.stats.frames_ok += 1

    def _act(self, msg_type: int, message: tuple) -> None:
        if msg_type == P.SNAPSHOT:
            self._on_snapshot(*message)
        elif msg_type == P.BUTTON:
            index, count, _ = message
            with self._lock:
                self._count_presses({index: count})
        elif msg_type == P.ACK:
            acked, kind = message
            with self._lock:
                if kind == P.LEDS and self._led_pending and self._led_pending[0] == acked:
                    self._led_pending = None
                    self.stats.led_acks += 1
        elif msg_type == P.HELLO:
            self._on_hello(message)
        else:
            code, text = message
            self.stats.device_errors.append(f"{code}: {safe_text(text)}")
            del self.stats.device_errors[:-20]

    def _on_hello(self, hello: tuple[int, int, int, int, str]) -> None:
        # The device's own words (its firmware's name) reach the log, `damka doctor` and
        # `damka firmware check`: any control in them (a clear-screen, a set-title) is shown, not obeyed.
        hello = (hello[0], hello[1], hello[2], hello[3], safe_text(hello[4]))
        self.device = hello
        problem = firmware_mismatch(hello[4])
        if problem and problem != self.firmware_problem:
            log.warning("%s", problem)  # it still works: the protocol is the same
        self.firmware_problem = problem
        if hello[0] != P.PROTOCOL_VERSION:
            error = ProtocolError(f"device speaks protocol {hello[0]}, we speak {P.PROTOCOL_VERSION}")
        elif (hello[1], hello[2]) != (self.layout.rows, self.layout.cols):
            error = ProtocolError(f"device has a {hello[1]}x{hello[2]} matrix, the config says "
                                  f"{self.layout.rows}x{self.layout.cols}")
        else:
            error = None
        if error is None:
            if self.error is not None:
                log.info("the device's HELLO is right now (protocol %d, %dx%d): the protocol problem is over",
                         hello[0], hello[1], hello[2])
            self.error = None
            return
        self.error = error
        self._problems.log(logging.ERROR, "%s", error)

    def _on_snapshot(self, _device_ms: int, masks: list[int], cols: int, _state: int, counts: list[int]) -> None:
        if (len(masks), cols) != (self.layout.rows, self.layout.cols):
            raise ValueError("snapshot of another matrix size")
        snap = Snapshot(self.layout.occupied(masks), self.clock())
        with self._lock:
            self._count_presses(dict(enumerate(counts)), baseline=True)
            self._snapshot = snap
            self.stats.snapshots += 1
        self._synced.set()
        self._settled.set()
        if self.on_snapshot is not None:
            self.on_snapshot(snap)

    def _count_presses(self, counts: dict[int, int], baseline: bool = False) -> None:
        """Presses from the device's wrapping counters (BUTTON and SNAPSHOT carry
        the same counters, so neither a lost nor a repeated frame miscounts).
        After a (re)connect or a device restart, the first SNAPSHOT's counters
        are a baseline, not presses. Every press is announced by its own BUTTON
        frame, so counters that went back, or moved by more presses than frames
        came since they were last read, cannot be real: they are discarded (and
        logged) and become the new baseline."""
        since, self._since_counts = self._since_counts, 0
        if self._counts is None:
            if baseline:  # only a SNAPSHOT has every counter
                self._counts = dict(counts)
            return
        moved = {index: (count - self._counts.get(index, count)) & 0xFF for index, count in counts.items()}
        self._counts.update(counts)
        if any(n >= 128 for n in moved.values()) or sum(moved.values()) > since:
            self.stats.jumps += 1
            self._problems.log(logging.WARNING, "press counters %s cannot be real (%s moves, %d frames since the "
                               "last counters): discarded, a new baseline", counts, moved, since)
            return
        now = self.clock()
        for index, n in moved.items():
            name = self.button_names.get(index)
            if name is not None:
                take = self._take_presses(n, now)
                self._presses.extend(make_press(name, now) for _ in range(take))

    def _take_presses(self, n: int, now: int) -> int:
        """How many of `n` presses to act on: a token bucket of PRESS_BURST
        filled at PRESS_RATE a second. A device (or a forger on the line)
        sending valid BUTTON frames at any rate cannot press the clock
        thousands of times a second; what is dropped is counted and logged."""
        if self._press_at is not None:
            self._press_tokens = min(float(PRESS_BURST),
                                     self._press_tokens + (now - self._press_at) * PRESS_RATE / 1000)
        self._press_at = now
        take = min(n, int(self._press_tokens))
        self._press_tokens -= take
        if take < n:
            self.stats.presses_dropped += n - take
            self._dropping.log(logging.WARNING, "button presses coming faster than %d a second: %d dropped "
                               "(%d in all)", PRESS_RATE, n - take, self.stats.presses_dropped)
        return take

    # -- the interfaces ------------------------------------------------------------
    def snapshot(self) -> Snapshot:
        with self._lock:
            return self._snapshot

    def presses(self) -> list[ClockPress | ButtonPress]:
        with self._lock:
            out, self._presses = self._presses, []
        return out

    def show(self, frame: LedFrame) -> None:
        palette, cells = self.style.encode(frame)
        body = P.pack_leds(self.style.brightness, palette, cells)
        if body == self._led_body:
            return  # already shown, or being re-sent until acknowledged
        self._led_body = body
        self._send_leds()

    def _send_leds(self) -> None:
        body = self._led_body
        if body is None:
            return
        seq = self._next_seq()
        with self._lock:
            self._led_pending = (seq, self.clock())
        try:
            self._write(P.encode_frame(P.LEDS, seq, body))
            self.stats.led_frames_sent += 1
        except (OSError, self.serial.SerialException) as exc:
            log.info("LED frame not sent: %s", exc)  # re-sent after the reconnect

    def request_snapshot(self) -> None:
        self._write(P.encode_frame(P.REQUEST, self._next_seq()))

    def tone(self, notes: Sequence[tuple[int, int]]) -> None:
        """Notes ((Hz, ms), ...) for the device's buzzer: it plays them on its own
        clock, so this returns at once. Not acknowledged; lost while unplugged."""
        try:
            self._write(P.encode_frame(P.TONE, self._next_seq(), P.pack_tone(notes)))
        except (OSError, self.serial.SerialException) as exc:
            log.info("TONE frame not sent: %s", exc)
