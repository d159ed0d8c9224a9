"""What the session says on the screen's message line, in one place.

Pure functions of the variant and the game: the turn prompt, the result, the
coach's warning. The screen, the replay and (later) the web page and voice
read the same words.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from damka.controller.takeback_guide import PieceStep, TakebackGuide
from damka.controller import plurals
from damka.engine.game import Game
from damka.engine.variant import Result, Variant

TAKEBACK_STEPS_SHOWN = 3  # the board's screen is small: the first squares, then how many more


def side_name(variant: Variant, side: int, names: Sequence[str] = ()) -> str:
    """The side as a person calls it: the player's name when one was given (`names`
    by side, "" for none), else the variant's own word ('White', 'Player 2', 'Team A'),
    so the screen never calls one side by two names."""
    name = names[side] if side < len(names) else ""
    return name or variant.player_name(side)


def result_text(variant: Variant, result: Result, scores: tuple[int, ...], two_moves: bool,
                names: Sequence[str] = ()) -> str:
    if result.winner is not None:
        text = f"{side_name(variant, result.winner, names)} wins ({result.reason})"
    elif result.is_draw:
        text = f"draw ({result.reason})"
    else:
        places = ", ".join(f"{side_name(variant, i, names)} {place}" for i, place in enumerate(result.places))
        text = f"places {places} ({result.reason})"
    if two_moves:
        text += "; scores " + " ".join(str(s) for s in scores)
    return text


def turn_prompt(variant: Variant, game: Game, *, two_moves: bool, computer_turn: bool, thinking: bool,
                who: str = "computer", names: Sequence[str] = (), away: bool = False) -> str:
    """`computer_turn`: the side is played by `who` (the computer, a remote player,
    another program) whose move the board lights for a person to carry out;
    `away`: `who` is gone for now (a dropped connection), no move is coming."""
    if game.is_over:
        result = game.result
        return f"game over: {result_text(variant, result, game.scores, two_moves, names)}" if result else "game over"
    side = side_name(variant, game.turn, names)
    if computer_turn:
        if away:
            return f"waiting for {side} ({who}) to come back"
        if thinking:
            return f"{side} ({who}) is thinking"
        return f"{side} ({who}) to move: carry out the lit move"
    if two_moves:
        return f"{side} to move: two moves, then press"
    return f"{side} to move"


def second_move_text(computer_turn: bool) -> str:
    """A multiwarcaby turn half made: what to do next (the computer's turn needs no press)."""
    return "now carry out the computer's second lit move" if computer_turn else "make the second move, then press"


def last_move_text() -> str:
    """Multiwarcaby: the first move of the turn ended the game (tournament: the press records it)."""
    return "this move ends the game: no second move, press to finish"


def lift_advice(lifted: str, must: list[str], blocked: bool) -> str:
    """Learning mode: why the lifted piece may not move, in words a child understands."""
    if must:
        pieces = must[0] if len(must) == 1 else ", ".join(must[:-1]) + " or " + must[-1]
        return f"{lifted} cannot move now: when you can capture, you must. Jump with {pieces}"
    if blocked:
        return f"{lifted} has no free square to move to: try another piece"
    return f"{lifted} is not a piece of the side to move"


def warning_text(warning: Any) -> str:
    men = max(1, round(warning.men)) if warning is not None else 1
    pieces = "a piece" if men == 1 else plurals.english(men, "piece")
    return f"this loses {pieces}: take it back? (or press to play it)"


def hints_left_text(left: int | None) -> str:
    if left is None:
        return ""
    return " (no hints left)" if left == 0 else f" ({plurals.english(left, 'hint')} left)"


def takeback_turns(variant: Variant, guide: TakebackGuide) -> str:
    """The turns being taken back: "Black's g7xe5", "White's d4xf6 and Black's g7xe5"."""
    parts = [f"{side_name(variant, side)}'s {moves}" for side, moves in guide.turns]
    return " and ".join(parts) if len(parts) < 3 else ", ".join(parts[:-1]) + " and " + parts[-1]


def piece_words(variant: Variant, step: PieceStep) -> str:
    """The piece to put on a square: "a white piece", "a black king", "a piece" (everybody's)."""
    kind = "king" if step.king else "piece"
    if step.owner is None:
        return f"a {kind}"
    return f"a {variant.sides[step.owner].lower()} {kind}"


def takeback_text(variant: Variant, guide: TakebackGuide) -> str:
    """The screen's line while a take-back is under way: "taking back Black's
    g7xe5: put a black piece back on g7, put a white piece back on f6, take
    the piece off e5". Once the board shows the position: the pieces are back."""
    head = f"taking back {takeback_turns(variant, guide)}"
    if not guide.steps:
        return f"{head}: the pieces are back"
    shown = [f"put {piece_words(variant, step)} back on {step.square}" if step.put
             else f"take the piece off {step.square}" for step in guide.steps[:TAKEBACK_STEPS_SHOWN]]
    more = len(guide.steps) - len(shown)
    tail = f" ({plurals.english(more, 'more square')} to fix)" if more > 0 else ""
    return f"{head}: {', '.join(shown)}{tail}"


def board_missing_text(device: str) -> str:
    """The board's devices do not answer (unplugged): which one, and what to do."""
    return f"Board not connected: {device} \u2014 plug in the board's USB cable"
