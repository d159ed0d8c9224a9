"""hardware/backends.py: open_board picks and opens the configured backend."""

from __future__ import annotations

import sys
import time

import pytest

from damka.hardware.backends import open_board
from damka.hardware.config import BoardConfig, parse_config
from damka.hardware.errors import BackendUnavailableError
from damka.hardware.interfaces import ClockPress, Role
from damka.hardware.leds import RecordingLeds


def test_default_config_opens_the_sim_board():
    pytest.importorskip("gpiozero")
    with open_board(BoardConfig()) as board:
        assert board.backend == "sim" and isinstance(board.leds, RecordingLeds)
        board.sim.set_closed({(0, 0), (8, 8)})
        deadline = time.monotonic() + 1
        while board.sensor.snapshot().occupied != {"a1", "i9"} and time.monotonic() < deadline:
            time.sleep(0.005)
        assert board.sensor.snapshot().occupied == {"a1", "i9"}
        board.leds.show({"a1": Role.LIFTED})
        assert board.leds.last == {"a1": Role.LIFTED}


def test_mock_gpio_with_pin_map_and_buttons():
    pytest.importorskip("gpiozero")
    config = parse_config({"board": {"backend": "gpio"},
                           "gpio": {"rows": [4, 5, 6, 12, 13, 16, 17, 22, 23],
                                    "cols": [24, 25, 26, 27, 14, 15, 18, 19, 20]},
                           "buttons": {"clock0": 21, "clock1": 2}})
    with open_board(config, mock=True) as board:
        assert board.backend == "gpio"
        pin = board.sim.factory.pin(2)
        pin.drive_low()
        time.sleep(0.05)
        pin.drive_high()
        time.sleep(0.05)
        presses = board.buttons.presses()
        assert [(type(p), p.side) for p in presses] == [(ClockPress, 1)]
    # every pin released: the same pins open again
    with open_board(config, mock=True):
        pass


@pytest.mark.skipif(sys.platform == "win32", reason="ptys are POSIX only")
def test_mock_serial_board_is_synced_on_open():
    pytest.importorskip("serial")
    config = parse_config({"board": {"backend": "serial"}})
    with open_board(config, mock=True) as board:
        assert board.sensor.wait_synced(0)
        board.sim.buttons.pins[1].down = True
        time.sleep(0.05)
        board.sim.buttons.pins[1].down = False
        deadline = time.monotonic() + 1
        presses = []
        while not presses and time.monotonic() < deadline:
            presses = board.buttons.presses()
            time.sleep(0.01)
        assert [type(p) for p in presses] == [ClockPress] and presses[0].side == 1


def test_real_gpio_off_a_pi_is_a_clear_error():
    pytest.importorskip("gpiozero")
    config = parse_config({"board": {"backend": "gpio"},
                           "gpio": {"rows": list(range(4, 13)), "cols": list(range(13, 22)),
                                    "pin_factory": "lgpio"}})
    try:
        import lgpio  # noqa: F401

        pytest.skip("lgpio is installed here")
    except ImportError:
        pass
    with pytest.raises(BackendUnavailableError, match="GPIO pin factory 'lgpio' is not usable here"):
        with open_board(config):
            pass
