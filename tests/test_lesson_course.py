"""The whole course, taken by a scripted child: every lesson that ships, in
English and in Polish, reached from the board's menu on a board of the
game's size (10x10 for international). In each lesson the child lifts a
piece that should stay once and makes one wrong move (a move of its own the
step does not want, or one the rules refuse), each found with the engine in
the first step that has one; it puts the pieces back as lit and makes the
right answers to the end. Each time the screen is read it is drawn at
480x320 and must read whole (tests/test_words_screens.py `check`): the
menus, every step's instruction, the reasons, the well-done words and the
closing screen, in both languages. The course itself: at least 80 steps
over at least five games, and `damka lessons check` passes every file."""

from __future__ import annotations

from pathlib import Path

import pytest

from damka.cli import main
from damka.controller import words
from damka.controller.app import App, AppState
from damka.controller.app.board_settings import BoardSettings
from damka.controller.app.lesson_desk import lessons_menu
from damka.controller.app.views import GameView, MenuView
from damka.controller.board.board_map import BoardMap
from damka.controller.board.takeback_guide import piece_owner
from damka.controller.cues.listener import CueListener, CueSettings
from damka.engine.move import Move
from damka.hardware.interfaces import Button
from damka.sim.virtual_board import VirtualBoard
from damka.teaching.exercise import Exercise
from damka.teaching.lesson_file import Lesson, course_of, shipped, shipped_name, shipped_names
from damka.teaching.progress import ProgressBook
from test_lesson_board import Said, Try, choose, shown, take_step
from test_words_screens import check

ROOT = Path(__file__).resolve().parent.parent
LESSONS = ROOT / "teaching" / "lessons"


