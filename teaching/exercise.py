"""One exercise at the board: a position to set up, a side to move, the moves
that count as right and the words; a lesson step now, a puzzle later.

`ExerciseRunner` watches the board's occupancy (and the time) and says what
the LEDs show and what the screen says, as pure reads:

- SETUP: the LEDs guide the pieces to the exercise's position as resume
  does (blue: put a piece here, red: take it away);
- PLAY: the instruction shows; the child moves, lit as in learning mode
  (where the piece in the hand may land, what it captures). The board is
  judged once it has been still for the tracker's settle time, so a hand on
  its way is never a mistake (nor a chain of captures paused half-way);
- PUT_BACK: a mistake (a wrong move, an illegal one, a lift of a piece that
  should not move) says why in a child's words (`mistakes.py`) and the LEDs
  guide the pieces back; from the second mistake on, the answer is lit;
- RIGHT: the right move lights green and the well-done words show.

A puzzle asks two things more of the same runner. An exercise that
`hides_answer` does not judge the lift of a piece that may move (saying "not
that piece" would give the answer away), and its wrong moves are told as
not winning. An exercise `carried_out` is the other side's move (a puzzle's
reply): it is lit in the computer's colours from the start and the child
carries it out, any other move is put back and counts as no try. `hint()`
lights the piece to move, then the whole move.

The runner owns only its exercise's state (its tries, oldest first, are
`tries`); whoever runs it (a lesson, a puzzle) decides what comes after RIGHT.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Callable
from damka.controller.board import hints
from damka.controller.board.board_map import BoardMap
from damka.controller.board.tracker import Kind, Reading, Tracker, TrackerState
from damka.controller.words import language, say
from damka.engine.game import Game
from damka.engine.move import Move
from damka.engine.notation import format_move
from damka.engine.variant import Position, Variant
from damka.hardware.interfaces import LedFrame, Role
from damka.teaching import mistakes

Turn = tuple[Move, ...]  # one move, or a multiwarcaby turn's two


@dataclass(frozen=True)
class Words:
    """A text given in English and Polish (a lesson's own words, not the catalogue's)."""

    en: str
    pl: str

    def text(self) -> str:
        """In the board's language now."""
        return self.pl if language() == "pl" else self.en


@dataclass(frozen=True)
class Exercise:
    """What to set up and what counts as right. `wrong`: words for particular wrong turns."""

    variant: Variant
    position: Position
    right: tuple[Turn, ...]
    say: Words
    well_done: Words
    wrong: tuple[tuple[Turn, Words], ...] = ()
    hides_answer: bool = False    # a puzzle: a lift is not judged, a wrong move is told as not winning
    carried_out: bool = False     # the other side's move, lit in the computer's colours, for the child to make

    def answers(self, turn: Turn) -> bool:
        """Whether `turn` is right: a right answer, or starts with one (an answer shorter than a
        multiwarcaby turn leaves the rest free)."""
        return any(turn[:len(answer)] == answer for answer in self.right)

    def words_for(self, turns: tuple[Turn, ...]) -> Words | None:
        """The exercise's own words for a wrong turn the board shows (any of its readings)."""
        for turn, words in self.wrong:
            if turn in turns:
                return words
        return None


class Phase(enum.Enum):
    SETUP = "setup"
    PLAY = "play"
    PUT_BACK = "put_back"
    RIGHT = "right"


SHOW_ANSWER_AFTER = 2  # mistakes before the answer is lit
MAX_HINTS = 2          # the piece to move, then the whole move


@dataclass(frozen=True)
class Try:
    """One try of the exercise: the move (or the square of a lift), whether it was right, and why not."""

    move: str
    right: bool
    why: str = ""


