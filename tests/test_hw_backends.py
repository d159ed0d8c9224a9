"""hardware/backends.py: open_board picks and opens the configured backend."""

from __future__ import annotations

import subprocess
import sys
import pytest

from damka.cli import main
from damka.hardware.backends import BACKENDS, backend_names, load_backend, open_board
from damka.config import BoardConfig, parse_config
from damka.hardware.errors import BackendUnavailableError, ConfigError
from damka.hardware.interfaces import ClockPress, Role
from damka.hardware.leds import RecordingLeds
from serial_rig import press
from waiting import wait_until


def test_default_config_opens_the_sim_board():
    pytest.importorskip("gpiozero")
    with open_board(BoardConfig()) as board:
        assert board.backend == "sim" and isinstance(board.leds, RecordingLeds)
        board.sim.set_closed({(0, 0), (8, 8)})
        wait_until(lambda: board.sensor.snapshot().occupied == {"a1", "i9"}, "a1 and i9 seen")
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
        matrix = board.buttons
        pin.drive_low()
        presses = wait_until(matrix.presses, "the press seen")
        pin.drive_high()
        scans = matrix.scans
        wait_until(lambda: matrix.scans >= scans + 10, "ten scans after the release")
        presses += matrix.presses()           # a bounce or a release counted as a press would show here
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
        press(board.sim, 1)
        presses = wait_until(board.buttons.presses, "the press reported")
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


# -- the registry ------------------------------------------------------------------

def test_every_registered_backend_declares_itself():
    for name in backend_names():
        backend = load_backend(name)
        assert backend.name == name and callable(backend.open)
        assert all(check.name and callable(check.run) for check in backend.checks)
    assert load_backend("serial").default_led_driver == "serial"


LAZY = """
import sys
from damka.config import parse_config
parse_config({})
print(sorted(m for m in sys.modules if m.startswith('damka.hardware.backend_')))
parse_config({'board': {'backend': 'serial'}})
print(sorted(m for m in sys.modules if m.startswith('damka.hardware.backend_')))
"""


def test_a_backend_module_is_imported_only_when_chosen():
    result = subprocess.run([sys.executable, "-c", LAZY], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    sim_only, then_serial = result.stdout.splitlines()
    assert "'damka.hardware.backend_sim'" in sim_only and "backend_serial" not in sim_only
    assert "'damka.hardware.backend_serial'" in then_serial


# A whole new backend: one module, one line in BACKENDS. It owns its [fake]
# table and a doctor check; the pieces live on a virtual board.
FAKE_BACKEND = '''
from damka.hardware.backends import Backend, Check, HardwareBoard
from damka.sim.virtual_board import VirtualBoard


def parse(section, shape):
    if section is None:
        return {"pieces": []}
    pieces = section.get("pieces", list, [])
    section.done()
    return {"pieces": pieces}


def open_fake(config, mock):
    board = VirtualBoard(config.section("fake")["pieces"])
    return HardwareBoard("fake", board, board, board, f"fake backend, mock={mock}")


def check(board, out):
    out(f"fake check: {len(board.sensor.snapshot().occupied)} pieces")


BACKEND = Backend(name="fake", open=open_fake, parse=parse, defaults={"pieces": []},
                  checks=(Check("pieces", check),))
'''


@pytest.fixture
def fake_backend(tmp_path, monkeypatch):
    (tmp_path / "damka_fake_backend.py").write_text(FAKE_BACKEND)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(BACKENDS, "fake", "damka_fake_backend")
    yield
    sys.modules.pop("damka_fake_backend", None)


def test_a_new_backend_is_one_module_and_one_line(fake_backend, tmp_path, capsys):
    config = parse_config({"board": {"backend": "fake"}, "fake": {"pieces": ["a1", "c3"]}})
    assert config.section("fake") == {"pieces": ["a1", "c3"]}
    with open_board(config) as board:
        assert board.description == "fake backend, mock=False"
        assert board.sensor.snapshot().occupied == {"a1", "c3"}
    with pytest.raises(ConfigError, match=r"^board.toml: \[fake\]: unknown setting: colour$"):
        parse_config({"board": {"backend": "fake"}, "fake": {"colour": "red"}}, "board.toml")
    path = tmp_path / "board.toml"
    path.write_text('[board]\nbackend = "fake"\n[fake]\npieces = ["e5"]\n')
    assert main(["doctor", "--config", str(path), "--seconds", "0"]) == 0
    out = capsys.readouterr().out
    assert "backend: fake backend, mock=False" in out and "fake check: 1 pieces" in out


def test_unknown_backend_names_the_registered_ones():
    with pytest.raises(ConfigError, match="backend must be one of sim, gpio, serial, not 'usb'"):
        parse_config({}, "board.toml", backend="usb")
