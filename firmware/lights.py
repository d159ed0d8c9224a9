"""LED helpers shared by the firmware and the host: blink patterns, the
serpentine chain order and the power cap. Plain Python that MicroPython runs.

`LedImage` is the firmware's LEDs: the last LEDS frame, drawn into the chain's
bytes at a blink edge or a new frame, in buffers made once."""

STEADY = 0
BLINK_SLOW = 1
BLINK_FAST = 2
BLINK_ALT = 3
DOUBLE = 4

# A WS2812 draws about 20 mA per colour channel at full brightness (60 mA white):
# 81 LEDs at full white is ~4.9 A, more than a Pi's or a USB port's supply.
MA_PER_CHANNEL = 20
DEFAULT_BUDGET_MA = 1500


def lit(pattern, now_ms):
    """Whether an LED with this pattern is on at `now_ms` (device clock)."""
    if pattern == STEADY:
        return True
    if pattern == BLINK_SLOW:
        return (now_ms % 1000) < 500
    if pattern == BLINK_FAST:
        return (now_ms % 250) < 125
    if pattern == BLINK_ALT:
        return (now_ms % 1000) >= 500
    if pattern == DOUBLE:
        t = now_ms % 1000
        return t < 100 or 200 <= t < 300
    return True


PERIOD_MS = 1000
# The instants (ms into the 1 s cycle) at which each pattern turns on or off.
EDGES = {
    BLINK_SLOW: (0, 500),
    BLINK_FAST: (0, 125, 250, 375, 500, 625, 750, 875),
    BLINK_ALT: (0, 500),
    DOUBLE: (0, 100, 200, 300),
}


def chain_index(row, col, cols, serpentine=True):
    """Position in the LED chain of matrix cell (row, col): the chain runs
    along row 0 left to right, then (serpentine) row 1 right to left, and so on."""
    if serpentine and row & 1:
        return row * cols + (cols - 1 - col)
    return row * cols + col


def current_ma(colours):
    """Estimated supply current of the chain for these (r, g, b) colours."""
    total = 0
    for r, g, b in colours:
        total += r + g + b
    return total * MA_PER_CHANNEL // 255


