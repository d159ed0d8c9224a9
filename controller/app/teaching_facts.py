"""The lesson or puzzle on the board as the read model gives it to the page
(controller/app/read_model.py's `teaching`): plain frozen data, its words
already in the board's language."""

from __future__ import annotations

from dataclasses import dataclass

from damka.engine.variant import Position, Variant
from damka.hardware.interfaces import LedFrame
from damka.teaching.exercise import ExerciseRunner, Phase


@dataclass(frozen=True)
class TryFacts:
    """One try: the move (or the square of a lift), whether it was right, why not."""

    move: str
    right: bool
    why: str


@dataclass(frozen=True)
class TeachingFacts:
    """The lesson or the puzzle on the board now."""

    kind: str                  # "lesson" | "puzzle"
    name: str                  # the lesson's name or the puzzle's id
    title: str
    variant: str
    fen: str                   # the position the board should show now
    step: int                  # a lesson's step, a puzzle's move of its line (1 on)
    steps: int
    phase: str                 # "setup" | "play" | "put_back" | "right" | "reply" | "done"
    instruction: str
    message: str
    tries: tuple[TryFacts, ...]  # this exercise's tries, oldest first
    stars: int                 # 0-3 (a lesson: 3)
    hints: int
    learner: str
    lights: tuple[tuple[str, str], ...]  # (square, role name), sorted


def runner_phase(runner: ExerciseRunner) -> str:
    """The contract's phase of a runner: a carried-out reply in play is "reply"."""
    if runner.exercise.carried_out and runner.phase is Phase.PLAY:
        return "reply"
    return runner.phase.value


def fen_now(variant: Variant, runner: ExerciseRunner) -> str:
    """The position the board should show: the exercise's, or after the right move once made."""
    position: Position = runner.exercise.position
    if runner.phase is Phase.RIGHT:
        for move in runner.solved_with:
            position = variant.play(position, move)
    return variant.format_position(position)


def tries_of(runner: ExerciseRunner) -> tuple[TryFacts, ...]:
    return tuple(TryFacts(attempt.move, attempt.right, attempt.why) for attempt in runner.tries)


def lights_of(frame: LedFrame) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((square, role.value) for square, role in frame.items()))
