"""The serial codec (firmware/protocol.py), which both ends use."""

from __future__ import annotations

import random

import pytest

from damka.firmware import protocol as P

# COBS vectors from the original paper / Wikipedia.
COBS_VECTORS = [
    (b"", b"\x01"),
    (b"\x00", b"\x01\x01"),
    (b"\x00\x00", b"\x01\x01\x01"),
    (b"\x11\x22\x00\x33", b"\x03\x11\x22\x02\x33"),
    (b"\x11\x22\x33\x44", b"\x05\x11\x22\x33\x44"),
    (b"\x11\x00\x00\x00", b"\x02\x11\x01\x01\x01"),
    (bytes(range(1, 255)), b"\xff" + bytes(range(1, 255)) + b"\x01"),
    (bytes(range(0, 255)), b"\x01\xff" + bytes(range(1, 255)) + b"\x01"),
]


@pytest.mark.parametrize(("raw", "encoded"), COBS_VECTORS)
def test_cobs_vectors(raw, encoded):
    assert P.cobs_encode(raw) == encoded
    assert P.cobs_decode(encoded) == raw


def test_cobs_round_trip_random():
    rng = random.Random(3)
    for n in list(range(0, 600)) + [1000, 2000]:
        data = bytes(rng.choice((0, rng.randrange(256))) for _ in range(n))
        encoded = P.cobs_encode(data)
        assert 0 not in encoded
        assert P.cobs_decode(encoded) == data


@pytest.mark.parametrize("bad", [b"\x00", b"\x05\x11", b"\x02\x11\x00"])
def test_cobs_rejects_garbage(bad):
    with pytest.raises(ValueError):
        P.cobs_decode(bad)


def test_crc16_check_value():
    assert P.crc16(b"123456789") == 0x29B1  # CRC-16/CCITT-FALSE check value
    assert P.crc16(b"") == 0xFFFF


def test_frame_vector_and_round_trip():
    frame = P.encode_frame(P.ACK, 7, P.pack_ack(3, P.LEDS))
    assert frame.endswith(b"\x00") and 0 not in frame[:-1]
    assert P.decode_frame(frame[:-1]) == (P.ACK, 7, b"\x03\x03")
    crc = P.crc16(bytes((P.REQUEST, 0)))
    expected = P.cobs_encode(bytes((P.REQUEST, 0, crc >> 8, crc & 0xFF))) + b"\x00"
    assert P.encode_frame(P.REQUEST, 0) == expected

# Pinned wire bytes (docs/protocol.md quotes them): change the format and these change.
WIRE_VECTORS = [
    ((P.REQUEST, 0, b""), "020703849800"),
    ((P.ACK, 1, b"\x00\x03"), "0304010403496200"),
]


@pytest.mark.parametrize(("frame", "wire"), WIRE_VECTORS)
def test_wire_vectors(frame, wire):
    assert P.encode_frame(*frame).hex() == wire
    assert P.FrameDecoder().feed(bytes.fromhex(wire)) == [frame]


def test_every_single_byte_corruption_is_rejected():
    frame = P.encode_frame(P.SNAPSHOT, 9, P.pack_snapshot(1234, [1, 2, 3, 0, 0, 0, 0, 0, 256], 9, 5, [1, 2]))
    body = frame[:-1]
    for i in range(len(body)):
        for value in range(256):
            if value == body[i]:
                continue
            bad = body[:i] + bytes((value,)) + body[i + 1:]
            if 0 in bad:
                continue  # a new delimiter splits the frame: covered by the stream tests
            with pytest.raises(ValueError):
                P.decode_frame(bad)


def test_decoder_resyncs_mid_stream():
    frames = [P.encode_frame(P.BUTTON, i, P.pack_button(i % 4, i, i * 100)) for i in range(20)]
    stream = b"".join(frames)
    dec = P.FrameDecoder()
    # Join 5 bytes into the stream (mid-frame): the partial frame is dropped and counted.
    got = dec.feed(stream[5:])
    assert [seq for _, seq, _ in got] == list(range(1, 20))
    assert dec.bad == 1 and dec.good == 19


