"""Stand-ins for the MicroPython modules firmware/main.py imports (machine,
micropython, utime, select, rp2, neopixel), so the Pico's own entry point
runs under CPython: the tests and benchmarks/firmware_cost.py use them.

The pins are one GPIO word, as on the RP2040 (SIO GPIO_IN): an output pin
pulled low pulls low the inputs it is linked to by a closed switch (`close`),
an input can be set directly (`set_input`, which runs the pin's IRQ handler
as the chip would). USB serial is `usb`: bytes the host sends land in stdin,
and a 0x03 byte while Ctrl-C is on raises KeyboardInterrupt, as MicroPython's
USB CDC does. Not a test module: it holds no tests.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager

SIO_GPIO_IN = 0xD0000004
ALL_HIGH = (1 << 30) - 1


class Gpio:
    """Every pin's level in one word; closed switches between pins."""

    def __init__(self) -> None:
        self.word = ALL_HIGH
        self.links: dict[int, int] = {}   # output pin -> input pins it pulls low while low
        self.pins: dict[int, "Pin"] = {}

    def drive(self, n: int, level: int) -> None:
        links = self.links.get(n, 0)
        if level:
            self.word |= (1 << n) | links
        else:
            self.word &= ~((1 << n) | links)

    def close(self, out_pin: int, in_pin: int, closed: bool = True) -> None:
        """A switch (and its diode) between a row pin and a column pin."""
        if closed:
            self.links[out_pin] = self.links.get(out_pin, 0) | 1 << in_pin
        else:
            self.links[out_pin] = self.links.get(out_pin, 0) & ~(1 << in_pin)

    def set_input(self, n: int, level: int) -> None:
        """An input pin changes (an encoder contact): its IRQ handler runs."""
        before = self.word >> n & 1
        if level:
            self.word |= 1 << n
        else:
            self.word &= ~(1 << n)
        pin = self.pins.get(n)
        if pin is not None and pin.handler is not None and before != level:
            pin.handler(pin)


class Pin:
    OUT, IN, PULL_UP = 1, 0, 2
    IRQ_RISING, IRQ_FALLING = 1, 2
    gpio = Gpio()

    def __init__(self, n: int, mode: int | None = None, pull: int | None = None, value: int | None = None) -> None:
        self.n, self.mode, self.pull = n, mode, pull
        self.handler: Callable | None = None
        self.hard = False
        self.gpio.pins[n] = self
        if value is not None:
            self.value(value)

    @property
    def level(self) -> int:
        return self.gpio.word >> self.n & 1

    def value(self, v: int | None = None) -> int | None:
        if v is None:
            return self.gpio.word >> self.n & 1
        self.gpio.drive(self.n, v)
        return None

    def irq(self, handler: Callable, trigger: int, hard: bool = False) -> None:
        self.handler, self.hard = handler, hard


class Mem32:
    def __init__(self, gpio: Gpio) -> None:
        self.gpio = gpio

    def __getitem__(self, address: int) -> int:
        assert address == SIO_GPIO_IN, hex(address)
        return self.gpio.word


class Pwm:
    def __init__(self, pin: Pin) -> None:
        self.pin, self.hz, self.duty = pin, 0, 0

    def freq(self, hz: int) -> None:
        self.hz = hz

    def duty_u16(self, duty: int) -> None:
        self.duty = duty


class StateMachine:
    """rp2.StateMachine: `put(words, shift)` keeps what reached the FIFO."""

    def __init__(self, sm_id: int, program, freq: int = 0, sideset_base: Pin | None = None) -> None:
        self.id, self.program, self.freq, self.sideset_base = sm_id, program, freq, sideset_base
        self.running = False
        self.words: list[int] = []
        self.writes = 0

    def active(self, on: int) -> None:
        self.running = bool(on)

    def put(self, words, shift: int = 0) -> None:
        assert self.running, "put to a stopped state machine"
        self.words = [w << shift & 0xFFFFFFFF for w in words]
        self.writes += 1

    @property
    def leds(self) -> list[tuple[int, int, int]]:
        """(r, g, b) per LED, decoded from what was sent (GRB, the top 24 bits)."""
        return [(w >> 16 & 0xFF, w >> 24 & 0xFF, w >> 8 & 0xFF) for w in self.words]


class Usb:
    """USB CDC: stdin/stdout of the firmware, and Ctrl-C as MicroPython has it."""

    def __init__(self, micropython: types.ModuleType) -> None:
        self.micropython = micropython
        self.inbox = bytearray()
        self.sent = bytearray()
        self.stdin = types.SimpleNamespace(buffer=types.SimpleNamespace(read=self._read))
        self.stdout = types.SimpleNamespace(buffer=types.SimpleNamespace(write=self.sent.extend))

    def host_sends(self, data: bytes) -> None:
        if self.micropython.interrupt_char == 3 and 3 in data:
            raise KeyboardInterrupt("Ctrl-C from the host's bytes")
        self.inbox += data

    def _read(self, n: int) -> bytes:
        data, self.inbox[:n] = bytes(self.inbox[:n]), b""
        return data


def make_modules(ticks: list[int]) -> tuple[dict[str, types.ModuleType], Usb]:
    """The stub modules, the clock in `ticks[0]` (ms; sleep_ms moves it)."""
    Pin.gpio = Gpio()
    machine = types.ModuleType("machine")
    machine.Pin, machine.PWM, machine.mem32 = Pin, Pwm, Mem32(Pin.gpio)
    micropython = types.ModuleType("micropython")
    micropython.interrupt_char = 3  # MicroPython's default: Ctrl-C interrupts
    micropython.kbd_intr = lambda c: setattr(micropython, "interrupt_char", c)
    micropython.alloc_emergency_exception_buf = lambda size: None
    utime = types.ModuleType("utime")
    utime.ticks_ms = lambda: ticks[0]
    utime.ticks_diff = lambda a, b: a - b
    utime.sleep_ms = lambda ms: ticks.__setitem__(0, ticks[0] + ms)
    utime.sleep_us = lambda us: None
    rp2 = types.ModuleType("rp2")
    rp2.PIO = types.SimpleNamespace(OUT_LOW=0, OUT_HIGH=1, SHIFT_LEFT=0, SHIFT_RIGHT=1)
    rp2.asm_pio = lambda **options: (lambda program: program)  # assembled only on the chip
    rp2.StateMachine = StateMachine
    neopixel = types.ModuleType("neopixel")  # what the firmware before PIO imported
    neopixel.NeoPixel = lambda pin, n: types.SimpleNamespace(__setitem__=None, write=lambda: None)
    usb = Usb(micropython)
    select = types.ModuleType("select")
    select.POLLIN = 1

    class Poll:
        def register(self, stream, mask: int) -> None:
            pass

        def poll(self, timeout: int) -> list:
            return [(usb.stdin, 1)] if usb.inbox else []

    select.poll = Poll
    modules = {"machine": machine, "micropython": micropython, "utime": utime, "rp2": rp2,
               "neopixel": neopixel, "select": select}
    return modules, usb


@contextmanager
def installed(firmware_dir: str, flat: tuple[str, ...]) -> Iterator[tuple[dict, Usb]]:
    """The stubs in sys.modules and the firmware folder on sys.path (flat
    imports, as on the Pico), undone afterwards."""
    ticks = [0]
    modules, usb = make_modules(ticks)
    saved = {name: sys.modules.get(name) for name in (*modules, *flat)}
    sys.modules.update(modules)
    for name in flat:
        sys.modules.pop(name, None)
    sys.path.insert(0, firmware_dir)
    try:
        yield modules, usb
    finally:
        sys.path.remove(firmware_dir)
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
