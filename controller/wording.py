"""What the session says on the screen's message line, in one place.

Pure functions of the variant and the game: the turn prompt, the result, the
coach's warning. The screen, the replay and (later) the web page and voice
read the same words.
"""

from __future__ import annotations

from typing import Any

from damka.engine.game import Game
from damka.engine.variant import Result, Variant


def side_name(variant: Variant, side: int) -> str:
    """'white', or 'player 2' where the sides are numbers."""
    name = variant.sides[side]
    return f"player {name}" if name.isdigit() else name


def result_text(variant: Variant, result: Result, scores: tuple[int, ...], two_moves: bool) -> str:
    sides = variant.sides
    if result.winner is not None:
        text = f"{sides[result.winner]} wins ({result.reason})"
    elif result.is_draw:
        text = f"draw ({result.reason})"
    else:
        places = ", ".join(f"{sides[i]} {place}" for i, place in enumerate(result.places))
        text = f"places {places} ({result.reason})"
    if two_moves:
        text += "; scores " + " ".join(str(s) for s in scores)
    return text


def turn_prompt(variant: Variant, game: Game, *, two_moves: bool, computer_turn: bool, thinking: bool) -> str:
    if game.is_over:
        result = game.result
        return f"game over: {result_text(variant, result, game.scores, two_moves)}" if result else "game over"
    side = variant.sides[game.turn]
    if computer_turn:
        if thinking:
            return f"{side} (computer) is thinking"
        return f"{side} (computer) to move: carry out the lit move"
    if two_moves:
        return f"{side} to move: two moves, then press"
    return f"{side} to move"


def warning_text(warning: Any) -> str:
    men = max(1, round(warning.men)) if warning is not None else 1
    pieces = "a piece" if men == 1 else f"{men} pieces"
    return f"this loses {pieces}: take it back? (or press to play it)"


def hints_left_text(left: int | None) -> str:
    if left is None:
        return ""
    return " (no hints left)" if left == 0 else f" ({left} hint{'s' if left != 1 else ''} left)"
