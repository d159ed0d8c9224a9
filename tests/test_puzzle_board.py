"""A scripted child solves puzzles on the virtual board, through the tracker:
the LEDs set the position up, a wrong try says why and the pieces go back, a
hint lights the piece then the move and costs a star, the opponent's reply
is lit in the computer's colours and carried out, the answer is lit after two
wrong tries; the progress is kept in the store (and still there after it is
opened again), the rating moves, the menu offers a puzzle near it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from damka.controller import events as ev
from damka.controller import words
from damka.controller.app import App, AppState
from damka.controller.app.board_settings import BoardSettings
from damka.controller.app.puzzle_desk import NEXT_TURN_MS, find_puzzle
from damka.controller.app.views import GameView, MenuView
from damka.controller.store.store import Store
from damka.hardware.interfaces import Button, Role
from damka.sim.virtual_board import VirtualBoard
from damka.teaching.progress import ProgressBook, rated
from damka.teaching.puzzles import shipped_set
from test_lesson_board import STILL_MS, choose, follow_setup, make
from test_words_screens import check


def at_board(language: str = "en", store: Store | None = None) -> tuple[App, VirtualBoard, ev.EventHistory]:
    app = App(inline_thinking=True, store=store, offer_resume=False)
    app.set_board_settings(BoardSettings(language=language))
    history = ev.EventHistory()
    app.bus.subscribe(history)
    board = VirtualBoard()
    board.connect(app)
    board.advance(100)
    return app, board, history


def screen(app: App) -> GameView:
    """The puzzle's screen, checked to read whole on the 480x320 panel."""
    view = app.view()
    assert isinstance(view, GameView)
    check(f"puzzle ({words.language()})", view, (480, 320), save=False)
    return view


def text(app: App) -> str:
    return " ".join(screen(app).messages)


def lit(board: VirtualBoard, *roles: Role) -> set[str]:
    return set().union(*(board.lit(role) for role in roles))


def reply_and_go_on(app: App, board: VirtualBoard) -> None:
    """classic-0002's reply b4xd6, lit in the computer's colours, carried out by the child."""
    board.advance(NEXT_TURN_MS)
    assert app.read_model().teaching.phase == "reply"  # type: ignore[union-attr]
    assert board.lit(Role.COMPUTER_FROM) == {"b4"} and board.lit(Role.COMPUTER_TO) == {"d6"}
    assert screen(app).status == words.say("puzzle.status.reply")
    make(board, "b4", ("d6",), ("c5",))
    board.advance(STILL_MS)
    board.advance(NEXT_TURN_MS)
    assert app.read_model().teaching.phase == "play"  # type: ignore[union-attr]
    assert text(app).startswith(words.say("puzzle.go_on"))


def the_wrong_try(app: App, board: VirtualBoard) -> None:
    """g3xe5 takes a man but not the puzzle's win: told why, the pieces guided back."""
    make(board, "g3", ("e5",), ("f4",))
    board.advance(STILL_MS)
    why = words.say("puzzle.why.not_best")
    assert text(app).startswith(why) and screen(app).alert
    assert board.lit(Role.PUT_HERE) == {"g3", "f4"} and board.lit(Role.TAKE_AWAY) == {"e5"}
    follow_setup(board)


