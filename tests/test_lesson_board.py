"""A scripted child takes every lesson on the virtual board, in English and
in Polish: it sets each step up as the LEDs ask, lifts a piece it should not,
makes a wrong move, puts the pieces back as lit, then makes the move the
lit answer shows; the screen's words are checked against the position at
each point, and the LEDs (the answer lit after two mistakes, green after the
right move). The lessons are reached from the board's menu."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from damka.controller import words
from damka.controller.app import App, AppState
from damka.controller.app.board_settings import BoardSettings
from damka.controller.cues.listener import Announcement, CueListener, CueSettings
from damka.controller.app.views import GameView
from damka.controller.board.board_map import BoardMap
from damka.hardware.interfaces import Button, Role
from damka.sim.virtual_board import VirtualBoard
from damka.teaching.exercise import Exercise, Words
from damka.teaching.lesson_file import Lesson, shipped, shipped_names
from test_words_screens import check

ROOT = Path(__file__).resolve().parent.parent
STILL_MS = 2000  # longer than any settle time: the board is judged


@dataclass(frozen=True)
class Try:
    """A mistake the child makes: a lift (`path` empty) or a move, and what the screen must say why."""

    start: str
    path: tuple[str, ...] = ()
    captures: tuple[str, ...] = ()
    why: str = ""          # a catalogue key ("lesson.why.forward"), or "own" for the step's own words
    then: Try | None = None  # multiwarcaby: the turn's second move


# The first lessons, step by step: the mistaken lift (None: every piece may start a right move) and the wrong
# move, each named by the rule the screen must give; a step past the table is taken without mistakes
# (test_lesson_course.py takes every lesson that ships with mistakes the engine finds).
MISTAKES: dict[str, list[tuple[Try | None, Try | None]]] = {
    "1-classic-01-man-moves": [
        (Try("h8", why="lesson.why.not_yours"), Try("c3", ("c4",), why="lesson.why.one_step")),
        (Try("c3", why="lesson.why.other_piece"), Try("e3", ("d4",), why="own"))],
    "1-classic-02-capturing": [
        (Try("h8", why="lesson.why.not_yours"), Try("d4", ("c5",), why="lesson.why.must_capture")),
        (Try("g1", why="lesson.why.must_capture"), Try("d4", ("e5",), why="lesson.why.must_capture"))],
    "1-classic-03-must-capture": [
        (Try("a3", why="lesson.why.must_capture"), Try("a3", ("b4",), why="lesson.why.must_capture")),
        (Try("b2", why="lesson.why.must_capture"), Try("b2", ("a3",), why="lesson.why.must_capture"))],
    "1-classic-05-majority": [
        (Try("h8", why="lesson.why.not_yours"), Try("a5", ("c7",), ("b6",), why="lesson.why.majority")),
        (Try("h8", why="lesson.why.not_yours"), Try("h4", ("f6",), ("g5",), why="lesson.why.majority"))],
    "1-classic-06-crowning": [
        (Try("h2", why="lesson.why.not_yours"), Try("c7", ("c8",), why="lesson.why.one_step")),
        (Try("g3", why="lesson.why.must_capture"), Try("g3", ("h4",), why="lesson.why.must_capture"))],
    "1-classic-07-flying-king": [
        (Try("h2", why="lesson.why.not_yours"), Try("b2", ("c3",), why="own")),
        (Try("h2", why="lesson.why.not_yours"), Try("a1", ("c3",), why="lesson.why.must_capture"))],
    # Multiwarcaby: a wrong first move is told at once; a right first move waits for the second.
    "5-multiwarcaby-01-two-moves": [
        (Try("g8", why="lesson.why.other_piece"),
         Try("c3", ("d4",), then=Try("d4", ("d5",)), why="lesson.why.other_move")),
        (None, Try("c3", ("d4",), why="lesson.why.other_move")),
        (Try("c4", why="lesson.why.other_piece"), Try("c4", ("e4",), ("d4",), why="lesson.why.other_piece")),
        (Try("g8", why="lesson.why.other_piece"), Try("d4", ("d5",), why="lesson.why.other_piece"))],
}


class Said:
    """The voice's sink: what it was asked to say."""

    def __init__(self) -> None:
        self.items: list[Announcement] = []

    def announce(self, item: Announcement) -> None:
        self.items.append(item)


