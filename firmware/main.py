"""Entry point on the Raspberry Pi Pico (MicroPython): wire the real pins,
the WS2812 chain and USB serial into `device.Device` and run it.

Edit the pin numbers below to match your wiring (docs/wiring.md).
"""

# First of all, before any import: Ctrl-C (0x03) off. The host may send its
# HELLO and a LEDS frame (which often holds 0x03) while the modules below
# load; with Ctrl-C on, such a byte stops the firmware in the REPL.
import micropython

micropython.kbd_intr(-1)

import select  # noqa: E402 - Ctrl-C is off first
import sys  # noqa: E402

import machine  # noqa: E402
import utime  # noqa: E402

import chain  # noqa: E402
import device  # noqa: E402
import encoder  # noqa: E402
import scan  # noqa: E402

ROW_PINS = (0, 1, 2, 3, 4, 5, 6, 7, 8)           # GP0-GP8: driven, one low at a time
COL_PINS = (9, 10, 11, 12, 13, 14, 15, 16, 17)   # GP9-GP17: inputs, pulled up
KEY_ROW_PIN = 18                                 # GP18: the buttons' row, read through C0-C8
# The buttons on the key row, by column (index = column = [buttons] index):
BUTTONS = ("clock0", "clock1", "clock2", "clock3", "hint", "takeback", "menu", "ok")
BUTTON_PINS = tuple(COL_PINS[i] for i in range(len(BUTTONS)))  # the column each is read on
MENU_BUTTON = 6                                  # hold at power-up for the REPL
ENCODER_PINS = (19, 20)                          # GP19 A, GP20 B (None: no encoder); push = ok
BUZZER_PIN = 21                                  # GP21: PWM to the buzzer's transistor (None: none)
LED_PIN = 28                                     # WS2812 data (through a 3.3->5 V level shifter)
LED_BUDGET_MA = 1500                             # the 5 V supply's spare current for the LEDs
LED_STATE_MACHINE = 0                            # the PIO state machine clocking the LED chain
SIO_GPIO_IN = 0xD0000004                         # RP2040: every GPIO's input level, one word

if hasattr(micropython, "alloc_emergency_exception_buf"):  # ports with a fixed buffer lack it
    micropython.alloc_emergency_exception_buf(100)  # a fault in the encoder's hard IRQ can be reported


class UsbSerial:
    """USB CDC through stdin/stdout, binary-safe: Ctrl-C (0x03) must not
    interrupt us, since it can occur inside a frame (it is off from the
    first line of this file). Reading and writing make no object: `ipoll`
    (not `poll`, which returns a new list) says whether a byte waits, and
    bytes are read one at a time into a buffer kept for it (stdin's
    `readinto` waits for as many bytes as asked)."""

    takes_views = True  # write() is given a memoryview: written at once, not kept

    def __init__(self):
        poller = select.poll()
        poller.register(sys.stdin, select.POLLIN)
        self.ipoll = poller.ipoll  # type: ignore[attr-defined]  # MicroPython's; bound methods, made once
        self.read_one = sys.stdin.buffer.readinto  # type: ignore[union-attr]  # MicroPython's stdio has it
        self.one = bytearray(1)
        self.out = sys.stdout.buffer

    def readinto(self, buf):
        """The bytes waiting now, up to len(buf), into buf; how many. (Few
        locals: a frame over 11 words would be allocated at each call.)"""
        n = 0
        while n < len(buf):
            for _ in self.ipoll(0):
                break
            else:
                return n  # nothing (more) waiting
            if not self.read_one(self.one):
                return n  # the host went away mid-read
            buf[n] = self.one[0]
            n += 1
        return n

    def write(self, data):
        self.out.write(data)


def column_reader():
    """All the columns in one read of the GPIO input register (a closed
    switch reads low), or None when the column pins are not consecutive."""
    first = COL_PINS[0]
    if tuple(COL_PINS) != tuple(range(first, first + len(COL_PINS))):
        return None
    mem32 = machine.mem32
    full = (1 << len(COL_PINS)) - 1

    def read_cols():
        return (~mem32[SIO_GPIO_IN] >> first) & full
    return read_cols


def settle():
    utime.sleep_us(5)


def build():
    rows = [machine.Pin(n, machine.Pin.OUT, value=1) for n in ROW_PINS]
    cols = [machine.Pin(n, machine.Pin.IN, machine.Pin.PULL_UP) for n in COL_PINS]
    read_cols = column_reader()
    keys = scan.KeyRow(machine.Pin(KEY_ROW_PIN, machine.Pin.OUT, value=1), cols, len(BUTTONS),
                       settle=settle, read_cols=read_cols)
    pixels = chain.PioChain(machine.Pin(LED_PIN), len(ROW_PINS) * len(COL_PINS), LED_STATE_MACHINE)
    return device.Device(
        scan.PinMatrix(rows, cols, settle=settle, read_cols=read_cols),
        UsbSerial(),
        pixels,
        utime.ticks_ms,
        utime.ticks_diff,
        buttons=scan.ButtonBank(keys.pins, source=keys),
        rows=len(ROW_PINS),
        cols=len(COL_PINS),
        budget_ma=LED_BUDGET_MA,
        encoder=build_encoder(),
        buzzer=machine.PWM(machine.Pin(BUZZER_PIN)) if BUZZER_PIN is not None else None,
    )


def build_encoder():
    """The encoder, fed from hard pin interrupts so no step is lost between
    scans, nor while the loop is busy (the decoder allocates nothing)."""
    if ENCODER_PINS is None:
        return None
    a, b = (machine.Pin(n, machine.Pin.IN, machine.Pin.PULL_UP) for n in ENCODER_PINS)
    knob = encoder.Encoder(a, b)
    for pin in (a, b):
        pin.irq(knob.poll, machine.Pin.IRQ_RISING | machine.Pin.IRQ_FALLING, hard=True)
    knob.by_irq = True
    return knob


def repl_wanted():
    """Hold the MENU button while plugging in to get the REPL instead of the
    protocol: once running, Ctrl-C is switched off."""
    machine.Pin(KEY_ROW_PIN, machine.Pin.OUT, value=0)
    pin = machine.Pin(COL_PINS[MENU_BUTTON], machine.Pin.IN, machine.Pin.PULL_UP)
    utime.sleep_us(5)
    return pin.value() == 0


def main(until=None):
    """Run the board (until `until()` is true: tests), or with MENU held give the REPL back."""
    if repl_wanted():
        micropython.kbd_intr(3)
        print("damka: MENU held, staying in the REPL")
        return
    board = build()
    pixels = board.pixels
    decoder = board.decoder

    def rest():
        # 1 ms between polls, unless a frame is partly read (the rest is
        # read at once, RX_BYTES a poll, each poll scanning) or DMA is
        # feeding the LED chain (the emulated chip, rp2040js, runs the PIO
        # across a core's sleep without its DMA, so the FIFO would run dry
        # there; on the chip it costs a few more scans per write).
        if not decoder.n and not pixels.sending():
            utime.sleep_ms(1)

    try:
        board.run(sleep_ms=rest, until=until)
    finally:
        micropython.kbd_intr(3)


if __name__ == "__main__":
    main()
