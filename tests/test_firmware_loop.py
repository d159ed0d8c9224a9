"""The firmware's main loop as the Pico runs it (main.build() on the stub
MicroPython modules): polls that make no object, buttons debounced by time,
the LED chain fed by DMA in one piece (or with interrupts held off), and a
stray byte that costs no frame.

MicroPython allocates from a heap searched from the last freed block, so a
loop that makes garbage on every poll slows down until the next collection
(issue 37: the row interval grew from 2.5 to 14 ms in 18 s). CPython
allocates for other reasons (every int past 256, frames), so its allocator
cannot tell; the opcodes can: micropython_stubs.AllocationWatch names every
place of the firmware's code that would allocate on MicroPython. (Frames
over 11 words, which MicroPython also puts on the heap, are checked from the
.mpy by benchmarks/firmware_frames.py.)"""

from __future__ import annotations

import importlib
import sys
import tracemalloc
import types
from pathlib import Path

import pytest

from damka.firmware import protocol as P
from damka.firmware.device import Device
from damka.firmware.scan import ButtonBank
import micropython_stubs as stubs
from test_firmware_device import Clock, FakeMatrix, FakeTransport, Pixels
from test_firmware_inputs import Level

FIRMWARE = Path(__file__).resolve().parent.parent / "firmware"
FLAT = ("main", "device", "scan", "lights", "protocol", "encoder", "chain", "fw_version")

@pytest.fixture
def pico(monkeypatch):
    """The firmware's main.build() on the stub modules; `chip.dma` says whether rp2 has DMA."""
    def make(dma: bool = True):
        context = stubs.installed(str(FIRMWARE), FLAT, dma=dma)
        modules, usb, time = context.__enter__()
        made.append(context)
        monkeypatch.setattr(sys, "stdout", usb.stdout)
        monkeypatch.setattr(sys, "stdin", usb.stdin)
        main = importlib.import_module("main")
        board = main.build()
        return types.SimpleNamespace(main=main, board=board, usb=usb, time=time, gpio=modules["machine"].Pin.gpio)

    made: list = []
    yield make
    for context in reversed(made):
        context.__exit__(None, None, None)


