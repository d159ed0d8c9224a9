"""Teaching at the board: the lessons, the puzzles and who is learning.

`TeachingDesk` is what the App (`app.teaching`), its menus and the page talk
to. It owns the learner chosen and the `ProgressBook` (teaching/progress.py),
and it holds the lesson desk and the puzzle desk; at most one of them has an
exercise on the board. Every `ExerciseFinished` on the App's bus is recorded
in the book. The commands run on the board's thread; bad input raises
`ValueError` with a sentence a parent understands.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from damka.controller import events as ev
from damka.controller.app.lesson_desk import LESSONS_MENU, DeskTicks, LessonDesk, lessons_menu
from damka.controller.app.puzzle_desk import PuzzleDesk, find_puzzle
from damka.controller.app.screens import AppState
from damka.controller.app.teaching_facts import TeachingFacts
from damka.controller.app.teaching_menus import (NEXT_LESSON_ROW, PROGRESS_MENU, PUZZLE_ROW, PUZZLES_MENU,
                                                 progress_menu, puzzles_menu)
from damka.controller.app.views import View
from damka.controller.words import say
from damka.engine.game import Game
from damka.hardware.interfaces import Button, LedFrame
from damka.teaching.exercise import ExerciseRunner
from damka.teaching.lesson_file import Lesson, LessonError, shipped
from damka.teaching.puzzles import shipped_set
from damka.teaching.progress import DEFAULT_LEARNER, ProgressBook, ProgressFacts, check_name, nearest

if TYPE_CHECKING:
    from damka.controller.app.app import App


class TeachingDesk:
    """The one owner of the learner; the lesson and puzzle desks are its parts."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.book = ProgressBook(app.store)
        self.lessons = LessonDesk(app)
        self.puzzles = PuzzleDesk(app)
        self._learner: str | None = None
        self.ticks = DeskTicks(self)  # App.listen it
        app.bus.subscribe(self._record, ev.ExerciseFinished)

    @property
    def learner(self) -> str:
        """Who is learning: the one chosen, else the board's first player's name, else "Player 1"."""
        if self._learner is not None:
            return self._learner
        named = self.app.games.named_players
        return named[0] if named else DEFAULT_LEARNER

    # -- the commands (the menus, the page) ---------------------------------------------------

    def start_lesson(self, name: str) -> None:
        """Take the lesson `name` (as `damka lessons list` names it) at the board now."""
        try:
            lesson = shipped(name)
        except LessonError as error:
            raise ValueError(str(error)) from None
        self.take_lesson(lesson)

    def take_lesson(self, lesson: Lesson) -> None:
        """Take `lesson` (one that ships, or a teacher's file) at the board now."""
        self.puzzles.drop()
        self.lessons.start(lesson)

    def start_puzzle(self, variant: str, puzzle_id: str | None = None) -> str:
        """Take a puzzle of `variant` at the board now (None: the next one for the learner); its id."""
        if variant not in ("classic", "russian", "international", "multiwarcaby") or not shipped_set(variant):
            raise ValueError(say("teaching.no_puzzles", variant=variant))
        if puzzle_id is None:
            puzzle = nearest(list(shipped_set(variant)), self.book.rating(self.learner),
                             self.book.solved(self.learner, variant))
            if puzzle is None:
                raise ValueError(say("teaching.all_solved", variant=variant))
        else:
            found = find_puzzle(variant, puzzle_id)
            if found is None:
                raise ValueError(say("teaching.no_puzzle", variant=variant, id=puzzle_id))
            puzzle = found
        self.lessons.drop()
        self.puzzles.start(variant, puzzle)
        return puzzle.id

    def set_learner(self, name: str) -> None:
        """Who learns from now on (kept in the store)."""
        self._learner = self.book.add_learner(check_name(name))
        if self.app.screens.shown_menu is not None and self.app.screens.shown_menu.name == PUZZLES_MENU:
            self.open_puzzles_menu()

    def quit(self) -> None:
        """Back to the menu (a lesson or puzzle on the board ends where it is)."""
        self.lessons.drop()
        self.puzzles.drop()
        self.app.games.open_new_menu()

    def progress(self, learner: str | None = None) -> ProgressFacts:
        return self.book.facts(self.learner if learner is None else check_name(learner))

    def learners(self) -> tuple[str, ...]:
        """Every learner in the store, and the one learning now."""
        known = self.book.learners()
        return known if self.learner in known else (*known, self.learner)

    # -- the menus ------------------------------------------------------------------------------

    def open_puzzles_menu(self) -> None:
        self.app.screens.show_menu(puzzles_menu(self.progress()))

    def act(self, name: str) -> bool:
        """A row of a teaching menu (True when it was one)."""
        shown = self.app.screens.shown_menu
        menu = shown.name if shown is not None and self.app.overlay is None else ""
        if self.lessons.act(name):
            return True
        if name == "puzzles":
            self.open_puzzles_menu()
        elif name.startswith(PUZZLE_ROW):
            self._start_from_menu(name[len(PUZZLE_ROW):])
        elif name.startswith(NEXT_LESSON_ROW):
            self.start_lesson(name[len(NEXT_LESSON_ROW):])
        elif name == "progress":
            self.app.screens.show_menu(progress_menu(self.progress()))
        elif name == "learner":
            learners = self.learners()
            self.set_learner(learners[(learners.index(self.learner) + 1) % len(learners)])
        elif name == "back" and menu == PROGRESS_MENU:
            self.open_puzzles_menu()
        elif name == "back" and menu == PUZZLES_MENU:
            self.app.games.open_new_menu()
        else:
            return False
        return True

    def retell(self) -> None:
        """The language changed: a teaching menu open is made again in the new one (its cursor kept)."""
        shown = self.app.screens.shown_menu
        if shown is None or self.app.overlay is not None:
            return
        again = {LESSONS_MENU: lessons_menu, PUZZLES_MENU: lambda: puzzles_menu(self.progress()),
                 PROGRESS_MENU: lambda: progress_menu(self.progress())}.get(shown.name)
        if again is not None:
            menu = again()
            menu.cursor = shown.cursor
            self.app.screens.show_menu(menu)

    def _start_from_menu(self, variant: str) -> None:
        try:
            self.start_puzzle(variant)
        except ValueError as error:  # every puzzle solved: the menu says so
            menu = puzzles_menu(self.progress())
            menu.description = str(error)
            self.app.screens.show_menu(menu)

    # -- the exercise on the board --------------------------------------------------------------

    @property
    def runner(self) -> ExerciseRunner | None:
        """The exercise runner on the board now (None: none)."""
        return self.puzzles.runner if self.puzzles.active else self.lessons.runner

    @property
    def board_game(self) -> Game | None:
        runner = self.runner
        return runner.game if runner is not None else None

    def see(self, occupied: frozenset[str], now: int) -> None:
        (self.puzzles if self.puzzles.active else self.lessons).see(occupied, now)

    def tick(self, now: int) -> None:
        self.lessons.tick(now)
        self.puzzles.tick(now)

    def next_deadline(self, now: int) -> int | None:
        due = [time for time in (self.lessons.next_deadline(now), self.puzzles.next_deadline(now)) if time is not None]
        return min(due) if due else None

    def press(self, button: Button) -> None:
        if not self.puzzles.active:
            self.lessons.press(button)
            return
        what = self.puzzles.press(button)
        if what == "quit":
            self.puzzles.drop()
            self.open_puzzles_menu()
        elif what == "next" and self.puzzles.variant is not None:
            self._start_from_menu(self.puzzles.variant.name)

    @property
    def frame(self) -> LedFrame:
        return self.puzzles.frame if self.puzzles.active else self.lessons.frame

    def view(self) -> View:
        return self.puzzles.view() if self.puzzles.active else self.lessons.view()

    def facts(self) -> TeachingFacts | None:
        """The lesson or puzzle on the board, as the page reads it (None: none)."""
        if self.app.state is not AppState.LESSON:
            return None
        desk = self.puzzles if self.puzzles.active else self.lessons
        return desk.facts(self.learner)

    def _record(self, event: ev.ExerciseFinished) -> None:
        puzzle = find_puzzle(event.variant, event.name) if event.kind == "puzzle" else None
        self.book.record(event.kind, event.name, event.variant, event.learner, solved=event.solved,
                         stars=event.stars, hints=event.hints, tries=event.tries,
                         puzzle_rating=puzzle.rating if puzzle is not None else None)
