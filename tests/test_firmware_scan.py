"""firmware/scan.py and firmware/lights.py: debounce, ghosts, pin scanning, buttons, LEDs."""

from __future__ import annotations

import pytest

from damka.firmware import lights, protocol
from damka.firmware.scan import ButtonBank, Debouncer, PinMatrix, find_ghosts


def test_first_scan_is_taken_as_is():
    d = Debouncer(2, 2)
    assert d.update([1, 2], 0)
    assert d.stable == [1, 2]


def test_change_needs_n_equal_scans():
    d = Debouncer(1, 3, scans=3, stable_ms=1000)
    d.update([0], 0)
    assert not d.update([1], 1)
    assert not d.update([1], 2)
    assert d.update([1], 3)
    assert d.stable == [1]


def test_change_after_stable_ms_even_with_few_scans():
    d = Debouncer(1, 3, scans=10, stable_ms=20)
    d.update([0], 0)
    assert not d.update([4], 100)
    assert not d.update([4], 110)
    assert d.update([4], 120)


def test_chatter_never_changes_the_square():
    d = Debouncer(1, 2, scans=3, stable_ms=1000)
    d.update([0], 0)
    for t in range(1, 200):
        assert not d.update([t % 2], t)  # closed, open, closed, open...
    assert d.stable == [0]


def test_chatter_then_settle():
    d = Debouncer(1, 1, scans=3, stable_ms=1000)
    d.update([0], 0)
    readings = [1, 0, 1, 1, 0, 1, 1, 1]
    changes = [d.update([r], t) for t, r in enumerate(readings, 1)]
    assert changes == [False] * 7 + [True]


def test_squares_debounce_independently():
    d = Debouncer(1, 2, scans=2, stable_ms=1000)
    d.update([0], 0)
    d.update([0b01], 1)
    d.update([0b11], 2)  # square 0 settles; square 1 has one scan
    assert d.stable == [0b01]
    d.update([0b11], 3)
    assert d.stable == [0b11]


def test_debouncer_rejects_zero_scans():
    with pytest.raises(ValueError):
        Debouncer(1, 1, scans=0)


def test_find_ghosts_rectangle():
    assert find_ghosts([0b011, 0b011, 0]) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert find_ghosts([0b011, 0b001, 0]) == []  # three corners alone are fine
    assert find_ghosts([0b101, 0, 0b111]) == [(0, 0), (0, 2), (2, 0), (2, 2)]
    assert find_ghosts([0] * 9) == []


class StubPin:
    def __init__(self, matrix=None, index=None, level=1):
        self.matrix, self.index, self.level = matrix, index, level

    def value(self, v=None):
        if v is None:
            if self.matrix is not None:  # a column: low when a selected row reaches it
                return 0 if any(r.level == 0 and (i, self.index) in self.matrix for i, r in enumerate(ROWS)) else 1
            return self.level
        self.level = v


ROWS: list[StubPin] = []


def test_pin_matrix_scans_closed_switches():
    closed = {(0, 1), (2, 2), (1, 0)}
    ROWS[:] = [StubPin() for _ in range(3)]
    cols = [StubPin(closed, c) for c in range(3)]
    settled = []
    m = PinMatrix(ROWS, cols, settle=lambda: settled.append(1))
    assert m.scan() == [0b010, 0b001, 0b100]
    assert all(r.level == 1 for r in ROWS)  # rows idle high after a scan
    assert len(settled) == 3


def test_button_bank_counts_debounced_presses():
    pin = StubPin()
    bank = ButtonBank([pin, StubPin()], scans=2)
    pin.level = 0
    assert not bank.update()
    assert bank.update() == [0]
    assert bank.state == 1 and bank.counts == [1, 0]
    pin.level = 1
    bank.update()
    bank.update()
    assert bank.state == 0 and bank.counts == [1, 0]
    bank.counts[0] = 255
    pin.level = 0
    bank.update()
    bank.update()
    assert bank.counts[0] == 0  # wraps like the protocol's u8


def test_led_patterns_and_shared_constants():
    for name in ("STEADY", "BLINK_SLOW", "BLINK_FAST", "BLINK_ALT", "DOUBLE"):
        assert getattr(lights, name) == getattr(protocol, name)
    assert lights.lit(lights.STEADY, 12345)
    assert lights.lit(lights.BLINK_SLOW, 100) and not lights.lit(lights.BLINK_SLOW, 600)
    assert lights.lit(lights.BLINK_ALT, 600) != lights.lit(lights.BLINK_SLOW, 600)
    assert [lights.lit(lights.BLINK_FAST, t) for t in (0, 130, 250)] == [True, False, True]
    assert [lights.lit(lights.DOUBLE, t) for t in (50, 150, 250, 500)] == [True, False, True, False]


