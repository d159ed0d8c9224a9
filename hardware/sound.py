"""The board's buzzer: notes played on a GPIO pin (gpiozero `TonalBuzzer` for
a passive buzzer, `Buzzer` for an active one that has a single pitch).

`play(notes)` blocks for as long as the notes last: the cue sinks run it on
their own thread (`controller.cues.sinks.ThreadedSink`), never on the board
loop. The serial design plays notes on the Pico instead (`SerialLink.tone`).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from damka.hardware.gpio_matrix import Gpiozero

Notes = Sequence[tuple[int, int]]


class GpioBuzzer:
    """A buzzer on a BCM pin. `tonal`: a passive buzzer playing each note's
    pitch (clamped to the range TonalBuzzer allows); else on/off beeps."""

    def __init__(self, pin: int, *, tonal: bool = True, pin_factory: Gpiozero = None) -> None:
        from gpiozero import Buzzer, TonalBuzzer

        self.tonal = tonal
        self.device = TonalBuzzer(pin, octaves=3, pin_factory=pin_factory) if tonal else \
            Buzzer(pin, pin_factory=pin_factory)
        self.played: list[tuple[int, int]] = []  # (frequency or 0, ms) as sounded (the doctor, tests)
        self._stop = threading.Event()

    def _clamp(self, frequency: int) -> float:
        low, high = self.device.min_tone.frequency, self.device.max_tone.frequency
        return min(max(float(frequency), low), high)

    def play(self, notes: Notes) -> None:
        from gpiozero.tones import Tone

        for frequency, ms in notes:
            if self._stop.is_set():
                break
            if frequency and self.tonal:
                self.device.play(Tone.from_frequency(self._clamp(frequency)))
            elif frequency:
                self.device.on()
            else:
                self.device.stop() if self.tonal else self.device.off()
            self.played.append((frequency, ms))
            self._stop.wait(ms / 1000)
        self.device.stop() if self.tonal else self.device.off()

    def close(self) -> None:
        self._stop.set()
        self.device.close()
