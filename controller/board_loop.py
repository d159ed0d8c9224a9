"""The board loop: the app on real devices (or their simulations).

Poll the sensor and the buttons, tick the app at its deadlines, show its LED
frame, redraw the screen. While the board's devices do not answer (`missing`:
a USB cable not plugged in, or pulled out during a game) the screen says so,
the board's last reading stands (the game is kept) and the loop waits for them
to come back; nothing needs restarting. The devices are the interfaces of
`hardware/interfaces.py`; time comes from the injected monotonic `now_ms`
(tests pass a fake one).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from damka.controller.app.view_builder import with_warning
from damka.controller.words.wording import board_missing_text
from damka.hardware.interfaces import BoardSensor, ButtonPress, Buttons, ClockPress, LedFrame, LedOutput, Snapshot

if TYPE_CHECKING:
    from damka.controller.app import App


class BoardLoop:
    def __init__(self, app: App, sensor: BoardSensor, leds: LedOutput, buttons: Buttons, *,
                 now_ms: Callable[[], int], draw: Callable[[Any], None] | None = None, poll_ms: int = 5,
                 redraw_ms: int = 100, missing: Callable[[], str | None] = lambda: None) -> None:
        """`missing`: the device that does not answer, named (None while it does;
        `HardwareBoard.missing`)."""
        self.app, self.sensor, self.leds, self.buttons = app, sensor, leds, buttons
        self.now_ms = now_ms
        self.draw = draw
        self.poll_ms = poll_ms
        self.redraw_ms = redraw_ms
        self.missing = missing
        self._last_occupied: frozenset[str] | None = None
        self._last_frame: LedFrame | None = None
        self._next_redraw = 0

    def step(self) -> None:
        """One pass: new snapshot, presses, due ticks, LEDs, screen."""
        now = self.now_ms()
        missing = self.missing()
        if missing is None:  # an absent board's reading is none at all, not an empty board
            self._read(now)
        self.app.tick(now)
        frame = dict(self.app.frame)
        if frame != self._last_frame:
            self._last_frame = frame
            self.leds.show(frame)
        if self.draw is not None and now >= self._next_redraw:
            self.draw(with_warning(self.app.read_model().view, board_missing_text(missing) if missing else ""))
            self._next_redraw = now + self.redraw_ms

    def _read(self, now: int) -> None:
        """The sensor's snapshot when it changed, and the presses, to the app."""
        snapshot = self.sensor.snapshot()
        if snapshot.occupied != self._last_occupied:
            self._last_occupied = snapshot.occupied
            self.app.handle(Snapshot(snapshot.occupied, now))
        for press in self.buttons.presses():
            if isinstance(press, ClockPress):
                self.app.handle(ClockPress(press.side, now))
            else:
                self.app.handle(ButtonPress(press.button, now))

    def run(self, sleep: Callable[[float], None], should_stop: Callable[[], bool] = lambda: False) -> None:
        while not should_stop():
            self.step()
            sleep(self.poll_ms / 1000)
