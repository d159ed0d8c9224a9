"""Where announcements go: wrappers shared by every backend's sinks.

A player that takes time (a buzzer playing notes, espeak-ng speaking) is
wrapped in a `ThreadedSink`: `announce` only puts the item on a bounded queue
and returns; one worker thread plays the items in order. When the queue is
full (a player far behind), the new item is dropped and counted, never
waited for: the board loop must not slow down for a sound.
"""

from __future__ import annotations

import logging
import queue
import threading
from typing import Callable

from damka.controller.cues.listener import TUNES, Announcement, Cue

log = logging.getLogger(__name__)

Notes = tuple[tuple[int, int], ...]


class ThreadedSink:
    """Plays announcements with `player` (which may block) on its own thread."""

    def __init__(self, player: Callable[[Announcement], None], *, name: str = "cues", maxsize: int = 16) -> None:
        self.player = player
        self.dropped = 0
        self.played = 0
        self._queue: queue.Queue[Announcement | None] = queue.Queue(maxsize)
        self._thread = threading.Thread(target=self._run, name=f"damka-{name}", daemon=True)
        self._thread.start()

    def announce(self, item: Announcement) -> None:
        try:
            self._queue.put_nowait(item)
        except queue.Full:
            self.dropped += 1

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            try:
                if item is None:
                    return
                self.player(item)
                self.played += 1
            except Exception:  # noqa: BLE001 - a broken speaker must not stop the cues after it
                log.exception("cue player failed on %s", item)
            finally:
                self._queue.task_done()

    def drain(self, timeout: float = 10.0) -> bool:
        """Wait until everything queued has played (tests, shutting down). True if it did."""
        done = threading.Event()

        def wait_for_the_queue() -> None:
            self._queue.join()
            done.set()

        threading.Thread(target=wait_for_the_queue, daemon=True).start()
        return done.wait(timeout)

    def close(self) -> None:
        try:
            self._queue.put(None, timeout=1.0)
        except queue.Full:
            pass
        self._thread.join(2.0)


class RecordingSink:
    """Keeps what it is told (tests, the headless simulator)."""

    def __init__(self) -> None:
        self.items: list[Announcement] = []

    def announce(self, item: Announcement) -> None:
        self.items.append(item)

    @property
    def cues(self) -> list[Cue]:
        return [item.cue for item in self.items if item.cue is not None]


def tune_player(play_notes: Callable[[Notes], None]) -> Callable[[Announcement], None]:
    """A player for a ThreadedSink that plays each sounding cue's notes with `play_notes`."""

    def play(item: Announcement) -> None:
        if item.cue is not None:
            play_notes(TUNES[item.cue])

    return play


def voice_player(speak: Callable[[str, str], None]) -> Callable[[Announcement], None]:
    """A player for a ThreadedSink that speaks each announcement's text, in its language."""

    def play(item: Announcement) -> None:
        if item.text:
            speak(item.text, item.language)

    return play
