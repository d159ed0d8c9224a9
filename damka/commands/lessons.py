"""`damka lessons`: the lessons that ship (`list`) and a teacher's lesson file checked (`check`).

    damka lessons list
    damka lessons check my-lesson.toml

`list` groups the lessons by course (the game in their names,
`1-classic-01-man-moves`), each course under a line of its lessons and steps.

`check` reads the file as the board would and prints every fault on a line
of its own (file, step, field), so a teacher fixes them all in one go; it
exits 1 when a file has faults. A file that cannot be a lesson at all (not
a regular file, over 1 MB, nested too deep, over 200 steps) stops the check
with one line and exit 2, as every command's refused input does.
`damka sim --lesson FILE` then takes the lesson on the simulator's board.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "lessons", description="The lessons a child takes at the board, and a check of a lesson file.")
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    listing = actions.add_parser("list", help="the lessons that ship, in order",
                                 description="The lessons that ship, in the order a child takes them.")
    listing.set_defaults(func=run_list)
    check = actions.add_parser("check", help="check lesson files",
                               description="Read each lesson file as the board would; print every fault.")
    check.add_argument("files", metavar="FILE", type=Path, nargs="+", help="a lesson file (.toml)")
    check.set_defaults(func=run_check)
    parser.set_defaults(func=lambda args: parser.error("an action is needed: list or check"))


def run_list(args: argparse.Namespace) -> int:
    from damka.teaching.lesson_file import course_of, shipped, shipped_names

    courses: dict[str, list[tuple[str, str]]] = {}
    steps_in: dict[str, int] = {}
    for name in shipped_names():
        lesson = shipped(name)
        steps = len(lesson.steps)
        course = course_of(name) or lesson.variant.name
        courses.setdefault(course, []).append(
            (name, f"  {name}  {lesson.variant.name}  {_steps(steps)}  {lesson.title.en}"))
        steps_in[course] = steps_in.get(course, 0) + steps
    for course, lines in courses.items():
        print(f"{course}: {len(lines)} lesson{'s' if len(lines) != 1 else ''}, {_steps(steps_in[course])}")
        for _, line in lines:
            print(line)
    total = sum(len(lines) for lines in courses.values())
    print(f"{_steps(sum(steps_in.values()))} in {total} lessons of {len(courses)} games")
    return 0


def _steps(count: int) -> str:
    return f"{count} step{'s' if count != 1 else ''}"


def run_check(args: argparse.Namespace) -> int:
    from damka.teaching.lesson_file import LessonError, LessonRefusedError, read_lesson

    faulty = 0
    for path in args.files:
        try:
            lesson = read_lesson(path)
        except LessonRefusedError:
            raise  # not a lesson at all: one line, exit 2 (damka.cli)
        except LessonError as error:
            faulty += 1
            print(error, file=sys.stderr)
            continue
        print(f"{path}: ok, {_steps(len(lesson.steps))} of {lesson.variant.name}")
    return 1 if faulty else 0