@dataclass
class ExerciseRunner:
    """An exercise in progress on the board. `speak` hears each new thing to say aloud."""

    exercise: Exercise
    tracker: Tracker
    speak: Callable[[str], None] = lambda text: None
    phase: Phase = Phase.SETUP
    mistakes: int = 0
    reason: str = ""          # why the last mistake was one, in a child's words
    solved_with: Turn = ()     # the right turn played
    hints: int = 0             # 1: the piece to move is lit, 2: the whole move
    tries: list[Try] = field(default_factory=list)
    occupancy: int = -1
    _state: TrackerState = field(default_factory=TrackerState)
    _reading: Reading | None = None

    def __post_init__(self) -> None:
        self.board = BoardMap(self.exercise.variant)
        self.game = Game(self.exercise.variant, self.exercise.position)
        self.target = self.exercise.variant.occupancy(self.exercise.position)

    # -- input ------------------------------------------------------------------

    def see(self, occupied: frozenset[str], now: int) -> None:
        """A snapshot of the board."""
        self.occupancy = self.board.bits(occupied)
        if self.phase in (Phase.SETUP, Phase.PUT_BACK):
            if self.occupancy == self.target:
                self._start_play(now)
            return
        if self.phase is Phase.PLAY:
            self._state, self._reading = self.tracker.observe(self.game, self._state, self.occupancy, now,
                                                              takebacks=False)
            self.tick(now)

    def tick(self, now: int) -> None:
        """Judge the board once it has been still long enough."""
        reading = self._reading
        if self.phase is not Phase.PLAY or reading is None or reading.kind is Kind.UNCHANGED:
            return
        if not self.tracker.settled(self._state, now, reading.extendable):
            return
        if reading.kind is Kind.COMPLETE:
            self._judge_turns(reading.turns)
        elif reading.kind is Kind.HALF_TURN:
            # The first move of two: judged now when it answers already, or when no answer starts with it.
            starts = [answer for answer in self.exercise.right for turn in reading.turns
                      if answer[:len(turn)] == turn or turn[:len(answer)] == answer]
            if not starts or any(len(answer) <= len(turn) for answer in starts for turn in reading.turns):
                self._judge_turns(reading.turns)
        elif reading.kind is Kind.IN_PROGRESS:
            lifted = self._single_lift()
            if lifted is not None and lifted not in {answer[0].start for answer in self.exercise.right} \
                    and not (self.exercise.hides_answer and self._may_move(lifted)):
                self._mistake(self._lift_reason(lifted), self._square(lifted))
        else:
            lifted = self._single_lift()
            position = self.game.position
            self._mistake(self._lift_reason(lifted) if lifted is not None
                          else mistakes.board_reason(self.exercise.variant, position, self.target, self.occupancy),
                          "?" if lifted is None else self._square(lifted))

    def next_deadline(self) -> int | None:
        """When the board, still until then, is judged (None: nothing to judge)."""
        reading = self._reading
        if self.phase is not Phase.PLAY or reading is None or reading.kind is Kind.UNCHANGED:
            return None
        settings = self.tracker.settings
        return self._state.changed_at + (settings.extend_ms if reading.extendable else settings.settle_ms)

    # -- what shows ---------------------------------------------------------------

    @property
    def answer_shown(self) -> bool:
        return self.mistakes >= SHOW_ANSWER_AFTER and self.phase is not Phase.RIGHT and not self.exercise.carried_out

    def hint(self) -> bool:
        """Light more of the answer (the piece, then the whole move); False when there is no more to light."""
        if self.phase is not Phase.PLAY or self.hints >= MAX_HINTS or self.answer_shown or self.exercise.carried_out:
            return False
        self.hints += 1
        self.speak(self.message)
        return True

    @property
    def frame(self) -> LedFrame:
        board = self.board
        occupancy = max(self.occupancy, 0)
        if self.phase is Phase.RIGHT:
            return {square: Role.LEGAL_TARGET for square, _ in hints.last_move(board, self.solved_with)}
        if self.phase in (Phase.SETUP, Phase.PUT_BACK):
            return hints.compose(hints.guidance(board, occupancy, self.target))
        layers = []
        reading = self._reading
        if reading is not None and reading.kind is not Kind.UNCHANGED:
            # A move under way: the learning lights (where the piece in the hand may land, what it captures),
            # never the compulsory-capture glow before a hand moves: finding the capture is the exercise.
            layers.append(hints.learning(board, self.tracker.index(self.game.position), reading))
        answer = self.exercise.right[0]
        if self.exercise.carried_out:
            layers.append(hints.planned(board, answer, occupancy, computer=True))
        elif self.answer_shown or self.hints >= MAX_HINTS:
            layers.append(hints.planned(board, answer, occupancy, computer=False))
        elif self.hints:
            layers.append([(board.name(answer[0].start), Role.HINT_FROM)])
        return hints.compose(*layers)

    @property
    def message(self) -> str:
        """The line under the instruction: what to do now, or why that was not it."""
        occupancy = max(self.occupancy, 0)
        if self.phase is Phase.SETUP:
            return say("lesson.set_up", guide=hints.guidance_message(self.board, occupancy, self.target, held=0))
        if self.phase is Phase.PUT_BACK:
            return say("lesson.put_back", why=self.reason,
                       guide=hints.guidance_message(self.board, occupancy, self.target))
        if self.phase is Phase.RIGHT:
            return self.exercise.well_done.text()
        if self.answer_shown:
            return say("lesson.answer_lit", why=self.reason)
        if self.hints:  # (the latest thing asked for)
            return say(f"puzzle.hint.{min(self.hints, MAX_HINTS)}")
        if self.mistakes and self.exercise.carried_out:
            return say("puzzle.make_lit", why=self.reason)
        if self.mistakes:
            return say("lesson.try_again", why=self.reason)
        return ""

    @property
    def instruction(self) -> str:
        return self.exercise.say.text()

    # -- the steps ------------------------------------------------------------------

    def _start_play(self, now: int) -> None:
        first = self.phase is Phase.SETUP
        self.phase = Phase.PLAY
        self._state, self._reading = self.tracker.observe(self.game, TrackerState(), self.occupancy, now,
                                                          takebacks=False)
        self.speak(self.instruction if first else self.message)

    def _judge_turns(self, turns: tuple[Turn, ...]) -> None:
        right = [turn for turn in turns if self.exercise.answers(turn)]
        if right:
            self.phase = Phase.RIGHT
            self.solved_with = right[0]
            self.tries.append(Try(self._text(right[0]), True))
            self.speak(self.exercise.well_done.text())
            return
        own = self.exercise.words_for(turns)
        if own is not None:
            reason = own.text()
        elif self.exercise.hides_answer:
            reason = mistakes.puzzle_reason(self.exercise.variant, self.game.position, turns)
        else:
            reason = mistakes.move_reason(self.exercise, turns)
        self._mistake(reason, self._text(turns[0]) if turns else "?")

    def _mistake(self, reason: str, move: str) -> None:
        if self.exercise.carried_out:  # whatever rule it broke, the lit move is what to make
            reason = say("puzzle.why.not_lit")
        self.mistakes += 1
        self.tries.append(Try(move, False, reason))
        self.reason = reason
        self.phase = Phase.PUT_BACK
        self._reading = None
        self.speak(reason)

    def _lift_reason(self, square: int) -> str:
        return mistakes.lift_reason(self.exercise.variant, self.game.position, square)

    def _may_move(self, square: int) -> bool:
        """Whether the piece on `square` may start a legal move now."""
        return any(move.start == square for move in self.exercise.variant.legal_moves(self.game.position))

    def _square(self, square: int) -> str:
        return self.board.name(square)

    def _text(self, turn: Turn) -> str:
        """A turn as the notation writes it (a multiwarcaby turn's two moves with a space between)."""
        variant, position, texts = self.exercise.variant, self.game.position, []
        for move in turn:
            texts.append(format_move(variant, position, move))
            position = variant.play(position, move)
        return " ".join(texts)

    def _single_lift(self) -> int | None:
        """The square of the one piece lifted from the position, nothing else changed (None: not that)."""
        lifted = self.target & ~self.occupancy
        if not lifted or lifted & (lifted - 1) or self.occupancy & ~self.target:
            return None
        return lifted.bit_length() - 1
