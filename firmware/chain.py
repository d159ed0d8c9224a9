"""The WS2812 LED chain on one of the RP2040's PIO state machines
(MicroPython's `rp2`). The state machine clocks the bits out by itself from
its FIFO, and a DMA channel feeds the FIFO (`rp2.DMA`, MicroPython 1.21 or
later): a chain write costs the CPU one call, and no interrupt can pause it.
With the CPU feeding the 4-word FIFO (120 us of bits), a USB receive
interrupt (about 350 us a packet) emptied it mid-write: the line stayed low
long enough to latch, and the rest of the frame landed on the first LEDs.
Without rp2.DMA the words are put with interrupts off for the 2.4 ms of the
write (an encoder edge then waits, latched, until it ends). Only on the Pico
(the tests give `rp2`, `machine` and `utime` as stubs).

Plain MicroPython-compatible Python: no f-strings, dataclasses or typing.
"""

import machine
import rp2
import utime

WORD_US = 30       # one LED's 24 bits at 800 kHz
LATCH_US = 300     # the line low this long ends a frame (WS2812B-V5 parts need 280 us)


# The WS2812 program of the RP2040 datasheet and MicroPython's examples: at
# 8 MHz one bit is 10 cycles (1.25 us): high 2 cycles for a 0, 7 for a 1.
@rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_LEFT, autopull=True, pull_thresh=24)
def ws2812():
    T1 = 2
    T2 = 5
    T3 = 3
    wrap_target()
    label("bitloop")
    out(x, 1)               .side(0)    [T3 - 1]
    jmp(not_x, "do_zero")   .side(1)    [T1 - 1]
    jmp("bitloop")          .side(1)    [T2 - 1]
    label("do_zero")
    nop()                   .side(0)    [T2 - 1]
    wrap()


def dreq(state_machine):
    """The DMA pacing request of a state machine's TX FIFO: PIO0 TX0-3 are
    0-3, PIO1 TX0-3 are 8-11 (RP2040 datasheet, DREQ_PIO0_TX0)."""
    return (state_machine >> 2) * 8 + (state_machine & 3)


class PioChain:
    """`write(buf)`: the chain's bytes (lights.LedImage: per LED one
    little-endian word, GRB in its top 24 bits, which the state machine
    shifts out). A write waits for the one before to end and latch; the
    buffer must not change until the next write (LedImage takes turns)."""

    wire = True  # write() takes lights.LedImage's bytes

    def __init__(self, pin, count, state_machine=0):
        self.count = count
        self.sm = rp2.StateMachine(state_machine, ws2812, freq=8000000, sideset_base=pin)
        self.sm.active(1)
        self.put = self.sm.put          # a bound method, made once
        self.busy_us = count * WORD_US + LATCH_US
        self.started = utime.ticks_add(utime.ticks_us(), -self.busy_us)  # free at once
        self.dma = None
        if hasattr(rp2, "DMA"):
            self.dma = rp2.DMA()
            self.ctrl = self.dma.pack_ctrl(size=2, inc_write=False, treq_sel=dreq(state_machine))

    def write(self, buf):
        self.wait()
        self.started = utime.ticks_us()
        if self.dma is not None:
            self.dma.config(read=buf, write=self.sm, count=self.count, ctrl=self.ctrl, trigger=True)
        else:
            self.put_all(buf)

    def sending(self):
        """Whether DMA is still feeding the chain the last write."""
        return self.dma is not None and self.dma.active()

    def wait(self):
        """Until the last write is out and latched (at most its 2.7 ms: rare,
        a frame arriving just after a blink edge was drawn)."""
        left = self.busy_us - utime.ticks_diff(utime.ticks_us(), self.started)
        if left > 0:
            utime.sleep_us(left)
        if self.dma is not None and self.dma.active():
            self.dma.active(0)  # never so (the words take 2.4 ms): a stalled transfer is dropped, not waited for

    def put_all(self, buf):
        """The words by the CPU, interrupts held off so the FIFO never runs dry."""
        put = self.put
        state = machine.disable_irq()
        for k in range(0, len(buf), 4):
            put(buf[k + 3] << 16 | buf[k + 2] << 8 | buf[k + 1], 8)
        machine.enable_irq(state)
