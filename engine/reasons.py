"""Why the engine refused a text (a PDN record, a move, a FEN), in a form a board can say in its own language.

The engine has no words of its own: it speaks English to whoever calls it (a
script, the command line, a log). A board that speaks Polish must still tell a
person why a record of their file was passed over. So each such sentence is a
`Reason`: the English text (a `str`, so every caller that prints, logs or
compares it keeps working) that also keeps its key and fields. The controller's
catalogue (controller/words/engine_reasons.py) holds each key's Polish form and
says a reason again in the board's language, its nested reasons with it.

A field is shown as given (`{text!r}` quotes the text a file had); a field that
is itself a Reason is said in the same language as the sentence around it, and
a field of `OWN_WORDS` (the engine's own English, a game's end: "threefold
repetition") is said in the board's catalogue's words.
"""

from __future__ import annotations

from typing import Any

ENGLISH: dict[str, str] = {
    # PDN text that is not PDN (engine/pdn_tokens.py, engine/pdn.py)
    "pdn.malformed_tag": "malformed tag {tag!r}",
    "pdn.comment_open": "comment '{{' is never closed",
    "pdn.variation_open": "variation '(' is never closed",
    "pdn.unexpected_char": "unexpected {char!r}",
    "pdn.unexpected_word": "unexpected {word!r} (not a move, move number or result)",
    "pdn.no_record": "no game record in the text",
    "pdn.more": "{first} (and {count} more)",
    "pdn.at": "{where}: {message}",
    "pdn.no_variant": "no variant",
    "pdn.after_end": "move {number} ({move}) comes after the end of the game ({ending})",
    # a record's tags (engine/pdn_tags.py, engine/pdn_builder.py, engine/variants.py, engine/option_spec.py)
    "pdn.moves_not_read": "{why}; the moves are not read",
    "pdn.fen_moves_not_read": "FEN tag: {why}; the moves are not read",
    "pdn.out_tag_form": "{tag} tag: {token!r} is not SIDE:PLY (e.g. 3:14)",
    "pdn.no_players_out": "{variant} has no players going out",
    "pdn.out_side": "{tag} tag: side {side} after move {ply}: {why}",
    "pdn.tag_value": "tag {tag} {text!r}: {why}",
    "pdn.tag_option": "tag {tag} {text!r}: variant {variant!r} takes no option {option!r}",
    "pdn.gametype_unplayed": "GameType {number} is {game}, a game Damka does not play",
    "pdn.gametype_unknown": "GameType {gametype!r} is not a game Damka plays (known: {known})",
    "pdn.no_game_tag": "the record has no GameType or Variant tag, so its game is unknown",
    "pdn.empty_record": "the record has no move and no setup position (FEN tag): it is not a game",
    "variant.unknown": "unknown variant {name!r}; known: {known}",
    "option.not_one_of": "option {name}: {text!r} is not {allowed}",
    "option.yes_no": "yes or no",
    "option.range": "{low}-{high}",
    "option.at_least": "a whole number, {low} or more",
    "option.whole": "a whole number",
    "option.or_off": "{allowed}, or off",
    # a record's moves (engine/pdn_builder.py, engine/notation.py, engine/geometry.py)
    "pdn.move_left_out": "move {number} {text!r}: {why}; the record is read no further",
    "pdn.ambiguous_read": ("move {number} {text!r} matches {count} legal moves; {route} is read, the one the "
                           "next moves follow"),
    "pdn.result_differs": "the movetext ends with {text} but the Result tag says {tag}; {text} is kept",
    "pdn.ambiguous_left_out": ("move {number} {text!r} matches {count} legal moves ({routes}) and the next move "
                               "does not tell which; the record is read no further"),
    "move.not_move": "{text!r} is not a move (expected e.g. {example})",
    "move.example_numeric": "32-28 or 28x19",
    "move.example_algebraic": "c3-d4 or c3xe5",
    "move.mixed": "{text!r} mixes '-' and 'x'; a move is either a step or a capture",
    "move.bad_square": "{text!r}: {why}",
    "move.long_step": "{text!r}: only a capture has more than two squares (write it with 'x')",
    "move.illegal_route": "{text!r} is not a legal capture route here; {hint}",
    "move.illegal": "{text!r} is not a legal move here; {hint}",
    "move.ambiguous": "{text!r} matches {count} legal moves; give the full route: {routes}",
    "hint.no_legal": "there is no legal move in this position",
    "hint.legal_from": "legal from {square}: {moves}",
    "hint.no_piece": "there is no piece on {square}",
    "hint.no_move_from": "no legal move from {square}",
    "hint.compulsory": "{why}; a capture is compulsory: {moves}",
    "hint.legal": "{why}; legal moves: {moves}",
    "hint.more": "{moves}, ... ({count} in all)",
    "square.not_name_on": "{text!r} is not a square name on {variant} (expected a name like e5)",
    "square.not_name": "{text!r} is not a square name (expected a file letter and a rank, like e5)",
    "square.off_board": "square {text!r} is off the board (a1-{last})",
    "square.not_playable": "square {text!r} is not a playable square of this board",
    "square.number_off_board": "square number {number} is off the board (1-{last})",
    # a FEN of the draughts games (engine/draughts_position.py)
    "fen.empty": "empty FEN",
    "fen.turn": "FEN field 1: side to move must be W or B, not {text!r}",
    "fen.field_empty": "FEN field {index} is empty (expected W..., B..., H... or F...)",
    "fen.second_counter": "FEN field {index}: a second {head} field",
    "fen.counter_number": "FEN field {index}: {head} must be followed by a number, not {text!r}",
    "fen.field_form": "FEN field {index}: expected W or B and a list of squares, not {text!r}",
    "fen.second_white": "FEN field {index}: a second field for white",
    "fen.second_black": "FEN field {index}: a second field for black",
    "fen.token": "FEN field {index}, token {token!r}: {why}",
    "fen.twice": "square {square} is listed twice",
    "fen.holds_white": "square {square} already holds a white piece",
    "fen.holds_black": "square {square} already holds a black piece",
    "fen.no_white": "FEN has no field for white (write W: or B: with no squares for none)",
    "fen.no_black": "FEN has no field for black (write W: or B: with no squares for none)",
    "fen.no_sides": "FEN has no field for white and black (write W: or B: with no squares for none)",
    "fen.no_square": "no square",
    "fen.not_number": "not a square number or range (like 21 or 21-32)",
    "fen.off_board": "square {number} is off the board (1-{last})",
    "fen.backwards": "range runs backwards ({first} > {end})",
    # a position no game can reach (engine/draughts.py, engine/multiwarcaby.py)
    "position.white_man_crowned": "a white man on {square}, White's crowning row: a man there is a king",
    "position.black_man_crowned": "a black man on {square}, Black's crowning row: a man there is a king",
    "position.white_too_many": "White has {count} pieces; the game starts with {start}",
    "position.black_too_many": "Black has {count} pieces; the game starts with {start}",
    "position.too_many": "{count} pieces on the board; the game starts with {start}",
    # a multiwarcaby position string (engine/multiwarcaby_position.py)
    "mw.board_tag": "position field 1 {text!r}: expected the board tag {tag!r} (MW9 for the 9x9 board, MW7 for the 7x7)",
    "mw.unknown_field": "position field {number} {item!r}: unknown field (expected one of S T P X K Q O B)",
    "mw.field_twice": "position field {number} {item!r}: field {key} given twice",
    "mw.no_sides": "position string has no S field (sides)",
    "mw.no_turn": "position string has no T field (turn)",
    "mw.no_scores": "position string has no P field (scores)",
    "mw.no_board": "position string has no O field (board)",
    "mw.field": "position field {number} {item!r}: {problem}",
    "mw.sides": "this variant plays with {sides} (S2, S3, S4 players, SAB two teams)",
    "mw.scores": "expected {sides} scores, one per side, got {count}",
    "mw.not_side": "{label!r} is not a side of this game",
    "mw.mover_out": "the side to move is out of play (listed in X)",
    "mw.needs_start": "the second move of a turn needs the B field (the board at the turn start)",
    "mw.start_same": "equals the board now, but the first move of the turn has been made",
    "mw.start_fewer": "has fewer pieces than the board now; pieces are never added",
    "mw.start_first": "only the second move of a turn (T..2) has a turn-start board",
    "mw.turn_side": "side {label!r} is not one of {names}",
    "mw.turn_form": "expected the side, a dot and the move of the turn, 1 or 2 (T1.2)",
    "mw.numbers": "expected non-negative whole numbers separated by commas",
    "mw.count": "expected a non-negative whole number",
    "mw.ranks": "expected {height} ranks separated by '/', got {count}",
    "mw.board_char": "rank {rank}: {char!r} is neither 'o' (a piece) nor a digit (empty squares)",
    "mw.rank_length": "rank {rank} ({row!r}) covers {count} squares, not {width}",
}


