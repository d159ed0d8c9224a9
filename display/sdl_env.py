"""Which of SDL's drivers pygame may try, chosen before pygame starts, so SDL
does not probe for what this machine plainly lacks: each failed probe prints
lines on stderr that are not ours to print (a Wayland probe without a Wayland
session: "error: XDG_RUNTIME_DIR is invalid or not set"; a sound probe without
a sound card: eight "ALSA lib ..." lines). A driver the user set is kept.
Linux only: other systems have one driver of each kind."""

from __future__ import annotations

import glob
import os
import sys
from collections.abc import Callable, MutableMapping

# The sound servers' sockets in XDG_RUNTIME_DIR (PulseAudio, PipeWire): sound without /dev/snd
# of its own (a container given the desktop's sound server).
SOUND_SERVERS = ("pulse/native", "pipewire-0")


def video_driver(environ: MutableMapping[str, str] = os.environ, platform: str = sys.platform) -> str | None:
    """SDL_VIDEODRIVER for this session when the user set none: X11 on an X
    desktop with no Wayland session; on a console (the board's own panel),
    its framebuffer (kmsdrm), else drawing into memory. None: leave SDL to choose."""
    if not platform.startswith("linux") or environ.get("SDL_VIDEODRIVER") or environ.get("WAYLAND_DISPLAY"):
        return None
    return "x11" if environ.get("DISPLAY") else "kmsdrm,offscreen"


def has_desktop(environ: MutableMapping[str, str] = os.environ, platform: str = sys.platform) -> bool:
    """A desktop to open a window on (always assumed off Linux), or a driver the user chose."""
    return (not platform.startswith("linux") or bool(environ.get("SDL_VIDEODRIVER"))
            or bool(environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY")))


def no_sound(environ: MutableMapping[str, str] = os.environ, platform: str = sys.platform,
             devices: Callable[[str], list[str]] = glob.glob) -> str | None:
    """Why this machine cannot play sound (no sound card and no sound server),
    in words for the one line that says sound is off; None: it can, or the
    user chose SDL's audio driver."""
    if not platform.startswith("linux") or environ.get("SDL_AUDIODRIVER") or environ.get("PULSE_SERVER"):
        return None
    if devices("/dev/snd/pcmC*"):
        return None
    runtime = environ.get("XDG_RUNTIME_DIR")
    if runtime and any(os.path.exists(os.path.join(runtime, socket)) for socket in SOUND_SERVERS):
        return None
    return "this computer has no sound card"


def choose_drivers(environ: MutableMapping[str, str] = os.environ, platform: str = sys.platform) -> None:
    """Set SDL_VIDEODRIVER as `video_driver` says, before pygame's display starts."""
    driver = video_driver(environ, platform)
    if driver is not None:
        environ["SDL_VIDEODRIVER"] = driver