def test_the_scripted_lessons_ship() -> None:
    names = shipped_names()
    assert set(MISTAKES) <= set(names)
    for name in MISTAKES:
        assert len(shipped(name).steps) >= len(MISTAKES[name]), name


def at_board(language: str) -> tuple[App, VirtualBoard, Said]:
    app = App(inline_thinking=True)
    said = Said()
    CueListener.attach(app, [said], CueSettings(voice=True))
    app.set_board_settings(BoardSettings(language=language, voice=True))
    board = VirtualBoard()
    board.connect(app)
    board.advance(100)
    return app, board, said


def choose(app: App, board: VirtualBoard, key: str) -> None:
    """Move the menu's cursor to the row `key` with the buttons and press ok."""
    menu = app.screens.shown_menu
    assert menu is not None
    keys = [row.key for row in menu.visible_rows()]
    while menu.current.key != key:
        board.button(Button.DOWN if keys.index(key) > menu.cursor else Button.UP)
    board.button(Button.OK)


def follow_setup(board: VirtualBoard) -> None:
    """Put pieces where the LEDs say, take them off where they say."""
    for square in sorted(board.lit(Role.TAKE_AWAY)):
        board.remove(square)
    for square in sorted(board.lit(Role.PUT_HERE)):
        board.put(square)
    board.advance(100)
    assert not board.lit(Role.PUT_HERE) and not board.lit(Role.TAKE_AWAY)


def make(board: VirtualBoard, start: str, path: tuple[str, ...], captures: tuple[str, ...] = ()) -> None:
    """A hand making one move, touching down on each landing, the captured pieces taken off after."""
    board.lift(start)
    board.advance(100)
    for k, square in enumerate(path):
        board.drop(square)
        board.advance(100)
        if k < len(path) - 1:
            board.lift(square)
            board.advance(100)
    for square in captures:
        board.remove(square)
        board.advance(100)


def reason(step: Exercise, mistake: Try) -> str:
    if mistake.why == "own":
        own = step.words_for(tuple(answer for answer, _ in step.wrong))
        assert own is not None
        return own.text()
    return words.say(mistake.why)


def shown(app: App) -> tuple[str, str, bool]:
    """(the instruction, "" while it is not shown; the line under it or alone; shown as a warning);
    the short status line checked too, and that the screen reads whole on the 480x320 panel."""
    view = app.view()
    assert isinstance(view, GameView)
    check(f"lesson ({words.language()})", view, (480, 320), save=False)  # (the screen starts its own fonts)
    runner = app.teaching.lessons.runner
    assert runner is not None
    assert view.status == words.say(f"lesson.status.{runner.phase.value}")
    if view.messages[0] != runner.instruction:
        return "", " ".join(view.messages), view.alert
    return view.messages[0], " ".join(view.messages[1:]), view.alert


def names(variant, squares) -> set[str]:  # type: ignore[no-untyped-def]
    board = BoardMap(variant)
    return {board.name(square) for square in squares}


