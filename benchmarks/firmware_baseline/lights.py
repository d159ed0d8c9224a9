"""LED helpers shared by the firmware and the host: blink patterns, the
serpentine chain order and the power cap. Plain Python that MicroPython runs."""

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
