"""A puzzle at the board: its line played turn by turn, hints, stars, the end.

`PuzzleDesk` owns which puzzle is on the board and how it goes. The puzzle's
`line` (solution, reply, follow-up...) is cut into turns by who moves (a
multiwarcaby turn is two moves of one player). Each turn is one
`ExerciseRunner` (teaching/exercise.py), run by `ExerciseDesk`
(exercise_desk.py) as the lesson's steps are: the child's turns hide the answer
(a lift is not judged, a wrong move does not win), the other side's are
carried out as lit in the computer's colours. The first runner sets the
position up with the LEDs; the next ones start from the board as it stands.

Stars: 3 to start, each hint costs one; a wrong try costs none; once the
answer was lit (two wrong tries on one turn) the puzzle gives 0 stars and
does not count as solved. At the end `ExerciseFinished` goes on the bus.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from damka.controller import events as ev
from damka.controller.app.exercise_desk import ExerciseDesk
from damka.controller.app.teaching_facts import TeachingFacts, fen_now, lights_of, runner_phase, tries_of
from damka.controller.app.views import GameView, View
from damka.controller.words import say, speaking, wording
from damka.engine.move import Move
from damka.engine.notation import parse_move
from damka.engine.puzzle_proof import WON
from damka.engine.variant import Position, Variant
from damka.engine.variants import find_variant
from damka.hardware.interfaces import Button
from damka.teaching.exercise import Exercise, ExerciseRunner, Turn, Words
from damka.teaching.puzzles import Puzzle, shipped_set

if TYPE_CHECKING:
    from damka.controller.app.app import App

NEXT_TURN_MS = 2500  # the green light of a right move shows this long before the line goes on
STARS = 3


def find_puzzle(variant: str, puzzle_id: str) -> Puzzle | None:
    """The shipped puzzle `puzzle_id` names: its id ("classic-0003") or its number in the set ("3", "0003")."""
    wanted = f"{variant}-{int(puzzle_id):04d}" if puzzle_id.isdigit() else puzzle_id
    return next((puzzle for puzzle in shipped_set(variant) if puzzle.id == wanted), None)


def puzzle_number(puzzle: Puzzle) -> str:
    """The puzzle's number in its set as a person says it ("classic-0003" -> "3"); an id of another form whole."""
    _, _, number = puzzle.id.rpartition("-")
    return str(int(number)) if number.isdigit() else puzzle.id


def line_turns(variant: Variant, puzzle: Puzzle) -> list[tuple[Position, Turn]]:
    """The puzzle's line as turns, each with the position it starts from: a turn is the moves one player
    makes in a row (one move; two in multiwarcaby)."""
    turns: list[tuple[Position, Turn]] = []
    here = puzzle.position(variant)
    start, moves = here, list[Move]()
    for text in puzzle.line:
        if moves and variant.side_to_move(here) != variant.side_to_move(start):
            turns.append((start, tuple(moves)))
            start, moves = here, list[Move]()
        move = parse_move(variant, here, text)
        moves.append(move)
        here = variant.play(here, move)
    turns.append((start, tuple(moves)))
    return turns


def same_turns(variant: Variant, position: Position, turn: Turn) -> tuple[Turn, ...]:
    """`turn` and every other turn of as many moves that leaves the same board (the same two captures in the
    other order answer a multiwarcaby puzzle as well)."""
    if len(turn) != 2:
        return (turn,)
    after = variant.play(variant.play(position, turn[0]), turn[1])
    found = [turn]
    for first in variant.legal_moves(position):
        middle = variant.play(position, first)
        for second in variant.legal_moves(middle):
            other = (first, second)
            if other != turn and variant.play(middle, second) == after:
                found.append(other)
    return tuple(found)


def _words(key: str, variant: Variant | None = None, side: int = 0, **fields: object) -> Words:
    """`key` in both languages; `variant`: its {side} is the side `side` in each language's words."""
    def said_in(code: str) -> str:
        with speaking(code):
            named = {"side": wording.engine_side_name(variant, side)} if variant is not None else {}
            return say(key, **named, **fields)
    return Words(said_in("en"), said_in("pl"))