@pytest.mark.parametrize("language", ["en", "pl"])
def test_a_child_solves_a_puzzle_with_a_wrong_try_a_hint_and_the_reply_carried_out(language: str) -> None:
    app, board, history = at_board(language)
    assert app.teaching.start_puzzle("classic", "classic-0002") == "classic-0002"
    board.step()
    assert app.state is AppState.LESSON
    assert text(app).startswith(words.say("lesson.set_up", guide="").rstrip(" :"))
    follow_setup(board)
    assert screen(app).messages == (words.say("puzzle.find_move", side=words.say("side.white"), count=2),)
    # A lift to think is no mistake in a puzzle (saying "not that piece" would give the answer away).
    board.lift("g3")  # it may capture: lifted to think
    board.advance(STILL_MS)
    assert not board.lit(Role.PUT_HERE) and app.read_model().teaching.tries == ()  # type: ignore[union-attr]
    board.drop("g3")
    board.advance(STILL_MS)
    the_wrong_try(app, board)
    facts = app.read_model().teaching
    assert facts is not None and [(t.move, t.right) for t in facts.tries] == [("g3xe5", False)]
    assert facts.tries[0].why == words.say("puzzle.why.not_best") and facts.stars == 3  # a wrong try costs no star
    # The first hint lights the piece, the second the whole move; each costs a star.
    board.button(Button.HINT)
    assert board.lit(Role.HINT_FROM) == {"d6"} and not board.lit(Role.HINT_TO)
    assert text(app).endswith(words.say("puzzle.hint.1"))
    assert screen(app).title == words.say("puzzle.title", number="2", difficulty=2, stars=2)
    board.button(Button.HINT)
    assert board.lit(Role.HINT_FROM) == {"d6"} and board.lit(Role.HINT_TO) == {"f8"}
    assert app.read_model().teaching.stars == 1  # type: ignore[union-attr]
    make(board, "d6", ("f8",), ("e7",))
    board.advance(STILL_MS)
    assert board.lit(Role.LEGAL_TARGET) == {"d6", "f8"} and app.read_model().teaching.phase == "right"  # type: ignore[union-attr]
    reply_and_go_on(app, board)
    make(board, "g3", ("e5", "c7"), ("f4", "d6"))
    board.advance(STILL_MS)
    board.advance(NEXT_TURN_MS)
    view = screen(app)
    assert view.messages[0] == words.say("puzzle.solved", stars=1) and board.leds == {}
    finished = history.of(ev.ExerciseFinished)
    assert [(e.kind, e.name, e.solved, e.stars, e.hints, e.tries) for e in finished] == [
        ("puzzle", "classic-0002", True, 1, 2, 1)]
    progress = app.teaching.progress()
    assert (progress.puzzles_solved, progress.puzzles_tried, progress.stars) == (1, 1, 1)
    assert progress.rating == rated(1000, find_puzzle("classic", "classic-0002").rating, True) > 1000  # type: ignore[union-attr]
    board.button(Button.MENU)
    assert app.state is AppState.MENU and app.read_model().teaching is None


@pytest.mark.parametrize(("language", "line"), [("en", "Puzzles solved: 0 of {}"), ("pl", "Zagadki: 0 z {}")])
def test_a_new_learner_s_progress_counts_the_puzzles_that_ship(language: str, line: str) -> None:
    """Not "0 of 0" (issue 38): of the puzzles the board and the page offer, all of them shipped."""
    shipped = sum(len(shipped_set(variant)) for variant in ("classic", "russian", "international", "multiwarcaby"))
    assert shipped > 900
    line = line.format(shipped)
    app, board, _ = at_board(language)
    choose(app, board, "puzzles")
    choose(app, board, "progress")
    menu = app.shown_menu
    assert menu is not None and line in [row.label for row in menu.visible_rows()]
    check(f"progress ({language})", MenuView(menu), (480, 320), save=False)


SAYS_WHO_MOVES = {"en": ("Puzzle 3 (difficulty 4 of 5): 3 of 3 stars", "Black to move",
                          "Black to move and win 2 pieces!"),
                   "pl": ("Zagadka 3 (trudność 4 z 5): 3 z 3 gwiazdek", "Ruch: Czarne",
                          "Czarne: ruch i wygrana 2 pionków!")}


