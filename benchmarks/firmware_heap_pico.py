# Runs inside MicroPython (benchmarks/firmware_heap.py loads it into the
# webassembly port): stand-ins for the Pico's modules that allocate nothing
# per call themselves, then main.build() and a minute of polls, idle and with
# LEDS frames, measuring the heap with the collector off.
# Plain MicroPython: no f-strings, no typing.

import gc
import sys

CHUNK = 64 * 1024   # what the host "USB" keeps of the board's writes


class Clock:
    def __init__(self):
        self.us = 0

    def ticks_ms(self):
        return self.us // 1000

    def ticks_us(self):
        return self.us

    def sleep_us(self, us):
        self.us += us

    def sleep_ms(self, ms):
        self.us += ms * 1000


CLOCK = Clock()


class Module:
    pass


class Pin:
    OUT, IN, PULL_UP = 1, 0, 2
    IRQ_RISING, IRQ_FALLING = 1, 2

    def __init__(self, n, mode=None, pull=None, value=None):
        self.n = n
        self.level = 1

    def value(self, v=None):
        if v is None:
            return self.level
        self.level = v

    def irq(self, handler, trigger, hard=False):
        self.handler = handler


class Mem32:
    def __getitem__(self, address):
        return 0x3FFFFFFF  # every GPIO high: no switch closed


class Pwm:
    def __init__(self, pin):
        pass

    def freq(self, hz):
        pass

    def duty_u16(self, duty):
        pass


class StateMachine:
    def __init__(self, sm_id, program, freq=0, sideset_base=None):
        self.puts = 0

    def active(self, on):
        pass

    def put(self, value, shift=0):
        self.puts += 1


class Dma:
    def __init__(self):
        self.transfers = 0
        self.last = None

    def pack_ctrl(self, size=2, inc_write=True, treq_sel=0):
        return 1

    def config(self, read=None, write=None, count=None, ctrl=None, trigger=False):
        self.transfers += 1
        self.last = read

    def active(self, on=None):
        return False


DMAS = []


def make_dma():
    dma = Dma()
    DMAS.append(dma)
    return dma


class Usb:
    """stdin/stdout: what the host sends waits in `inbox` (read from `at`),
    what the board writes is counted and the first CHUNK bytes kept."""

    def __init__(self):
        self.inbox = bytearray(4096)
        self.at = 0
        self.end = 0
        self.out = bytearray(CHUNK)
        self.written = 0
        self.buffer = self
        self.ready = ((self, 1),)

    def send(self, frame):
        # Host side, between polls: compact, then append (no slice objects).
        n = self.end - self.at
        for i in range(n):
            self.inbox[i] = self.inbox[self.at + i]
        self.at, self.end = 0, n
        for b in frame:
            self.inbox[self.end] = b
            self.end += 1

    def read(self, n):  # the firmware before issue 37 read a byte at a time as bytes
        out = bytes(self.inbox[self.at:self.at + n])
        self.at += n
        return out

    def readinto(self, buf):
        n = len(buf)
        for i in range(n):
            buf[i] = self.inbox[self.at]
            self.at += 1
        return n

    def write(self, data):
        for b in data:
            if self.written < CHUNK:
                self.out[self.written] = b
            self.written += 1
        return len(data)


USB = Usb()


class Poll:
    def register(self, stream, mask):
        pass

    def poll(self, timeout):  # what the firmware before issue 37 called: a new list, as MicroPython's
        return [(USB, 1)] if USB.at < USB.end else []

    def ipoll(self, timeout):
        return USB.ready if USB.at < USB.end else ()


def install():
    machine = Module()
    machine.Pin, machine.PWM, machine.mem32 = Pin, Pwm, Mem32()
    machine.disable_irq = lambda: 0
    machine.enable_irq = lambda state: None
    utime = Module()
    utime.ticks_ms, utime.ticks_us = CLOCK.ticks_ms, CLOCK.ticks_us
    utime.ticks_diff = lambda a, b: a - b
    utime.ticks_add = lambda a, b: a + b
    utime.sleep_ms, utime.sleep_us = CLOCK.sleep_ms, CLOCK.sleep_us
    rp2 = Module()
    rp2.PIO = Module()
    rp2.PIO.OUT_LOW, rp2.PIO.OUT_HIGH, rp2.PIO.SHIFT_LEFT, rp2.PIO.SHIFT_RIGHT = 0, 1, 0, 1
    rp2.asm_pio = lambda **options: (lambda program: program)
    rp2.StateMachine = StateMachine
    rp2.DMA = make_dma
    select = Module()
    select.POLLIN = 1
    select.poll = Poll
    fake_sys = Module()
    fake_sys.stdin = USB
    fake_sys.stdout = USB
    sys.modules["machine"] = machine
    sys.modules["utime"] = utime
    sys.modules["rp2"] = rp2
    sys.modules["select"] = select
    return fake_sys


def run(polls, frames, every):
    """`polls` polls 1 ms apart, the next of `frames` (in turn) every `every` polls."""
    board = BOARD[0]
    for i in range(polls):
        if every and i % every == 0:
            USB.send(frames[SENT[0] % len(frames)])
            SENT[0] += 1
        CLOCK.us += 1000
        board.poll()


BOARD = []
SENT = [0]


def measure(name, polls, frames, every):
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    written = USB.written
    transfers = DMAS[0].transfers if DMAS else 0
    run(polls, frames, every)
    grown = gc.mem_alloc() - before
    gc.enable()
    print("RESULT", name, polls, grown, USB.written - written, (DMAS[0].transfers if DMAS else 0) - transfers)


def main_(frames, minute):
    fake_sys = install()
    sys.path.append("/fw")
    import micropython
    if not hasattr(micropython, "kbd_intr"):
        fake = Module()
        fake.kbd_intr = lambda c: None
        sys.modules["micropython"] = fake
    import main
    main.sys = fake_sys
    board = main.build()
    BOARD.append(board)
    board.start()
    run(300, frames, 50)  # warm: the usual frame lengths have their views
    measure("idle", minute, (), 0)
    measure("leds", minute, frames, 50)
