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

    def set_input(self, n: int, level: int, interrupts: bool = True) -> bool:
        """An input pin changes (an encoder contact): its IRQ handler runs,
        unless interrupts are off. Whether the level changed."""
        before = self.word >> n & 1
        if level:
            self.word |= 1 << n
        else:
            self.word &= ~(1 << n)
        if interrupts and before != level:
            self.interrupt(n)
        return before != level

    def interrupt(self, n: int) -> None:
        pin = self.pins.get(n)
        if pin is not None and pin.handler is not None:
            pin.handler(pin)


class ChipTime:
    """The chip's clock in microseconds. Pin changes scheduled on it happen as
    it passes them: with interrupts on, each runs its pin's IRQ handler at
    once; with them off (the bit-banged neopixel write), the chip latches one
    pending interrupt per pin and its handler runs once they are back on,
    seeing only the levels of then."""

    def __init__(self, gpio: Gpio) -> None:
        self.us = 0
        self.gpio = gpio
        self.edges: list[tuple[int, int, int]] = []  # (when us, pin, level), in order

    def schedule(self, when_us: int, pin: int, level: int) -> None:
        self.edges.append((when_us, pin, level))
        self.edges.sort()

    def advance(self, us: int, interrupts: bool = True) -> None:
        end = self.us + us
        pending: list[int] = []
        while self.edges and self.edges[0][0] <= end:
            when, pin, level = self.edges.pop(0)
            self.us = max(self.us, when)
            if self.gpio.set_input(pin, level, interrupts) and not interrupts and pin not in pending:
                pending.append(pin)
        self.us = end
        for pin in pending:
            self.gpio.interrupt(pin)


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
    """rp2.StateMachine: `put(words, shift)` keeps what reached the FIFO. The
    CPU waits in put while the FIFO is full (30 us a word at 800 kHz), with
    interrupts on."""

    time: "ChipTime | None" = None

    def __init__(self, sm_id: int, program, freq: int = 0, sideset_base: Pin | None = None) -> None:
        self.id, self.program, self.freq, self.sideset_base = sm_id, program, freq, sideset_base
        self.running = False
        self.sent, self.shift = (), 0
        self.writes = 0

    def active(self, on: int) -> None:
        self.running = bool(on)

    def put(self, words, shift: int = 0) -> None:
        assert self.running, "put to a stopped state machine"
        self.sent, self.shift = words, shift  # what the FIFO takes, decoded when asked (`words`)
        self.writes += 1
        if self.time is not None:
            self.time.advance(30 * max(0, len(words) - 4))  # all but the FIFO's 4 words

    @property
    def words(self) -> list[int]:
        return [w << self.shift & 0xFFFFFFFF for w in self.sent]

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


class NeoPixel:
    """neopixel.NeoPixel as the firmware before PIO used it. MicroPython's
    own is Python too (micropython/drivers/led/neopixel): a pixel is set by
    a Python `__setitem__` into a GRB bytearray, as here; `write` bit-bangs
    the chain (machine.bitstream) with interrupts off, about 2.5 ms for 81 LEDs."""

    ORDER = (1, 0, 2, 3)
    time: "ChipTime | None" = None

    def __init__(self, pin: Pin, n: int, bpp: int = 3) -> None:
        self.pin, self.n, self.bpp = pin, n, bpp
        self.buf = bytearray(n * bpp)
        self.writes = 0

    def __setitem__(self, index: int, val) -> None:
        offset = index * self.bpp
        for i in range(self.bpp):
            self.buf[offset + self.ORDER[i]] = val[i]

    def write(self) -> None:
        self.writes += 1
        if self.time is not None:
            self.time.advance(self.n * 24 * 5 // 4 + 50, interrupts=False)


def make_modules() -> tuple[dict[str, types.ModuleType], Usb, ChipTime]:
    """The stub modules, USB, and the chip's clock (sleep_ms and sleep_us move it)."""
    Pin.gpio = Gpio()
    time = ChipTime(Pin.gpio)
    StateMachine.time = NeoPixel.time = time
    machine = types.ModuleType("machine")
    machine.Pin, machine.PWM, machine.mem32 = Pin, Pwm, Mem32(Pin.gpio)
    micropython = types.ModuleType("micropython")
    micropython.interrupt_char = 3  # MicroPython's default: Ctrl-C interrupts
    micropython.kbd_intr = lambda c: setattr(micropython, "interrupt_char", c)
    micropython.alloc_emergency_exception_buf = lambda size: None
    utime = types.ModuleType("utime")
    utime.ticks_ms = lambda: time.us // 1000
    utime.ticks_diff = lambda a, b: a - b
    utime.sleep_ms = lambda ms: time.advance(ms * 1000)
    utime.sleep_us = lambda us: time.advance(us)
    rp2 = types.ModuleType("rp2")
    rp2.PIO = types.SimpleNamespace(OUT_LOW=0, OUT_HIGH=1, SHIFT_LEFT=0, SHIFT_RIGHT=1)
    rp2.asm_pio = lambda **options: (lambda program: program)  # assembled only on the chip
    rp2.StateMachine = StateMachine
    neopixel = types.ModuleType("neopixel")  # what the firmware before PIO imported
    neopixel.NeoPixel = NeoPixel
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
    return modules, usb, time


@contextmanager
def installed(firmware_dir: str, flat: tuple[str, ...]) -> Iterator[tuple[dict, Usb, ChipTime]]:
    """The stubs in sys.modules and the firmware folder on sys.path (flat
    imports, as on the Pico), undone afterwards."""
    modules, usb, time = make_modules()
    saved = {name: sys.modules.get(name) for name in (*modules, *flat)}
    sys.modules.update(modules)
    for name in flat:
        sys.modules.pop(name, None)
    sys.path.insert(0, firmware_dir)
    try:
        yield modules, usb, time
    finally:
        sys.path.remove(firmware_dir)
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
