"""The simulator plays the board's cues: the same notes the buzzer plays
(`controller.cues.listener.TUNES`), as square waves, written to a WAV file or played
through pygame's mixer when the machine has sound.

Both are players for `controller.cues.sinks.ThreadedSink`, like the buzzer's.
"""

from __future__ import annotations

import threading
import wave
from collections.abc import Sequence
from pathlib import Path

from damka.controller.cues.listener import TUNES, Announcement

RATE = 22_050
VOLUME = 6000  # of 32767: a buzzer, not an alarm


def synth(notes: Sequence[tuple[int, int]], rate: int = RATE) -> bytes:
    """16-bit mono PCM of `notes` ((Hz, ms), 0 Hz silent) as square waves, like a buzzer."""
    out = bytearray()
    for frequency, ms in notes:
        count = rate * ms // 1000
        if not frequency:
            out.extend(b"\x00\x00" * count)
            continue
        half = rate / (2 * frequency)
        for i in range(count):
            level = VOLUME if int(i / half) % 2 == 0 else -VOLUME
            out.extend(level.to_bytes(2, "little", signed=True))
    return bytes(out)


class WavRecorder:
    """Writes every cue played, one after another, into one WAV file (rewritten
    on each cue, so the file is whole whenever it is read)."""

    def __init__(self, path: str | Path, rate: int = RATE) -> None:
        self.path, self.rate = Path(path), rate
        self.pcm = bytearray()
        self.cues: list[str] = []
        self._lock = threading.Lock()

    def __call__(self, item: Announcement) -> None:
        if item.cue is None:
            return
        with self._lock:
            self.pcm.extend(synth(TUNES[item.cue], self.rate))
            self.cues.append(item.cue.value)
            with wave.open(str(self.path), "wb") as wav:
                wav.setnchannels(1)
                wav.setsampwidth(2)
                wav.setframerate(self.rate)
                wav.writeframes(bytes(self.pcm))


class MixerPlayer:
    """Plays cues through pygame's mixer and waits while they sound (run off the loop)."""

    def __init__(self) -> None:
        import pygame

        self.pygame = pygame
        pygame.mixer.init(frequency=RATE, size=-16, channels=1)

    def __call__(self, item: Announcement) -> None:
        if item.cue is None:
            return
        notes = TUNES[item.cue]
        sound = self.pygame.mixer.Sound(buffer=synth(notes))
        sound.play()
        self.pygame.time.wait(sum(ms for _, ms in notes))
