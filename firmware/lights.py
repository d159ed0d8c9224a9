"""LED helpers shared by the firmware and the host: blink patterns, the
serpentine chain order and the power cap. Plain Python that MicroPython runs.

`Picture` is one LEDS frame made ready for the chain when it arrives, so the
firmware's loop pays a comparison per poll and a table look-up per blink."""

from array import array

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


class Palette:
    """A LEDS frame's palette at its brightness, prepared once: frames of one
    game share it (the host's roles), so a new frame with the same palette
    costs nothing here. `phase(now)` says which blink patterns are lit, until
    when; `table(bits)` is, for that phase, the 24-bit GRB word of each palette
    index (0 where dark), the brightest lit entry's channel sum, and the lit
    indices; `edges` the instants of the 1 s cycle at which a pattern of the
    palette turns on or off."""

    def __init__(self, palette, brightness):
        self.entries = []   # (index, scaled colour, its channel sum, blink pattern or -1)
        self.blinks = []  # type: list[int]
        edges = []
        for index in range(1, len(palette)):
            r, g, b, pattern = palette[index]
            colour = (r * brightness // 255, g * brightness // 255, b * brightness // 255)
            blink = pattern if pattern in EDGES else -1  # -1: steady (unknown patterns too)
            self.entries.append((index, colour, colour[0] + colour[1] + colour[2], blink))
            if blink >= 0 and blink not in self.blinks:
                self.blinks.append(blink)
                for t in EDGES[blink]:
                    if t not in edges:
                        edges.append(t)
        edges.sort()
        self.edges = edges
        self.size = len(palette)
        self.tables = {}
        self.marks = [bytes((index,)) for index in range(len(palette))]  # to count cells by index
        self.bits, self.since, self.until = 0, 0, None  # the phase last asked for, and how long it holds

    def phase(self, now_ms):
        """Which blink patterns are lit now, as bits (bit p: pattern p), and
        the first ms after `now_ms` at which that changes (None: never). Kept
        until then: the frames of one palette share it."""
        if self.until is not None and self.since <= now_ms < self.until:
            return self.bits, self.until
        bits = 0
        for blink in self.blinks:
            if lit(blink, now_ms):
                bits |= 1 << blink
        until = None
        edges = self.edges
        if edges:
            t = now_ms % PERIOD_MS
            until = now_ms - t + PERIOD_MS + edges[0]
            for edge in edges:
                if edge > t:
                    until = now_ms - t + edge
                    break
        self.bits, self.since, self.until = bits, now_ms, until
        return bits, until

    def table(self, bits):
        found = self.tables.get(bits)
        if found is None:
            table = [0] * self.size
            brightest = 0
            shown = []
            for index, colour, total, blink in self.entries:
                if blink < 0 or bits >> blink & 1:
                    r, g, b = colour
                    table[index] = (g << 16) | (r << 8) | b
                    shown.append(index)
                    if total > brightest:
                        brightest = total
            found = self.tables[bits] = (table, brightest, shown)
        return found


class Picture:
    """One LEDS frame, ready for the chain: `words(now)` gives the chain's
    words (`grb`, chain order, power capped as `frame_colours` does) for the
    blink phase at `now`, one look-up per LED the first time a phase is met
    and a dictionary look-up after, and the first ms after `now` at which a
    pattern of the palette turns on or off (None: never)."""

    def __init__(self, palette, cells, budget_ma, order):
        self.palette = palette  # a Palette
        self.cells = cells
        self.budget_ma = budget_ma
        self.order = order      # chain position -> row-major cell (chain_cells)
        self.phases = {}        # lit-pattern bits -> the chain's words

    def words(self, now_ms):
        """The chain's words at `now_ms`, and the first ms after it at which they may change (None: never)."""
        bits, until = self.palette.phase(now_ms)
        words = self.phases.get(bits)
        if words is None:
            words = self._build(bits)
            for other in self.phases.values():
                if other == words:
                    words = other  # the same picture: the same object, so no rewrite
                    break
            self.phases[bits] = words
        return words, until

    def _build(self, bits):
        table, brightest, shown = self.palette.table(bits)
        cells = self.cells
        marks = self.palette.marks
        if (len(cells) - cells.count(marks[0])) * brightest * MA_PER_CHANNEL // 255 > self.budget_ma:
            # The lit cells could be over the budget: count them by colour, as limit_power does.
            total = 0
            for index in shown:
                colour = table[index]
                total += cells.count(marks[index]) * ((colour >> 16) + (colour >> 8 & 0xFF) + (colour & 0xFF))
            need = total * MA_PER_CHANNEL // 255
            if need > self.budget_ma:
                factor = self.budget_ma * 255 // need
                dimmed = [0] * len(table)
                for index in shown:
                    g, r, b = table[index] >> 16, table[index] >> 8 & 0xFF, table[index] & 0xFF
                    dimmed[index] = grb(scale((r, g, b), factor))
                table = dimmed
        return array("I", [table[cells[i]] for i in self.order])