def scale(colour, brightness):
    """(r, g, b) scaled by brightness 0-255."""
    r, g, b = colour
    return (r * brightness // 255, g * brightness // 255, b * brightness // 255)


def limit_power(colours, budget_ma=DEFAULT_BUDGET_MA):
    """The colours dimmed as a whole so the chain stays within `budget_ma`."""
    need = current_ma(colours)
    if need <= budget_ma or need == 0:
        return colours
    factor = budget_ma * 255 // need
    return [scale(c, factor) for c in colours]


def frame_colours(palette, cells, brightness, now_ms, budget_ma=DEFAULT_BUDGET_MA):
    """The colour of every cell at `now_ms`, row-major: each cell's palette
    entry (r, g, b, pattern), blinking applied, scaled by brightness, the
    whole frame dimmed to the power budget. Palette index 0 is off."""
    out = []
    for index in cells:
        r, g, b, pattern = palette[index]
        if index and lit(pattern, now_ms):
            out.append(scale((r, g, b), brightness))
        else:
            out.append((0, 0, 0))
    return limit_power(out, budget_ma)


def chain_order(colours, rows, cols, serpentine=True):
    """Row-major cell colours rearranged into LED chain order."""
    out = [None] * (rows * cols)
    i = 0
    for r in range(rows):
        for c in range(cols):
            out[chain_index(r, c, cols, serpentine)] = colours[i]
            i += 1
    return out


def chain_cells(rows, cols, serpentine=True):
    """For each position in the chain, the row-major index of its cell."""
    out = [0] * (rows * cols)
    for r in range(rows):
        for c in range(cols):
            out[chain_index(r, c, cols, serpentine)] = r * cols + c
    return out


def grb(colour):
    """(r, g, b) as the 24-bit word a WS2812 takes first-bit-first: green, red, blue."""
    r, g, b = colour
    return (g << 16) | (r << 8) | b


WIRE_BYTES = 4  # bytes per LED in the chain's buffer: one 32-bit word, little-endian, GRB in its top 24 bits
MAX_ENTRIES = 256  # palette indices a cell can name (a byte)


def chain_words(wire):
    """The 24-bit GRB words (`grb`) of a chain buffer, LED by LED."""
    return [wire[k + 3] << 16 | wire[k + 2] << 8 | wire[k + 1] for k in range(0, len(wire), WIRE_BYTES)]


class LedImage:
    """The firmware's LEDs: the last LEDS frame's palette and cells, and the
    chain's bytes for any instant (`draw`), all in buffers made once, so
    neither a frame nor a blink edge makes an object for the garbage collector
    (MicroPython: a poll that allocates slows every later allocation until the
    next collection). Drawing is what `frame_colours` and `chain_order` compute
    (blinking, brightness, the power cap), one palette look-up per LED.

    A chain buffer is WIRE_BYTES per LED in chain order: 0, blue, red, green,
    the word (GRB << 8) the PIO program shifts out from its top bit, ready for
    DMA. Two buffers take turns: the one being sent is never written."""

    def __init__(self, rows, cols, serpentine=True, budget_ma=DEFAULT_BUDGET_MA):
        self.n = rows * cols
        self.budget_ma = budget_ma
        self.order = chain_cells(rows, cols, serpentine)  # chain position -> row-major cell
        self.cells = bytearray(self.n)
        self.spare_cells = bytearray(self.n)     # the next frame's cells, until they are checked
        self.size = 1                             # palette entries, index 0 (off) included
        self.head = bytearray(2 + 4 * (MAX_ENTRIES - 1))  # the palette part of the last frame, as sent
        self.head_len = 0
        self.rgb = bytearray(3 * MAX_ENTRIES)     # each entry's colour at the frame's brightness
        self.blink = bytearray(MAX_ENTRIES)       # each entry's blink pattern (STEADY: always lit)
        self.counts = [0] * MAX_ENTRIES           # cells showing each entry
        self.spare_counts = [0] * MAX_ENTRIES
        self.edges = [0] * 16                     # the palette's blink edges in the 1 s cycle, sorted
        self.n_edges = 0
        self.lut = bytearray(WIRE_BYTES * MAX_ENTRIES)  # each entry's chain bytes, for the phase drawn
        self.buffers = (bytearray(WIRE_BYTES * self.n), bytearray(WIRE_BYTES * self.n))
        self.front = 0                            # the buffer written to the chain last
        self.written = False
        self.need_ma = 0                          # what the lit cells would draw, before the cap
        self.until = None  # type: int | None  # after `draw`: the first ms its picture may change (None: never)

    def load(self, body):
        """Take a LEDS body (brightness, count, count x (r, g, b, pattern),
        one index per cell): None, or what is wrong with it, and then nothing
        changed. A palette equal to the last frame's is not decoded again."""
        n = len(body)
        if n < 2:
            return "LEDS too short"
        count = body[1]
        at = 2 + 4 * count
        if n != at + self.n:
            return "LEDS bad length"
        # One pass into the spare cells and counts: kept only if every cell names an entry.
        cells = self.spare_cells
        counts = self.spare_counts
        for i in range(count + 1):
            counts[i] = 0
        for i in range(self.n):
            v = body[at + i]
            if v > count:
                return "LEDS palette index out of range"
            cells[i] = v
            counts[v] += 1
        if not self._same_head(body, at):
            self._take_palette(body, at)
        self.spare_cells, self.cells = self.cells, cells
        self.spare_counts, self.counts = self.counts, counts
        return None

    def _same_head(self, body, at):
        if at != self.head_len:
            return False
        head = self.head
        for i in range(at):
            if body[i] != head[i]:
                return False
        return True

    def _take_palette(self, body, at):
        head = self.head
        for i in range(at):
            head[i] = body[i]
        self.head_len = at
        brightness = body[0]
        self.size = body[1] + 1
        rgb = self.rgb
        blink = self.blink
        edges = self.edges
        self.n_edges = 0
        used = 0
        for index in range(1, self.size):
            j = 2 + 4 * (index - 1)
            k = 3 * index
            rgb[k] = body[j] * brightness // 255
            rgb[k + 1] = body[j + 1] * brightness // 255
            rgb[k + 2] = body[j + 2] * brightness // 255
            pattern = body[j + 3]
            if pattern not in EDGES:
                pattern = STEADY  # unknown patterns are steady
            blink[index] = pattern
            if pattern != STEADY and not used >> pattern & 1:
                used |= 1 << pattern
                for t in EDGES[pattern]:
                    self._add_edge(t)

    def _add_edge(self, t):
        edges = self.edges
        n = self.n_edges
        for i in range(n):
            if edges[i] == t:
                return
        i = n
        while i > 0 and edges[i - 1] > t:
            edges[i] = edges[i - 1]
            i -= 1
        edges[i] = t
        self.n_edges = n + 1

    def draw(self, now_ms):
        """The chain's bytes at `now_ms`, or None when the chain shows them
        already; sets `until`."""
        self._until(now_ms)
        lut = self.lut
        if self._lut(now_ms):
            self._dim()
        buf = self.buffers[self.front ^ 1]
        cells = self.cells
        k = 0
        for c in self.order:
            j = cells[c] << 2
            buf[k + 1] = lut[j + 1]
            buf[k + 2] = lut[j + 2]
            buf[k + 3] = lut[j + 3]
            k += 4
        if self.written and buf == self.buffers[self.front]:
            return None
        self.front ^= 1
        self.written = True
        return buf

    def _until(self, now_ms):
        n = self.n_edges
        if not n:
            self.until = None
            return
        edges = self.edges
        t = now_ms % PERIOD_MS
        self.until = now_ms - t + PERIOD_MS + edges[0]
        for i in range(n):
            if edges[i] > t:
                self.until = now_ms - t + edges[i]
                return

    def _lut(self, now_ms):
        """Each entry's bytes for the phase at `now_ms` (0 while dark); whether
        the lit cells draw more than the budget."""
        lut = self.lut
        rgb = self.rgb
        blink = self.blink
        counts = self.counts
        total = 0
        for index in range(1, self.size):
            j = index << 2
            k = 3 * index
            pattern = blink[index]
            if pattern != STEADY and not lit(pattern, now_ms):
                lut[j + 1] = lut[j + 2] = lut[j + 3] = 0
                continue
            lut[j + 1] = rgb[k + 2]
            lut[j + 2] = rgb[k]
            lut[j + 3] = rgb[k + 1]
            total += counts[index] * (rgb[k] + rgb[k + 1] + rgb[k + 2])
        self.need_ma = total * MA_PER_CHANNEL // 255
        return self.need_ma > self.budget_ma

    def _dim(self):
        """Scale the look-up table so the whole frame stays within the budget (as `limit_power`)."""
        factor = self.budget_ma * 255 // self.need_ma
        lut = self.lut
        for j in range(WIRE_BYTES, WIRE_BYTES * self.size):
            lut[j] = lut[j] * factor // 255