def leds_body(shift: int, brightness: int = 200) -> bytes:
    """A game's frame: pieces, a hint blinking fast, a slow blink, a flagged square (DOUBLE)."""
    cells = bytearray(81)
    for i in range(0, 48, 2):
        cells[i] = 1 + (i // 2) % 2
    cells[(40 + shift) % 81], cells[(50 + shift) % 81], cells[(60 + shift) % 81] = 3, 4, 5
    palette = [(40, 40, 40, P.STEADY), (0, 60, 0, P.STEADY), (255, 200, 0, P.BLINK_FAST),
               (0, 0, 255, P.BLINK_SLOW), (255, 0, 0, P.DOUBLE)]
    return P.pack_leds(brightness, palette, bytes(cells))


def leds_frames(count: int, seq: int = 0) -> list[bytes]:
    """LEDS frames as the host sends them, numbered after `seq` (made before a
    watch: the host's codec is the firmware's protocol.py)."""
    return [P.encode_frame(P.LEDS, (seq + 1 + k) & 0xFF, leds_body(k & 1)) for k in range(count)]


def run_polls(chip, polls: int, frames: list[bytes] = (), every: int = 50) -> None:
    """`polls` polls 1 ms apart (as main.run sleeps), one of `frames` every `every` polls."""
    board = chip.board
    for i in range(polls):
        if i % every == 0 and i // every < len(frames):
            chip.usb.host_sends(frames[i // every])
        chip.time.advance(1000)
        board.poll()


def test_a_poll_makes_nothing_idle_nor_with_led_frames(pico):
    """0.6 s idle (heartbeat SNAPSHOTs, LEDs blinking) and 0.6 s with a
    LEDS frame every 50 ms: no allocating operation runs in the firmware, and
    no object it owns is left behind."""
    chip = pico()
    chip.gpio.close(chip.main.ROW_PINS[2], chip.main.COL_PINS[3])  # a piece on the board
    chip.board.start()
    run_polls(chip, 300, leds_frames(6))  # warm: the usual frame lengths have their views
    traffic = leds_frames(12, seq=6)
    chip.usb.sent.clear()
    with stubs.AllocationWatch(FIRMWARE) as watch:
        run_polls(chip, 600)
        run_polls(chip, 600, traffic)
    assert watch.seen == {}, "allocating on MicroPython: " + ", ".join(sorted(watch.seen))
    frames = P.FrameDecoder().feed(bytes(chip.usb.sent))
    assert sum(t == P.ACK for t, _, _ in frames) == 12 and sum(t == P.SNAPSHOT for t, _, _ in frames) >= 4
    assert chip.board.pixels.sm.writes > 12  # frames and blink edges reached the chain
    # And nothing kept (untraced: tracing itself caches per code object; the
    # host's end of USB, which keeps what it got, is not the firmware's).
    traffic = leds_frames(12, seq=18)
    chip.board.transport.out = types.SimpleNamespace(write=len)
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot()
        run_polls(chip, 600)
        run_polls(chip, 600, traffic)
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    # CPython's ints past 256 are objects: the few held now (self.now, ...)
    # stand where others stood before, one 32-byte block each, whatever the polls.
    grown = [str(stat) for stat in after.compare_to(before, "lineno")
             if stat.traceback[0].filename.startswith(str(FIRMWARE)) and stat.count_diff > 0
             and not (stat.size_diff <= 32 * stat.count_diff and stat.count_diff <= 2)]
    assert grown == [], "\n".join(grown)


def test_the_watch_sees_what_would_allocate(pico):
    """The check above is real: a SNAPSHOT packed the host's way (bytes and lists) is seen."""
    chip = pico()
    with stubs.AllocationWatch(FIRMWARE) as watch:
        sys.modules["protocol"].pack_snapshot(5, [1, 2], 9, 0, [1, 2])
        sys.modules["protocol"].pack_snapshot(1 << 31, [0], 9, 0, [])
    assert any("calls bytes()" in where for where in watch.seen)
    assert any("big number in time_ms" in where for where in watch.seen)
    assert chip.board is not None


def test_a_15_ms_press_read_every_6_ms_is_counted_whatever_the_phase():
    """A slow loop (a scan every 6 ms) reads a 15 ms press twice only: the
    time rule counts it, the three-reads rule alone did not."""
    for phase in range(6):
        pins = [Level() for _ in range(8)]
        clock = Clock()
        dev = Device(FakeMatrix(), FakeTransport(), None, clock, buttons=ButtonBank(pins))
        dev.start()
        dev.transport.frames()
        presses = 0
        for n in range(10):  # ten presses of 15 ms, 30 ms apart
            down_at = 100 + 45 * n + phase
            for t in range(down_at - 30, down_at + 30):
                pins[0].level = 0 if down_at <= t < down_at + 15 else 1
                if t % 6 == 0:
                    clock.t = t
                    dev.poll()
            presses += sum(1 for t, _, body in dev.transport.frames()
                           if t == P.BUTTON and P.unpack_button(body)[0] == 0)
        assert presses == 10, f"phase {phase} ms: {presses}/10"
        assert dev.buttons.counts[0] == 10


def test_bounce_shorter_than_the_button_time_is_no_press():
    pins = [Level()]
    bank = ButtonBank(pins, scans=3, stable_ms=5)
    for t, level in [(0, 0), (2, 1), (4, 0), (6, 1), (8, 1), (10, 0), (12, 1)]:  # never down 5 ms on end
        pins[0].level = level
        assert bank.step(t) == 0
    assert bank.counts == [0]


@pytest.mark.parametrize("stray", [b"\x03", b"\x04", b"\x03\x04\x41"])
def test_a_stray_byte_before_a_frame_costs_no_frame(stray):
    dec = P.FrameDecoder()
    first, second = (P.encode_frame(P.LEDS, s, leds_body(s)) for s in (1, 2))
    got = dec.feed(first + stray + second)
    assert [seq for _, seq, _ in got] == [1, 2]
    assert dec.bad == 1  # the stray bytes, counted once


def test_a_device_acks_the_frame_after_a_stray_byte():
    clock = Clock()
    dev = Device(FakeMatrix(), FakeTransport(), Pixels(81), clock)
    dev.start()
    dev.transport.frames()
    dev.transport.inbox += b"\x03" + P.encode_frame(P.LEDS, 7, leds_body(0))
    clock.t += 1
    dev.poll()
    assert [P.unpack_ack(b) for t, _, b in dev.transport.frames() if t == P.ACK] == [(7, P.LEDS)]
    assert dev.frame_id == 1


def poll_until(chip, done, limit_ms: int = 100) -> None:
    """Poll 1 ms apart until `done()` (a frame is read over a few polls: device.RX_BYTES a poll)."""
    for _ in range(limit_ms):
        if done():
            return
        chip.time.advance(1000)
        chip.board.poll()
    raise AssertionError("not done within the deadline")


def test_a_frame_is_read_a_few_bytes_a_poll_so_the_scan_goes_on(pico):
    """A LEDS frame (~100 bytes) is read over several polls, each scanning
    once: reading it whole took one 15-19 ms poll on the chip."""
    chip = pico()
    chip.board.start()
    frame = P.encode_frame(P.LEDS, 1, leds_body(0))
    chip.usb.host_sends(frame)
    scans = chip.board.scans
    poll_until(chip, lambda: chip.board.frame_id == 1)
    assert chip.board.scans - scans >= len(frame) // sys.modules["device"].RX_BYTES


def test_the_chain_is_one_dma_transfer_started_before_the_ack(pico):
    chip = pico()
    board = chip.board
    board.start()
    dma = stubs.Dma.made[0]
    sent_at_transfer = []
    write = board.transport.write

    def watched(data):
        frames = P.FrameDecoder().feed(b"\x00" + bytes(data))
        if frames and frames[0][0] == P.ACK:
            sent_at_transfer.append(len(dma.transfers))
        write(data)

    board.transport.write = watched
    body = P.pack_leds(255, [(10, 20, 30, P.STEADY)], bytes([1] * 81))
    chip.usb.host_sends(P.encode_frame(P.LEDS, 1, body))
    poll_until(chip, lambda: len(dma.transfers) == 2)
    words, sm, fields, _ = dma.transfers[-1]
    assert sm is board.pixels.sm and len(words) == 81
    assert fields == {"size": 2, "inc_write": False, "treq_sel": 0}  # words, to PIO0's TX FIFO 0, paced by it
    assert sm.leds == [(10, 20, 30)] * 81
    assert sent_at_transfer == [2]  # the ACK went out after the transfer began (the first: start()'s dark chain)


def test_a_second_write_waits_for_the_first_to_end_and_latch(pico):
    chip = pico()
    board = chip.board
    board.start()
    for seq, colour in ((1, (9, 0, 0)), (2, (0, 9, 0))):  # two frames in one poll
        chip.usb.host_sends(P.encode_frame(P.LEDS, seq, P.pack_leds(255, [colour + (P.STEADY,)], bytes([1] * 81))))
    poll_until(chip, lambda: len(stubs.Dma.made[0].transfers) == 3)
    starts = [at for _, _, _, at in stubs.Dma.made[0].transfers]
    assert len(starts) == 3
    assert all(b - a >= 81 * 30 + 280 for a, b in zip(starts, starts[1:]))  # never two frames run together
    assert board.pixels.sm.leds[0] == (0, 9, 0)


def test_without_dma_the_chain_is_written_with_interrupts_held_off(pico):
    chip = pico(dma=False)
    board = chip.board
    board.start()
    chip.usb.host_sends(P.encode_frame(P.LEDS, 1, P.pack_leds(255, [(1, 2, 3, P.STEADY)], bytes([1] * 81))))
    poll_until(chip, lambda: board.frame_id == 1)
    sm = board.pixels.sm
    last = sm.puts[-81:]
    assert len(sm.puts) == 2 * 81 and not any(on for _, on in last)  # one uninterrupted write of 81 words
    assert sm.leds == [(1, 2, 3)] * 81 and chip.time.irq_on  # and interrupts back on after it


def test_a_body_longer_than_a_frame_is_cut_not_grown_into():
    """The board's frames come out of one buffer: a text too long for a frame is cut to fit."""
    dev = Device(FakeMatrix(), FakeTransport(), None, Clock())
    dev.send(P.ERROR, P.pack_error(P.E_BAD_LENGTH, "x" * 2000))
    dev.send_ack(5, P.LEDS)
    (error, ack) = dev.transport.frames()
    assert error[0] == P.ERROR and len(error[2]) == P.MAX_FRAME - 4 and error[2][1:4] == b"xxx"
    assert ack == (P.ACK, 1, P.pack_ack(5, P.LEDS)) and len(dev.writer.payload) == P.MAX_FRAME


def test_the_loop_does_not_sleep_while_dma_feeds_the_chain(pico):
    """main.py's loop sleeps 1 ms between polls, but not while the DMA runs
    (rp2040js, the emulated chip, runs the PIO across a sleep without it)."""
    chip = pico()
    utime = sys.modules["utime"]
    sleeps: list[bool] = []
    sleep_ms = utime.sleep_ms

    def watched(ms):
        sleeps.append(any(dma.active() for dma in stubs.Dma.made))
        sleep_ms(ms)

    utime.sleep_ms = watched
    chip.usb.host_sends(P.encode_frame(P.LEDS, 1, leds_body(0)))
    started = []
    chip.main.main(until=lambda: started.append(1) or len(started) > 300)
    assert len(stubs.Dma.made[-1].transfers) >= 2  # start()'s dark chain, then the frame
    assert sleeps and not any(sleeps)  # slept between polls, never while a transfer ran


def test_a_poll_that_applied_a_frame_scans_again_before_going_on():
    """Applying a LEDS frame takes milliseconds on the chip: the squares and
    keys are read again in that poll, so a change then waits no whole poll."""
    clock = Clock()
    dev = Device(FakeMatrix(), FakeTransport(), Pixels(81), clock)
    dev.start()
    scans = dev.scans
    clock.t += 1
    dev.poll()
    assert dev.scans == scans + 1  # a quiet poll scans once
    dev.transport.inbox += P.encode_frame(P.LEDS, 1, leds_body(0))
    dev.matrix.masks[3] = 1 << 4  # a piece put down while the frame came in
    clock.t += 1
    dev.poll()
    assert dev.frame_id == 1 and dev.scans == scans + 3
