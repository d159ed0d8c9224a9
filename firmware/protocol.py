"""The Damka serial protocol codec, shared by the firmware and the host.

Plain Python that MicroPython also runs (no f-strings, no dataclasses, no
typing at run time), so the host imports this very module
(`damka.firmware.protocol`) and both ends cannot drift apart.
See docs/protocol.md for the wire format.

A frame on the wire is ``COBS(type, seq, body..., crc_hi, crc_lo) 0x00``:
COBS removes every zero byte, so 0x00 only ever ends a frame and a receiver
that starts mid-stream (or loses bytes) re-synchronises at the next 0x00.
The CRC is CRC-16/CCITT-FALSE over type, seq and body.
"""

PROTOCOL_VERSION = 1

# Message types.
HELLO = 0x01      # both ways: version handshake
SNAPSHOT = 0x02   # device -> host: full occupancy + buttons (on change and every 250 ms)
LEDS = 0x03       # host -> device: palette + one palette index per matrix cell
ACK = 0x04        # device -> host: a LEDS (or HELLO) frame was applied
BUTTON = 0x05     # device -> host: a press (also counted in every SNAPSHOT)
ERROR = 0x06      # both ways: code + text
REQUEST = 0x07    # host -> device: send a SNAPSHOT now
TONE = 0x08       # host -> device: play notes on the buzzer (replaces what plays)

TYPE_NAMES = {
    HELLO: "HELLO", SNAPSHOT: "SNAPSHOT", LEDS: "LEDS", ACK: "ACK",
    BUTTON: "BUTTON", ERROR: "ERROR", REQUEST: "REQUEST", TONE: "TONE",
}

# ERROR codes.
E_BAD_FRAME = 1    # CRC or COBS failure (the body carries the running count)
E_UNKNOWN_TYPE = 2
E_BAD_LENGTH = 3
E_VERSION = 4

# LED patterns (blinking is done by the device from its own clock).
STEADY = 0
BLINK_SLOW = 1     # 1 Hz, 50 % duty
BLINK_FAST = 2     # 4 Hz, 50 % duty
BLINK_ALT = 3      # 1 Hz, in anti-phase with BLINK_SLOW
DOUBLE = 4         # two short flashes per second

MAX_FRAME = 512    # decoded bytes; anything longer is garbage
HEARTBEAT_MS = 250
MAX_NOTES = 32     # notes in one TONE frame


def seq_delta(seq, last):
    """How far the wrapping u8 sequence number `seq` is past `last`: 1..127 is
    newer, 0 the same frame, -128..-1 older (half the circle each way). Both
    ends order frames by it (docs/protocol.md, "Order and restarts")."""
    d = (seq - last) & 0xFF
    return d - 256 if d >= 128 else d


def _make_table():
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            if crc & 0x8000:
                crc = ((crc << 1) ^ 0x1021) & 0xFFFF
            else:
                crc = (crc << 1) & 0xFFFF
        table.append(crc)
    return table


# Precomputed at import: one table look-up per byte instead of 8 shifts.
_CRC_TABLE = _make_table()


