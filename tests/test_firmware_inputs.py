"""The firmware's inputs under CPython: the rotary encoder's quadrature decoder
against a recorded pulse sequence with contact bounce, buttons on a key row,
the encoder's steps as presses on the wire, and buzzer notes from TONE frames."""

from __future__ import annotations

from pathlib import Path

import pytest

from damka.firmware import protocol as P
from damka.firmware.device import Device
from damka.firmware.encoder import Encoder, Quadrature
from damka.firmware.scan import ButtonBank, KeyRow
from test_firmware_device import Clock, FakeMatrix, FakeTransport, Pixels

RECORDING = Path(__file__).parent / "scenarios" / "encoder_bounce.csv"


def recorded_edges() -> list[tuple[int, int, int]]:
    rows = [line.split(",") for line in RECORDING.read_text().splitlines()
            if line and not line.startswith(("#", "time"))]
    return [(int(t), int(a), int(b)) for t, a, b in rows]


def steps_between(edges, start_us: int, end_us: int, q: Quadrature) -> int:
    for time_us, a, b in edges:
        if start_us <= time_us < end_us:
            q.feed(a, b)
    return q.take()


def test_every_edge_fed_gives_three_steps_then_two_back_despite_bounce() -> None:
    edges = recorded_edges()
    q = Quadrature()
    for _, a, b in edges:
        q.feed(a, b)
    # Total: 3 one way, the undone quarter turn nothing, 2 the other way.
    assert q.take() == 1
    q = Quadrature()
    steps = []
    for _, a, b in edges:
        q.feed(a, b)
        n = q.take()
        if n:
            steps.append(n)
    assert steps == [1, 1, 1, -1, -1]
    assert q.invalid == 0  # every change seen: no state was skipped


def test_polled_at_one_millisecond_the_recording_reads_the_same() -> None:
    """A poll every ms (the firmware's loop without IRQs) sees only some bounce; still exact."""
    edges = recorded_edges()
    q = Quadrature()
    steps = []
    level = (1, 1)
    k = 0
    for now_us in range(0, edges[-1][0] + 2000, 1000):
        while k < len(edges) and edges[k][0] <= now_us:
            level = edges[k][1:]
            k += 1
        q.feed(*level)
        n = q.take()
        if n:
            steps.append(n)
    assert steps == [1, 1, 1, -1, -1]


def test_bounce_alone_and_a_turn_undone_make_no_step() -> None:
    q = Quadrature()
    for a, b in [(0, 1), (1, 1), (0, 1), (1, 1), (0, 1), (0, 0), (0, 1), (1, 1)]:
        q.feed(a, b)
    assert q.take() == 0


def test_a_skipped_state_is_counted_as_invalid_not_guessed() -> None:
    q = Quadrature()
    q.feed(0, 0)  # both contacts at once
    q.feed(1, 1)
    assert q.take() == 0 and q.invalid == 2


class Level:
    def __init__(self, level: int = 1) -> None:
        self.level = level

    def value(self, v=None):
        if v is None:
            return self.level
        self.level = v


class KeyCol:
    """A column input seen through the key row: low when the row is selected and the key is down."""

    def __init__(self, row: Level) -> None:
        self.row, self.down = row, False

    def value(self):
        return 0 if self.row.level == 0 and self.down else 1


def test_a_key_row_reads_its_buttons_through_the_columns() -> None:
    row = Level()
    cols = [KeyCol(row) for _ in range(9)]
    keys = KeyRow(row, cols, 8)
    bank = ButtonBank(keys.pins, scans=2, source=keys)
    cols[3].down = True
    assert not bank.update() and bank.update() == [3]
    assert row.level == 1  # released again after reading: the matrix rows scan undisturbed
    cols[7].down = True
    bank.update()
    assert bank.update() == [7] and bank.counts[:8] == [0, 0, 0, 1, 0, 0, 0, 1]
    with pytest.raises(ValueError, match="at most 9"):
        KeyRow(row, cols, 10)


def make_device(buzzer=None):
    pins = [Level() for _ in range(8)]
    a, b = Level(), Level()
    clock = Clock()
    d = Device(FakeMatrix(), FakeTransport(), Pixels(81), clock, buttons=ButtonBank(pins),
               encoder=Encoder(a, b), buzzer=buzzer)
    d.clock, d.a, d.b = clock, a, b
    return d


def turn(d: Device, sequence) -> None:
    for a, b in sequence:
        d.a.level, d.b.level = a, b
        d.clock.t += 1
        d.poll()


