"""Lessons as data: one TOML file per lesson, read and checked here.

A teacher writes a lesson without code (docs/lessons.md says how): the
variant (and its options: the number of players, teams), a title and, for
each step, the position, what to say, the moves that count as right, words
for particular wrong moves and what to say when right, each text in English
and Polish. `read_lesson` checks the whole file
and raises one `LessonError` listing every fault, one line each (file, step,
field), so a teacher fixes them all in one go. The lessons that ship are in
`teaching/lessons/` and are played in the order of their file names, which
group them by course: `1-classic-01-man-moves` is the classic course's first
lesson (`course_of` reads the course from the name).
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from damka.base.files import MAX_LESSON_BYTES, load_toml, read_text
from damka.controller.words import LANGUAGES
from damka.engine.errors import DamkaError
from damka.engine.notation import format_move, parse_move
from damka.engine.variant import Position, Variant
from damka.engine.variants import find_variant
from damka.teaching.exercise import Exercise, Turn, Words


MAX_STEPS = 200     # the lessons that ship have 2 to 5; each step is checked by playing its moves
MAX_ANSWERS = 100   # right or wrong answers of one step


class LessonError(DamkaError):
    """A lesson file that cannot be used: every fault on a line of its own."""


class LessonRefusedError(LessonError, ValueError):
    """A file not read as a lesson at all (not a regular file, too large, nested too deep,
    too many steps): one line, and `damka lessons check` stops with exit 2."""


@dataclass(frozen=True)
class Lesson:
    """A lesson read from its file: `name` is the file's name without `.toml`."""

    name: str
    variant: Variant
    title: Words
    steps: tuple[Exercise, ...]


def shipped_names() -> list[str]:
    """The lessons that ship with Damka, in the order a child takes them (by file name)."""
    folder = resources.files("damka.teaching.lessons")
    return sorted(item.name[:-len(".toml")] for item in folder.iterdir() if item.name.endswith(".toml"))


def course_of(name: str) -> str:
    """The course of a shipped lesson, from its name: `1-classic-01-man-moves` is in `classic`."""
    parts = name.split("-")
    return parts[1] if len(parts) > 2 and parts[0].isdigit() else ""


def _short_names(name: str) -> set[str]:
    """The names a shipped lesson answers to: `1-classic-01-man-moves`, `classic-01-man-moves`,
    `classic-man-moves`, `01-man-moves` and `man-moves` (the first course's lesson of that name comes
    first: `capturing` is classic's); a course's first lesson also to the course's name (`russian`)."""
    parts = name.split("-")
    if not course_of(name):
        return {name, name.split("-", 1)[-1]}
    topic = parts[3:] if len(parts) > 3 and parts[2].isdigit() else parts[2:]
    first = {parts[1]} if parts[2] == "01" else set()   # a course's first lesson: `russian`
    return {name, "-".join(parts[1:]), "-".join([parts[1], *topic]), "-".join(parts[2:]), "-".join(topic), *first}


def shipped_name(name: str) -> str | None:
    """The name a lesson that ships has now, from any name it answers to or the name it had before the
    courses (`04-majority`: its number is left out); None when none does. A learner's lessons done are
    kept by name, so they stay done when the course is renumbered."""
    names = shipped_names()
    for text in (name, name.split("-", 1)[-1] if name.split("-", 1)[0].isdigit() else name):
        found = [known for known in names if text in _short_names(known)]
        if found:
            return found[0]
    return None


def shipped(name: str) -> Lesson:
    """A lesson that ships, by its name (or a shorter one: `classic-man-moves` or `man-moves`)."""
    found = [known for known in shipped_names() if name in _short_names(known)]
    if not found:
        raise LessonError(f"no lesson {name!r}; the lessons are: {', '.join(shipped_names())}")
    source = resources.files("damka.teaching.lessons").joinpath(f"{found[0]}.toml")
    return parse_lesson(source.read_text("utf-8"), found[0], f"damka/teaching/lessons/{found[0]}.toml")


def find_lesson(text: str) -> Lesson:
    """A lesson file (a path ending in .toml) or a lesson that ships, by name."""
    if text.endswith(".toml"):
        return read_lesson(Path(text))
    return shipped(text)


