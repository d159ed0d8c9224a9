"""hardware/config.py: the board.toml, and one clear error per kind of mistake."""

from __future__ import annotations

from pathlib import Path

import pytest

from damka.config import load_config, parse_config
from damka.hardware.errors import ConfigError, HardwareError
from damka.hardware.interfaces import Role

EXAMPLE = Path(__file__).resolve().parent.parent / "docs" / "board.example.toml"

GPIO = {"rows": [4, 5, 6, 7, 8, 9, 10, 11, 12], "cols": [13, 14, 15, 16, 17, 18, 19, 20, 21]}


def test_defaults_are_the_sim_board():
    c = parse_config({})
    assert (c.backend, c.rows, c.cols, c.rotation, c.mirror) == ("sim", 9, 9, 0, False)
    assert c.layout().squares == frozenset(f"{f}{r}" for f in "abcdefghi" for r in range(1, 10))


def test_example_config_loads():
    c = load_config(EXAMPLE)
    assert c.backend in ("gpio", "serial", "sim")
    assert c.leds.brightness <= 255


def test_the_example_config_shows_the_defaults_and_says_which_one_it_does_not():
    """Issue 38: the example said "the values shown are the defaults" over `backend = "serial"`
    (the default is "sim"). Each of its tables, on a serial board, is the defaults; its backend
    says it is not one, and which one is."""
    import tomllib

    shown = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))
    serial = {"board": {"backend": "serial"}}
    assert len(shown) >= 10 and shown["board"]["backend"] == "serial"
    for table, values in shown.items():
        given = {"board": {**values, "backend": "serial"}} if table == "board" else {**serial, table: values}
        assert parse_config(given) == parse_config(serial), f"[{table}] shows a value that is not its default"
    default = parse_config({}).backend
    text = EXAMPLE.read_text(encoding="utf-8")
    assert f'backend = "serial"       # not the default: left out, "{default}"' in text
    assert f'except `backend`: "serial" here' in text and f'left out, it is "{default}"' in text


def test_full_gpio_config(tmp_path):
    path = tmp_path / "board.toml"
    path.write_text("""
[board]
backend = "gpio"
rotation = 90
mirror = true
sub_board = "b2:h8"

[scan]
debounce_scans = 4
rate_hz = 250

[gpio]
rows = [4, 5, 6, 7, 8, 9, 10, 11, 12]
cols = [13, 14, 15, 16, 17, 18, 19, 20, 21]
diodes = false
pin_factory = "lgpio"

[buttons]
clock0 = 22
clock1 = 23
hint = 24

[leds]
type = "mono"
driver = "none"
brightness = 40

[leds.colours]
legal_target = "#10ff20"
""")
    c = load_config(path)
    assert c.gpio.rows[0] == 4 and not c.gpio.diodes and c.gpio.pin_factory == "lgpio"
    assert c.buttons == {"clock0": 22, "clock1": 23, "hint": 24}
    assert c.leds.colours == {Role.LEGAL_TARGET: (0x10, 0xFF, 0x20)}
    assert c.debounce_scans == 4 and c.scan_hz == 250
    assert len(c.layout().squares) == 49


def test_serial_defaults():
    c = parse_config({"board": {"backend": "serial"}})
    assert c.serial.port is None and c.serial.vid == 0x2E8A
    assert c.leds.driver == "serial"
    assert c.buttons["clock0"] == 0 and c.buttons["clock1"] == 1


def test_each_backend_table_is_read_by_its_backend():
    c = parse_config({"board": {"backend": "gpio"}, "gpio": GPIO, "serial": {"port": "/dev/ttyACM1"}})
    assert c.section("gpio") is c.gpio and c.gpio.rows == tuple(GPIO["rows"])
    assert c.serial.port == "/dev/ttyACM1"       # kept for a later --backend serial
    assert parse_config({}).serial.port is None  # no table: the backend's defaults


def test_backend_override():
    c = parse_config({"board": {"backend": "gpio"}, "gpio": GPIO}, backend="serial")
    assert c.backend == "serial"


