"""The ``serial`` backend: the matrix, buttons and LEDs behind the board's
microcontroller (firmware/), over USB serial (pyserial, imported only when
opened). With ``mock`` the firmware runs on a pty instead.

Owns the ``[serial]`` table and the doctor's link checks.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from damka.controller.config.config_file import Section
from damka.hardware.backends import PRESS_S, Backend, Check, HardwareBoard, Out
from damka.hardware.config import BoardShape
from damka.hardware.errors import LinkError
from damka.hardware.leds import LedStyle

if TYPE_CHECKING:
    from damka.config import BoardConfig  # the whole file: the LEDs follow [light] palette
    from damka.hardware.pty_device import PtyBoard
    from damka.hardware.serial_link import SerialLink

PICO_VID = 0x2E8A
# The firmware's button order (firmware/main.py BUTTONS: the key row's columns),
# then the encoder's steps (device.ENCODER_BUTTONS: +1 turns down a menu, -1 up).
DEFAULT_BUTTONS = {"clock0": 0, "clock1": 1, "clock2": 2, "clock3": 3, "hint": 4, "takeback": 5,
                   "menu": 6, "ok": 7, "down": 8, "up": 9}
ENCODER_STEPS = {"down": 1, "up": -1}


@dataclass(frozen=True)
class SerialConfig:
    port: str | None = None         # None: find the board by USB vid/pid
    vid: int = PICO_VID
    pid: int | None = None
    baudrate: int = 115200


def parse(s: Section | None, shape: BoardShape) -> SerialConfig:
    """[serial]: every setting optional."""
    if s is None:
        return SerialConfig()
    serial = SerialConfig(
        port=s.get("port", str, None) or None,
        vid=s.int_in("vid", PICO_VID, 0, 0xFFFF),
        pid=s.get("pid", int, None),
        baudrate=s.int_in("baudrate", 115200, 1200, 12_000_000),
    )
    s.done()
    return serial


class PtyHands:
    """Hands on the firmware running on a pty: its simulated matrix and buttons."""

    def __init__(self, device: PtyBoard, buttons: dict[str, int]) -> None:
        self.device, self.buttons = device, buttons

    def set_closed(self, cells: Iterable[tuple[int, int]]) -> None:
        self.device.matrix.set(cells)

    def press(self, button: str) -> None:
        pins = self.device.buttons.pins
        index = self.buttons.get(button)
        if index is not None and index >= len(pins) and button in ENCODER_STEPS:
            self.device.encoder.turn(ENCODER_STEPS[button])  # one detent of the knob
            return
        if index is None or index >= len(pins):
            return  # no such button on the device
        pin = pins[self.buttons[button]]
        pin.down = True
        threading.Timer(PRESS_S, lambda: setattr(pin, "down", False)).start()


SYNC_WAIT_S = 2.0  # how long the start waits for a plugged-in board's first snapshot


def open_link(config: BoardConfig, mock: bool) -> HardwareBoard:
    from damka.hardware.serial_link import SerialLink

    serial: SerialConfig = config.section("serial")
    style = LedStyle(config.layout(), config.leds.type, config.leds.brightness, config.leds.colours,
                     palette=config.light.palette)
    closers: list[Callable[[], None]] = []
    sim = hands = None
    port = serial.port
    if mock:
        from damka.hardware.pty_device import PtyBoard

        sim = PtyBoard(config.rows, config.cols)
        closers.append(sim.close)
        hands = PtyHands(sim, dict(config.buttons))
        port = sim.port
    link = SerialLink(port, layout=config.layout(), style=style, buttons=config.buttons, vid=serial.vid,
                      pid=serial.pid, baudrate=serial.baudrate)
    link.start()
    closers.append(link.close)
    # Give the device a moment to say HELLO and send its first snapshot, so
    # the controller does not start from an empty board (it still works, and
    # re-syncs, when the board is plugged in later); a device that is not there
    # is not waited for: the board says so at once.
    link.wait_answer(SYNC_WAIT_S)
    return HardwareBoard("serial", link, link, link,
                         f"serial backend on {link.where()}{' (firmware on a pty)' if mock else ''}, "
                         f"{config.rows}x{config.cols} matrix", sim=sim, closers=closers, hands=hands,
                         inputs=tuple(config.buttons), buzzer=link.tone,
                         led_style=style, missing=lambda: None if link.synced else link.where())


def serial_link(board: HardwareBoard) -> SerialLink:
    """The board's serial link: these checks belong to the serial backend."""
    from damka.hardware.serial_link import SerialLink

    if not isinstance(board.sensor, SerialLink):
        raise TypeError(f"the {board.backend} backend has no serial link")
    return board.sensor


def check_link(board: HardwareBoard, out: Out) -> None:
    """The device answers, in sync; no board at all is a fault (LinkError)."""
    link = serial_link(board)
    synced = link.wait_synced(3.0)
    if not synced:
        raise LinkError(f"no board answers on {link.where()}: {link.last_problem or 'nothing received'}; "
                        "check the USB cable, the firmware, and [serial] port in the config")
    before, t0 = link.stats.frames_ok, time.perf_counter()
    time.sleep(0.5)
    rate = (link.stats.frames_ok - before) / (time.perf_counter() - t0)
    out(f"device: {link.device[4] if link.device else 'no HELLO yet'}; link synced; "
        f"{rate:.1f} frames/s from the device (heartbeat every 250 ms); the device scans on its own")
    if link.error is not None:
        out(f"protocol problem: {link.error}")


def report_link_stats(board: HardwareBoard, out: Out) -> None:
    stats = serial_link(board).stats
    out(f"link: {stats.frames_ok} frames ok, {stats.frames_bad} bad, {stats.lost} lost, "
        f"{stats.stale} late or repeated (dropped), {stats.restarts} device restarts, "
        f"{stats.jumps} impossible press counts (discarded), {stats.reconnects} connects, "
        f"{stats.led_acks}/{stats.led_frames_sent} LED frames acknowledged")


BACKEND = Backend(
    name="serial",
    open=open_link,
    checks=(Check("link", check_link), Check("link statistics", report_link_stats, after_watch=True)),
    parse=parse,
    defaults=SerialConfig(),
    led_drivers=("serial",),
    default_led_driver="serial",
    default_buttons=DEFAULT_BUTTONS,
)
