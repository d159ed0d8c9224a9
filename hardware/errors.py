"""Errors of the hardware layer. Each message names the device, pin, port or
setting at fault (and the file, for configuration mistakes)."""

from __future__ import annotations

from damka.engine.errors import DamkaError


class HardwareError(DamkaError):
    """Root of the errors a board backend raises on purpose."""


class ConfigError(HardwareError, ValueError):
    """A board configuration setting that is missing or wrong."""


class BackendUnavailableError(HardwareError):
    """The backend's library is not installed, or this machine lacks the device."""


class MatrixError(HardwareError):
    """The reed matrix cannot be set up or read (pins in use, bad wiring)."""


class LinkError(HardwareError):
    """The serial link to the board's microcontroller failed."""


class DeviceNotFoundError(LinkError):
    """No port was given and no USB device with the board's vid/pid is plugged in."""


class ProtocolError(LinkError, ValueError):
    """The device speaks another protocol version or sent something impossible."""