class PuzzleDesk(ExerciseDesk):
    """The one owner of the puzzle on the board (its line's turns are the sequence)."""

    next_ms = NEXT_TURN_MS

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.variant: Variant | None = None
        self.puzzle: Puzzle | None = None
        self.turns: list[tuple[Position, Turn]] = []
        self.hints = 0                 # over the whole puzzle
        self.tries = 0                 # the child's wrong tries, over the whole puzzle
        self.answer_shown = False      # the answer was lit (two wrong tries on one turn)
        self._earlier_tries = 0        # the wrong tries of the turns before this one

    @property
    def active(self) -> bool:
        return self.puzzle is not None

    @property
    def stars(self) -> int:
        return 0 if self.answer_shown else max(0, STARS - self.hints)

    @property
    def solved(self) -> bool:
        return self.finished and not self.answer_shown

    @property
    def shown(self) -> bool:
        from damka.controller.app.screens import AppState
        return self.app.state is AppState.LESSON and self.puzzle is not None

    # -- commands -------------------------------------------------------------------------

    def start(self, variant_name: str, puzzle: Puzzle) -> None:
        """Take `puzzle` now: the LEDs set its position up."""
        variant = find_variant(variant_name)
        self.variant, self.puzzle = variant, puzzle
        self.turns = line_turns(variant, puzzle)
        self.hints = self.tries = self._earlier_tries = 0
        self.answer_shown = self.finished = False
        self.app.screens.show_lesson()
        self._begin(0)

    def drop(self) -> None:
        """Forget the puzzle (the menu, or another exercise, takes the board)."""
        self.puzzle = self.runner = None
        self.finished = False

    def press(self, button: Button) -> str:
        """A button during the puzzle: "" (done here), "quit" (back to the menu) or "next" (the next puzzle)."""
        if button is Button.MENU:
            return "quit"
        if self.finished:
            return "next" if button is Button.OK else ""
        if button is Button.OK and self.right_at is not None:
            self._next()
        elif button is Button.HINT and self.runner is not None and self.runner.hint():
            self.hints += 1
        return ""

    # -- what shows -----------------------------------------------------------------------

    def title(self) -> str:
        assert self.puzzle is not None
        return say("puzzle.title", number=puzzle_number(self.puzzle), difficulty=self.puzzle.difficulty,
                   stars=self.stars)

    def view(self) -> View:
        runner = self.runner
        assert runner is not None
        if self.finished:
            end = say("puzzle.solved", stars=self.stars) if self.solved else say("puzzle.shown")
            return GameView(self.title(), (), move_number=None, status=say("puzzle.status.done"),
                            messages=(end, say("puzzle.finished_next")))
        status = say(f"puzzle.status.{runner_phase(runner)}", side=self._mover())
        return GameView(self.title(), (), move_number=None, status=status,
                        messages=self._messages(runner, more=self.index + 1 < len(self.turns)),
                        alert=self._alert(runner))

    def _mover(self) -> str:
        """The puzzle's side to move, in the board's words ("White"): the child plays it throughout."""
        assert self.variant is not None
        return wording.engine_side_name(self.variant, self.variant.side_to_move(self.turns[0][0]))

    def facts(self, learner: str) -> TeachingFacts | None:
        puzzle, runner, variant = self.puzzle, self.runner, self.variant
        if puzzle is None or runner is None or variant is None:
            return None
        view = self.view()
        assert isinstance(view, GameView)
        return TeachingFacts(
            kind="puzzle", name=puzzle.id, title=self.title(), variant=variant.name,
            fen=fen_now(variant, runner), step=self.index + 1, steps=len(self.turns),
            phase="done" if self.finished else runner_phase(runner),
            # At the end: the end's words, not the last move's ("Good! Now the next move."), nor the board's buttons.
            instruction=view.messages[0] if self.finished else runner.instruction,
            message="" if self.finished else runner.message, tries=tries_of(runner),
            stars=self.stars, hints=self.hints, learner=learner, lights=lights_of(self.frame))

    # -- the line -------------------------------------------------------------------------

    def _steps(self) -> int:
        return len(self.turns)

    def _exercise(self, index: int) -> Exercise:
        variant = self.variant
        assert variant is not None
        position, turn = self.turns[index]
        if index % 2:  # the other side's reply: the child carries it out
            return Exercise(variant, position, (turn,), _words("puzzle.reply"), _words("puzzle.reply_done"),
                            carried_out=True)
        return Exercise(variant, position, same_turns(variant, position, turn), self._ask(index),
                        _words("lesson.status.right"), hides_answer=True)

    def _ask(self, index: int) -> Words:
        """What the child is asked: at first who moves and what the move wins; later, the next move."""
        puzzle, variant = self.puzzle, self.variant
        assert puzzle is not None and variant is not None
        if index:
            return _words("puzzle.go_on")
        position, turn = self.turns[index]
        side = variant.side_to_move(position)
        if len(turn) == 2:
            return _words("puzzle.find_turn", variant, side)
        if puzzle.gain >= WON:
            return _words("puzzle.find_win", variant, side)
        return _words("puzzle.find_move", variant, side, count=puzzle.gain)

    def _begin(self, index: int) -> None:
        self._earlier_tries = self.tries
        super()._begin(index)

    def _finish(self) -> None:
        puzzle, variant = self.puzzle, self.variant
        assert puzzle is not None and variant is not None
        self._speak(say("puzzle.solved", stars=self.stars) if self.solved else say("puzzle.shown"))
        self.app.bus.publish(ev.ExerciseFinished(self.app.now, 0, "puzzle", puzzle.id, variant.name,
                                                 self.app.teaching.learner, self.solved, self.stars, self.hints,
                                                 self.tries))

    def _count(self, runner: ExerciseRunner) -> None:
        """The child's wrong tries and whether the answer was lit (a reply carried out counts none)."""
        if not runner.exercise.carried_out:
            self.tries = self._earlier_tries + sum(1 for attempt in runner.tries if not attempt.right)
            if runner.answer_shown:
                self.answer_shown = True
