"""A voice for the board: espeak-ng (a Debian package, `apt install espeak-ng`)
speaking English or Polish through the default sound output, or into WAV
files (tests, recordings).

`speak` waits while espeak-ng talks: run it off the board loop (the cue sinks'
`ThreadedSink` does).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

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
        self.command = [path, "-v", VOICES[language], "-s", str(speed_wpm)]
        self.wav_dir = Path(wav_dir) if wav_dir is not None else None
        self.spoken: list[Path | str] = []

    def speak(self, text: str) -> None:
        command = list(self.command)
        said: Path | str = text
        if self.wav_dir is not None:
            said = self.wav_dir / f"voice-{len(self.spoken):03d}.wav"
            command += ["-w", str(said)]
        subprocess.run([*command, "--", text], check=True, capture_output=True, timeout=30)
        self.spoken.append(said)
