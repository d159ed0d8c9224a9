"""The teaching menus: puzzles (with the next lesson and puzzle to take, and who
plays) and a learner's progress. Built from the progress facts; each is made
again when the board's language changes."""

from __future__ import annotations

from damka.controller.app.menus import BOARD_SIZE, Menu, Row
from damka.controller.words import say
from damka.engine.variants import variant_catalogue
from damka.teaching.lesson_file import shipped
from damka.teaching.progress import ProgressFacts, shown_name
from damka.teaching.puzzles import shipped_count

PUZZLES_MENU = "puzzles"
PROGRESS_MENU = "progress"
PUZZLE_ROW = "puzzles:"      # "puzzles:classic": the next puzzle of that variant for the learner
NEXT_LESSON_ROW = "next-lesson:"
PUZZLE_VARIANTS = ("classic", "russian", "international", "multiwarcaby")


def board_variants() -> tuple[str, ...]:
    """The puzzle sets' variants whose board fits the Damka board (9x9): classic and russian (8x8, in its
    corner) and multiwarcaby; international (10x10) only where the board is larger (the simulator, the page)."""
    sizes = {info.name: info.board_size for info in variant_catalogue()}
    return tuple(name for name in PUZZLE_VARIANTS
                 if sizes[name][0] <= BOARD_SIZE[0] and sizes[name][1] <= BOARD_SIZE[1])


def puzzles_shipped() -> dict[str, int]:
    """How many puzzles ship for each variant the board and the page offer them for."""
    return {name: shipped_count(name) for name in PUZZLE_VARIANTS}


def puzzles_menu(facts: ProgressFacts) -> Menu:
    rows = []
    if facts.next_lesson is not None:
        rows.append(Row(f"{NEXT_LESSON_ROW}{facts.next_lesson}",
                        say("puzzles.next_lesson", title=shipped(facts.next_lesson).title.text())))
    rows += [Row(f"{PUZZLE_ROW}{name}", say("puzzles.variant", variant=say(f"variant.{name}")))
             for name in board_variants()]
    rows += [Row("progress", say("puzzles.progress")), Row("learner", say("puzzles.learner", name=shown_name(facts.learner))),
             Row("back", say("lessons.back"))]
    return Menu(say("puzzles.title"), rows, footer=say("puzzles.footer"), name=PUZZLES_MENU)


def progress_menu(facts: ProgressFacts) -> Menu:
    """A learner's progress, a line a row (the rows do nothing but go back)."""
    lines = [say("progress.lessons", done=len(facts.lessons_done), total=facts.lessons_total),
             say("progress.puzzles", solved=facts.puzzles_solved, total=sum(puzzles_shipped().values())),
             say("progress.stars", stars=facts.stars), say("progress.rating", rating=facts.rating)]
    rows = [Row("back", line) for line in lines] + [Row("back", say("progress.back"))]
    return Menu(say("progress.title", name=shown_name(facts.learner)), rows, footer=say("progress.footer"), name=PROGRESS_MENU)
