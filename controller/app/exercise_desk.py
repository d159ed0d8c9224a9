"""What the lesson desk and the puzzle desk share: an exercise's lifecycle at the board.

An exercise here is a sequence of `ExerciseRunner`s (teaching/exercise.py),
one at a time: a lesson's steps, or a puzzle's turns. `ExerciseDesk` owns
the runner under way and its place in the sequence; it hands the board's
squares and the time to it, keeps the green light of a right move on for
`next_ms` (or until ok) before the next one starts, and after the last one
marks the exercise finished. What it says aloud goes on the App's bus as
`ExerciseSaid`. A desk says which runner comes at each place
(`_exercise`), how many there are (`_steps`), whether its exercise is the
one the board shows (`shown`) and what happens at the end (`_finish`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from damka.controller import events as ev
from damka.controller.board.tracker import Tracker
from damka.controller.words import say
from damka.hardware.interfaces import LedFrame
from damka.teaching.exercise import Exercise, ExerciseRunner, Phase

if TYPE_CHECKING:
    from damka.controller.app.app import App


class ExerciseDesk:
    """The runner under way, its place in the sequence, the wait after a right move."""

    next_ms = 3000  # the green light of a right move shows this long before the sequence goes on

    def __init__(self, app: App) -> None:
        self.app = app
        self.index = 0                 # the runner's place in the sequence
        self.runner: ExerciseRunner | None = None
        self.finished = False
        self.right_at: int | None = None
        self._trackers: dict[str, Tracker] = {}

    # -- what a desk says -----------------------------------------------------------------

    @property
    def shown(self) -> bool:
        """Whether this desk's exercise is the one on the board now."""
        raise NotImplementedError

    def _steps(self) -> int:
        raise NotImplementedError

    def _exercise(self, index: int) -> Exercise:
        raise NotImplementedError

    def _finish(self) -> None:
        """After the last runner: the end's words and `ExerciseFinished`."""
        raise NotImplementedError

    def _count(self, runner: ExerciseRunner) -> None:
        """After each look at the board: a desk's own counts (none by default)."""

    # -- input ----------------------------------------------------------------------------

    def see(self, occupied: frozenset[str], now: int) -> None:
        if self.shown and self.runner is not None and not self.finished:
            self.runner.see(occupied, now)
            self._after(now)

    def tick(self, now: int) -> None:
        if not self.shown or self.runner is None or self.finished:
            return
        if self.right_at is not None and now - self.right_at >= self.next_ms:
            self._next()
            return
        self.runner.tick(now)
        self._after(now)

    def next_deadline(self, now: int) -> int | None:
        if not self.shown or self.runner is None or self.finished:
            return None
        if self.right_at is not None:
            return self.right_at + self.next_ms
        return self.runner.next_deadline()

    # -- what shows -----------------------------------------------------------------------

    @property
    def frame(self) -> LedFrame:
        return {} if self.runner is None or self.finished else self.runner.frame

    def _messages(self, runner: ExerciseRunner, more: bool) -> tuple[str, ...]:
        """The message box's lines: the instruction and the runner's message,
        or the message alone while the pieces are set up or put back, while
        the answer is lit and after a right move (with the instruction beside
        it, it did not fit the 480x320 panel). `more`: a right move says ok
        goes on."""
        message = runner.message
        if runner.phase is Phase.RIGHT and more:
            message = f"{message}  {say('lesson.next')}"
        alone = (runner.phase in (Phase.SETUP, Phase.PUT_BACK, Phase.RIGHT) or runner.answer_shown) and message
        return (message,) if alone else (runner.instruction, message) if message else (runner.instruction,)

    @staticmethod
    def _alert(runner: ExerciseRunner) -> bool:
        return runner.phase is Phase.PUT_BACK or (runner.mistakes > 0 and runner.phase is Phase.PLAY)

    # -- the sequence ---------------------------------------------------------------------

    def _begin(self, index: int) -> None:
        self.index = index
        self.right_at = None
        exercise = self._exercise(index)
        variant = exercise.variant
        tracker = self._trackers.setdefault(variant.name, Tracker(variant))
        self.runner = ExerciseRunner(exercise, tracker, speak=self._speak)
        self.runner.see(self.app.occupied, self.app.now)

    def _next(self) -> None:
        if self.index + 1 < self._steps():
            self._begin(self.index + 1)
            return
        self.finished = True
        self.right_at = None
        self._finish()

    def _after(self, now: int) -> None:
        runner = self.runner
        if runner is None:
            return
        self._count(runner)
        if runner.phase is Phase.RIGHT and self.right_at is None:
            self.right_at = now

    def _speak(self, text: str) -> None:
        self.app.bus.publish(ev.ExerciseSaid(self.app.now, 0, text))
