"""What the session says on the screen's message line, in one place.

Pure functions of the variant and the game: the turn prompt, the result, the
coach's warning. The screen, the replay, the web page and the voice read the
same words; the texts themselves, in English and Polish, are in the catalogue
(`controller/words/`), so these functions only choose and fill them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from damka.controller.board.takeback_guide import PieceStep, TakebackGuide
from damka.controller.store.budget import ArchiveFull
from damka.controller.words import retell, say, speaking, translate
from damka.controller.words.catalogue import keys as _catalogue_keys
from damka.engine.game import Game
from damka.engine.variant import Result, Variant

TAKEBACK_STEPS_SHOWN = 3  # the board's screen is small: the first squares, then how many more


def engine_side_name(variant: Variant, side: int) -> str:
    """The variant's own word for a side in the board's language ("White" / "Białe",
    "Player 2" / "Gracz 2", "Team A" / "Drużyna A")."""
    name = variant.sides[side]
    if f"side.{name}" in _catalogue_keys():
        return say(f"side.{name}")
    if name.isdigit():
        return say("side.player", number=name)
    if name.startswith("team "):
        return say("side.team", letter=name[5:])
    return variant.player_name(side)


def retold_side_name(variant: Variant, side: int, name: str, before: str) -> str:
    """`name`, side `side`'s own word with a label (said in `before`), in the language spoken now
    ("Black (computer)" -> "Czarne (komputer)"); a name people gave as it is."""
    with speaking(before):
        word = engine_side_name(variant, side)
    if not name.startswith(word):
        return name
    label = name[len(word):]
    if label.startswith(" (") and label.endswith(")"):
        label = f" ({retell(label[2:-1], before)})"
    return engine_side_name(variant, side) + label


def side_name(variant: Variant, side: int, names: Sequence[str] = ()) -> str:
    """The side as a person calls it: the player's name when one was given (`names`
    by side, "" for none), else the variant's own word ('White', 'Player 2', 'Team A'),
    so the screen never calls one side by two names."""
    name = names[side] if side < len(names) else ""
    return name or engine_side_name(variant, side)


def game_title(variant_title: str, mode: str) -> str:
    """The game's line on top of the screen: "Classic draughts (Brazilian rules) - learning"."""
    mode_key = f"mode_name.{mode}"
    return say("title.game", variant=translate(variant_title),
               mode=say(mode_key) if mode_key in _catalogue_keys() else mode)


def reason_text(reason: str) -> str:
    """A game's end reason (the rules engine's English words) in the board's language."""
    return translate(reason)


def join_words(words: Sequence[str], last: str = "join.and") -> str:
    """"a", "a and b", "a, b and c" (in the board's language; `last`: join.and or join.or)."""
    if len(words) < 2:
        return "".join(words)
    return ", ".join(words[:-1]) + say(last) + words[-1]


def result_text(variant: Variant, result: Result, scores: tuple[int, ...], two_moves: bool,
                names: Sequence[str] = ()) -> str:
    reason = reason_text(result.reason)
    if result.winner is not None:
        text = say("result.wins", side=side_name(variant, result.winner, names), reason=reason)
    elif result.is_draw:
        text = say("result.draw", reason=reason)
    else:
        places = ", ".join(f"{side_name(variant, i, names)} {place}" for i, place in enumerate(result.places))
        text = say("result.places", places=places, reason=reason)
    if two_moves:
        text += say("result.scores", scores=" ".join(str(s) for s in scores))
    return text


