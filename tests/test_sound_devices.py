"""The cues' devices: the GPIO buzzer (gpiozero TonalBuzzer on mock PWM pins),
the Pico's buzzer over the serial link (TONE frames to the firmware on a pty),
espeak-ng speaking into WAV files, and the [sound]/[voice]/[light] config."""

from __future__ import annotations

import sys
import wave
from pathlib import Path

import pytest

from damka.controller.cues.sinks import ThreadedSink, voice_player
from damka.controller.cues.listener import TUNES, Announcement, Cue, CueSettings
from damka.hardware.backends import open_board
from damka.config import ConfigError, parse_config
from damka.controller.config.board_config import CUE_NAMES
from damka.hardware.voice import Espeak, espeak_path
from test_hw_doctor import wiring_gpio
from waiting import wait_until

import tomllib


def test_the_gpio_buzzer_plays_the_cue_s_notes_on_its_pin() -> None:
    config = parse_config(tomllib.loads(wiring_gpio()), "wiring.md")
    with open_board(config, mock=True) as board:
        buzzer = board.buzzer.__self__
        pin = buzzer.device.pwm_device.pin
        heard: list[float] = []
        original = pin._set_frequency

        def set_frequency(value):
            heard.append(value)
            original(value)

        pin._set_frequency = set_frequency
        board.buzzer(TUNES[Cue.COMPUTER_MOVED])
        assert buzzer.played == list(TUNES[Cue.COMPUTER_MOVED])
        assert [round(f) for f in heard if f] == [660, 990]
        assert not buzzer.device.is_active  # silent after the cue


@pytest.mark.skipif(sys.platform == "win32", reason="ptys are POSIX only")
def test_the_pico_plays_tone_frames_from_the_link() -> None:
    pytest.importorskip("serial")
    config = parse_config({"board": {"backend": "serial"}})
    with open_board(config, mock=True) as board:
        board.buzzer(TUNES[Cue.GAME_OVER])  # returns at once: the Pico plays on its own clock
        wait_until(lambda: len(board.sim.buzzer.played) >= 4, "the tune played")
        assert [hz for _, hz in board.sim.buzzer.played] == [523, 659, 784, 0]


def test_config_cue_names_are_the_cues() -> None:
    assert CUE_NAMES == tuple(cue.value for cue in Cue)


def test_sound_voice_and_light_config() -> None:
    config = parse_config({"sound": {"off": ["last_seconds"], "tournament_quiet": False},
                           "voice": {"enabled": True, "language": "pl"},
                           "light": {"night": True, "palette": "colour-blind"}})
    settings = CueSettings.from_config(config.sound, config.voice)
    assert Cue.LAST_SECONDS not in settings.cues and not settings.tournament_quiet
    assert settings.voice and settings.language == "pl"
    assert config.light.night and config.light.palette == "colour-blind"
    defaults = parse_config({})
    assert not defaults.voice.enabled and defaults.sound.enabled and defaults.sound.tournament_quiet


@pytest.mark.parametrize("data, message", [
    ({"sound": {"off": ["flagg"]}}, "[sound] off: expected cue names"),
    ({"voice": {"language": "de"}}, "[voice] language: expected one of en, pl, got 'de'"),
    ({"light": {"palette": "pink"}}, "[light] palette: expected one of standard, colour-blind"),
    ({"light": {"night_brightness": 300}}, "[light] night_brightness: expected a number from 0 to 255"),
])
def test_bad_cue_settings_are_one_line(data, message) -> None:
    with pytest.raises(ConfigError, match=message.replace("[", r"\[").replace("]", r"\]")):
        parse_config(data, "board.toml")


needs_espeak = pytest.mark.skipif(
    espeak_path() is None,
    reason="espeak-ng is not installed and could not be (bootstrap.py installs it with apt-get as root)")


@needs_espeak
@pytest.mark.parametrize("language, text", [("en", "White: c3 to d4"), ("pl", "Biały: c3 na d4")])
def test_espeak_speaks_into_a_wav_file_off_the_loop(tmp_path: Path, language: str, text: str) -> None:
    voice = Espeak(language, wav_dir=tmp_path)
    sink = ThreadedSink(voice_player(voice.speak), name="voice")
    sink.announce(Announcement(0, None, text))  # returns at once; espeak-ng runs on the sink's thread
    sink.announce(Announcement(1, Cue.FLAG, "Flag: Black"))
    assert sink.drain(30)
    sink.close()
    assert [p.name for p in voice.spoken] == ["voice-000.wav", "voice-001.wav"]
    for path in voice.spoken:
        with wave.open(str(path)) as wav:
            seconds = wav.getnframes() / wav.getframerate()
        assert 0.4 < seconds < 5  # a short sentence, really spoken