def test_the_course_has_80_steps_over_five_games(capsys: pytest.CaptureFixture[str]) -> None:
    names = shipped_names()
    lessons = [shipped(name) for name in names]
    assert sum(len(lesson.steps) for lesson in lessons) >= 80
    courses = [course_of(name) for name in names]
    assert courses == sorted(courses, key=courses.index)  # each course's lessons together, in file order
    assert {"classic", "russian", "international", "american", "multiwarcaby"} <= set(courses)
    assert {lesson.variant.name for lesson in lessons} >= {"classic", "russian", "international", "american",
                                                           "multiwarcaby", "multiwarcaby7"}
    assert {len(lesson.variant.sides) for lesson in lessons if lesson.variant.name == "multiwarcaby"} >= {2, 3, 4}
    assert main(["lessons", "list"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("classic: 10 lessons, ") and out[-1].endswith(" lessons of 5 games")
    assert [line.split()[0] for line in out if line.startswith("  ")] == names


def test_lessons_check_passes_every_shipped_file(capsys: pytest.CaptureFixture[str]) -> None:
    files = sorted(LESSONS.glob("*.toml"))
    assert len(files) == len(shipped_names()) >= 20
    assert main(["lessons", "check", *map(str, files)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == len(files) and all(": ok, " in line for line in out)


def move_try(board: BoardMap, move: Move, why: str) -> Try:
    return Try(board.name(move.start), tuple(board.name(square) for square in move.path),
               tuple(board.name(square) for square in sorted(move.captures)), why=why)


def planned_wrong(step: Exercise) -> Try | None:
    """A wrong move for this step and the rule the screen must give: the step's own first wrong move; else
    a legal move it does not want; else a move the rules refuse (a step when a capture is a must, a man's step
    backwards); None when there is none to make."""
    variant, position = step.variant, step.position
    board = BoardMap(variant)
    if step.wrong:
        turn, _ = step.wrong[0]
        return move_try(board, turn[0], "own")
    starts = {answer[0].start for answer in step.right}
    for move in variant.legal_moves(position):
        if not step.answers((move,)) and not any(answer[0] == move for answer in step.right):
            return move_try(board, move, "lesson.why.other_move" if move.start in starts
                            else "lesson.why.other_piece")
    if variant.uniform_piece is not None:
        return None
    legal = variant.legal_moves(position)
    occupied = variant.occupancy(position)
    mover = variant.side_to_move(position)
    geometry = variant.geometry
    for square in geometry.squares:
        owner, king = piece_owner(variant, variant.piece_at(position, square) or "")
        if owner != mover:
            continue
        file, rank = geometry.file_rank(square)
        forward = 1 if mover == 0 else -1
        for dfile in (-1, 1):
            for drank, why in ((forward, "lesson.why.must_capture"), (-forward, "lesson.why.forward")):
                if why == "lesson.why.must_capture" and not all(move.captures for move in legal):
                    continue
                if why == "lesson.why.forward" and (king or any(move.captures for move in legal)):
                    continue  # (a king may step back)
                if not (0 <= file + dfile < geometry.width and 0 <= rank + drank < geometry.height):
                    continue
                landing = geometry.index(file + dfile, rank + drank)
                if geometry.is_playable(landing) and not occupied >> landing & 1:
                    return Try(board.name(square), (board.name(landing),), why=why)
    return None


def planned_lift(step: Exercise) -> Try | None:
    """A piece the child should not lift in this step (it starts no right answer and no right answer captures
    it) and the rule the screen must give: the other side's piece, else one of the mover's that may not move
    now, else one that may but is not asked for; None when there is none."""
    variant, position = step.variant, step.position
    board = BoardMap(variant)
    starts = {answer[0].start for answer in step.right}
    taken = {square for answer in step.right for move in answer for square in move.captures}
    legal = variant.legal_moves(position)
    mover = variant.side_to_move(position)
    candidates = []
    occupied = variant.occupancy(position)
    for index in variant.geometry.squares:
        if not occupied >> index & 1 or index in starts or index in taken:
            continue
        owner, _ = piece_owner(variant, variant.piece_at(position, index) or "")
        own = [move for move in legal if move.start == index]
        if owner is not None and owner != mover:
            why = "lesson.why.not_yours"
        elif not own and legal and all(move.captures for move in legal):
            why = "lesson.why.must_capture"
        elif not own:
            why = "lesson.why.stuck"
        else:
            why = "lesson.why.other_piece"
        candidates.append((why != "lesson.why.not_yours", board.name(index), why))
    if not candidates:
        return None
    _, square, why = min(candidates)
    return Try(square, why=why)


def plan(lesson: Lesson) -> list[tuple[Try | None, Try | None]]:
    """One mistaken lift and one wrong move in the lesson, each in the first step that has one (the wrong
    move in the first step with words of its own for one, when a step has)."""
    lifts = [planned_lift(step) for step in lesson.steps]
    wrongs = [planned_wrong(step) for step in lesson.steps]
    lift_at = next(number for number, lift in enumerate(lifts) if lift is not None)
    own = [number for number, step in enumerate(lesson.steps) if step.wrong]  # the lesson's own words first
    wrong_at = own[0] if own else next(number for number, wrong in enumerate(wrongs) if wrong is not None)
    return [(lifts[number] if number == lift_at else None, wrongs[number] if number == wrong_at else None)
            for number in range(len(lesson.steps))]


def at_board(language: str, lesson: Lesson) -> tuple[App, VirtualBoard, Said]:
    """The app on a virtual board large enough for the lesson's game (9x9, or 10x10 for international)."""
    app = App(inline_thinking=True)
    said = Said()
    CueListener.attach(app, [said], CueSettings(voice=True))
    app.set_board_settings(BoardSettings(language=language, voice=True))
    width, height = lesson.variant.board_size
    board = VirtualBoard(files=max(9, width), ranks=max(9, height))
    board.connect(app)
    board.advance(100)
    return app, board, said


def menu_reads_whole(app: App, name: str) -> None:
    view = app.view()
    assert isinstance(view, MenuView)
    check(f"{name} ({words.language()})", view, (480, 320), save=False)


@pytest.mark.parametrize("language", ["en", "pl"])
@pytest.mark.parametrize("name", shipped_names())
def test_a_child_takes_every_lesson_with_a_wrong_lift_and_a_wrong_move(name: str, language: str) -> None:
    lesson = shipped(name)
    planned = plan(lesson)
    assert sum(lift is not None for lift, _ in planned) == 1 and sum(wrong is not None for _, wrong in planned) == 1
    app, board, said = at_board(language, lesson)
    menu_reads_whole(app, "menu")
    choose(app, board, "lessons")
    menu = app.screens.shown_menu
    assert menu is not None
    for _ in menu.visible_rows():  # every row of the lessons menu on the way reads whole
        menu_reads_whole(app, "lessons")
        if menu.current.key == f"lesson:{name}":
            break
        board.button(Button.DOWN)
    assert menu.current.key == f"lesson:{name}"
    board.button(Button.OK)
    assert app.state is AppState.LESSON
    shown(app)  # the set-up screen
    for number, (lift, wrong) in enumerate(planned):
        take_step(app, board, lesson, number, lift, wrong)
        board.button(Button.OK)
    finished = words.say("lesson.finished", title=lesson.title.text())
    view = app.view()
    assert isinstance(view, GameView) and view.messages[0] == finished and board.leds == {}
    check(f"lesson finished ({language})", view, (480, 320), save=False)
    spoken = [item.text for item in said.items]
    assert all(step.say.text() in spoken and step.well_done.text() in spoken for step in lesson.steps)
    assert spoken[-1] == finished
    board.button(Button.OK)
    assert app.state is AppState.MENU


def test_the_docs_count_each_course_as_it_ships() -> None:
    """docs/lessons.md's table of courses: each course's lessons and steps as `damka lessons list` counts them."""
    table = {}
    for line in (ROOT / "docs" / "lessons.md").read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if len(cells) == 4 and cells[0].startswith("`") and cells[1].isdigit():
            table[cells[0].split("`")[1].split("-", 1)[1]] = (int(cells[1]), int(cells[2]))
    counted: dict[str, tuple[int, int]] = {}
    for name in shipped_names():
        lessons, steps = counted.get(course_of(name), (0, 0))
        counted[course_of(name)] = (lessons + 1, steps + len(shipped(name).steps))
    assert table == counted


@pytest.mark.parametrize("language", ["en", "pl"])
def test_the_lessons_menu_says_which_need_a_larger_board(language: str) -> None:
    """International is played on 10x10: its lessons are for the simulator or a larger board, and say so."""
    words.set_language(language)
    rows = {row.key: row.label for row in lessons_menu().visible_rows()}
    larger = [name for name in shipped_names() if shipped(name).variant.board_size[0] > 9]
    assert larger and all(course_of(name) == "international" for name in larger)
    for name in shipped_names():
        title = shipped(name).title.text()
        assert rows[f"lesson:{name}"] == (words.say("variant.larger", label=title) if name in larger else title)


def test_lessons_done_before_the_course_was_renumbered_stay_done() -> None:
    """A learner's lessons are kept by name: those finished as `04-majority` or `07-multiwarcaby` (the
    names before the courses) count as the lessons they are now; a name that ships no more counts as none."""
    book = ProgressBook(None)
    for old in ("04-majority", "07-multiwarcaby", "99-gone"):
        book.record("lesson", old, "classic", "Ala", solved=True, stars=0, hints=0, tries=0)
    facts = book.facts("Ala")
    assert facts.lessons_done == ("1-classic-05-majority", "5-multiwarcaby-01-two-moves")
    assert facts.next_lesson == "1-classic-01-man-moves" and facts.lessons_total == len(shipped_names())
    assert shipped_name("russian") == "2-russian-01-moves" and shipped_name("99-gone") is None
