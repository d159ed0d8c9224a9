"""Stand-ins for the MicroPython modules firmware/main.py imports (machine,
micropython, utime, select, rp2, neopixel), so the Pico's own entry point
runs under CPython: the tests and benchmarks/firmware_cost.py use them.
`rp2.DMA` records each transfer whole (`Dma.transfers`), and the chip's
clock knows whether interrupts are held off (`machine.disable_irq`).

The pins are one GPIO word, as on the RP2040 (SIO GPIO_IN): an output pin
pulled low pulls low the inputs it is linked to by a closed switch (`close`),
an input can be set directly (`set_input`, which runs the pin's IRQ handler
as the chip would). USB serial is `usb`: bytes the host sends land in stdin,
and a 0x03 byte while Ctrl-C is on raises KeyboardInterrupt, as MicroPython's
USB CDC does. Not a test module: it holds no tests.
"""

from __future__ import annotations

import dis
import sys
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

SIO_GPIO_IN = 0xD0000004
ALL_HIGH = (1 << 30) - 1


ALLOCATING_OPS = {"BUILD_TUPLE", "BUILD_LIST", "BUILD_MAP", "BUILD_SET", "BUILD_SLICE", "BUILD_STRING",
                  "BUILD_CONST_KEY_MAP", "FORMAT_VALUE", "MAKE_FUNCTION", "LIST_APPEND", "LIST_EXTEND",
                  "RETURN_GENERATOR", "RAISE_VARARGS", "DICT_UPDATE", "UNPACK_EX"}
ALLOCATING_CALLS = {"bytes", "bytearray", "list", "tuple", "dict", "set", "str", "memoryview", "sorted",
                    "enumerate", "zip", "map", "filter", "float", "repr", "format", "iter"}
SMALL_INT = 1 << 30  # MicroPython on the RP2040: ints from 2**30 up are objects on the heap