def test_serpentine_chain_index():
    assert [lights.chain_index(0, c, 9) for c in (0, 8)] == [0, 8]
    assert [lights.chain_index(1, c, 9) for c in (0, 8)] == [17, 9]
    assert lights.chain_index(1, 0, 9, serpentine=False) == 9
    order = lights.chain_order(list(range(18)), 2, 9)
    assert order == list(range(9)) + list(range(17, 8, -1))


def test_power_limit_caps_full_white():
    white = [(255, 255, 255)] * 81
    assert lights.current_ma(white) == 81 * 60  # ~4.9 A
    capped = lights.limit_power(white, 1500)
    assert lights.current_ma(capped) <= 1500
    assert lights.limit_power([(10, 0, 0)], 1500) == [(10, 0, 0)]


def test_frame_colours_blink_brightness_and_off():
    palette = [(0, 0, 0, 0), (255, 0, 0, lights.BLINK_SLOW), (0, 255, 0, lights.STEADY)]
    cells = bytes([1, 2, 0])
    assert lights.frame_colours(palette, cells, 255, 100) == [(255, 0, 0), (0, 255, 0), (0, 0, 0)]
    assert lights.frame_colours(palette, cells, 128, 600) == [(0, 0, 0), (0, 128, 0), (0, 0, 0)]


def image_of(palette, cells, brightness, budget=1500) -> lights.LedImage:
    """An LedImage loaded with one LEDS frame (palette without its entry 0)."""
    image = lights.LedImage(9, 9, budget_ma=budget)
    assert image.load(memoryview(protocol.pack_leds(brightness, palette, bytes(cells)))) is None
    return image


def test_the_drawn_chain_is_what_frame_colours_computes() -> None:
    """lights.LedImage (the firmware's prepared chain bytes) against the plain
    per-cell computation, for random frames, times and power budgets, the
    palette kept or changed from frame to frame."""
    import random

    rng = random.Random(21)
    image = lights.LedImage(9, 9)
    checked = dimmed = 0
    for _ in range(300):
        size = rng.randrange(1, 8)
        entries = [(rng.randrange(256), rng.randrange(256), rng.randrange(256), rng.randrange(7))
                   for _ in range(size)]
        cells = bytes(rng.randrange(size + 1) for _ in range(81))
        brightness, budget = rng.randrange(256), rng.choice([100, 500, 1500, 5000])
        image.budget_ma = budget
        for _ in range(rng.randrange(1, 3)):  # the same palette again: not decoded again, same result
            assert image.load(memoryview(protocol.pack_leds(brightness, entries, cells))) is None
        palette = [(0, 0, 0, lights.STEADY)] + entries
        for now in [rng.randrange(5000) for _ in range(6)]:
            want = lights.chain_order(lights.frame_colours(palette, cells, brightness, now, budget), 9, 9)
            wire = image.draw(now)
            shown = image.buffers[image.front]
            assert wire is None or wire is shown  # None: the chain shows it already
            assert [lights.grb(c) for c in want] == lights.chain_words(shown)
            checked += 1
            dimmed += lights.current_ma(want) < lights.current_ma(
                lights.frame_colours(palette, cells, brightness, now, 10**9))
    assert checked == 1800 and dimmed > 100  # the power cap was exercised too


def test_a_bad_frame_changes_nothing_in_the_image() -> None:
    image = image_of([(9, 9, 9, lights.STEADY)], [1] * 81, 255)
    before = bytes(image.cells)
    assert image.load(memoryview(protocol.pack_leds(255, [(1, 2, 3, 0)], bytes([2] * 81)))) == \
        "LEDS palette index out of range"
    assert image.load(b"\x10\x00\x01") == "LEDS bad length" and image.load(b"\x01") == "LEDS too short"
    assert bytes(image.cells) == before and image.size == 2


def test_the_image_says_when_it_next_may_change() -> None:
    def until(pattern: int, times) -> list:
        image = image_of([(9, 9, 9, pattern)], [0] * 81, 255)
        out = []
        for t in times:
            image.draw(t)
            out.append(image.until)
        return out

    assert until(lights.BLINK_FAST, (0, 124, 125, 990)) == [125, 125, 250, 1000]
    assert until(lights.DOUBLE, (0, 250, 300, 1999, 2000)) == [100, 300, 1000, 2000, 2100]
    assert until(lights.STEADY, (123,)) == [None]
    # Between two edges the pattern really is steady, asked in any order.
    image = image_of([(9, 9, 9, lights.DOUBLE)], [1] * 81, 255)
    for t in list(range(0, 2000, 7)) + [1999, 5, 1000]:
        image.draw(t)
        nxt = image.until
        assert nxt is not None
        assert all(lights.lit(lights.DOUBLE, u) == lights.lit(lights.DOUBLE, t) for u in range(t, nxt))
