"""The WS2812 LED chain on one of the RP2040's PIO state machines
(MicroPython's `rp2`). The state machine clocks the bits out by itself from
its FIFO, so writing the chain never switches interrupts off: the bit-banged
`neopixel.write` did, for about 2.5 ms per 81 LEDs, and encoder edges in that
window were lost. Only on the Pico (the tests give `rp2` as a stub).

Plain MicroPython-compatible Python: no f-strings, dataclasses or typing.
"""

import rp2


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


class PioChain:
    """`write(words)`: an array("I") of 24-bit GRB words in chain order
    (lights.grb), shifted up by 8 so the state machine sends the top 24 bits."""

    def __init__(self, pin, count, state_machine=0):
        self.count = count
        self.sm = rp2.StateMachine(state_machine, ws2812, freq=8000000, sideset_base=pin)
        self.sm.active(1)

    def write(self, words):
        self.sm.put(words, 8)