def turn_prompt(variant: Variant, game: Game, *, two_moves: bool, computer_turn: bool, thinking: bool,
                who: str = "computer", names: Sequence[str] = (), away: bool = False) -> str:
    """`computer_turn`: the side is played by `who` (the computer, a remote player,
    another program) whose move the board lights for a person to carry out;
    `away`: `who` is gone for now (a dropped connection), no move is coming."""
    if game.is_over:
        result = game.result
        if result is None:
            return say("turn.over")
        return say("turn.over_result", result=result_text(variant, result, game.scores, two_moves, names))
    side = side_name(variant, game.turn, names)
    if computer_turn:
        # The seat's own word ("who.computer": "komputer"; a word for word translation
        # of "computer" found the mode's "z komputerem"), else as it came (a program's name).
        who = say(f"who.{who}") if f"who.{who}" in _catalogue_keys() else translate(who)
        if away:
            return say("turn.away", side=side, who=who)
        if thinking:
            return say("turn.thinking", side=side, who=who)
        return say("turn.carry_out", side=side, who=who)
    if two_moves:
        return say("turn.two_moves", side=side)
    return say("turn.to_move", side=side)


def second_move_text(computer_turn: bool) -> str:
    """A multiwarcaby turn half made: what to do next (the computer's turn needs no press)."""
    return say("turn.second_computer") if computer_turn else say("turn.second")


def last_move_text() -> str:
    """Multiwarcaby: the first move of the turn ended the game (tournament: the press records it)."""
    return say("turn.last_move")


def lift_advice(lifted: str, must: list[str], blocked: bool) -> str:
    """Learning mode: why the lifted piece may not move, in words a child understands."""
    if must:
        return say("lift.must_capture", lifted=lifted, pieces=join_words(must, "join.or"))
    if blocked:
        return say("lift.blocked", lifted=lifted)
    return say("lift.not_yours", lifted=lifted)


def warning_text(warning: Any) -> str:
    men = max(1, round(warning.men)) if warning is not None else 1
    return say("warning.loses", count=men)


def hints_left_text(left: int | None) -> str:
    if left is None:
        return ""
    return say("hints.none_left") if left == 0 else say("hints.left", count=left)


def takeback_turns(variant: Variant, guide: TakebackGuide) -> str:
    """The turns being taken back: "Black's g7xe5", "White's d4xf6 and Black's g7xe5"."""
    return join_words([say("takeback.turn", side=side_name(variant, side), moves=moves)
                       for side, moves in guide.turns])


def piece_words(variant: Variant, step: PieceStep) -> str:
    """The piece to put on a square: "a white piece", "a black king", "a piece" (everybody's)."""
    kind = "king" if step.king else "piece"
    if step.owner is None:
        return say(f"piece.{kind}")
    colour = variant.sides[step.owner].lower()
    if f"piece.{colour}.{kind}" in _catalogue_keys():
        return say(f"piece.{colour}.{kind}")
    return say("piece.other", colour=engine_side_name(variant, step.owner).lower(), kind=say(f"piece.{kind}"))


def takeback_text(variant: Variant, guide: TakebackGuide) -> str:
    """The screen's line while a take-back is under way: "taking back Black's
    g7xe5: put a black piece back on g7, put a white piece back on f6, take
    the piece off e5". Once the board shows the position: the pieces are back."""
    head = say("takeback.head", turns=takeback_turns(variant, guide))
    if not guide.steps:
        return say("takeback.done", head=head)
    shown = [say("takeback.put", piece=piece_words(variant, step), square=step.square) if step.put
             else say("takeback.take", square=step.square) for step in guide.steps[:TAKEBACK_STEPS_SHOWN]]
    more = len(guide.steps) - len(shown)
    tail = say("takeback.more", count=more) if more > 0 else ""
    return say("takeback.steps", head=head, steps=", ".join(shown), tail=tail)


def board_missing_text(device: str) -> str:
    """The board's devices do not answer (unplugged): which one, and what to do."""
    return say("board.missing", device=device)


def archive_full_text(error: ArchiveFull, name: str, stored: int) -> str:
    """An import of `name` stopped at the archive's budget: the `stored` games of it that were
    stored, which limit was reached, and the setting to raise (`damka import` and the page)."""
    limit = (say("import.full_games", count=error.budget.games) if error.limit == "games" else
             say("import.full_megabytes", megabytes=error.budget.megabytes))
    return say("import.full", limit=limit, count=stored, name=name, key=f"max_{error.limit}")