@pytest.mark.parametrize("language", ["en", "pl"])
def test_a_puzzle_says_who_moves_what_it_wins_and_its_difficulty(language: str) -> None:
    """Half the classic puzzles have Black to move: the screen says so (issue 38), the
    difficulty on the 1-5 scale of `damka puzzles list`, and "3" names puzzle classic-0003."""
    puzzle = find_puzzle("classic", "3")
    assert puzzle is not None and puzzle.id == "classic-0003" and find_puzzle("classic", "0003") == puzzle
    assert puzzle.fen.startswith("B:") and (puzzle.difficulty, puzzle.gain) == (4, 2)
    from damka.commands.sim import puzzle_from
    assert puzzle_from("classic:0003") == ("classic", "0003") and puzzle_from("classic:3") == ("classic", "3")
    app, board, _ = at_board(language)
    assert app.teaching.start_puzzle("classic", "0003") == "classic-0003"
    board.step()
    follow_setup(board)
    view = screen(app)
    assert (view.title, view.status, *view.messages) == SAYS_WHO_MOVES[language]
    assert app.read_model().teaching.instruction == SAYS_WHO_MOVES[language][2]  # type: ignore[union-attr]


@pytest.mark.parametrize("language", ["en", "pl"])
def test_after_two_wrong_tries_the_answer_is_lit_and_the_puzzle_gives_no_stars(language: str) -> None:
    app, board, history = at_board(language)
    app.teaching.start_puzzle("classic", "classic-0002")
    board.step()
    follow_setup(board)
    the_wrong_try(app, board)
    assert screen(app).messages[-1] == words.say("lesson.try_again", why=words.say("puzzle.why.not_best"))
    assert not lit(board, Role.HINT_FROM, Role.HINT_TO)
    the_wrong_try(app, board)
    assert board.lit(Role.HINT_FROM) == {"d6"} and board.lit(Role.HINT_TO) == {"f8"}
    assert text(app) == words.say("lesson.answer_lit", why=words.say("puzzle.why.not_best"))
    board.button(Button.HINT)  # the answer is lit already: no hint, no star lost for it
    assert app.read_model().teaching.hints == 0  # type: ignore[union-attr]
    make(board, "d6", ("f8",), ("e7",))
    board.advance(STILL_MS)
    reply_and_go_on(app, board)
    make(board, "g3", ("e5", "c7"), ("f4", "d6"))
    board.advance(STILL_MS + NEXT_TURN_MS)
    assert screen(app).messages[0] == words.say("puzzle.shown")
    [finished] = history.of(ev.ExerciseFinished)
    assert (finished.solved, finished.stars, finished.tries) == (False, 0, 2)
    progress = app.teaching.progress()
    assert (progress.puzzles_solved, progress.puzzles_tried, progress.stars) == (0, 1, 0)
    assert progress.rating < 1000


def test_a_reply_carried_out_wrong_is_put_back_and_counts_no_try() -> None:
    app, board, _ = at_board()
    app.teaching.start_puzzle("classic", "classic-0002")
    board.step()
    follow_setup(board)
    make(board, "d6", ("f8",), ("e7",))
    board.advance(STILL_MS + NEXT_TURN_MS)
    make(board, "h6", ("g5",))   # not the lit move
    board.advance(STILL_MS)
    assert text(app).startswith(words.say("puzzle.why.not_lit"))
    assert board.lit(Role.PUT_HERE) == {"h6"} and board.lit(Role.TAKE_AWAY) == {"g5"}
    follow_setup(board)
    assert board.lit(Role.COMPUTER_FROM) == {"b4"}
    assert app.teaching.puzzles.tries == 0 and app.teaching.puzzles.stars == 3