# Fields that hold the engine's own English, not text quoted from a file: only these may be
# put into the board's words (a file's stray word "draw" is quoted as the file wrote it).
OWN_WORDS = frozenset({"ending"})


class Reason(str):
    """An English sentence of `ENGLISH` with its key and fields kept (see the module's docstring).

    Built from a key and fields; a str in every other way. A text made from it with str's own
    operations (slicing, an f-string) is plain English again: join reasons with a key of
    their own (`pdn.at`, `pdn.more`) to keep them sayable."""

    key: str
    fields: dict[str, Any]

    def __new__(cls, key: str, /, **fields: Any) -> Reason:
        fields = {name: _shortened(value) for name, value in fields.items()}
        self = super().__new__(cls, ENGLISH[key].format(**fields))
        self.key = key
        self.fields = fields
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        """A Reason copied or pickled stays one (str's own would give back English only)."""
        return (_rebuild, (self.key, self.fields))


FIELD_CHARS = 200   # a field quoted from a file (a tag, a word) is shown up to this long


def _shortened(value: Any) -> Any:
    """A text of a file as a reason quotes it: a 2 MB word made a 2 MB reason, on every page."""
    if isinstance(value, str) and not isinstance(value, Reason) and len(value) > FIELD_CHARS:
        return value[:FIELD_CHARS - 3] + "..."
    return value


def _rebuild(key: str, fields: dict[str, Any]) -> Reason:
    return Reason(key, **fields)


def reason_of(error: BaseException) -> str:
    """The error's sentence: its Reason when it was raised with one, else its text."""
    first = error.args[0] if len(error.args) == 1 else None
    return first if isinstance(first, Reason) else str(error)