def test_decoder_split_anywhere():
    frames = [P.encode_frame(P.HELLO, i, P.pack_hello(9, 9, 6, "fw")) for i in range(5)]
    stream = b"".join(frames)
    for cut in range(len(stream)):
        dec = P.FrameDecoder()
        got = dec.feed(stream[:cut]) + dec.feed(stream[cut:])
        assert len(got) == 5 and dec.bad == 0


def test_decoder_drops_corrupted_frames_and_keeps_the_rest():
    rng = random.Random(11)
    sent = [(P.SNAPSHOT, i & 0xFF, P.pack_snapshot(i, [rng.randrange(512) for _ in range(9)], 9, 0, [i & 0xFF]))
            for i in range(2000)]
    stream = bytearray(b"".join(P.encode_frame(*f) for f in sent))
    for i in range(len(stream)):
        if rng.random() < 0.01:
            stream[i] = rng.randrange(256)
    dec = P.FrameDecoder()
    got = dec.feed(bytes(stream))
    assert set(got) <= set(sent)  # nothing wrong gets through
    assert len(got) > 1500 and dec.bad > 0


def test_decoder_overflow_is_one_bad_frame():
    dec = P.FrameDecoder(max_frame=64)
    got = dec.feed(b"\x01" * 500 + b"\x00" + P.encode_frame(P.REQUEST, 1))
    assert got == [(P.REQUEST, 1, b"")]
    assert dec.bad == 1


def test_empty_frames_are_ignored():
    dec = P.FrameDecoder()
    assert dec.feed(b"\x00\x00\x00") == []
    assert dec.bad == 0


def test_snapshot_body_round_trip():
    masks = [0b101, 0, 0x1FF, 0, 0, 0, 0, 0, 1 << 8]
    body = P.pack_snapshot(0x1_0000_0005, masks, 9, 0b10, [255, 0, 7])
    assert P.unpack_snapshot(body) == (5, masks, 9, 0b10, [255, 0, 7])
    with pytest.raises(ValueError):
        P.unpack_snapshot(body[:-1])
    with pytest.raises(ValueError):
        P.unpack_snapshot(body + b"\x00")


def test_bitmap_is_row_major_lsb_first():
    assert P.pack_bitmap([1, 0], 9) == b"\x01\x00\x00"
    assert P.pack_bitmap([0, 1], 9) == b"\x00\x02\x00"  # cell (1, 0) is bit 9
    assert P.unpack_bitmap(b"\x00\x02\x00", 2, 9) == [0, 1]


def test_leds_body_round_trip_and_checks():
    palette = [(0, 255, 0, P.STEADY), (255, 0, 0, P.BLINK_FAST)]
    cells = bytes([1, 0, 2] + [0] * 78)
    body = P.pack_leds(64, palette, cells)
    brightness, got_palette, got_cells = P.unpack_leds(body, 81)
    assert brightness == 64 and got_palette == [(0, 0, 0, P.STEADY)] + palette and got_cells == cells
    with pytest.raises(ValueError):
        P.unpack_leds(body, 80)
    with pytest.raises(ValueError):
        P.unpack_leds(P.pack_leds(64, palette, bytes([3] + [0] * 80)), 81)


def test_small_bodies_round_trip():
    assert P.unpack_hello(P.pack_hello(9, 9, 6, "damka-fw 1.0")) == (P.PROTOCOL_VERSION, 9, 9, 6, "damka-fw 1.0")
    assert P.unpack_ack(P.pack_ack(300, P.LEDS)) == (44, P.LEDS)
    assert P.unpack_button(P.pack_button(2, 257, 99)) == (2, 1, 99)
    assert P.unpack_error(P.pack_error(P.E_VERSION, "protocol 1")) == (P.E_VERSION, "protocol 1")
    for unpack in (P.unpack_hello, P.unpack_ack, P.unpack_button, P.unpack_error, P.unpack_snapshot):
        with pytest.raises(ValueError):
            unpack(b"")


@pytest.mark.parametrize("seq, last, delta", [(5, 4, 1), (4, 4, 0), (3, 4, -1), (2, 250, 8), (250, 2, -8),
                                              (131, 4, 127), (132, 4, -128)])
def test_seq_delta_is_half_the_circle_each_way(seq, last, delta):
    assert P.seq_delta(seq, last) == delta
