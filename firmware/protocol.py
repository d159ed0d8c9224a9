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


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF): crc16(b"123456789") == 0x29B1."""
    table = _CRC_TABLE
    for b in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[((crc >> 8) ^ b) & 0xFF]
    return crc


def cobs_encode(data):
    """Consistent Overhead Byte Stuffing: the result holds no zero byte."""
    if len(data) < 254 and b"\x00" not in data:
        return bytes((len(data) + 1,)) + bytes(data)  # one block: most short frames (ACK, BUTTON)
    out = bytearray(b"\x00")
    code_at = 0
    code = 1
    for b in data:
        if b == 0:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
        else:
            out.append(b)
            code += 1
            if code == 0xFF:
                out[code_at] = code
                code_at = len(out)
                out.append(0)
                code = 1
    out[code_at] = code
    return bytes(out)


def cobs_decode(data):
    """Inverse of `cobs_encode`; ValueError on a zero byte or a block running past the end."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise ValueError("zero byte inside a COBS block")
        i += 1
        end = i + code - 1
        if end > n:
            raise ValueError("COBS block runs past the end")
        out.extend(data[i:end])
        i = end
        if code < 0xFF and i < n:
            out.append(0)
    return bytes(out)


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
    if crc16(payload[:-2]) != crc:
        raise ValueError("CRC mismatch")
    return payload[0], payload[1], bytes(payload[2:-2])


class FrameDecoder:
    """Splits a byte stream into frames; counts the corrupt ones instead of raising.

    `feed(data)` returns the good frames as (type, seq, body) tuples. Bytes
    before the first delimiter of a stream joined mid-frame are dropped as one
    bad frame, so the decoder re-synchronises by itself.
    """

    def __init__(self, max_frame=MAX_FRAME):
        self.max_frame = max_frame
        self.buf = bytearray()
        self.good = 0
        self.bad = 0
        self.overflowing = False

    def reset(self):
        """Forget a partial frame (after a reconnect)."""
        self.buf = bytearray()
        self.overflowing = False

    def feed(self, data):
        frames = []
        start = 0
        n = len(data)
        while start < n:
            end = data.find(b"\x00", start) if hasattr(data, "find") else bytes(data).find(b"\x00", start)
            if end < 0:
                self._extend(data[start:])
                break
            self._extend(data[start:end])
            if self.overflowing:
                self.bad += 1
            elif len(self.buf):
                try:
                    frames.append(decode_frame(bytes(self.buf)))
                    self.good += 1
                except ValueError:
                    self.bad += 1
            self.buf = bytearray()
            self.overflowing = False
            start = end + 1
        return frames

    def _extend(self, chunk):
        if self.overflowing:
            return
        self.buf.extend(chunk)
        # A COBS frame of MAX_FRAME bytes is at most 1 + 1/254 longer, plus the CRC.
        if len(self.buf) > self.max_frame + self.max_frame // 254 + 4:
            self.overflowing = True
            self.buf = bytearray()


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


def pack_bitmap(row_masks, cols):
    """Row masks (bit c of row r = cell (r, c)) as a row-major bitmap, LSB first.
    A row at a time into a small accumulator, a byte out whenever 8 bits are in."""
    out = bytearray((len(row_masks) * cols + 7) // 8)
    full = (1 << cols) - 1
    acc = 0
    bits = 0
    j = 0
    for mask in row_masks:
        acc |= (mask & full) << bits
        bits += cols
        while bits >= 8:
            out[j] = acc & 0xFF
            acc >>= 8
            bits -= 8
            j += 1
    if bits:
        out[j] = acc
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


def pack_snapshot(time_ms, row_masks, cols, button_state, press_counts):
    """SNAPSHOT: device ms (u32), rows, cols, bitmap, button bits (u16), then one
    wrapping u8 press counter per button (so a lost BUTTON frame is not a lost press)."""
    rows = len(row_masks)
    head = _u32(time_ms) + bytes((rows, cols))
    tail = bytes((button_state >> 8 & 0xFF, button_state & 0xFF, len(press_counts)))
    if press_counts and max(press_counts) > 0xFF:
        press_counts = [c & 0xFF for c in press_counts]
    return head + pack_bitmap(row_masks, cols) + tail + bytes(press_counts)


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


def pack_button(index, count, time_ms):
    return bytes((index, count & 0xFF)) + _u32(time_ms)


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