def crc16(data, crc=0xFFFF, start=0, end=None):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF): crc16(b"123456789") == 0x29B1.
    Over data[start:end], by index: the firmware sums a frame in its buffer, no slice made."""
    table = _CRC_TABLE
    if end is None:
        end = len(data)
    for i in range(start, end):
        crc = ((crc << 8) & 0xFFFF) ^ table[((crc >> 8) ^ data[i]) & 0xFF]
    return crc


def cobs_size(n):
    """The longest COBS encoding of n bytes (a code byte per 254, and the first)."""
    return n + n // 254 + 1


def cobs_encode_into(src, n, dst):
    """COBS of src[:n] written into dst (at least cobs_size(n) long); its length.
    Allocates nothing: the firmware frames into one buffer it keeps."""
    code_at = 0
    j = 1
    code = 1
    for i in range(n):
        b = src[i]
        if b:
            dst[j] = b
            j += 1
            code += 1
            if code == 0xFF:
                dst[code_at] = code
                code_at = j
                j += 1
                code = 1
        else:
            dst[code_at] = code
            code_at = j
            j += 1
            code = 1
    dst[code_at] = code
    return j


def cobs_encode(data):
    """Consistent Overhead Byte Stuffing: the result holds no zero byte."""
    out = bytearray(cobs_size(len(data)))
    return bytes(out[:cobs_encode_into(data, len(data), out)])


def cobs_chain_fits(src, start, end):
    """Whether the code bytes of src[start:end] (no zero among them) chain to
    exactly its end: a cheap test before decoding a candidate frame."""
    i = start
    while i < end:
        i += src[i]
    return i == end


def cobs_decode_into(src, start, end, dst):
    """COBS-decode src[start:end] into dst (as long as the input is enough); the
    decoded length, or -1 on a zero byte or a block running past the end."""
    i = start
    j = 0
    while i < end:
        code = src[i]
        if code == 0:
            return -1
        i += 1
        stop = i + code - 1
        if stop > end:
            return -1
        while i < stop:
            dst[j] = src[i]
            i += 1
            j += 1
        if code < 0xFF and i < end:
            dst[j] = 0
            j += 1
    return j


def cobs_decode(data):
    """Inverse of `cobs_encode`; ValueError on a zero byte or a block running past the end."""
    out = bytearray(len(data))
    n = cobs_decode_into(data, 0, len(data), out)
    if n < 0:
        raise ValueError("COBS: a zero byte, or a block running past the end")
    return bytes(out[:n])


def encode_frame(msg_type, seq, body=b""):
    """One wire frame, delimiter included."""
    payload = bytes((msg_type & 0xFF, seq & 0xFF)) + body
    crc = crc16(payload)
    return cobs_encode(payload + bytes((crc >> 8, crc & 0xFF))) + b"\x00"


def decode_frame(raw):
    """(type, seq, body) from the bytes between two delimiters; ValueError when corrupt."""
    payload = cobs_decode(raw)
    if len(payload) < 4:
        raise ValueError("frame too short")
    crc = (payload[-2] << 8) | payload[-1]
    if crc16(payload, 0xFFFF, 0, len(payload) - 2) != crc:
        raise ValueError("CRC mismatch")
    return payload[0], payload[1], bytes(payload[2:-2])


MAX_SKIP = 8       # bytes a bad frame may be tried without, from its front (stray bytes before a frame)
_VIEWS = 8         # body or frame lengths whose memoryview is kept, made once


class _Views:
    """memoryviews of one buffer's first bytes, one per length asked for, the
    first `_VIEWS` lengths kept: a frame of the usual lengths costs no object."""

    def __init__(self, buf, offset):
        self.whole = memoryview(buf)
        self.offset = offset
        self.kept = {}

    def get(self, n):
        view = self.kept.get(n)
        if view is None:
            view = self.whole[self.offset:self.offset + n]
            if len(self.kept) < _VIEWS:
                self.kept[n] = view
        return view


class FrameDecoder:
    """Splits a byte stream into frames; counts the corrupt ones instead of raising.

    `feed(data)` returns the good frames as (type, seq, body) tuples (the host).
    The firmware calls `take(data, at, end)` instead, which makes nothing: the
    frame is decoded into a buffer kept for it and, when `ready`, `msg_type`,
    `seq` and `body` (a memoryview into that buffer, good until the next
    `take`) describe it. Bytes before the first delimiter of a stream joined
    mid-frame are dropped as one bad frame, so the decoder re-synchronises by
    itself; a frame that fails is tried again without its first byte, up to
    MAX_SKIP of them, so a stray byte (a lone 0x03 from a terminal) before a
    frame costs one bad count and not the frame.
    """

    def __init__(self, max_frame=MAX_FRAME):
        self.max_frame = max_frame
        # A COBS frame of MAX_FRAME bytes is at most 1 + 1/254 longer, plus the CRC.
        self.limit = max_frame + max_frame // 254 + 4
        self.raw = bytearray(self.limit)     # the encoded bytes since the last delimiter
        self.n = 0
        self.frame = bytearray(self.limit)   # the last frame decoded
        self.bodies = _Views(self.frame, 2)
        self.good = 0
        self.bad = 0
        self.overflowing = False
        self.ready = False
        self.msg_type = 0
        self.seq = 0
        self.body = self.bodies.get(0)
        self._restart()

    def reset(self):
        """Forget a partial frame (after a reconnect)."""
        self.n = 0
        self.overflowing = False
        self._restart()

    def _restart(self):
        self.j = 0          # bytes decoded so far
        self.left = 0       # data bytes still due in the current COBS block (0: a code byte is next)
        self.code = 0xFF    # the current block's code byte
        self.crc = 0xFFFF   # over the decoded bytes: 0 at the end of a good frame (its CRC included)

    def feed(self, data):
        frames = []
        at = 0
        end = len(data)
        while at < end:
            at = self.take(data, at, end)
            if self.ready:
                frames.append((self.msg_type, self.seq, bytes(self.body)))
        return frames

    def take(self, data, at, end):
        """Consume data[at:end] up to the delimiter ending a good frame (then
        `ready`) or to `end`; returns where it stopped. One pass: each byte is
        kept (for a retry), COBS-decoded and summed as it comes, so a frame
        is checked the moment its delimiter arrives (a CRC over the bytes and
        their CRC is 0)."""
        self.ready = False
        raw = self.raw
        frame = self.frame
        table = _CRC_TABLE
        n = self.n
        j = self.j
        left = self.left
        crc = self.crc
        while at < end:
            b = data[at]
            at += 1
            if b:
                if n == self.limit:
                    self.overflowing = True
                    continue
                raw[n] = b
                n += 1
                if left:
                    frame[j] = b
                    j += 1
                    left -= 1
                    crc = ((crc << 8) & 0xFFFF) ^ table[((crc >> 8) ^ b) & 0xFF]
                else:
                    if self.code < 0xFF and n > 1:  # the zero that ended the block before
                        frame[j] = 0
                        j += 1
                        crc = ((crc << 8) & 0xFFFF) ^ table[(crc >> 8) & 0xFF]
                    self.code = b
                    left = b - 1
                continue
            self.n = 0
            self._restart()
            if self.overflowing:
                self.bad += 1
                self.overflowing = False
            elif n:
                if not left and j >= 4 and not crc:
                    self._found(j)
                    self.good += 1
                    self.ready = True
                    return at
                if self._retry(n):
                    self.good += 1
                    self.ready = True
                    return at
                self.bad += 1
            n = j = left = 0
            crc = 0xFFFF
        self.n = n
        self.j = j
        self.left = left
        self.crc = crc
        return at

    def _found(self, size):
        frame = self.frame
        self.msg_type = frame[0]
        self.seq = frame[1]
        self.body = self.bodies.get(size - 4)

    def _retry(self, n):
        """Whether raw[:n] without its first byte, or up to MAX_SKIP of them,
        is a good frame (stray bytes before it: one bad count, the frame kept)."""
        raw = self.raw
        frame = self.frame
        for skip in range(1, MAX_SKIP if n > MAX_SKIP else n):
            if not cobs_chain_fits(raw, skip, n):
                continue
            size = cobs_decode_into(raw, skip, n, frame)
            if size < 4 or crc16(frame, 0xFFFF, 0, size):
                continue
            self.bad += 1
            self._found(size)
            return True
        return False


class FrameWriter:
    """Frames made in buffers kept for it (the firmware's sends): the body is
    written into `payload` from BODY_AT on, then `frame(type, seq, n)` gives
    the wire bytes, delimiter included, as a memoryview good until the next
    frame. Nothing is allocated for the usual lengths."""

    def __init__(self, max_body=MAX_FRAME - 4):
        self.payload = bytearray(max_body + 4)
        self.wire = bytearray(cobs_size(max_body + 4) + 1)
        self.wires = _Views(self.wire, 0)

    def frame(self, msg_type, seq, n):
        p = self.payload
        p[0] = msg_type & 0xFF
        p[1] = seq & 0xFF
        size = n + 2
        crc = crc16(p, 0xFFFF, 0, size)
        p[size] = crc >> 8
        p[size + 1] = crc & 0xFF
        wire = self.wire
        m = cobs_encode_into(p, size + 2, wire)
        wire[m] = 0
        return self.wires.get(m + 1)


BODY_AT = 2  # where a FrameWriter's body starts in its payload (after type and seq)


def _u32(value):
    value &= 0xFFFFFFFF
    return bytes((value >> 24, (value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF))


def _get_u32(body, at):
    return (body[at] << 24) | (body[at + 1] << 16) | (body[at + 2] << 8) | body[at + 3]


def pack_hello(rows, cols, buttons, text, version=PROTOCOL_VERSION):
    """HELLO: version, matrix rows and columns, button count, free text (firmware name)."""
    return bytes((version, rows, cols, buttons)) + text.encode()


def unpack_hello(body):
    """(version, rows, cols, buttons, text)."""
    if len(body) < 4:
        raise ValueError("HELLO too short")
    return body[0], body[1], body[2], body[3], bytes(body[4:]).decode()


def pack_bitmap_into(buf, at, row_masks, cols):
    """Row masks (bit c of row r = cell (r, c)) as a row-major bitmap, LSB
    first, written into buf from `at`; returns the end. A row at a time into a
    small accumulator, a byte out whenever 8 bits are in."""
    full = (1 << cols) - 1
    acc = 0
    bits = 0
    for mask in row_masks:
        acc |= (mask & full) << bits
        bits += cols
        while bits >= 8:
            buf[at] = acc & 0xFF
            acc >>= 8
            bits -= 8
            at += 1
    if bits:
        buf[at] = acc
        at += 1
    return at


def pack_bitmap(row_masks, cols):
    out = bytearray((len(row_masks) * cols + 7) // 8)
    pack_bitmap_into(out, 0, row_masks, cols)
    return bytes(out)


def unpack_bitmap(data, rows, cols):
    masks = []
    i = 0
    for _ in range(rows):
        mask = 0
        for c in range(cols):
            if (data[i >> 3] >> (i & 7)) & 1:
                mask |= 1 << c
            i += 1
        masks.append(mask)
    return masks


def pack_snapshot_into(buf, at, time_ms, row_masks, cols, button_state, counts, more=()):
    """SNAPSHOT: device ms (u32), rows, cols, bitmap, button bits (u16), then one
    wrapping u8 press counter per button (so a lost BUTTON frame is not a lost
    press): `counts` then `more`. Written into buf from `at`; returns the end
    (the firmware's heartbeat makes no object)."""
    buf[at] = time_ms >> 24 & 0xFF
    buf[at + 1] = time_ms >> 16 & 0xFF
    buf[at + 2] = time_ms >> 8 & 0xFF
    buf[at + 3] = time_ms & 0xFF
    buf[at + 4] = len(row_masks)
    buf[at + 5] = cols
    at = pack_bitmap_into(buf, at + 6, row_masks, cols)
    buf[at] = button_state >> 8 & 0xFF
    buf[at + 1] = button_state & 0xFF
    buf[at + 2] = len(counts) + len(more)
    at += 3
    for c in counts:
        buf[at] = c & 0xFF
        at += 1
    for c in more:
        buf[at] = c & 0xFF
        at += 1
    return at


def snapshot_size(rows, cols, buttons):
    return 6 + (rows * cols + 7) // 8 + 3 + buttons


def pack_snapshot(time_ms, row_masks, cols, button_state, press_counts):
    out = bytearray(snapshot_size(len(row_masks), cols, len(press_counts)))
    pack_snapshot_into(out, 0, time_ms, row_masks, cols, button_state, press_counts)
    return bytes(out)


def unpack_snapshot(body):
    """(time_ms, row_masks, cols, button_state, press_counts); ValueError on a bad length."""
    if len(body) < 6:
        raise ValueError("SNAPSHOT too short")
    rows = body[4]
    cols = body[5]
    nbytes = (rows * cols + 7) // 8
    at = 6 + nbytes
    if rows == 0 or cols == 0 or cols > 16 or len(body) < at + 3:
        raise ValueError("SNAPSHOT bad size")
    count = body[at + 2]
    if len(body) != at + 3 + count:
        raise ValueError("SNAPSHOT bad length")
    masks = unpack_bitmap(body[6:at], rows, cols)
    state = (body[at] << 8) | body[at + 1]
    return _get_u32(body, 0), masks, cols, state, list(body[at + 3:])


def pack_leds(brightness, palette, cells):
    """LEDS: brightness (0-255), palette of (r, g, b, pattern) entries (index 0 is
    always off and not sent), then one palette index per matrix cell, row-major."""
    out = bytearray((brightness & 0xFF, len(palette)))
    for r, g, b, pattern in palette:
        out.extend(bytes((r, g, b, pattern)))
    out.extend(bytes(cells))
    return bytes(out)


def leds_split(body, ncells, check_cells=True):
    """(palette part, cells) of a LEDS body, checked: the palette part is
    brightness, count and the entries, as sent (the device compares it with
    the last frame's before decoding it again); ValueError on a bad length,
    or (with `check_cells`) a cell naming no palette entry. The device checks
    the cells by looking them up (IndexError), which it does anyway."""
    if len(body) < 2:
        raise ValueError("LEDS too short")
    count = body[1]
    at = 2 + 4 * count
    if len(body) != at + ncells:
        raise ValueError("LEDS bad length")
    cells = body[at:]
    if check_cells and cells and max(cells) > count:
        raise ValueError("LEDS palette index out of range")
    return body[:at], cells


def unpack_palette(head):
    """(brightness, palette) of a LEDS body's palette part; palette[0] is (0, 0, 0, STEADY) for "off"."""
    palette = [(0, 0, 0, STEADY)]
    for j in range(2, len(head), 4):
        palette.append((head[j], head[j + 1], head[j + 2], head[j + 3]))
    return head[0], palette


def unpack_leds(body, ncells):
    """(brightness, palette, cells); palette[0] is (0, 0, 0, STEADY) for "off"."""
    head, cells = leds_split(body, ncells)
    brightness, palette = unpack_palette(head)
    return brightness, palette, cells


def pack_ack(seq, msg_type):
    return bytes((seq & 0xFF, msg_type & 0xFF))


def unpack_ack(body):
    if len(body) != 2:
        raise ValueError("ACK bad length")
    return body[0], body[1]


def pack_button_into(buf, at, index, count, time_ms):
    """BUTTON: button index, its wrapping press counter, device ms (u32); returns the end."""
    buf[at] = index
    buf[at + 1] = count & 0xFF
    buf[at + 2] = time_ms >> 24 & 0xFF
    buf[at + 3] = time_ms >> 16 & 0xFF
    buf[at + 4] = time_ms >> 8 & 0xFF
    buf[at + 5] = time_ms & 0xFF
    return at + 6


def pack_button(index, count, time_ms):
    out = bytearray(6)
    pack_button_into(out, 0, index, count, time_ms)
    return bytes(out)


def unpack_button(body):
    if len(body) != 6:
        raise ValueError("BUTTON bad length")
    return body[0], body[1], _get_u32(body, 2)


def pack_tone(notes):
    """TONE: n u8, then (frequency Hz u16, duration ms u16) x n; frequency 0 is a rest."""
    notes = list(notes)[:MAX_NOTES]
    body = bytearray((len(notes),))
    for freq, ms in notes:
        body.extend((freq >> 8 & 0xFF, freq & 0xFF, ms >> 8 & 0xFF, ms & 0xFF))
    return bytes(body)


def unpack_tone(body):
    """[(frequency, ms), ...]; ValueError on a bad length."""
    if len(body) < 1 or len(body) != 1 + 4 * body[0] or body[0] > MAX_NOTES:
        raise ValueError("TONE bad length")
    return [((body[1 + 4 * i] << 8) | body[2 + 4 * i], (body[3 + 4 * i] << 8) | body[4 + 4 * i])
            for i in range(body[0])]


def pack_error(code, text):
    return bytes((code,)) + text.encode()


def unpack_error(body):
    if len(body) < 1:
        raise ValueError("ERROR too short")
    return body[0], bytes(body[1:]).decode()
