"""A lesson at the board: the lessons menu, the step under way, the end.

`LessonDesk` owns which lesson is on the board; its steps are the sequence
an `ExerciseDesk` (exercise_desk.py) runs, one `ExerciseRunner` each
(teaching/exercise.py: it sets the position up with the LEDs, watches the
child and judges the tries). After a right move the LEDs
stay green for `NEXT_STEP_MS` (or until ok) and the next step comes; after the
last, the screen says well done and ok or menu goes back to the menu, and
`ExerciseFinished` goes on the App's bus (the learner's progress is recorded
from it). Menu during a lesson also goes back. What it says aloud goes on the
App's bus as `ExerciseSaid` (the cues speak it when the voice is on). The
teaching desk (teaching_desk.py) owns this desk beside the puzzles'.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from damka.controller import events as ev
from damka.controller.app.exercise_desk import ExerciseDesk
from damka.controller.app.hooks import AppListener
from damka.controller.app.screens import AppState
from damka.controller.app.menus import BOARD_SIZE, Menu, Row
from damka.controller.app.teaching_facts import TeachingFacts, fen_now, lights_of, runner_phase, tries_of
from damka.controller.app.views import GameView, MenuView, View
from damka.controller.words import say
from damka.hardware.interfaces import Button
from damka.teaching.exercise import Exercise
from damka.teaching.lesson_file import Lesson, shipped, shipped_names

if TYPE_CHECKING:
    from damka.controller.app.app import App

NEXT_STEP_MS = 3000  # the green light of a right move shows this long before the next step
LESSONS_MENU = "lessons"
LESSON_ROW = "lesson:"  # a row of the lessons menu: "lesson:1-classic-01-man-moves"


def lessons_menu() -> Menu:
    """Every lesson that ships, in order, and a way back; a lesson of a game larger than the Damka board
    (international, 10x10) says so, as the games menu does: it is for the simulator or a larger board."""
    rows = [Row(f"{LESSON_ROW}{name}", _label(shipped(name))) for name in shipped_names()]
    return Menu(say("lessons.title"), [*rows, Row("back", say("lessons.back"))], footer=say("lessons.footer"),
                name=LESSONS_MENU)


def _label(lesson: Lesson) -> str:
    width, height = lesson.variant.board_size
    title = lesson.title.text()
    return say("variant.larger", label=title) if width > BOARD_SIZE[0] or height > BOARD_SIZE[1] else title


class Ticking(Protocol):
    def tick(self, now: int) -> None: ...

    def next_deadline(self, now: int) -> int | None: ...


class DeskTicks(AppListener):
    """A desk's ear on the App: a lesson's steps (a puzzle's moves) go on with the App's ticks and deadlines."""

    def __init__(self, desk: Ticking) -> None:
        self.desk = desk

    def tick(self, now: int) -> None:
        self.desk.tick(now)

    def next_deadline(self, now: int) -> int | None:
        return self.desk.next_deadline(now)


class LessonDesk(ExerciseDesk):
    """The one owner of the lesson on the board (its steps are the sequence)."""

    next_ms = NEXT_STEP_MS

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.lesson: Lesson | None = None
        self.tries = 0   # the wrong tries of the lesson so far, all steps

    @property
    def active(self) -> bool:
        return self.app.state is AppState.LESSON and self.lesson is not None

    @property
    def shown(self) -> bool:
        return self.active

    # -- commands ---------------------------------------------------------------------

    def open_menu(self) -> None:
        self.app.screens.show_menu(lessons_menu())

    def start(self, lesson: Lesson) -> None:
        """Take `lesson` from its first step: the board guides the pieces to its position."""
        self.lesson = lesson
        self.finished = False
        self.tries = 0
        self.app.screens.show_lesson()
        self._begin(0)

    def act(self, name: str) -> bool:
        """A menu row of the lessons (True when it was one)."""
        if name == "lessons":
            self.open_menu()
        elif name.startswith(LESSON_ROW):
            self.start(shipped(name[len(LESSON_ROW):]))
        elif name == "back" and self.app.screens.menu.name == LESSONS_MENU and self.app.overlay is None:
            self.app.games.open_new_menu()
        else:
            return False
        return True

    def quit(self) -> None:
        """Back to the menu (the lesson ends where it is)."""
        self.drop()
        self.app.games.open_new_menu()

    def drop(self) -> None:
        """Forget the lesson (another exercise takes the board)."""
        self.lesson = self.runner = None

    def press(self, button: Button) -> None:
        if button is Button.MENU or (self.finished and button is Button.OK):
            self.quit()
        elif button is Button.OK and self.right_at is not None:
            self._next()

    def facts(self, learner: str) -> TeachingFacts | None:
        """The lesson as the page reads it (None: no lesson on the board)."""
        lesson, runner = self.lesson, self.runner
        if lesson is None or runner is None:
            return None
        variant = lesson.variant
        finished = say("lesson.finished", title=lesson.title.text())   # at the end, instead of the last step's words
        return TeachingFacts(
            kind="lesson", name=lesson.name, title=lesson.title.text(), variant=variant.name,
            fen=fen_now(variant, runner), step=self.index + 1, steps=len(lesson.steps),
            phase="done" if self.finished else runner_phase(runner),
            instruction=finished if self.finished else runner.instruction,
            message="" if self.finished else runner.message, tries=tries_of(runner), stars=3, hints=0, learner=learner,
            lights=lights_of(self.frame))

    # -- what shows -------------------------------------------------------------------------

    def view(self) -> View:
        lesson, runner = self.lesson, self.runner
        if lesson is None or runner is None:
            return MenuView(lessons_menu())
        title = say("lesson.title", title=lesson.title.text(), step=self.index + 1, steps=len(lesson.steps))
        if self.finished:
            return GameView(title, (), move_number=None, status=say("lesson.status.finished"),
                            messages=(say("lesson.finished", title=lesson.title.text()), say("lesson.finished_next")))
        return GameView(title, (), move_number=None, status=say(f"lesson.status.{runner.phase.value}"),
                        messages=self._messages(runner, more=True), alert=self._alert(runner))

    # -- the steps ---------------------------------------------------------------------------

    def _steps(self) -> int:
        return len(self.lesson.steps) if self.lesson is not None else 0

    def _exercise(self, index: int) -> Exercise:
        assert self.lesson is not None
        return self.lesson.steps[index]

    def _begin(self, index: int) -> None:
        if self.runner is not None and index:
            self.tries += self.runner.mistakes
        super()._begin(index)

    def _finish(self) -> None:
        lesson = self.lesson
        assert lesson is not None
        self.tries += self.runner.mistakes if self.runner is not None else 0
        self._speak(say("lesson.finished", title=lesson.title.text()))
        self.app.bus.publish(ev.ExerciseFinished(self.app.now, 0, "lesson", lesson.name, lesson.variant.name,
                                                 self.app.teaching.learner, True, 3, 0, self.tries))
