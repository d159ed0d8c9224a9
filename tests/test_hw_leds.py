"""hardware/leds.py: roles to colours and patterns, the SPI WS2812 backend."""

from __future__ import annotations

from damka.firmware import lights
from damka.hardware.interfaces import Role
from damka.hardware.layout import Layout
from damka.hardware.leds import (MONO_STYLE, RGB_STYLE, LedStyle, RecordingLeds, SpiWs2812,
                                 spi_decode, spi_encode)


def test_every_role_has_a_style():
    assert set(RGB_STYLE) == set(Role) == set(MONO_STYLE)


def test_urgent_roles_blink_and_info_is_steady():
    assert RGB_STYLE[Role.FLAG][1] != lights.STEADY
    assert RGB_STYLE[Role.LEGAL_TARGET][1] == lights.STEADY
    assert MONO_STYLE[Role.FLAG] != MONO_STYLE[Role.LEGAL_TARGET]


def test_encode_builds_a_small_palette():
    style = LedStyle(Layout(), brightness=50)
    palette, cells = style.encode({"a1": Role.LEGAL_TARGET, "b1": Role.LEGAL_TARGET, "a2": Role.FLAG, "z9": Role.FLAG})
    assert len(palette) == 2 and len(cells) == 81
    assert cells[0] == cells[1] != cells[9] and cells[9] != 0
    assert sum(1 for c in cells if c) == 3  # z9 is not on the board: skipped


def test_mono_uses_patterns_only():
    style = LedStyle(Layout(), led_type="mono")
    palette, _ = style.encode({"a1": Role.FLAG, "a2": Role.LEGAL_TARGET})
    assert {p[:3] for p in palette} == {(255, 255, 255)}
    assert {p[3] for p in palette} == {MONO_STYLE[Role.FLAG], MONO_STYLE[Role.LEGAL_TARGET]}


def test_colour_override_and_orientation():
    style = LedStyle(Layout(9, 9, 180), colours={Role.LEGAL_TARGET: (1, 2, 3)})
    palette, cells = style.encode({"i9": Role.LEGAL_TARGET})
    assert palette == [(1, 2, 3, lights.STEADY)] and cells[0] == 1


def test_spi_encoding_round_trip():
    colours = [(0, 0, 0), (255, 255, 255), (1, 128, 254)]
    data = spi_encode(colours)
    assert len(data) == 9 * 3 + 96 and data.endswith(bytes(96))
    assert spi_encode([(0, 0x80, 0)])[:3] == bytes((0b11010010, 0b01001001, 0b00100100))  # G first, MSB first
    assert spi_decode(data) == colours


class FakeSpi:
    def __init__(self):
        self.writes = []
        self.closed = False

    def writebytes2(self, data):
        self.writes.append(bytes(data))

    def close(self):
        self.closed = True


def test_spi_backend_renders_serpentine_blinks_and_caps_power():
    spi, now = FakeSpi(), [100]
    leds = SpiWs2812(spi, LedStyle(Layout(), brightness=255), budget_ma=1500, clock=lambda: now[0])
    leds.show({"a2": Role.FLAG})  # cell (1, 0) -> chain 17; FLAG blinks fast
    chain = spi_decode(spi.writes[-1])
    assert chain[17] == (255, 0, 0) and sum(map(sum, chain)) == 255
    now[0] = 200  # the dark half of the fast blink
    leds.refresh()
    assert spi_decode(spi.writes[-1])[17] == (0, 0, 0)
    n = len(spi.writes)
    leds.refresh()
    assert len(spi.writes) == n  # nothing changed, nothing sent
    leds.show({sq: Role.LIFTED for sq in Layout().squares})  # all white
    assert lights.current_ma(spi_decode(spi.writes[-1])) <= 1500
    leds.close()
    assert spi.closed and spi_decode(spi.writes[-1]) == [(0, 0, 0)] * 81


def test_recording_leds():
    rec = RecordingLeds()
    rec.show({"a1": Role.HINT_TO})
    assert rec.last == {"a1": Role.HINT_TO} and len(rec.frames) == 1
