"""Entry point on the Raspberry Pi Pico (MicroPython): wire the real pins,
the WS2812 chain and USB serial into `device.Device` and run it.

Edit the pin numbers below to match your wiring (docs/wiring.md).
"""

import select
import sys

import machine
import micropython
import neopixel
import utime

import device
import encoder
import scan

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


class UsbSerial:
    """USB CDC through stdin/stdout, binary-safe: Ctrl-C (0x03) must not
    interrupt us, since it can occur inside a frame."""

    def __init__(self):
        micropython.kbd_intr(-1)
        self.poller = select.poll()
        self.poller.register(sys.stdin, select.POLLIN)
        self.inp = sys.stdin.buffer
        self.out = sys.stdout.buffer

    def read(self):
        data = bytearray()
        while len(data) < 256 and self.poller.poll(0):
            data.extend(self.inp.read(1))
        return bytes(data)

    def write(self, data):
        self.out.write(data)


def build():
    rows = [machine.Pin(n, machine.Pin.OUT, value=1) for n in ROW_PINS]
    cols = [machine.Pin(n, machine.Pin.IN, machine.Pin.PULL_UP) for n in COL_PINS]
    keys = scan.KeyRow(machine.Pin(KEY_ROW_PIN, machine.Pin.OUT, value=1), cols, len(BUTTONS),
                       settle=lambda: utime.sleep_us(5))
    pixels = neopixel.NeoPixel(machine.Pin(LED_PIN), len(ROW_PINS) * len(COL_PINS))
    return device.Device(
        scan.PinMatrix(rows, cols, settle=lambda: utime.sleep_us(5)),
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
    """The encoder, fed from pin interrupts so no step is lost between scans."""
    if ENCODER_PINS is None:
        return None
    a, b = (machine.Pin(n, machine.Pin.IN, machine.Pin.PULL_UP) for n in ENCODER_PINS)
    knob = encoder.Encoder(a, b)
    for pin in (a, b):
        pin.irq(knob.poll, machine.Pin.IRQ_RISING | machine.Pin.IRQ_FALLING)
    return knob


def repl_wanted():
    """Hold the MENU button while plugging in to get the REPL instead of the
    protocol: once running, Ctrl-C is switched off."""
    machine.Pin(KEY_ROW_PIN, machine.Pin.OUT, value=0)
    pin = machine.Pin(COL_PINS[MENU_BUTTON], machine.Pin.IN, machine.Pin.PULL_UP)
    utime.sleep_us(5)
    return pin.value() == 0


def main():
    if repl_wanted():
        print("damka: MENU held, staying in the REPL")
        return
    board = build()
    try:
        board.run(sleep_ms=lambda: utime.sleep_ms(1))
    finally:
        micropython.kbd_intr(3)


if __name__ == "__main__":
    main()