MISTAKES = [
    ({"board": {"backend": "usb"}}, "[board] backend: expected one of sim, gpio, serial, got 'usb'"),
    ({"board": {"rows": "nine"}}, "[board] rows: expected a number, got 'nine'"),
    ({"board": {"rows": 40}}, "[board] rows: expected a number from 2 to 16, got 40"),
    ({"board": {"rotation": 45}}, "[board] rotation: expected 0, 90, 180 or 270, got 45"),
    ({"board": {"mirror": "yes"}}, "[board] mirror: expected true or false, got 'yes'"),
    ({"board": {"sub_board": "b2-h8"}}, "[board] sub_board: sub_board must look like 'b2:h8'"),
    ({"board": {"sub_board": "a1:k9"}}, "[board] sub_board: sub_board 'a1:k9' does not fit"),
    ({"board": {"rows": 9, "cols": 8, "rotation": 90}}, "[board] rotation: a rotation of 90 or 270 needs a square"),
    ({"board": {"colour": "red"}}, "[board]: unknown setting: colour"),
    ({"bord": {}}, "board.toml: unknown section: bord"),
    ({"board": {"backend": "gpio"}}, "[gpio]: missing: the gpio backend needs [gpio] rows and cols"),
    ({"board": {"backend": "gpio"}, "gpio": {"rows": GPIO["rows"][:8], "cols": GPIO["cols"]}},
     "[gpio] rows: expected 9 pin numbers, got 8"),
    ({"board": {"backend": "gpio"}, "gpio": {"cols": GPIO["cols"]}}, "[gpio] rows: missing: give 9 BCM pin numbers"),
    ({"board": {"backend": "gpio"}, "gpio": {"rows": "4-12", "cols": GPIO["cols"]}},
     "[gpio] rows: expected a list of 9 pin numbers, got '4-12'"),
    ({"board": {"backend": "gpio"}, "gpio": {"rows": GPIO["rows"][:8] + [40], "cols": GPIO["cols"]}},
     "[gpio] rows: GPIO40 is not a BCM pin"),
    ({"board": {"backend": "gpio"}, "gpio": {"rows": GPIO["rows"], "cols": GPIO["cols"][:8] + [4]}},
     "[gpio]: GPIO4 is used twice"),
    ({"board": {"backend": "gpio"}, "gpio": GPIO, "buttons": {"clock0": 5}}, "[buttons] clock0: GPIO5 is already one of [gpio] rows"),
    ({"buttons": {"clock0": 1, "clock1": 1}}, "[buttons] clock1: 1 is already used by clock0"),
    ({"buttons": {"clock9": 1}}, "[buttons]: unknown setting: clock9"),
    ({"gpio": {**GPIO, "pin_factory": "wiringpi"}}, "[gpio] pin_factory: expected one of lgpio, rpigpio"),
    ({"leds": {"brightness": 300}}, "[leds] brightness: expected a number from 0 to 255, got 300"),
    ({"leds": {"type": "rgbw"}}, "[leds] type: expected one of ws2812, mono, none, got 'rgbw'"),
    ({"leds": {"driver": "serial"}}, "[leds] driver: the serial LED driver needs [board] backend = \"serial\""),
    ({"board": {"backend": "serial"}, "leds": {"driver": "spi"}},
     "[leds] driver: the spi LED driver needs [board] backend = \"sim\" or \"gpio\""),
    ({"leds": {"driver": "usb"}}, "[leds] driver: expected one of serial, spi, none, got 'usb'"),
    ({"board": {"backend": "gpio"}, "gpio": GPIO, "serial": {"speed": 9600}}, "[serial]: unknown setting: speed"),
    ({"leds": {"colours": {"legal_target": "green"}}}, "[leds.colours] legal_target: expected a colour like"),
    ({"leds": {"colours": {"shiny": "#ffffff"}}}, "[leds.colours]: unknown setting: shiny"),
    ({"board": {"backend": "gpio"}, "gpio": {**GPIO, "rows": [4, 5, 6, 7, 8, 9, 10, 11, 12]},
      "leds": {"driver": "spi"}}, "[leds] driver: SPI needs GPIO9-11 (MISO, MOSI, SCLK); GPIO9 is in [gpio] rows"),
    ({"serial": {"baudrate": 0}}, "[serial] baudrate: expected a number from 1200"),
    ({"scan": {"debounce_scans": 0}}, "[scan] debounce_scans: expected a number from 1 to 50, got 0"),
    ({"board": []}, "[board]: expected a table, got []"),
]


@pytest.mark.parametrize(("data", "message"), MISTAKES, ids=[m for _, m in MISTAKES])
def test_each_mistake_is_one_clear_error(data, message):
    with pytest.raises(ConfigError) as info:
        parse_config(data, "board.toml")
    assert str(info.value).startswith("board.toml: ")
    assert message in str(info.value)
    assert isinstance(info.value, ValueError) and isinstance(info.value, HardwareError)


def test_missing_file(tmp_path):
    with pytest.raises(ConfigError, match="no such configuration file"):
        load_config(tmp_path / "nope.toml")


def test_bad_toml_names_the_file(tmp_path):
    path = tmp_path / "board.toml"
    path.write_text("[board\nrows = 9\n")
    with pytest.raises(ConfigError, match=r"board.toml: not valid TOML"):
        load_config(path)
