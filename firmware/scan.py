"""Reed-matrix scanning logic, shared by the firmware and the host's GPIO backend.

Plain Python that MicroPython also runs. A scan is a list of row masks: bit c
of ``rows[r]`` is set when the switch at matrix cell (r, c) is closed. The
host imports this module as `damka.firmware.scan`.
"""


class Debouncer:
    """Per-square debounce: a square takes a new value only after `scans`
    consecutive scans agree on it, or after it has read that value without a
    break for `stable_ms` (whichever comes first; the second covers slow polling).
    A chattering switch keeps restarting its count and so never changes.
    """

    def __init__(self, rows, cols, scans=3, stable_ms=20):
        if scans < 1:
            raise ValueError("scans must be at least 1")
        self.rows = rows
        self.cols = cols
        self.scans = scans
        self.stable_ms = stable_ms
        self.stable = [0] * rows     # debounced row masks
        self.pending = [0] * rows    # squares whose raw value differs from stable
        self.count = bytearray(rows * cols)
        self.since = [0] * (rows * cols)
        self.primed = False

    def update(self, raw, now_ms):
        """Feed one raw scan; returns True when the debounced state changed.
        (Few locals: on MicroPython a frame over 11 words is allocated on the
        heap at each call, and this runs every poll; benchmarks/firmware_frames.py.)"""
        if not self.primed:
            return self._prime(raw)
        changed = False
        r = self.rows
        while r:  # not `for r in range`: its two stack slots make the frame too big
            r -= 1
            if raw[r] != self.stable[r] or self.pending[r]:  # the common case: a quiet row costs one compare
                changed = self._settle(r, raw[r], now_ms) or changed
        return changed

    def _prime(self, raw):
        """The first scan after power-up is taken as it is: there is no earlier state to bounce from."""
        self.stable = list(raw)
        self.primed = True
        return True

    def _settle(self, r, row, now_ms):
        """Row r, read as `row`, whose squares differ from their state (or were moving)."""
        changed = False
        diff = row ^ self.stable[r]
        cols = self.cols
        base = r * cols
        for c in range(cols):
            bit = 1 << c
            i = base + c
            if diff & bit:
                if self.pending[r] & bit:
                    self.count[i] = min(self.count[i] + 1, 255)
                else:
                    self.pending[r] |= bit
                    self.count[i] = 1
                    self.since[i] = now_ms
                if self.count[i] >= self.scans or now_ms - self.since[i] >= self.stable_ms:
                    self.stable[r] ^= bit
                    self.pending[r] &= ~bit
                    self.count[i] = 0
                    changed = True
            elif self.pending[r] & bit:
                # It bounced back before settling: forget the change.
                self.pending[r] &= ~bit
                self.count[i] = 0
        return changed


def find_ghosts(rows):
    """Cells that are corners of a closed rectangle (two rows sharing two or
    more closed columns). Without a diode per switch, three closed corners
    make the fourth read closed, so such cells cannot be trusted; with diodes
    the pattern is real. Returns a list of (row, col)."""
    found = set()
    n = len(rows)
    for r1 in range(n):
        for r2 in range(r1 + 1, n):
            common = rows[r1] & rows[r2]
            if common & (common - 1):  # two or more shared columns
                c = 0
                while common >> c:
                    if (common >> c) & 1:
                        found.add((r1, c))
                        found.add((r2, c))
                    c += 1
    out = list(found)
    out.sort()
    return out



def read_row(row_pin, col_pins, settle=None, read_cols=None):
    """Pull one row low and read the columns: bit c set where column c reads a
    closed switch (or a pressed key on a key row). `read_cols`, when given,
    reads every column at once (one register read on the Pico instead of a
    call per pin) and returns that mask itself."""
    row_pin.value(0)
    if settle is not None:
        settle()
    mask = read_cols() if read_cols is not None else read_pins(col_pins)
    row_pin.value(1)
    return mask


def read_pins(col_pins):
    """The columns one pin at a time: bit c set where column c reads low."""
    mask = 0
    bit = 1
    for col in col_pins:
        if not col.value():
            mask |= bit
        bit <<= 1
    return mask


class PinMatrix:
    """Scans a matrix through pin objects with ``value()`` (MicroPython's
    machine.Pin): rows are outputs, idle high, pulled low one at a time;
    columns are inputs with pull-ups that read low through a closed switch
    and its diode (cathode toward the row). `read_cols`: see `read_row`."""

    def __init__(self, row_pins, col_pins, settle=None, read_cols=None):
        self.row_pins = row_pins
        self.col_pins = col_pins
        self.settle = settle  # callable waiting a few microseconds, or None
        self.read_cols = read_cols
        self.masks = [0] * len(row_pins)  # the last scan, reused: no list made per poll
        for p in row_pins:
            p.value(1)

    def scan(self):
        masks = self.masks
        pins = self.row_pins
        for r in range(len(pins)):
            masks[r] = self.read(pins[r])
        return masks

    def read(self, row_pin):
        return read_row(row_pin, self.col_pins, self.settle, self.read_cols)


