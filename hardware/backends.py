"""Board backends by name, and `open_board(config)` that opens the chosen one.

`BACKENDS` maps each backend's name to the module that implements it, the
way gpiozero finds its pin factories: a module is imported only when its
backend is chosen (or its config table appears in the file), so a PC without
gpiozero or pyserial still imports this package. Each module defines one
`BACKEND = Backend(...)`: how to open it, how to read and check its own
config table (``[gpio]``, ``[serial]``: the table is named like the backend)
and which checks `damka doctor` runs on it.

Adding a backend is one module and one line in `BACKENDS`:
- ``gpio``: reed matrix and buttons on the Pi's GPIO (gpiozero), LEDs as a
  WS2812 chain on SPI (``[leds] driver = "spi"``) or none;
- ``serial``: everything behind the microcontroller (firmware/), over USB;
- ``sim``: a mock matrix on gpiozero's MockFactory with recorded LEDs (no
  hardware at all; the pygame simulator in `damka.sim` is the controller's).

``mock=True`` swaps the hardware for simulations of it: a MockFactory
switch matrix for ``gpio``, the firmware on a pty for ``serial``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from damka.hardware.interfaces import BoardSensor, Buttons, LedFrame, LedOutput

if TYPE_CHECKING:
    from damka.config import BoardConfig  # the whole file: a backend's LEDs follow [light] palette
    from damka.controller.config.config_file import Section
    from damka.hardware.config import BoardShape, HardwareConfig

# Backend name -> module defining `BACKEND`; imported on first use only.
BACKENDS: dict[str, str] = {
    "sim": "damka.hardware.backend_sim",
    "gpio": "damka.hardware.backend_gpio",
    "serial": "damka.hardware.backend_serial",
}


class NullLeds(LedOutput):
    """No LEDs fitted."""

    def show(self, frame: LedFrame) -> None:
        pass


class MockHands(Protocol):
    """Hands on simulated hardware (``mock=True``): the doctor moves pieces with them."""

    def set_closed(self, cells: Iterable[tuple[int, int]]) -> None:
        """Close exactly these matrix cells (row, col): pieces stand there."""

    def press(self, button: str) -> None:
        """Press and release a button named as in ``[buttons]`` (``clock0``, ``hint``)."""


# How long simulated hands hold a button: a finger's press (80-150 ms). Shorter,
# a busy machine's scanner could miss the debounce scans it needs (a flaky `damka doctor --mock`).
PRESS_S = 0.15


def _no_ghosts() -> frozenset[str]:
    return frozenset()


def _always_there() -> str | None:
    return None


@dataclass
class HardwareBoard:
    """The opened devices. `sim` is the simulated hardware when mocked (a
    mock_matrix.SwitchMatrix or a pty_device.PtyBoard), else None; `hands`
    drives it the same way for every backend. `ghosts()` names squares the
    sensor cannot trust (a matrix without diodes). `inputs` names the buttons."""

    backend: str
    sensor: BoardSensor
    leds: LedOutput
    buttons: Buttons
    description: str
    sim: Any = None
    closers: list[Callable[[], None]] = field(default_factory=list)
    hands: MockHands | None = None
    ghosts: Callable[[], frozenset[str]] = _no_ghosts
    buzzer: Callable[[Sequence[tuple[int, int]]], None] | None = None
    """Plays notes ((Hz, ms), ...) on the board's buzzer; may block while they
    sound (run it off the loop: controller.cues.sinks). None: no buzzer."""
    led_style: Any = None
    """The LEDs' `leds.LedStyle` (brightness, palette) when they have one: the
    menu's light settings are applied to it while playing."""
    inputs: tuple[str, ...] = ()
    """Every input wired, by its [buttons] name (``clock0``, ``ok``; ``up``/``down``
    for an encoder's two directions): what the doctor asks a maker to try."""
    missing: Callable[[], str | None] = _always_there
    """The device, named as a person finds it ("/dev/ttyACM0"), while it does not
    answer (not plugged in, or unplugged): the board loop says so and waits for
    it. None while it answers; always None for devices that cannot go away."""

    def close(self) -> None:
        for closer in reversed(self.closers):
            closer()
        self.closers.clear()

    def __enter__(self) -> "HardwareBoard":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


Out = Callable[[str], None]


@dataclass(frozen=True)
class Check:
    """One thing `damka doctor` checks on an opened board. `run` prints what
    it finds through `out`; a fault that leaves nothing to check (no board
    answers) raises a `HardwareError`, which the doctor turns into exit 2.
    `after_watch` checks run after the live map (e.g. link statistics)."""

    name: str
    run: Callable[[HardwareBoard, Out], None]
    after_watch: bool = False


@dataclass(frozen=True)
class Backend:
    """What a backend module declares (as ``BACKEND``).

    - `open(config, mock)`: the opened board (close it when done);
    - `parse(section, shape)`: its own table (named like the backend) into a
      settings object; `section` is None when the file has no such table
      (raise ``section``-style errors for anything required). `defaults` is
      the settings object when there is no table and the backend is not chosen;
    - `validate(config)`: checks across tables, run when this backend is chosen;
    - `led_drivers`: ``[leds] driver`` values it can drive besides "none";
      `default_led_driver`, `default_buttons`: what the file may leave out.
    """

    name: str
    open: Callable[["BoardConfig", bool], HardwareBoard]
    checks: tuple[Check, ...] = ()
    parse: Callable[["Section | None", "BoardShape"], Any] | None = None
    defaults: Any = None
    validate: Callable[["HardwareConfig"], None] | None = None
    led_drivers: tuple[str, ...] = ()
    default_led_driver: str = "none"
    default_buttons: Mapping[str, int] = field(default_factory=dict)


def backend_names() -> tuple[str, ...]:
    return tuple(BACKENDS)


def load_backend(name: str) -> Backend:
    """The backend called `name`, its module imported now (KeyError if unknown)."""
    backend = importlib.import_module(BACKENDS[name]).BACKEND
    if backend.name != name:
        raise RuntimeError(f"{BACKENDS[name]} declares backend {backend.name!r}, registered as {name!r}")
    return backend


def open_board(config: BoardConfig, *, mock: bool = False) -> HardwareBoard:
    """Open the devices of `config.backend` (simulated ones with `mock`)."""
    return load_backend(config.backend).open(config, mock)
