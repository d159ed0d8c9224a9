"""The simulator's interactive window: a desktop window around `SimWindow`,
its sound, and the loop that runs it (F12 saves a screenshot, q quits)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Callable

import pygame

from damka.controller.app import App
from damka.controller.cues.listener import CueListener, CueSettings
from damka.controller.cues.sinks import ThreadedSink
from damka.controller.words import say
from damka.display.sdl_env import choose_drivers, has_desktop, no_sound
from damka.sim.window import WindowError, build, save_screenshot

INVISIBLE_DRIVERS = ("offscreen", "dummy")


def attach_sound(app: App, *, wav: Path | None = None, speakers: bool = True,
                 settings: CueSettings | None = None) -> tuple[CueListener, list[ThreadedSink]]:
    """The board's cues in the simulator as on the board: through the speakers (pygame's mixer,
    when the machine has sound) and/or into a WAV file, and the voice through espeak-ng
    where it is installed (without it, when the voice is on, the screen says why), each off the loop."""
    from damka.hardware.voice import voice_sink
    from damka.sim.sound import MixerPlayer, WavRecorder

    sinks: list[ThreadedSink] = []
    voice = voice_sink(settings.language if settings is not None else "") if speakers else None
    if voice is not None:
        sinks.append(voice)
    silent = no_sound() if speakers else None
    if silent is not None:  # not opened at all: SDL would print eight lines of ALSA's failure
        print(f"sound off: {silent}", file=sys.stderr)
    elif speakers:
        try:
            sinks.append(ThreadedSink(MixerPlayer(), name="sim-sound"))
        except pygame.error as error:
            print(f"sound off: {error}", file=sys.stderr)  # the board stays silent, as one without a buzzer
    if wav is not None:
        sinks.append(ThreadedSink(WavRecorder(wav), name="sim-wav"))
    return CueListener.attach(app, list(sinks), settings, voice_missing=speakers and voice is None), sinks


def run_window(app: App, *, fps: int = 30, screenshot_dir: Path | None = None,
               should_stop: Callable[[], bool] = lambda: False, cues: CueSettings | None = None) -> int:
    """The interactive window (needs a display) until it is closed or `should_stop()`
    (`--seconds`). Returns an exit code. `cues`: what sounds and speaks (a board
    config's [sound] and [voice]; default: every cue)."""
    if not has_desktop():  # said before SDL probes for one (and prints what it lacks)
        raise WindowError(say("sim.no_desktop"))
    choose_drivers()
    try:
        pygame.display.init()
        window = build(app)
        _, sinks = attach_sound(app, settings=cues)
        display = pygame.display.set_mode(window.size)
    except pygame.error as exc:
        raise WindowError(f"cannot open the simulator window ({exc}); no display? "
                          f"try `damka sim --headless ...`") from None
    if pygame.display.get_driver() in INVISIBLE_DRIVERS and not os.environ.get("SDL_VIDEODRIVER"):
        # With no desktop SDL falls back to drawing into memory: a window
        # nobody can see would run forever, so say what is wrong instead.
        pygame.display.quit()
        raise WindowError(say("sim.no_desktop"))
    pygame.display.set_caption(say("sim.caption"))
    timer = pygame.time.Clock()
    last = pygame.time.get_ticks()
    shots = 0
    running = True
    while running and not should_stop():
        size = window.size
        for event in pygame.event.get():
            if event.type == pygame.KEYDOWN and event.key == pygame.K_F12:
                shots += 1
                target = (screenshot_dir or Path.cwd()) / f"damka-{shots:03d}.png"
                try:
                    save_screenshot(window, target)
                    app.notice = say("sim.saved", path=target)
                except WindowError as exc:
                    app.notice = str(exc)
                continue
            running = window.on_event(event) and running
        now = pygame.time.get_ticks()
        window.update(now - last)
        last = now
        if window.size != size:
            display = pygame.display.set_mode(window.size)  # a game on a larger (or smaller) board
        window.draw(display)
        pygame.display.flip()
        timer.tick(fps)
    # Only the display: fonts stay initialised (the screen's font caches keep them).
    pygame.display.quit()
    for sink in sinks:
        sink.close()   # what is being said is said to its end (a second or two), then the thread ends
    return 0

