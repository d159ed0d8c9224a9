"""The hardware package imports on any PC: backends pull in their library only when chosen."""

from __future__ import annotations

import subprocess
import sys

CODE = """
import sys
sys.modules['gpiozero'] = None   # as if not installed
sys.modules['serial'] = None
sys.modules['spidev'] = None
import damka.hardware, damka.hardware.config, damka.hardware.layout, damka.hardware.leds
import damka.hardware.backends, damka.hardware.gpio_matrix, damka.hardware.serial_link
import damka.commands.doctor, damka.firmware.device
from damka.hardware.errors import BackendUnavailableError
from damka.hardware.gpio_matrix import GpioMatrix
from damka.hardware.serial_link import SerialLink
for make in (lambda: GpioMatrix((4,), (5,)), lambda: SerialLink('loop://')):
    try:
        make()
    except BackendUnavailableError as exc:
        print('unavailable:', exc)
"""


def test_imports_without_hardware_libraries():
    result = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("unavailable:") == 2
    assert "pip install damka[gpio]" in result.stdout and "pip install damka[serial]" in result.stdout


def test_hardware_errors_hierarchy():
    from damka.engine.errors import DamkaError
    from damka.hardware import errors

    assert issubclass(errors.HardwareError, DamkaError)
    assert issubclass(errors.ConfigError, ValueError)
    for name in ("MatrixError", "LinkError", "DeviceNotFoundError", "ProtocolError", "BackendUnavailableError"):
        assert issubclass(getattr(errors, name), errors.HardwareError)
