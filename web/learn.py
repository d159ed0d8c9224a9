"""Lessons and puzzles from the page: start one on the board, choose the learner, stop; read the progress.

The commands are the App's teaching desk's (`app.teaching`, controller/app/):
each is behind the pairing code like every change (`api.guarded`) and runs on
the board's thread (`Driver.call`), where the desk refuses what cannot be
(a ValueError with a sentence a parent reads, answered 400). The board's
screen says what the page started and from where. What is on the board
while a child learns reaches the page in its picture (`state.teaching_data`),
pushed by the feed; the progress is read here, when the page asks.

    GET  /api/learn?learner=Ala&language=pl  the lessons, the puzzle variants, the learners, a learner's progress
    POST /api/learn/lesson   {"lesson": "1-classic-01-man-moves"}
    POST /api/learn/puzzle   {"variant": "classic"}  (or {"variant": "classic", "id": "classic-0007"})
    POST /api/learn/learner  {"name": "Ala"}
    POST /api/learn/quit     {}
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any, Callable

from starlette.routing import Route

from damka.controller import words
from damka.controller.app.menus import variant_choices
from damka.controller.app.teaching_menus import PUZZLE_VARIANTS, puzzles_shipped
from damka.controller.words import say
from damka.teaching.exercise import Words
from damka.teaching.lesson_file import shipped, shipped_names
from damka.teaching.progress import FIRST_PUZZLES, shown_name
from damka.teaching.puzzles import shipped_set
from damka.web.driver import CommandError

if TYPE_CHECKING:
    from damka.teaching.progress import ProgressFacts
    from damka.web.server import WebServer

NAME_LIMIT = 80     # a lesson's, a puzzle's or a learner's name the page sends: longer is no name at all


def routes(web: WebServer, post: Callable[..., Route]) -> list[Route]:
    """The POST routes, each made by `post` (api.routes' guarded POST route); the GET is api.routes' own."""
    return [post("/api/learn/lesson", start_lesson), post("/api/learn/puzzle", start_puzzle),
            post("/api/learn/learner", set_learner), post("/api/learn/quit", quit_teaching)]


async def overview(web: WebServer, learner: str | None, language: str) -> dict[str, Any]:
    """GET /api/learn: the lists and `learner`'s progress (None: the learner at the board), in `language`."""
    if learner is not None and not 0 < len(learner) <= NAME_LIMIT:
        raise CommandError(f"learner: a learner's name (1 to {NAME_LIMIT} characters)", 400)
    now, learners, facts = await web.driver.read(("learn", learner), lambda: _progress(web, learner))
    with words.speaking(language):
        return overview_data(now, learners, facts)


def warm() -> None:
    """Read the shipped lessons' titles and the first puzzle set now, in a thread of the server's
    own: read on the first GET /api/learn, they held the board's thread 0.1 s here (about 0.4 s on
    a Pi) while a page opened its Learn tab, in the middle of somebody's game."""
    lesson_titles()
    shipped_set(FIRST_PUZZLES)


# -- what the page lists ----------------------------------------------------------------------

@cache
def lesson_titles() -> tuple[tuple[str, Words], ...]:
    """(name, title) of every lesson that ships, in order; read once (the files are the package's)."""
    return tuple((name, shipped(name).title) for name in shipped_names())


def overview_data(learner: str, learners: tuple[str, ...], facts: ProgressFacts) -> dict[str, Any]:
    """The Learn tab's lists and `facts`' learner's progress, in the language spoken here."""
    titles = dict(variant_choices())
    done = set(facts.lessons_done)
    solved = {variant: (won, tried) for variant, won, tried in facts.by_variant}
    shipped = puzzles_shipped()
    return {
        "learner": learner, "learners": list(learners),
        "shown": {name: shown_name(name) for name in (learner, *learners)},  # the default learner's in words
        "lessons": [{"name": name, "title": title.text(), "done": name in done,
                     "next": name == facts.next_lesson} for name, title in lesson_titles()],
        "puzzles": [{"variant": name, "title": titles.get(name, name), "solved": solved.get(name, (0, 0))[0],
                     "tried": solved.get(name, (0, 0))[1], "total": shipped[name]} for name in PUZZLE_VARIANTS],
        "progress": {"learner": facts.learner, "lessons_done": list(facts.lessons_done),
                     "lessons_total": facts.lessons_total, "puzzles_solved": facts.puzzles_solved,
                     "puzzles_tried": facts.puzzles_tried, "puzzles_total": sum(shipped.values()),
                     "stars": facts.stars, "rating": facts.rating,
                     "by_variant": [{"variant": name, "title": titles.get(name, name), "solved": won, "tried": tried,
                                     "total": shipped.get(name, 0)}
                                    for name, won, tried in facts.by_variant],
                     "next_lesson": facts.next_lesson,
                     "next_puzzle": None if facts.next_puzzle is None else
                     {"variant": facts.next_puzzle[0], "id": facts.next_puzzle[1]}},
    }


def _progress(web: WebServer, learner: str | None) -> tuple[str, tuple[str, ...], ProgressFacts]:
    """On the board's thread: the learner at the board, every learner, and `learner`'s
    progress (None: the one at the board's)."""
    desk = web.app.teaching
    learners = desk.learners()
    if learner is not None and learner not in learners:
        raise CommandError(say("web.learn_no_learner", name=learner), 404)
    return desk.learner, learners, desk.progress(learner)


# -- the commands ---------------------------------------------------------------------------------

def _name(data: dict, field: str, what: str) -> str:
    """The field `field` of the body: a string of 1 to NAME_LIMIT characters (CommandError 400 otherwise)."""
    value = data.get(field)
    if not isinstance(value, str) or not 0 < len(value) <= NAME_LIMIT:
        raise CommandError(f"{field}: {what} (a string of 1 to {NAME_LIMIT} characters)", 400)
    return value


async def start_lesson(web: WebServer, data: dict, role: str, who: str) -> dict:
    name = _name(data, "lesson", "the name of a lesson, as GET /api/learn lists it")
    if name not in shipped_names():
        raise CommandError(f"lesson: no lesson {name!r}; the lessons are: {', '.join(shipped_names())}", 400)

    def run() -> dict[str, Any]:
        web.app.teaching.start_lesson(name)
        web.announce(say("web.learn_lesson_from", who=who))
        return {"ok": True, "lesson": name}
    return await web.driver.call(run)


async def start_puzzle(web: WebServer, data: dict, role: str, who: str) -> dict:
    variant = _name(data, "variant", "a variant puzzles ship for")
    if variant not in PUZZLE_VARIANTS:
        raise CommandError(f"variant: no puzzles for {variant!r}; there are puzzles for {', '.join(PUZZLE_VARIANTS)}",
                           400)
    puzzle = None if data.get("id") is None else _name(data, "id", "a puzzle's id, or nothing for the next one")

    def run() -> dict[str, Any]:
        found = web.app.teaching.start_puzzle(variant, puzzle)
        web.announce(say("web.learn_puzzle_from", who=who))
        return {"ok": True, "variant": variant, "id": found}
    return await web.driver.call(run)


async def set_learner(web: WebServer, data: dict, role: str, who: str) -> dict:
    name = _name(data, "name", "the learner's name")

    def run() -> dict[str, Any]:
        web.app.teaching.set_learner(name)
        chosen = web.app.teaching.learner      # as the desk keeps it (trimmed)
        web.announce(say("web.learn_learner_from", name=chosen, who=who))
        return {"ok": True, "learner": chosen}
    return await web.driver.call(run)


async def quit_teaching(web: WebServer, data: dict, role: str, who: str) -> dict:
    def run() -> dict[str, Any]:
        web.app.teaching.quit()
        web.announce(say("web.learn_quit_from", who=who))
        return {"ok": True}
    return await web.driver.call(run)