NONE = ()  # type: tuple[int, ...]  # "no presses": shared, so a quiet poll makes no list


class ButtonBank:
    """Debounced push buttons (pins read low when pressed). Each button keeps a
    wrapping press counter, which every SNAPSHOT carries: the host counts
    presses from the counters, so a lost frame never loses or repeats a press.
    `changed` says whether the last `update` changed `state` (a press or a
    release), so a release is sent at once too.

    A button takes a new state after `scans` consecutive reads agree on it, or,
    given the time, once two reads `stable_ms` or more apart saw it without a
    break (as the squares' Debouncer): a 15 ms press read every 6 ms is read
    twice only, and still counted."""

    def __init__(self, pins, scans=3, source=None, stable_ms=None):
        self.pins = pins
        self.source = source  # a KeyRow to read before the pins, or None
        # The key row's first buttons in order: its mask is ours, no pin needs reading.
        self.direct = source is not None and list(pins) == list(source.pins[:len(pins)])
        self.scans = scans
        self.stable_ms = stable_ms  # None: by the count of reads alone
        self.full = (1 << len(pins)) - 1
        self.state = 0
        self.changed = False
        self.moving = 0       # buttons whose reading differs from `state`, not yet settled
        self.counts = [0] * len(pins)
        self.run = bytearray(len(pins))
        self.since = [0] * len(pins)  # when each moving button was first read changed

    def read(self):
        """The raw down mask: bit i set while button i reads pressed."""
        if self.source is not None:
            mask = self.source.read()
            if self.direct:
                return mask
        down = 0
        bit = 1
        for pin in self.pins:
            if not pin.value():
                down |= bit
            bit <<= 1
        return down

    def step(self, now_ms=None):
        """Read the pins once; returns the mask of buttons newly pressed (0:
        the common case costs one read and one XOR, and makes nothing)."""
        self.changed = False
        diff = (self.read() & self.full) ^ self.state
        if not diff and not self.moving:
            return 0
        return self._settle(diff, now_ms)

    def _settle(self, diff, now_ms):
        pressed = 0
        run = self.run
        timed = now_ms is not None and self.stable_ms is not None
        for i in range(len(self.pins)):
            bit = 1 << i
            if not diff & bit:
                if self.moving & bit:  # bounced back before settling: forget it
                    run[i] = 0
                    self.moving &= ~bit
                continue
            if not self.moving & bit:
                self.moving |= bit
                run[i] = 0
                if timed:
                    self.since[i] = now_ms
            if run[i] < 255:
                run[i] += 1
            if run[i] >= self.scans or (timed and now_ms - self.since[i] >= self.stable_ms):
                run[i] = 0
                self.moving &= ~bit
                self.state ^= bit
                self.changed = True
                if self.state & bit:
                    self.counts[i] = (self.counts[i] + 1) & 0xFF
                    pressed |= bit
        return pressed

    def update(self, now_ms=None):
        """`step`, as the indices of the buttons newly pressed (the shared
        empty `NONE` when none)."""
        pressed = self.step(now_ms)
        if not pressed:
            return NONE
        return [i for i in range(len(self.pins)) if pressed >> i & 1]


class KeyRow:
    """Push buttons wired as one more matrix row: one output pin, read through
    the matrix's own column inputs (a diode in series with each button, like
    the squares). Nine buttons cost one pin. `pins` are pin-like objects for
    a ButtonBank (value() 0 while pressed); `read()` selects the row once."""

    def __init__(self, row_pin, col_pins, count, settle=None, read_cols=None):
        if count > len(col_pins):
            raise ValueError("a key row has at most " + str(len(col_pins)) + " buttons, not " + str(count))
        self.row_pin = row_pin
        self.col_pins = col_pins
        self.settle = settle
        self.read_cols = read_cols
        self.mask = 0
        self.pins = [_RowKey(self, i) for i in range(count)]

    def read(self):
        self.mask = read_row(self.row_pin, self.col_pins, self.settle, self.read_cols)
        return self.mask


class _RowKey:
    def __init__(self, row, index):
        self.row = row
        self.index = index

    def value(self):
        return 0 if self.row.mask >> self.index & 1 else 1