def take_step(app: App, board: VirtualBoard, lesson: Lesson, number: int, lift: Try | None, wrong: Try | None) -> None:
    """One step: set up as lit, the mistaken lift and the wrong move (each when given), then the right answer."""
    step = lesson.steps[number]
    follow_setup(board)
    assert app.board_game is not None and app.board_game.position == step.position  # the window's piece colours
    status, message, alert = shown(app)
    assert status == step.say.text() and message == "" and not alert
    assert words.say("lesson.title", title=lesson.title.text(), step=number + 1, steps=len(lesson.steps)) \
        == app.view().title
    mistakes = []
    if lift is not None:  # the mistaken lift: the screen says why, the LED asks for the piece back
        board.lift(lift.start)
        board.advance(STILL_MS)
        status, message, alert = shown(app)
        why = reason(step, lift)
        assert status == "" and message.startswith(why) and alert, (message, why)  # why, and the guide back alone
        assert board.lit(Role.PUT_HERE) == {lift.start}
        board.drop(lift.start)
        board.advance(100)
        assert shown(app)[1] == words.say("lesson.try_again", why=why)
        mistakes.append(why)
    if wrong is not None:  # the wrong move: why, the pieces guided back
        make(board, wrong.start, wrong.path, wrong.captures)
        if wrong.then is not None:  # multiwarcaby: the second move of the turn
            make(board, wrong.then.start, wrong.then.path, wrong.then.captures)
        board.advance(STILL_MS)
        why = reason(step, wrong)
        message = shown(app)[1]
        assert message.startswith(why) and shown(app)[2], (message, why)
        assert board.lit(Role.PUT_HERE) == {wrong.start, *wrong.captures}
        follow_setup(board)
        mistakes.append(why)
    # Two mistakes (one in a step with no wrong lift): the answer is lit once there were two.
    answer = step.right[0]
    lit = board.lit(Role.HINT_FROM) | board.lit(Role.HINT_TO)
    if len(mistakes) >= 2:
        assert shown(app)[1] == words.say("lesson.answer_lit", why=mistakes[-1])
        assert board.lit(Role.HINT_FROM) == names(step.variant, [move.start for move in answer])
        assert lit == names(step.variant, [square for move in answer for square in (move.start, *move.path)])
    elif mistakes:
        assert not lit and shown(app)[1] == words.say("lesson.try_again", why=mistakes[-1])
    else:
        assert not lit and shown(app)[1] == ""
    # The right answer: green on its squares, the well-done words, then the next step.
    position = step.position
    done: set[str] = set()
    for move in answer:
        squares = BoardMap(step.variant)
        path = tuple(squares.name(square) for square in move.path)
        make(board, squares.name(move.start), path, tuple(squares.name(sq) for sq in sorted(move.captures)))
        done |= {squares.name(move.start), *path}
        position = step.variant.play(position, move)
    board.advance(STILL_MS)
    status, message, alert = shown(app)
    assert message == f"{step.well_done.text()}  {words.say('lesson.next')}" and not alert
    assert board.lit(Role.LEGAL_TARGET) == done and set(board.leds) == done


@pytest.mark.parametrize("language", ["en", "pl"])
@pytest.mark.parametrize("name", sorted(MISTAKES))
def test_a_child_takes_the_lesson_with_a_wrong_move_and_a_wrong_lift_in_each_step(name: str, language: str) -> None:
    app, board, said = at_board(language)
    choose(app, board, "lessons")
    assert app.view().menu.title == words.text_in(language, "lessons.title")  # type: ignore[union-attr]
    choose(app, board, f"lesson:{name}")
    assert app.state is AppState.LESSON
    lesson = shipped(name)
    assert shown(app)[1].startswith(words.say("lesson.set_up", guide="").rstrip(" :"))
    planned = list(MISTAKES[name])
    planned += [(None, None)] * (len(lesson.steps) - len(planned))
    for number, (lift, wrong) in enumerate(planned):
        take_step(app, board, lesson, number, lift, wrong)
        if number % 2:
            board.advance(3000)  # the next step comes by itself...
        else:
            board.button(Button.OK)  # ... or at once with ok
    finished = words.say("lesson.finished", title=lesson.title.text())
    view = app.view()
    assert isinstance(view, GameView) and view.status == words.say("lesson.status.finished")
    assert view.messages[0] == finished and board.leds == {}
    spoken = [item.text for item in said.items]
    assert lesson.steps[0].say.text() in spoken and finished == spoken[-1]
    assert all(step.well_done.text() in spoken for step in lesson.steps)
    board.button(Button.OK)
    assert app.state is AppState.MENU and app.view().menu.title == words.say("new.title")  # type: ignore[union-attr]