def test_encoder_steps_go_out_as_presses_of_two_more_buttons() -> None:
    d = make_device()
    d.start()
    hello = [f for f in d.transport.frames() if f[0] == P.HELLO][0]
    assert P.unpack_hello(hello[2])[3] == 10  # 8 keys + the encoder's two
    turn(d, [(0, 1), (0, 0), (1, 0), (1, 1)])       # one detent, A leading
    turn(d, [(1, 0), (0, 0), (0, 1), (1, 1)] * 2)   # two detents back
    frames = d.transport.frames()
    buttons = [P.unpack_button(body)[:2] for t, _, body in frames if t == P.BUTTON]
    assert buttons == [(8, 1), (9, 1), (9, 2)]
    snap = [body for t, _, body in frames if t == P.SNAPSHOT][-1]
    assert P.unpack_snapshot(snap)[4][8:] == [1, 2]  # counted too: a lost BUTTON frame is no lost step


class FakePwm:
    def __init__(self) -> None:
        self.log: list[tuple[str, int]] = []

    def freq(self, hz: int) -> None:
        self.log.append(("freq", hz))

    def duty_u16(self, duty: int) -> None:
        self.log.append(("duty", duty))


def test_tone_frames_play_notes_from_the_device_clock_without_waiting() -> None:
    pwm = FakePwm()
    d = make_device(buzzer=pwm)
    d.start()
    d.transport.inbox.extend(P.encode_frame(P.TONE, 1, P.pack_tone([(880, 100), (0, 50), (440, 200)])))
    d.poll()
    assert pwm.log == [("freq", 880), ("duty", 32768)]
    for _ in range(99):
        d.clock.t += 1
        d.poll()
    assert d.tones.played == 1  # 99 ms in: still the first note
    d.clock.t += 1
    d.poll()
    assert pwm.log[-1] == ("duty", 0)  # the rest
    d.clock.t += 50
    d.poll()
    assert pwm.log[-2:] == [("freq", 440), ("duty", 32768)]
    d.clock.t += 200
    d.poll()
    assert pwm.log[-1] == ("duty", 0) and not d.tones.sounding


def test_a_bad_tone_frame_is_an_error_not_a_crash() -> None:
    d = make_device(buzzer=FakePwm())
    d.start()
    d.transport.frames()
    d.transport.inbox.extend(P.encode_frame(P.TONE, 1, b"\x02\x01"))
    d.poll()
    (frame,) = [f for f in d.transport.frames() if f[0] == P.ERROR]
    assert P.unpack_error(frame[2])[0] == P.E_BAD_LENGTH


def released_after(d: Device, pin: Level) -> int:
    """Device ms from letting go of a held button to the first SNAPSHOT showing it up."""
    pin.level = 0
    for _ in range(5):
        d.clock.t += 1
        d.poll()
    d.transport.frames()
    pin.level = 1
    let_go = d.clock.t
    for _ in range(1000):
        d.clock.t += 1
        d.poll()
        for t, _, body in d.transport.frames():
            if t == P.SNAPSHOT and not P.unpack_snapshot(body)[3]:
                return d.clock.t - let_go
    raise AssertionError("the release never showed")


def test_a_release_goes_out_as_soon_as_it_is_debounced() -> None:
    d = make_device()
    d.pixels = None  # no LED chain: the inputs alone
    d.start()
    bank = d.buttons
    # Polled every ms: three scans of debounce, not the 250 ms heartbeat.
    assert released_after(d, bank.pins[2]) <= bank.scans
    assert released_after(d, bank.pins[7]) <= bank.scans


def test_steps_in_one_poll_each_carry_their_own_counter() -> None:
    d = make_device()
    d.pixels = None
    d.start()
    d.transport.frames()
    for _ in range(3):  # three detents between two polls (the pin interrupt saw every edge)
        for a, b in [(0, 1), (0, 0), (1, 0), (1, 1)]:
            d.a.level, d.b.level = a, b
            d.encoder.poll()
    d.encoder.by_irq = True
    d.clock.t += 1
    d.poll()
    frames = d.transport.frames()
    assert [P.unpack_button(b)[:2] for t, _, b in frames if t == P.BUTTON] == [(8, 1), (8, 2), (8, 3)]
    assert P.unpack_snapshot([b for t, _, b in frames if t == P.SNAPSHOT][-1])[4][8:] == [3, 0]
