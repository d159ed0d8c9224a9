"""A voice for the board: espeak-ng (a Debian package, `apt install espeak-ng`)
speaking English or Polish through the default sound output, or into WAV
files (tests, recordings).

`speak` waits while espeak-ng talks: run it off the board loop (the cue sinks'
`ThreadedSink` does). Each sentence is spoken in the language it is written
in (the board's, which the menu may change). Without espeak-ng the board
plays on silent and says why (`voice_sink`).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from damka.controller.cues.sinks import ThreadedSink, voice_player
from damka.hardware.errors import BackendUnavailableError

VOICES = {"en": "en", "pl": "pl"}


def espeak_path() -> str | None:
    """Where espeak-ng is, or None when it is not installed."""
    return shutil.which("espeak-ng")


class Espeak:
    """espeak-ng in `language`; with `wav_dir`, each sentence goes to a numbered WAV file there."""

    def __init__(self, language: str = "en", *, wav_dir: str | Path | None = None, speed_wpm: int = 160) -> None:
        if language not in VOICES:
            raise ValueError(f"voice language {language!r}: expected one of {', '.join(VOICES)}")
        path = espeak_path()
        if path is None:
            raise BackendUnavailableError("[voice] needs espeak-ng: sudo apt install espeak-ng")
        self.path, self.language, self.speed_wpm = path, language, speed_wpm
        self.wav_dir = Path(wav_dir) if wav_dir is not None else None
        self.spoken: list[Path | str] = []

    @property
    def command(self) -> list[str]:
        return self.command_in(self.language)

    def command_in(self, language: str) -> list[str]:
        return [self.path, "-v", VOICES.get(language, VOICES[self.language]), "-s", str(self.speed_wpm)]

    def speak(self, text: str, language: str = "") -> None:
        """Say `text` in `language` ("": the voice's own); waits until it is said."""
        command = self.command_in(language or self.language)
        said: Path | str = text
        if self.wav_dir is not None:
            said = self.wav_dir / f"voice-{len(self.spoken):03d}.wav"
            command += ["-w", str(said)]
        subprocess.run([*command, "--", text], check=True, capture_output=True, timeout=30)
        self.spoken.append(said)


def voice_sink(language: str = "") -> ThreadedSink | None:
    """The voice's sink, on its own thread, when espeak-ng is installed (the menu may
    switch the voice on later); None without it: the board plays on silent and says
    why when the voice is on (`CueListener(voice_missing=True)`)."""
    if espeak_path() is None:
        return None
    return ThreadedSink(voice_player(Espeak(language or "en").speak), name="voice")
