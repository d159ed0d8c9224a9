"""A start on a machine without a sound card (or without a desktop) says so in
one line of ours, not SDL's probes: eight "ALSA lib ..." lines and "error:
XDG_RUNTIME_DIR is invalid or not set" on every start. The real commands in a
child process, on this machine (which has no sound card: the test says so if
it has one), and the choice itself on made-up machines."""

from __future__ import annotations

import glob
import os
import subprocess
import sys

import pytest

from damka.display.sdl_env import choose_drivers, has_desktop, no_sound, video_driver

DEADLINE_S = 120.0


def child_env(tmp_path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("SDL_AUDIODRIVER", "SDL_VIDEODRIVER", "XDG_RUNTIME_DIR", "DISPLAY", "WAYLAND_DISPLAY",
                        "PULSE_SERVER")}
    return {**env, "HOME": str(tmp_path), **extra}


def stray(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("ALSA lib") or "XDG_RUNTIME_DIR" in line]


def test_no_sound_card_is_one_line_of_ours(tmp_path) -> None:
    if glob.glob("/dev/snd/pcmC*"):
        pytest.skip("this machine has a sound card")
    done = subprocess.run([sys.executable, "-m", "damka", "run", "--seconds", "1", "--db", str(tmp_path / "g.db")],
                          capture_output=True, text=True, timeout=DEADLINE_S, cwd=tmp_path,
                          env=child_env(tmp_path, SDL_VIDEODRIVER="dummy"))
    assert done.returncode == 0, done.stderr
    assert not stray(done.stderr), done.stderr
    assert [line for line in done.stderr.splitlines() if "sound" in line] == \
        ["sound off: this computer has no sound card"], done.stderr


def test_no_desktop_is_one_line_of_ours(tmp_path) -> None:
    done = subprocess.run([sys.executable, "-m", "damka", "sim", "--no-store"], capture_output=True, text=True,
                          timeout=DEADLINE_S, cwd=tmp_path, env=child_env(tmp_path))
    assert done.returncode == 2
    assert not stray(done.stderr), done.stderr
    lines = [line for line in done.stderr.splitlines() if not line.startswith("pygame")]
    assert len(lines) == 1 and "no display to open the simulator window on" in lines[0], done.stderr


def test_the_drivers_chosen_for_each_kind_of_machine() -> None:
    assert video_driver({"DISPLAY": ":0"}, "linux") == "x11"
    assert video_driver({}, "linux") == "kmsdrm,offscreen"        # the board's panel, no desktop
    assert video_driver({"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"}, "linux") is None
    assert video_driver({"SDL_VIDEODRIVER": "dummy"}, "linux") is None
    assert video_driver({}, "darwin") is None and has_desktop({}, "win32")
    assert not has_desktop({}, "linux") and has_desktop({"WAYLAND_DISPLAY": "w"}, "linux")
    environ: dict[str, str] = {"DISPLAY": ":1"}
    choose_drivers(environ, "linux")
    assert environ["SDL_VIDEODRIVER"] == "x11"


def test_sound_is_off_only_without_a_card_and_without_a_sound_server(tmp_path) -> None:
    none = lambda pattern: []  # noqa: E731
    card = lambda pattern: ["/dev/snd/pcmC0D0p"]  # noqa: E731
    assert no_sound({}, "linux", none) == "this computer has no sound card"
    assert no_sound({}, "linux", card) is None
    (tmp_path / "pulse").mkdir()
    (tmp_path / "pulse" / "native").touch()
    assert no_sound({"XDG_RUNTIME_DIR": str(tmp_path)}, "linux", none) is None
    assert no_sound({"SDL_AUDIODRIVER": "dummy"}, "linux", none) is None
    assert no_sound({}, "darwin", none) is None
