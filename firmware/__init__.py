"""MicroPython firmware for the board's microcontroller; pure logic with pins injected, so CPython tests run it."""
