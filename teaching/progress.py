"""A learner's progress: lessons done, puzzles solved and tried, stars, a rating.

`ProgressBook` is its one owner. It writes each finished lesson or puzzle in
the board's store (controller/store/progress_rows.py; kept in memory when the
board runs without a store) and adds the rows up into `ProgressFacts` when
asked, so what the screen and the page show is always what the store holds.

The rating moves with each puzzle as Elo against the puzzle's own rating
(K=32, every learner starts at 1000): solved counts as a win, the answer
shown (or given up) as a loss. A solve with hints still counts as a win; the
hints cost stars, not rating. Lessons leave the rating alone, and the stars
counted are the puzzles' (a lesson taken again earns none).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from damka.controller.store.progress_rows import ExerciseRow
from damka.controller.store.store import Store
from damka.controller.words import say
from damka.teaching.lesson_file import shipped_name, shipped_names
from damka.teaching.puzzles import Puzzle, shipped_set

START_RATING = 1000
DEFAULT_LEARNER = "Player 1"   # kept in the store as it is: the same learner in every language
K = 32
FIRST_PUZZLES = "classic"   # the puzzles a learner who has tried none is offered first
MAX_NAME = 24
MAX_LEARNERS = 50           # learners a board keeps: a page cannot fill its list and its store


@dataclass(frozen=True)
class ProgressFacts:
    """How a learner is doing, added up from the store; what the menu offers next."""

    learner: str
    lessons_done: tuple[str, ...]
    lessons_total: int
    puzzles_solved: int
    puzzles_tried: int
    stars: int
    rating: int
    by_variant: tuple[tuple[str, int, int], ...]   # (variant, solved, tried)
    next_lesson: str | None                         # the first lesson not done yet
    next_puzzle: tuple[str, str] | None             # (variant, puzzle id) near the rating, not solved yet


def rated(rating: int, puzzle_rating: int, solved: bool) -> int:
    """The learner's rating after a puzzle of `puzzle_rating` (Elo, K=32)."""
    expected = 1 / (1 + 10 ** ((puzzle_rating - rating) / 400))
    return round(rating + K * ((1.0 if solved else 0.0) - expected))


def check_name(name: str) -> str:
    """`name` trimmed, or ValueError saying what a learner's name may be. A name the board has
    already (a player's, which may hold a hyphen) passes this; a new one passes `check_new_name`."""
    trimmed = name.strip()
    if not 1 <= len(trimmed) <= MAX_NAME or not trimmed.isprintable():
        raise ValueError(say("teaching.bad_name"))
    return trimmed


def check_new_name(name: str) -> str:
    """A new learner's name as the message says it: 1 to MAX_NAME letters (any alphabet's, Polish
    ones too, composed or not), digits or spaces, and a hyphen or apostrophe between two letters
    (Anna-Maria, O'Neil), trimmed; ValueError otherwise ('<b>Ala</b>' is not one)."""
    trimmed = unicodedata.normalize("NFC", check_name(name))
    if not all(ch.isalpha() or ch.isdecimal() or ch == " " or joins_letters(trimmed, at)
               for at, ch in enumerate(trimmed)) or len(trimmed) > MAX_NAME:
        raise ValueError(say("teaching.bad_name"))
    return trimmed


def joins_letters(name: str, at: int) -> bool:
    """A hyphen or apostrophe at `at` with a letter on each side, as in a real name."""
    return name[at] in "-'\u2019" and 0 < at < len(name) - 1 and name[at - 1].isalpha() and name[at + 1].isalpha()


def shown_name(name: str) -> str:
    """A learner's name as the screen shows it: the default learner's in the board's language."""
    return say("learner.default") if name == DEFAULT_LEARNER else name


def nearest(puzzles: list[Puzzle], rating: int, solved: set[str]) -> Puzzle | None:
    """The puzzle not solved yet whose rating is nearest `rating` (the easier one on a tie, then the first)."""
    left = [puzzle for puzzle in puzzles if puzzle.id not in solved]
    if not left:
        return None
    return min(left, key=lambda puzzle: (abs(puzzle.rating - rating), puzzle.rating, puzzle.id))