def read_lesson(path: Path) -> Lesson:
    """The lesson in the file at `path` (LessonError naming every fault; LessonRefusedError, one
    line, for a file that is not a regular file of at most `MAX_LESSON_BYTES` UTF-8 text)."""
    return parse_lesson(read_text(path, "lesson file", MAX_LESSON_BYTES, LessonRefusedError), path.stem, str(path))


def parse_lesson(text: str, name: str, where: str) -> Lesson:
    """The lesson in `text` (a TOML file shown as `where` in errors)."""
    data = load_toml(text, where, LessonError, invalid="not a TOML file", too_deep=LessonRefusedError)
    steps = data.get("step")
    if isinstance(steps, list) and len(steps) > MAX_STEPS:
        raise LessonRefusedError(f"{where}: {len(steps):,} steps; a lesson has at most {MAX_STEPS} "
                                 f"(split it into several lessons)")
    checker = _Checker(where)
    lesson = checker.lesson(name, data)
    if checker.faults or lesson is None:
        raise LessonError("\n".join(checker.faults))
    return lesson


class _Checker:
    """Reads a lesson's table, writing down every fault instead of stopping at the first."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.faults: list[str] = []

    def fault(self, place: str, text: str) -> None:
        self.faults.append(f"{self.where}: {place}: {text}")

    def lesson(self, name: str, data: dict[str, Any]) -> Lesson | None:
        for key in sorted(set(data) - {"variant", "options", "title", "step"}):
            self.fault(key, "unknown field (the fields are variant, options, title and [[step]])")
        variant = None
        options = data.get("options", {})
        if not isinstance(options, dict) or not all(isinstance(value, (bool, int)) for value in options.values()):
            self.fault("options", "give the variant's options as a table, e.g. options = { sides = 3 }")
            options = {}
        try:
            variant = find_variant(str(data.get("variant", "")))
        except (DamkaError, ValueError) as error:
            self.fault("variant", f"{error}" if "variant" in data else "missing (e.g. variant = \"classic\")")
        if variant is not None and options:
            try:
                variant = find_variant(variant.name, **options)
            except (DamkaError, ValueError) as error:
                self.fault("options", f"{error}")
                variant = None
        title = self.words(data.get("title"), "title")
        steps = data.get("step")
        if not isinstance(steps, list) or not steps:
            self.fault("step", "no steps: add at least one [[step]]")
            return None
        if variant is None:
            return None
        read = [self.step(variant, raw, f"step {number}") for number, raw in enumerate(steps, 1)]
        exercises = tuple(step for step in read if step is not None)
        if title is None or len(exercises) != len(read):
            return None
        return Lesson(name, variant, title, exercises)

    def words(self, raw: Any, place: str, required: bool = True) -> Words | None:
        """A text in every language: a table {en = "...", pl = "..."}."""
        if raw is None:
            if required:
                self.fault(place, "missing: give the words as {en = \"...\", pl = \"...\"}")
            return None
        if not isinstance(raw, dict):
            self.fault(place, "give the words as {en = \"...\", pl = \"...\"}")
            return None
        texts = []
        for code in LANGUAGES:
            text = raw.get(code)
            if not isinstance(text, str) or not text.strip():
                self.fault(f"{place}.{code}", "missing or empty")
            texts.append(text.strip() if isinstance(text, str) else "")
        for extra in sorted(set(raw) - set(LANGUAGES)):
            self.fault(f"{place}.{extra}", f"unknown language (the languages are {', '.join(LANGUAGES)})")
        return Words(texts[0], texts[1])

    def step(self, variant: Variant, raw: Any, place: str) -> Exercise | None:
        if not isinstance(raw, dict):
            self.fault(place, "a step is a [[step]] table")
            return None
        known = {"position", "to_move", "say", "right", "well_done", "wrong"}
        for key in sorted(set(raw) - known):
            self.fault(f"{place}.{key}", f"unknown field (the fields are {', '.join(sorted(known))})")
        position = self.position(variant, raw, place)
        say = self.words(raw.get("say"), f"{place}.say")
        well_done = self.words(raw.get("well_done"), f"{place}.well_done")
        if position is None:
            return None
        right = self.turns(variant, position, raw.get("right"), f"{place}.right")
        wrong = self.wrong(variant, position, raw.get("wrong", []), f"{place}.wrong")
        if right and wrong is not None and say is not None and well_done is not None:
            exercise = Exercise(variant, position, right, say, well_done, tuple(wrong))
            for turn, _ in wrong:
                self.refused(exercise, turn, f"{place}.wrong")
            return exercise
        return None

    def refused(self, exercise: Exercise, turn: Turn, place: str) -> None:
        """A wrong turn must be one the board refuses with the step's words for it: not right, nor begun by
        a right answer (a multiwarcaby answer of one move leaves the second free), and, when it is two
        moves, begun as a right answer is (else the board tells it after its first move, by other words)."""
        text = _text(exercise.variant, exercise.position, turn)
        if turn in exercise.right:
            self.fault(place, f"{text} is also a right move")
        elif exercise.answers(turn):
            self.fault(place, f"{text} is counted right: it begins with a right answer")
        elif len(turn) > 1 and not any(answer[0] == turn[0] for answer in exercise.right):
            first = _text(exercise.variant, exercise.position, turn[:1])
            self.fault(place, f"{text}: the board tells a turn wrong after its first move when no right answer "
                              f"begins with it; write {first!r} alone")

    def position(self, variant: Variant, raw: dict[str, Any], place: str) -> Position | None:
        text = raw.get("position")
        if not isinstance(text, str):
            self.fault(f"{place}.position", "missing: a FEN such as \"W:Wc3:Bf6\"")
            return None
        try:
            position = variant.parse_position(text)
        except (DamkaError, ValueError) as error:
            self.fault(f"{place}.position", f"{error}")
            return None
        if not variant.legal_moves(position):
            self.fault(f"{place}.position", "the side to move has no move here")
            return None
        to_move = raw.get("to_move")
        side = variant.sides[variant.side_to_move(position)]
        if to_move is not None and str(to_move) != side:
            self.fault(f"{place}.to_move", f"{to_move!r}, but in the position it is {side!r} to move")
        return position

    def turns(self, variant: Variant, position: Position, raw: Any, place: str) -> tuple[Turn, ...]:
        """The right answers: each a move (a two-move turn in multiwarcaby: "c3-d4 d4-e5"), as move keys."""
        if not isinstance(raw, list) or not raw or not all(isinstance(item, str) for item in raw):
            self.fault(place, "missing: a list of moves, e.g. right = [\"c3-d4\"]")
            return ()
        if len(raw) > MAX_ANSWERS:
            self.fault(place, f"{len(raw):,} moves; a step has at most {MAX_ANSWERS} right answers")
            return ()
        answers = []
        for text in raw:
            answer = self.turn(variant, position, text, place)
            if answer is not None:
                answers.append(answer)
        return tuple(answers) if len(answers) == len(raw) else ()

    def turn(self, variant: Variant, position: Position, text: str, place: str) -> Turn | None:
        parts = text.split()
        count = max(1, variant.moves_per_turn)
        if not 1 <= len(parts) <= count:
            self.fault(place, f"{text!r}: a turn here is {'one move' if count == 1 else f'1 to {count} moves'}")
            return None
        keys = []
        for part in parts:
            try:
                move = parse_move(variant, position, part)
            except (DamkaError, ValueError) as error:
                said = str(error)
                self.fault(place, said if repr(part) in said and part == text else f"{text!r}: {said}")
                return None
            keys.append(move)
            position = variant.play(position, move)
        return tuple(keys)

    def wrong(self, variant: Variant, position: Position, raw: Any,
              place: str) -> list[tuple[Turn, Words]] | None:
        if not isinstance(raw, list):
            self.fault(place, "a list of [[step.wrong]] tables, each with move, en and pl")
            return None
        if len(raw) > MAX_ANSWERS:
            self.fault(place, f"{len(raw):,} tables; a step has at most {MAX_ANSWERS} wrong answers")
            return None
        wrong = []
        for number, item in enumerate(raw, 1):
            where = f"{place} {number}"
            if not isinstance(item, dict) or not isinstance(item.get("move"), str):
                self.fault(where, "needs move = \"...\" and the words (en, pl)")
                continue
            answer = self.turn(variant, position, item["move"], f"{where}.move")
            words = self.words({key: value for key, value in item.items() if key != "move"}, where)
            if answer is not None and words is not None:
                wrong.append((answer, words))
        return wrong if len(wrong) == len(raw) else None


def _text(variant: Variant, position: Position, turn: Turn) -> str:
    moves = []
    for move in turn:
        moves.append(format_move(variant, position, move))
        position = variant.play(position, move)
    return " ".join(moves)