def test_polish_words_are_polish() -> None:
    lesson = shipped("man-moves")
    words.set_language("pl")
    assert lesson.title.text() == "Jak chodzi pionek"
    assert words.say("lesson.why.forward") == "Pionek idzie tylko do przodu, nigdy do tyłu."
    assert isinstance(lesson.steps[0].say, Words) and "Przesuń" in lesson.steps[0].say.text()


def test_menu_during_a_lesson_goes_back_to_the_menu() -> None:
    app, board, _ = at_board("en")
    app.teaching.take_lesson(shipped("capturing"))  # as the command line or the page would
    board.step()  # the board loop's next pass shows it
    assert board.lit(Role.PUT_HERE) == {"d4", "e5", "h8"}
    board.button(Button.MENU)
    assert app.state is AppState.MENU and board.leds == {}


def test_damka_sim_takes_a_lesson_from_the_command_line(tmp_path: Path) -> None:
    """`damka sim --lesson`: the simulator's board holds the step's pieces (set up by the window), the
    child's right move is judged; the screenshot shows it."""
    log = tmp_path / "lesson.log"
    log.write_text("400 up c3\n450 down d4\n")
    shot = tmp_path / "lesson.png"
    result = subprocess.run([sys.executable, "-m", "damka", "sim", "--headless", "--no-store", "--lesson", "man-moves",
                             "--script", str(log), "--screenshot", str(shot)],
                            capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "2 events played" in result.stderr and shot.stat().st_size > 0


def test_an_unknown_lesson_on_the_command_line_is_one_line() -> None:
    result = subprocess.run([sys.executable, "-m", "damka", "sim", "--headless", "--no-store", "--lesson", "chess",
                             "--script", "x.log", "--screenshot", "x.png"],
                            capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "damka sim: error: no lesson 'chess'; the lessons are: " + ", ".join(shipped_names())]


def test_a_chain_paused_half_way_is_lit_on_and_not_a_mistake() -> None:
    """The child jumps once of the three and stops to think: the lights show where the chain goes on."""
    app, board, _ = at_board("en")
    app.teaching.take_lesson(shipped("majority"))
    board.step()
    follow_setup(board)
    make(board, "g1", ("e3",), ("f2",))
    board.advance(10_000)
    assert board.lit(Role.LEGAL_TARGET) == {"c5"} and board.lit(Role.TO_CAPTURE) == {"d4", "b6"}
    assert shown(app)[1] == "" and not shown(app)[2] and app.teaching.lessons.runner.mistakes == 0  # type: ignore[union-attr]
    make(board, "e3", ("c5", "a7"), ("d4", "b6"))
    board.advance(STILL_MS)
    assert board.lit(Role.LEGAL_TARGET) == {"g1", "e3", "c5", "a7"}


def test_a_lesson_does_not_disturb_a_game_left_under_the_menu() -> None:
    """A game in play, the menu opened, a lesson taken: the game's session never sees the lesson's board."""
    from tests.app_rig import on_board
    from damka.controller.game.setup import GameSetup

    app = App(setup=GameSetup(variant="classic"), start_game=True, inline_thinking=True, offer_resume=False)
    board = on_board(app)
    said = Said()
    CueListener.attach(app, [said], CueSettings(voice=True))
    board.button(Button.MENU)
    choose(app, board, "new")
    choose(app, board, "lessons")
    choose(app, board, "lesson:1-classic-01-man-moves")
    follow_setup(board)
    board.advance(10_000)
    assert app.session is not None and app.session.game.ply == 0
    assert [item.text for item in said.items] == [shipped("man-moves").steps[0].say.text()]


def test_the_lessons_menu_lists_them_in_order_and_goes_back() -> None:
    app, board, _ = at_board("pl")
    choose(app, board, "lessons")
    menu = app.screens.shown_menu
    assert menu is not None and menu.title == "Lekcje"
    assert [row.label for row in menu.visible_rows()][:2] == ["Jak chodzi pionek", "Bicie"]
    assert menu.visible_rows()[-1].label == "Wróć"
    board.button(Button.MENU)
    assert app.screens.shown_menu is not None and app.screens.shown_menu.title == "Nowa gra"
