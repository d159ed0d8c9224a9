"""What the session says on the screen's message line, in one place.

Pure functions of the variant and the game: the turn prompt, the result, the
coach's warning. The screen, the replay and (later) the web page and voice
read the same words.
"""

from __future__ import annotations

from typing import Any

from damka.controller import plurals
from damka.engine.game import Game
from damka.engine.variant import Result, Variant


def side_name(variant: Variant, side: int) -> str:
    """The side as a person calls it: 'White', 'Player 2', 'Team A' (the variant's own words)."""
    return variant.player_name(side)


def result_text(variant: Variant, result: Result, scores: tuple[int, ...], two_moves: bool) -> str:
    if result.winner is not None:
        text = f"{side_name(variant, result.winner)} wins ({result.reason})"
    elif result.is_draw:
        text = f"draw ({result.reason})"
    else:
        places = ", ".join(f"{side_name(variant, i)} {place}" for i, place in enumerate(result.places))
        text = f"places {places} ({result.reason})"
    if two_moves:
        text += "; scores " + " ".join(str(s) for s in scores)
    return text


def turn_prompt(variant: Variant, game: Game, *, two_moves: bool, computer_turn: bool, thinking: bool,
                who: str = "computer") -> str:
    """`computer_turn`: the side is played by `who` (the computer, a remote player,
    another program) whose move the board lights for a person to carry out."""
    if game.is_over:
        result = game.result
        return f"game over: {result_text(variant, result, game.scores, two_moves)}" if result else "game over"
    side = side_name(variant, game.turn)
    if computer_turn:
        if thinking:
            return f"{side} ({who}) is thinking"
        return f"{side} ({who}) to move: carry out the lit move"
    if two_moves:
        return f"{side} to move: two moves, then press"
    return f"{side} to move"


def second_move_text(computer_turn: bool) -> str:
    """A multiwarcaby turn half made: what to do next (the computer's turn needs no press)."""
    return "now carry out the computer's second lit move" if computer_turn else "make the second move, then press"


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


def board_missing_text(device: str) -> str:
    """The board's devices do not answer (unplugged): which one, and what to do."""
    return f"Board not connected: {device} \u2014 plug in the board's USB cable"
