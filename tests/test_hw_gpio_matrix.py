"""The GPIO reed matrix on gpiozero's MockFactory, with a modelled switch matrix."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("gpiozero")

from gpiozero.pins.mock import MockFactory  # noqa: E402

from damka.hardware.errors import MatrixError  # noqa: E402
from damka.hardware.gpio_matrix import GpioMatrix  # noqa: E402
from damka.hardware.interfaces import Button, ButtonPress, ClockPress  # noqa: E402
from damka.hardware.layout import Layout  # noqa: E402
from damka.hardware.mock_matrix import SwitchMatrix  # noqa: E402
from waiting import wait_until  # noqa: E402

ROWS = (4, 5, 6, 7, 8, 9, 10, 11, 12)
COLS = (13, 14, 15, 16, 17, 18, 19, 20, 21)
BUTTONS = {"clock0": 22, "clock1": 23, "hint": 24}


class FakeClock:
    def __init__(self):
        self.t = 1000

    def __call__(self):
        self.t += 5  # every reading is one 5 ms scan period later
        return self.t


@pytest.fixture
def factory():
    f = MockFactory()
    yield f
    f.reset()


def build(factory, diodes=True, **kw):
    switches = SwitchMatrix(factory, ROWS, COLS, diodes=diodes)
    kw.setdefault("clock", FakeClock())
    kw.setdefault("debounce_ms", 1000)
    matrix = GpioMatrix(ROWS, COLS, buttons=BUTTONS, pin_factory=factory, diodes=diodes, **kw)
    return switches, matrix


def settle(matrix, n=3):
    for _ in range(n):
        matrix.scan_once()


def test_empty_board(factory):
    _, m = build(factory)
    assert m.snapshot().occupied == frozenset()
    m.close()


@pytest.mark.parametrize("cells", [
    {(0, 0)},
    {(8, 8), (0, 8), (8, 0)},
    {(r, c) for r in range(9) for c in range(9) if (r + c) % 2 == 0},   # all dark squares
    {(r, c) for r in range(9) for c in range(9)},                       # everything
    {(r, c) for r in (0, 1, 2) for c in range(9)} | {(8, c) for c in range(9)},
])
def test_scans_real_patterns(factory, cells):
    switches, m = build(factory)
    switches.set_closed(cells)
    assert m.scan_raw() == [sum(1 << c for r2, c in cells if r2 == r) for r in range(9)]
    settle(m)
    layout = Layout()
    assert m.snapshot().occupied == frozenset(layout.square(r, c) for r, c in cells)
    m.close()


def test_rows_idle_high_one_low_at_a_time(factory):
    switches, m = build(factory)
    for p in switches.row_pins:
        p.clear_states()
    m.scan_raw()
    for p in switches.row_pins:
        p.assert_states([True, False, True])  # idle high, selected low once, back high
    assert switches.selections == 9
    m.close()


def test_debounce_needs_consecutive_scans(factory):
    switches, m = build(factory, debounce_scans=3)
    settle(m)
    switches.set_closed({(4, 4)})
    assert [m.scan_once() for _ in range(4)] == [False, False, True, False]
    assert m.snapshot().occupied == {"e5"}
    m.close()


def test_debounce_by_time_when_polled_slowly(factory):
    clock = FakeClock()
    switches, m = build(factory, debounce_scans=50, debounce_ms=20, clock=clock)
    settle(m)
    switches.set_closed({(0, 0)})
    m.scan_once()
    clock.t += 30
    m.scan_once()
    assert m.snapshot().occupied == {"a1"}
    m.close()


def test_bouncing_switch_changes_once_it_settles(factory):
    switches, m = build(factory, debounce_scans=3)
    settle(m)
    switches.set_closed({(2, 3)})
    switches.bounce((2, 3), flips=12, seed=5)
    seen = []
    for _ in range(12):
        m.scan_once()
        seen.append(m.latest.occupied)
    # While it chatters the square may not flicker: at most one change (to closed).
    changes = sum(1 for a, b in zip([frozenset()] + seen, seen) if a != b)
    assert changes <= 1
    settle(m)
    assert m.snapshot().occupied == {"d3"}
    assert not switches.chatter


def test_chattering_release_does_not_flicker(factory):
    switches, m = build(factory, debounce_scans=3)
    switches.set_closed({(1, 1)})
    settle(m, 4)
    switches.set_closed(set())
    switches.bounce((1, 1), flips=40, seed=9, max_run=3)  # faster than 3 scans
    history = []
    for _ in range(40):
        m.scan_once()
        history.append("b2" in m.latest.occupied)
    assert all(history)  # it never settles open while it chatters: no phantom lift
    settle(m, 4)
    assert m.snapshot().occupied == frozenset()


def test_ghost_without_diodes(factory):
    switches, m = build(factory, diodes=False)
    switches.set_closed({(0, 0), (0, 2), (3, 0)})  # three corners of a rectangle
    raw = m.scan_raw()
    assert raw[3] == 0b101  # the fourth corner (3, 2) reads closed: a ghost
    settle(m)
    assert m.snapshot().occupied == {"a1", "c1", "a4", "c4"}
    assert m.ghosts == {"a1", "c1", "a4", "c4"}
    assert m.ghost_scans == 4  # three settling scans and the one snapshot() makes
    m.close()


def test_no_ghost_with_diodes(factory):
    switches, m = build(factory, diodes=True)
    switches.set_closed({(0, 0), (0, 2), (3, 0)})
    assert m.scan_raw()[3] == 0b001
    settle(m)
    assert m.snapshot().occupied == {"a1", "c1", "a4"}
    assert m.ghosts == frozenset()
    m.close()


def test_orientation_applies(factory):
    switches = SwitchMatrix(factory, ROWS, COLS)
    m = GpioMatrix(ROWS, COLS, layout=Layout(9, 9, rotation=180), pin_factory=factory, clock=FakeClock())
    switches.set_closed({(0, 0)})
    settle(m)
    assert m.snapshot().occupied == {"i9"}
    m.close()


def test_buttons_debounced_and_mapped(factory):
    _, m = build(factory)
    pin = factory.pin(22)
    pin.drive_low()
    settle(m)
    pin.drive_high()
    settle(m)
    hint = factory.pin(24)
    hint.drive_low()
    m.scan_once()
    hint.drive_high()  # a 1-scan blip is bounce, not a press
    settle(m)
    hint.drive_low()
    settle(m)
    presses = m.presses()
    assert [type(p) for p in presses] == [ClockPress, ButtonPress]
    assert presses[0].side == 0 and presses[1].button is Button.HINT
    assert m.presses() == []
    m.close()


def test_failed_construction_closes_the_pins_it_opened(factory):
    from gpiozero import DigitalInputDevice

    blocker = DigitalInputDevice(COLS[4], pin_factory=factory)  # the pin is taken
    with pytest.raises(MatrixError, match=f"column pin GPIO{COLS[4]}"):
        GpioMatrix(ROWS, COLS, pin_factory=factory)
    blocker.close()
    # Everything the failed matrix opened was closed: a retry gets every pin.
    m = GpioMatrix(ROWS, COLS, pin_factory=factory)
    m.close()


def test_layout_size_must_match_pins(factory):
    with pytest.raises(ValueError, match="layout is 9x9"):
        GpioMatrix(ROWS[:8], COLS, pin_factory=factory, layout=Layout(9, 9))


def test_background_scanner_keeps_scanning_and_delivers_changes(factory):
    # The scan *rate* (at least 100 a second) is measured by
    # benchmarks/hardware_bench.py: a timed assertion would flake on a busy CI.
    switches, m = build(factory, rate_hz=200, clock=lambda: time.monotonic_ns() // 1_000_000)
    m.start()
    try:
        wait_until(lambda: m.scans >= 20, "20 scans")
        switches.set_closed({(7, 7)})
        wait_until(lambda: "h8" in m.snapshot().occupied, "h8 seen")
        assert m.snapshot().occupied == {"h8"}
    finally:
        m.close()