class AllocationWatch:
    """sys.settrace over the firmware's files, naming every place that would
    allocate on MicroPython: building a tuple, list, dict, set, slice or
    string, a closure, a generator, an exception raised, a call of bytes(),
    list(), str() and the like, a true division (a float), and an int past
    MicroPython's small ints (2**30) left in a local. `seen` maps
    "file:line what" to how often; `count` is their sum. (CPython's own
    allocations, an int past 256 or a frame, cannot tell: the opcodes can.)"""

    def __init__(self, folder: Path) -> None:
        self.folder = str(folder)
        self.seen: dict[str, int] = {}

    def _note(self, frame, what: str) -> None:
        where = f"{Path(frame.f_code.co_filename).name}:{frame.f_lineno} {what}"
        self.seen[where] = self.seen.get(where, 0) + 1

    def _trace(self, frame, event, arg):
        if not frame.f_code.co_filename.startswith(self.folder):
            return None
        frame.f_trace_opcodes = True
        if event == "opcode":
            code = frame.f_code
            op = dis.opname[code.co_code[frame.f_lasti]]
            if op == "BINARY_OP" and code.co_code[frame.f_lasti + 1] in (11, 24):  # / and /=
                self._note(frame, "float division")
            elif op in ALLOCATING_OPS:
                self._note(frame, op)
            elif op in ("LOAD_GLOBAL", "LOAD_NAME"):
                arg_ = code.co_code[frame.f_lasti + 1]
                name = code.co_names[arg_ >> 1 if op == "LOAD_GLOBAL" else arg_]
                if name in ALLOCATING_CALLS:
                    self._note(frame, f"calls {name}()")
        elif event == "return":
            for name, value in frame.f_locals.items():
                if isinstance(value, float) or (isinstance(value, int) and not -SMALL_INT <= value < SMALL_INT):
                    self._note(frame, f"big number in {name}")
        return self._trace

    @property
    def count(self) -> int:
        return sum(self.seen.values())

    def __enter__(self) -> "AllocationWatch":
        sys.settrace(self._trace)
        return self

    def __exit__(self, *exc) -> None:
        sys.settrace(None)


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
        self.irq_on = True  # machine.disable_irq() holds interrupts off
        self.edges: list[tuple[int, int, int]] = []  # (when us, pin, level), in order

    def schedule(self, when_us: int, pin: int, level: int) -> None:
        self.edges.append((when_us, pin, level))
        self.edges.sort()

    def advance(self, us: int, interrupts: bool = True) -> None:
        interrupts = interrupts and self.irq_on
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
    interrupts as they are. Single words put (`put(word, shift)`) are one
    write until the line has been idle for a latch (300 us); `puts` keeps
    each with whether interrupts were on. A DMA transfer (`Dma`) is one write."""

    time: "ChipTime | None" = None

    def __init__(self, sm_id: int, program, freq: int = 0, sideset_base: Pin | None = None) -> None:
        self.id, self.program, self.freq, self.sideset_base = sm_id, program, freq, sideset_base
        self.running = False
        self.sent: list[int] | tuple = ()
        self.shift = 0
        self.writes = 0
        self.puts: list[tuple[int, bool]] = []  # (word as shifted, interrupts on) per single put
        self.idle_from = -10**9  # chip us at which the words put so far are out

    def active(self, on: int) -> None:
        self.running = bool(on)

    def put(self, words, shift: int = 0) -> None:
        assert self.running, "put to a stopped state machine"
        now = self.time.us if self.time is not None else 0
        if isinstance(words, int):
            word = words << shift & 0xFFFFFFFF
            self.puts.append((word, self.time.irq_on if self.time is not None else True))
            if now - self.idle_from > 300 or not isinstance(self.sent, list):
                self.sent, self.shift = [], 0
                self.writes += 1
            self.sent.append(word)
            self.idle_from = max(now, self.idle_from) + 30
            if self.time is not None and self.idle_from - now > 120:  # the FIFO is full: wait a word
                self.time.advance(30)
            return
        self.sent, self.shift = words, shift  # what the FIFO takes, decoded when asked (`words`)
        self.writes += 1
        if self.time is not None:
            self.time.advance(30 * max(0, len(words) - 4))  # all but the FIFO's 4 words

    def take_dma(self, words: "Words") -> None:
        assert self.running, "DMA to a stopped state machine"
        self.sent, self.shift = words, 0
        self.writes += 1

    @property
    def words(self) -> list[int]:
        return [w << self.shift & 0xFFFFFFFF for w in self.sent]

    @property
    def leds(self) -> list[tuple[int, int, int]]:
        """(r, g, b) per LED, decoded from what was sent (GRB, the top 24 bits)."""
        return [(w >> 16 & 0xFF, w >> 24 & 0xFF, w >> 8 & 0xFF) for w in self.words]


class Words(list):
    """Little-endian 32-bit words of a buffer, decoded when first looked at
    (the benchmark times the firmware, not the stub)."""

    def __init__(self, data: bytes) -> None:
        super().__init__()
        self.data = data

    def _decoded(self) -> None:
        if self.data:
            data, self.data = self.data, b""
            self.extend(int.from_bytes(data[k:k + 4], "little") for k in range(0, len(data), 4))

    def __len__(self) -> int:
        return len(self.data) // 4 if self.data else list.__len__(self)

    def __iter__(self):
        self._decoded()
        return list.__iter__(self)

    def __getitem__(self, index):
        self._decoded()
        return list.__getitem__(self, index)


class Dma:
    """rp2.DMA feeding a state machine's TX FIFO: `config(..., trigger=True)`
    moves `count` little-endian words from `read` to `write` (a StateMachine)
    as one transfer, whatever the CPU does meanwhile; `active()` while the
    FIFO still takes them (30 us a word). `transfers` keeps each: (words,
    the state machine, the ctrl fields packed, chip us at the start)."""

    time: "ChipTime | None" = None
    made: list["Dma"] = []

    def __init__(self) -> None:
        self.fields: dict[int, dict] = {}
        self.transfers: list[tuple[Words, StateMachine, dict, int]] = []
        self.ends = 0
        Dma.made.append(self)

    def pack_ctrl(self, **fields) -> int:
        value = 0x1000 + len(self.fields)
        self.fields[value] = fields
        return value

    def config(self, read=None, write=None, count=None, ctrl=None, trigger=False) -> None:
        assert read is not None and write is not None and count is not None and ctrl in self.fields and trigger
        assert len(read) >= 4 * count, "DMA would read past the buffer"
        words = Words(bytes(read[:4 * count]))
        now = self.time.us if self.time is not None else 0
        self.transfers.append((words, write, self.fields[ctrl], now))
        write.take_dma(words)
        self.ends = now + 30 * count

    def active(self, on: int | None = None) -> bool:
        if on is not None and not on:
            self.ends = 0  # aborted
        return self.time is not None and self.time.us < self.ends


class Usb:
    """USB CDC: stdin/stdout of the firmware, and Ctrl-C as MicroPython has it."""

    def __init__(self, micropython: types.ModuleType) -> None:
        self.micropython = micropython
        self.inbox = bytearray()
        self.sent = bytearray()
        self.stdin = types.SimpleNamespace(buffer=types.SimpleNamespace(read=self._read, readinto=self._readinto))
        self.stdout = types.SimpleNamespace(buffer=types.SimpleNamespace(write=self.sent.extend))

    def host_sends(self, data: bytes) -> None:
        if self.micropython.interrupt_char == 3 and 3 in data:
            raise KeyboardInterrupt("Ctrl-C from the host's bytes")
        self.inbox += data

    def _read(self, n: int) -> bytes:
        data, self.inbox[:n] = bytes(self.inbox[:n]), b""
        return data

    def _readinto(self, buf) -> int:
        n = len(buf)
        assert len(self.inbox) >= n, "stdin's readinto would block: fewer bytes wait than asked"
        buf[:n], self.inbox[:n] = self.inbox[:n], b""
        return n


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


def make_modules(dma: bool = True) -> tuple[dict[str, types.ModuleType], Usb, ChipTime]:
    """The stub modules, USB, and the chip's clock (sleep_ms and sleep_us move
    it). `dma`: whether rp2 has DMA (MicroPython 1.21 and later)."""
    Pin.gpio = Gpio()
    time = ChipTime(Pin.gpio)
    StateMachine.time = NeoPixel.time = Dma.time = time
    Dma.made = []
    machine = types.ModuleType("machine")
    machine.Pin, machine.PWM, machine.mem32 = Pin, Pwm, Mem32(Pin.gpio)

    def disable_irq() -> bool:
        state, time.irq_on = time.irq_on, False
        return state

    def enable_irq(state: bool) -> None:
        time.irq_on = state

    machine.disable_irq, machine.enable_irq = disable_irq, enable_irq
    micropython = types.ModuleType("micropython")
    micropython.interrupt_char = 3  # MicroPython's default: Ctrl-C interrupts
    micropython.kbd_intr = lambda c: setattr(micropython, "interrupt_char", c)
    micropython.alloc_emergency_exception_buf = lambda size: None
    utime = types.ModuleType("utime")
    utime.ticks_ms = lambda: time.us // 1000
    utime.ticks_us = lambda: time.us
    utime.ticks_add = lambda a, b: a + b
    utime.ticks_diff = lambda a, b: a - b
    utime.sleep_ms = lambda ms: time.advance(ms * 1000)
    utime.sleep_us = lambda us: time.advance(us)
    rp2 = types.ModuleType("rp2")
    rp2.PIO = types.SimpleNamespace(OUT_LOW=0, OUT_HIGH=1, SHIFT_LEFT=0, SHIFT_RIGHT=1)
    rp2.asm_pio = lambda **options: (lambda program: program)  # assembled only on the chip
    rp2.StateMachine = StateMachine
    if dma:
        rp2.DMA = Dma
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

        def ipoll(self, timeout: int) -> Iterator[tuple]:
            return iter([(usb.stdin, 1)] if usb.inbox else [])

    select.poll = Poll
    modules = {"machine": machine, "micropython": micropython, "utime": utime, "rp2": rp2,
               "neopixel": neopixel, "select": select}
    return modules, usb, time


@contextmanager
def installed(firmware_dir: str, flat: tuple[str, ...], dma: bool = True) -> Iterator[tuple[dict, Usb, ChipTime]]:
    """The stubs in sys.modules and the firmware folder on sys.path (flat
    imports, as on the Pico), undone afterwards."""
    modules, usb, time = make_modules(dma)
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
