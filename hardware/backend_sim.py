"""The ``sim`` backend: no hardware at all. The gpio backend's matrix on
gpiozero's MockFactory pins, LEDs recorded (`RecordingLeds`). A ``[gpio]``
table, if the file has one, sets its pins. (The pygame simulator in
`damka.sim` is another thing: it stands in for the whole board.)"""

from __future__ import annotations

from typing import TYPE_CHECKING

from damka.hardware.backend_gpio import SCAN_CHECKS, open_matrix
from damka.hardware.backends import Backend, HardwareBoard
if TYPE_CHECKING:
    from damka.config import BoardConfig


def open_sim(config: BoardConfig, mock: bool) -> HardwareBoard:
    return open_matrix(config, True)


BACKEND = Backend(
    name="sim",
    open=open_sim,
    checks=SCAN_CHECKS,
    led_drivers=("spi",),  # ignored: a gpio board's file can be tried with --backend sim
)