def test_a_multiwarcaby_puzzle_is_solved_as_one_two_move_turn() -> None:
    app, board, history = at_board()
    app.teaching.start_puzzle("multiwarcaby", "multiwarcaby-0003")
    board.step()
    follow_setup(board)
    assert screen(app).messages == (words.say("puzzle.find_turn", side=words.say("side.player", number=1)),)
    # A wrong turn (its first move the right one): what the other player could do then, the pieces put back.
    make(board, "f1", ("g2",))
    make(board, "i1", ("h1",))
    board.advance(STILL_MS)
    assert text(app).startswith(words.say("puzzle.why.taken_points"))
    assert board.lit(Role.PUT_HERE) == {"f1", "i1"} and board.lit(Role.TAKE_AWAY) == {"g2", "h1"}
    follow_setup(board)
    assert [(t.move, t.right) for t in app.read_model().teaching.tries] == [("f1-g2 i1-h1", False)]  # type: ignore[union-attr]
    make(board, "f1", ("g2",))
    board.advance(STILL_MS)
    assert app.read_model().teaching.phase == "play"  # type: ignore[union-attr]  # half the turn: not judged yet
    make(board, "i1", ("g3", "g1"), ("g2", "h2"))
    board.advance(STILL_MS)
    facts = app.read_model().teaching
    assert facts is not None and facts.phase == "right" and facts.tries[-1].right
    board.advance(NEXT_TURN_MS)
    assert board.lit(Role.COMPUTER_FROM) == {"g1", "f1"} and lit(board, Role.COMPUTER_TO, Role.COMPUTER_FROM) == {
        "g1", "f1", "e1"}
    make(board, "g1", ("f1",))
    make(board, "f1", ("e1",))
    board.advance(STILL_MS + NEXT_TURN_MS)
    [finished] = history.of(ev.ExerciseFinished)
    assert (finished.variant, finished.solved, finished.stars, finished.tries) == ("multiwarcaby", True, 3, 1)