class ProgressBook:
    """Every learner's progress: the store's rows (or, without a store, the same rows in memory)."""

    def __init__(self, store: Store | None) -> None:
        self.store = store
        self._learners: list[str] = []
        self._rows: list[ExerciseRow] = []

    # -- writing ----------------------------------------------------------------------

    def add_learner(self, name: str) -> str:
        """`name` (trimmed), made a learner unless it is one: a new name must be a name
        (`check_new_name`), and at most MAX_LEARNERS are kept (ValueError saying so)."""
        name = check_name(name)
        known = self.learners()
        if name in known:
            return name
        name = check_new_name(name)
        if len(known) >= MAX_LEARNERS:
            raise ValueError(say("teaching.too_many_learners", most=MAX_LEARNERS))
        if self.store is not None:
            self.store.add_learner(name)
        elif name not in self._learners:
            self._learners.append(name)
        return name

    def record(self, kind: str, name: str, variant: str, learner: str, *, solved: bool, stars: int, hints: int,
               tries: int, puzzle_rating: int | None = None) -> ExerciseRow:
        """A lesson or puzzle finished; a puzzle (its `puzzle_rating` given) moves the rating."""
        rating = self.rating(learner)
        if kind == "puzzle" and puzzle_rating is not None:
            rating = rated(rating, puzzle_rating, solved)
        row = ExerciseRow(learner, kind, variant, name, solved, stars, hints, tries, rating)
        if self.store is not None:
            self.store.record_exercise(row)
        else:
            if learner not in self._learners:
                self._learners.append(learner)
            self._rows.append(row)
        return row

    # -- reading ----------------------------------------------------------------------

    def learners(self) -> tuple[str, ...]:
        return tuple(self.store.learners() if self.store is not None else self._learners)

    def rows(self, learner: str) -> list[ExerciseRow]:
        if self.store is not None:
            return self.store.exercises(learner)
        return [row for row in self._rows if row.learner == learner]

    def rating(self, learner: str) -> int:
        puzzles = [row for row in self.rows(learner) if row.kind == "puzzle"]
        return puzzles[-1].rating if puzzles else START_RATING

    def solved(self, learner: str, variant: str) -> set[str]:
        return {row.name for row in self.rows(learner) if row.kind == "puzzle" and row.variant == variant
                and row.solved}

    def next_puzzle(self, learner: str, variant: str) -> Puzzle | None:
        """The puzzle of `variant` for `learner` now: near the rating, not solved before."""
        return nearest(list(shipped_set(variant)), self.rating(learner), self.solved(learner, variant))

    def facts(self, learner: str) -> ProgressFacts:
        rows = self.rows(learner)
        lessons = {shipped_name(row.name) for row in rows if row.kind == "lesson" and row.solved}  # (renamed ones too)
        names = shipped_names()
        done = tuple(name for name in names if name in lessons)
        puzzles = [row for row in rows if row.kind == "puzzle"]
        variants: dict[str, list[int]] = {}
        for row in puzzles:
            counts = variants.setdefault(row.variant, [0, 0])
            counts[0] += row.solved
            counts[1] += 1
        variant = puzzles[-1].variant if puzzles else FIRST_PUZZLES
        puzzle = self.next_puzzle(learner, variant)
        return ProgressFacts(
            learner=learner, lessons_done=done, lessons_total=len(names),
            puzzles_solved=sum(row.solved for row in puzzles), puzzles_tried=len(puzzles),
            stars=sum(row.stars for row in rows if row.kind == "puzzle"), rating=self.rating(learner),
            by_variant=tuple((name, solved, tried) for name, (solved, tried) in sorted(variants.items())),
            next_lesson=next((name for name in names if name not in done), None),
            next_puzzle=(variant, puzzle.id) if puzzle is not None else None)