def test_progress_is_kept_in_the_store_and_still_there_after_it_is_opened_again(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    with Store(path) as store:
        app, board, _ = at_board(store=store)
        app.teaching.set_learner("Ala")   # as the page would
        app.teaching.start_lesson("man-moves")
        board.step()
        app.teaching.start_puzzle("classic", "classic-0002")
        board.step()
        follow_setup(board)
        make(board, "d6", ("f8",), ("e7",))
        board.advance(STILL_MS + NEXT_TURN_MS)
        make(board, "b4", ("d6",), ("c5",))
        board.advance(STILL_MS + NEXT_TURN_MS)
        make(board, "g3", ("e5", "c7"), ("f4", "d6"))
        board.advance(STILL_MS + NEXT_TURN_MS)
        before = app.teaching.progress()
    with Store(path) as store:
        book = ProgressBook(store)
        again = book.facts("Ala")
        assert again == before and (again.puzzles_solved, again.stars) == (1, 3) and again.rating > 1000
        assert book.learners() == ("Ala",)
        app = App(store=store, offer_resume=False)
        app.teaching.set_learner("Ala")
        assert app.teaching.progress() == before and app.teaching.learners() == ("Ala",)
        assert app.teaching.progress("Ola").puzzles_tried == 0


def test_the_menu_offers_a_puzzle_near_the_rating_and_shows_the_progress() -> None:
    app, board, _ = at_board()
    book = app.teaching.book
    for _ in range(12):  # a strong learner: many hard puzzles solved
        book.record("puzzle", "classic-9999", "classic", "Player 1", solved=True, stars=3, hints=0, tries=0,
                    puzzle_rating=1600)
    rating = app.teaching.progress().rating
    assert rating > 1200
    choose(app, board, "puzzles")
    menu = app.screens.shown_menu
    assert menu is not None and [row.key for row in menu.visible_rows()][:4] == [
        "next-lesson:1-classic-01-man-moves", "puzzles:classic", "puzzles:russian", "puzzles:multiwarcaby"]
    shown = app.view()
    assert isinstance(shown, MenuView)
    check("puzzles menu", shown, (480, 320), save=False)
    choose(app, board, "puzzles:classic")
    facts = app.read_model().teaching
    assert facts is not None and facts.kind == "puzzle"
    chosen = find_puzzle("classic", facts.name)
    assert chosen is not None
    assert abs(chosen.rating - rating) == min(abs(p.rating - rating) for p in shipped_set("classic"))
    board.button(Button.MENU)
    choose(app, board, "progress")
    view = app.view()
    assert isinstance(view, MenuView)
    check("progress", view, (480, 320), save=False)
    labels = [row.label for row in view.menu.visible_rows()]
    assert words.say("progress.rating", rating=rating) in labels


def test_the_learner_is_chosen_from_the_menu_and_names_are_checked() -> None:
    app, board, _ = at_board("pl")
    app.teaching.set_learner("Ola")
    app.teaching.set_learner("Ala")
    choose(app, board, "puzzles")
    choose(app, board, "learner")
    assert app.teaching.learner == "Ola"
    assert app.screens.shown_menu.row("learner").label == words.say("puzzles.learner", name="Ola")  # type: ignore[union-attr]
    for bad in ("", " ", "x" * 25, "a\nb"):
        with pytest.raises(ValueError, match="24"):
            app.teaching.set_learner(bad)
    with pytest.raises(ValueError):
        app.teaching.start_puzzle("classic", "classic-nope")


def test_the_lessons_menu_follows_the_language() -> None:
    app, board, _ = at_board("en")
    choose(app, board, "lessons")
    app.set_board_settings(BoardSettings(language="pl"))
    menu = app.screens.shown_menu
    assert menu is not None and menu.visible_rows()[0].label == "Jak chodzi pionek"


@pytest.mark.parametrize("start", ["lesson", "puzzle"])
def test_a_lesson_or_puzzle_screen_gives_its_words_the_room_of_the_clock(start: str) -> None:
    """No empty clock area, no "move 1": the status line stands right under the title."""
    from damka.display import widgets
    from damka.display.screen import Screen

    app, board, _ = at_board()
    if start == "lesson":
        app.teaching.start_lesson("man-moves")
    else:
        app.teaching.start_puzzle("classic", "classic-0002")
    board.step()
    view = screen(app)
    with widgets.recording() as texts:
        Screen((480, 320)).render(view)
    assert words.say("screen.move_number", number=1) not in [t.words for t in texts]
    [status] = [t for t in texts if t.words == view.status]
    assert status.rect.top < 320 * 0.25, status.rect


def test_damka_sim_takes_a_puzzle_from_the_command_line(tmp_path: Path) -> None:
    """`damka sim --puzzle classic:classic-0002`: the window sets the pieces up, the child's solution is judged and
    the reply is lit; a variant without puzzles is one line."""
    log = tmp_path / "puzzle.log"
    log.write_text("400 up d6\n450 down f8\n500 up e7\n")
    shot = tmp_path / "puzzle.png"
    root = Path(__file__).resolve().parent.parent
    result = subprocess.run([sys.executable, "-m", "damka", "sim", "--headless", "--no-store", "--puzzle",
                             "classic:classic-0002", "--script", str(log), "--screenshot", str(shot)],
                            capture_output=True, text=True, cwd=root, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "3 events played" in result.stderr and shot.stat().st_size > 0
    wrong = subprocess.run([sys.executable, "-m", "damka", "sim", "--headless", "--no-store", "--puzzle", "chess",
                            "--script", "x.log", "--screenshot", "x.png"],
                           capture_output=True, text=True, cwd=root, timeout=120)
    assert wrong.returncode == 2 and wrong.stderr.strip().splitlines() == [
        "damka sim: error: --puzzle chess: no puzzles for 'chess'; there are puzzles for classic, russian, "
        "international and multiwarcaby"]


def test_the_default_learner_is_named_in_the_boards_language_and_a_solved_set_is_said() -> None:
    app, board, _ = at_board("pl")
    choose(app, board, "puzzles")
    menu = app.screens.shown_menu
    assert menu is not None and menu.row("learner").label == "Kto gra: Gracz 1 (ok: następny)"
    shown = app.view()
    assert isinstance(shown, MenuView)
    check("puzzles menu (pl)", shown, (480, 320), save=False)
    for puzzle in shipped_set("multiwarcaby"):   # every multiwarcaby puzzle solved already
        app.teaching.book.record("puzzle", puzzle.id, "multiwarcaby", "Player 1", solved=True, stars=3, hints=0,
                                 tries=0, puzzle_rating=puzzle.rating)
    choose(app, board, "puzzles:multiwarcaby")
    assert app.state is AppState.MENU
    view = app.view()
    assert isinstance(view, MenuView) and words.say("teaching.all_solved", variant="multiwarcaby") in view.subtitle
