"""PDN game records: a lenient reader and a strict writer.

Reading follows `chess/pgn.py` in python-chess: a tokenizer (`pdn_tokens.py`)
feeds a visitor (`BaseVisitor`); the default visitor, `GameBuilder`, builds a
`PdnGame` and collects every problem on the game's `errors` (`"line:column: message"`)
instead of raising, so one bad record in a file does not lose the others.
Variations `( ... )` are not played (their text is kept after the move they
follow), nor are move numbers checked; NAGs (`$3`, `!?`) are kept per move;
`[%name value]` annotations inside comments (`[%clock ...]`) are kept as data
per move. Real files' forms are taken (PDN 3.0: tolerant reading, see
`pdn_tokens.py`), and a record with no tag naming its game gets one from its
FEN and first moves (`pdn_detect.py`).

Writing is strict (`pdn_write.py`): every move must be legal, the tags come
in the PDN order, captures get their full route only when start and end are
ambiguous, and lines are wrapped at 80.

The variant of a record comes from its `Variant` tag (Damka's own, for the
variants PDN has no GameType for and for options), else from `GameType`
(20 international, 21 american, 25 russian, 26 classic, 27 canadian), else the
reader's default (PDN's own default is 20, international); `pdn_tags.py`
holds that mapping and the result tokens. docs/notation.md describes the
format, multiwarcaby's record included.

Size: the reader; the tokenizer is `pdn_tokens.py`, the writer `pdn_write.py`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from damka.engine.errors import DamkaError, MoveError, RecordError
from damka.engine.move import Move
from damka.engine.notation import format_move, parse_square
from damka.engine.notation import parse_move as parse_move_text
from damka.engine.pdn_tags import (
    DEFAULT_VARIANT,
    OPTION_TAGS,
    OUT_TAG,
    VARIANT_TAG,
    VARIANT_TAGS,
    read_out_tag,
    result_text,
    variant_from_tags,
    variant_tags,
    write_out_tag,
)
from damka.engine.pdn_detect import DETECT, PROBE_MOVES, detect_variant, fen_side_fixed
from damka.engine.pdn_tokens import Lines, Token, tokenize
from damka.engine.pdn_write import LINE_WIDTH, ROSTER, SETUP_TAGS, write_game, write_games
from damka.engine.variant import Position, Variant

_FIRST_SQUARE_RE = re.compile(r"[a-zA-Z]?\d+")  # a move's first square: its piece's moves are the ones to read
_ANNOTATION_RE = re.compile(r"\[%(\w+)\s*([^\]]*)\]")


# -- games --------------------------------------------------------------------


@dataclass
class PdnGame:
    """One game record as read.

    `moves[i]` was played in `positions[i]` and gave `positions[i + 1]`;
    `nags[i]`, `comments[i]`, `annotations[i]` (e.g. `{"clock": "w0:05:00
    b0:04:58"}`) and `move_variations[i]` (each a whole `( ... )`) follow
    move i; `variations` holds every variation's text in file order. `intro` is a comment before the first move. `result` is the
    result token (`2-0`, `1/2-1/2`, `*`, ...). `errors` are `"line:column:
    message"`; when a move cannot be read, it and the moves after it are
    left out (and one error says so).
    """

    tags: dict[str, str] = field(default_factory=dict)
    variant: Variant | None = None
    start: Position | None = None
    moves: list[Move] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    annotations: list[dict[str, str]] = field(default_factory=list)
    positions: list[Position] = field(default_factory=list)
    intro: str = ""
    variations: list[str] = field(default_factory=list)
    nags: list[list[str]] = field(default_factory=list)
    move_variations: list[list[str]] = field(default_factory=list)
    result: str = "*"
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    drops: list[tuple[int, int]] = field(default_factory=list)  # (ply, side) players out, from DamkaOut
    line: int = 0  # where the record starts in its file

    @property
    def end(self) -> Position | None:
        """The position after the last move read."""
        return self.positions[-1] if self.positions else self.start

    @property
    def clocks(self) -> list[str | None]:
        """The `[%clock ...]` annotation after each move, or None."""
        return [annotation.get("clock") for annotation in self.annotations]

    def pdn(self) -> str:
        """This game written back as PDN (strict: the game must have a variant)."""
        if self.variant is None:
            raise RecordError("this record has no variant to write it in")
        return write_game(
            self.variant, self.start, self.moves, self.tags,
            comments=self.comments, annotations=self.annotations, intro=self.intro, result=self.result,
            nags=self.nags, variations=self.move_variations,
        )


class BaseVisitor:
    """Receives a record's parts in order; override what you need.

    `where` is `"line:column"`. `end_game` returns what `read_games` collects.
    """

    def begin_game(self) -> None:
        pass

    def visit_start(self, where: str) -> None:
        """Where the game's first token is (`"line:column"`)."""

    def visit_tag(self, name: str, value: str, where: str) -> None:
        pass

    def end_tags(self) -> None:
        """Called once, before the first movetext token (or at the end of a game without any)."""

    def visit_move_number(self, number: int, where: str) -> None:
        pass

    def visit_move(self, text: str, where: str) -> None:
        pass

    def visit_comment(self, text: str, where: str) -> None:
        pass

    def visit_variation(self, text: str, where: str) -> None:
        pass

    def visit_nag(self, text: str, where: str) -> None:
        """A NAG after a move: `$3`, or a move strength `!?`."""

    def visit_result(self, text: str, where: str) -> None:
        pass

    def handle_error(self, message: str, where: str) -> None:
        """A problem in the text; the default is to ignore it."""

    def handle_warning(self, message: str, where: str) -> None:
        """Something read in a way the text did not quite say; the default is to ignore it."""

    def end_game(self) -> object:
        return None


class GameBuilder(BaseVisitor):
    """Builds a `PdnGame`, playing the moves on the variant read from the tags.

    With `default_variant` DETECT, a record with no tag naming its game is
    held back until its first moves are read, to find its game from them
    (`pdn_detect.py`); then what was held is played."""

    def __init__(self, default_variant: str | None = DEFAULT_VARIANT) -> None:
        self.default_variant = default_variant
        self.game = PdnGame()
        self._stopped = False  # a move could not be read: skip the rest
        self._tag_where: dict[str, str] = {}
        self._held: list[tuple[str, str, str]] | None = None  # (method, text, where) until the variant is known

    def begin_game(self) -> None:
        self.game = PdnGame()
        self._stopped = False
        self._tag_where = {}
        self._held = None

    def visit_start(self, where: str) -> None:
        self.game.line = int(where.split(":")[0])

    def visit_tag(self, name: str, value: str, where: str) -> None:
        self.game.tags[name] = value
        self._tag_where[name] = where

    def end_tags(self) -> None:
        game = self.game
        game.result = game.tags.get("Result", "").strip() or "*"
        named = any(game.tags.get(tag, "").strip() for tag in (VARIANT_TAG, "GameType"))
        if self.default_variant == DETECT and not named:
            self._held = []
            return
        self._start(self.default_variant)

    def _hold(self, method: str, text: str, where: str) -> bool:
        """Keep a movetext part while the variant is being found; True if it was kept."""
        if self._held is None:
            return False
        self._held.append((method, text, where))
        if method == "visit_move" and sum(1 for held in self._held if held[0] == "visit_move") >= PROBE_MOVES:
            self._release()
        return True

    def _release(self) -> None:
        """Find the variant from the FEN and the moves held, then play what was held."""
        held, self._held = self._held or [], None
        moves = [text for method, text, _ in held if method == "visit_move"]
        fen = self.game.tags.get("FEN", "")
        self._start(detect_variant(fen, moves, lambda variant, position, text: variant.play(
            position, _read_move(variant, position, text)[0])))
        for method, text, where in held:
            getattr(self, method)(text, where)

    def _start(self, default_variant: str | None) -> None:
        """Set the variant, the start position and the players out, from the tags."""
        game = self.game
        where = self._tag_where.get(VARIANT_TAG) or self._tag_where.get("GameType") or "1:1"
        try:
            game.variant = variant_from_tags(game.tags, default_variant,
                                             warn=lambda message: self.handle_warning(message, where))
        except (DamkaError, ValueError) as exc:
            self.handle_error(f"{exc}; the moves are not read", where)
            self._stopped = True
            return
        fen_where = self._tag_where.get("FEN", "1:1")
        try:
            fen = fen_side_fixed(game.variant, game.tags.get("FEN", "").strip(),
                                 lambda message: self.handle_warning(message, fen_where))
            game.start = game.variant.parse_position(fen) if fen else game.variant.start_position()
        except (DamkaError, ValueError) as exc:
            self.handle_error(f"FEN tag: {exc}; the moves are not read", fen_where)
            self._stopped = True
            return
        game.positions = [game.start]
        try:
            game.drops = read_out_tag(game.tags.get(OUT_TAG, ""))
        except ValueError as exc:
            self.handle_error(f"{exc}; the moves are not read", self._tag_where.get(OUT_TAG, "1:1"))
            self._stopped = True
            return
        self._apply_drops()

    def _apply_drops(self) -> None:
        """Take out the players who went out after the moves read so far."""
        game = self.game
        for ply, side in game.drops:
            if ply == len(game.moves):
                drop_side = getattr(game.variant, "drop_side", None)
                try:
                    if drop_side is None:
                        raise ValueError(f"{game.variant.name} has no players going out")
                    game.positions[-1] = drop_side(game.positions[-1], side)
                except (DamkaError, ValueError) as exc:
                    self.handle_error(f"{OUT_TAG} tag: side {side + 1} after move {ply}: {exc}",
                                      self._tag_where.get(OUT_TAG, "1:1"))
                    self._stopped = True

    def visit_move(self, text: str, where: str) -> None:
        game = self.game
        if self._hold("visit_move", text, where) or self._stopped:
            return
        position = game.positions[-1]
        variant = game.variant
        try:
            move, legal = _read_move(variant, position, text)
        except MoveError as exc:
            if text == game.tags.get("Result", "").strip():
                self.visit_result(text, where)  # a result of a ResultFormat (`4-6`): it looks like a move
                return
            number = len(game.moves) + 1
            self.handle_error(f"move {number} {text!r}: {exc}; it and the moves after it are left out", where)
            self._stopped = True
            return
        game.moves.append(move)
        game.texts.append(format_move(variant, position, move, legal))
        game.comments.append("")
        game.annotations.append({})
        game.nags.append([])
        game.move_variations.append([])
        game.positions.append(variant.play(position, move))
        self._apply_drops()

    def visit_comment(self, text: str, where: str) -> None:
        if self._hold("visit_comment", text, where):
            return
        game = self.game
        annotations = {name: value.strip() for name, value in _ANNOTATION_RE.findall(text)}
        comment = " ".join(_ANNOTATION_RE.sub(" ", text).split())
        if not game.moves:
            game.intro = f"{game.intro} {comment}".strip()
            return
        if self._stopped:
            return  # it would follow a move that was left out
        game.comments[-1] = f"{game.comments[-1]} {comment}".strip()
        game.annotations[-1].update(annotations)

    def visit_variation(self, text: str, where: str) -> None:
        if self._hold("visit_variation", text, where):
            return
        game = self.game
        game.variations.append(text)
        if game.moves and not self._stopped:
            game.move_variations[-1].append(" ".join(text.split()))

    def visit_nag(self, text: str, where: str) -> None:
        if self._hold("visit_nag", text, where):
            return
        game = self.game
        if game.moves and not self._stopped:
            game.nags[-1].append(text)

    def visit_result(self, text: str, where: str) -> None:
        if self._hold("visit_result", text, where):
            return
        game = self.game
        tag = game.tags.get("Result", "").strip()
        if tag and tag != text:
            self.handle_warning(f"the movetext ends with {text} but the Result tag says {tag}; {text} is kept",
                                where)
        game.result = text

    def handle_error(self, message: str, where: str) -> None:
        self.game.errors.append(f"{where}: {message}")

    def handle_warning(self, message: str, where: str) -> None:
        self.game.warnings.append(f"{where}: {message}")

    def end_game(self) -> PdnGame:
        if self._held is not None:
            self._release()
        return self.game


def _read_move(variant: Variant, position: Position, text: str) -> tuple[Move, list[Move]]:
    """The move written `text`, and the moved piece's legal moves: computed
    once (speed), to read the move and to write its text. MoveError as
    reading it among every legal move says it (`a capture is compulsory...`)."""
    try:
        start = parse_square(variant, _FIRST_SQUARE_RE.match(text).group(0))  # type: ignore[union-attr]
        legal = variant.legal_moves_from(position, start)
        return parse_move_text(variant, position, text, legal), legal
    except (DamkaError, AttributeError):
        legal = variant.legal_moves(position)  # every legal move: the message names the other pieces'
        return parse_move_text(variant, position, text, legal), legal


class _Splitter:
    """Cuts the token stream into games and feeds each to its own visitor.

    A game ends at its result token, when tags follow its movetext, or when a
    tag comes again (a record of tags alone); comments between a result and
    the next game are dropped. What each visitor's `end_game` gave goes to
    `results`, as soon as its game is over.
    """

    def __init__(self, make_visitor: Callable[[], BaseVisitor]) -> None:
        self.make_visitor = make_visitor
        self.results: list[object] = []
        self.visitor: BaseVisitor | None = None
        self.in_movetext = False  # the current game has passed its tags
        self.finished = False  # the current game's result was read
        self.tag_names: set[str] = set()
        # Movetext tokens -> visitor method name and the token field passed on.
        self.movetext = {
            "move": ("visit_move", "text"), "comment": ("visit_comment", "value"),
            "variation": ("visit_variation", "text"), "result": ("visit_result", "text"),
            "nag": ("visit_nag", "text"),
        }

    def finish(self) -> None:
        if self.visitor is not None:
            if not self.in_movetext:
                self.visitor.end_tags()
            self.results.append(self.visitor.end_game())
            self.visitor = None

    def begin(self) -> BaseVisitor:
        self.finish()
        self.visitor = self.make_visitor()
        self.visitor.begin_game()
        self.in_movetext = self.finished = False
        self.tag_names = set()
        return self.visitor

    def feed(self, token: Token, where: str) -> None:
        kind = token.kind
        if kind == "ellipsis" or (self.finished and kind in ("comment", "nag")):
            return  # between games
        if kind == "tag" and (self.in_movetext or self.finished or token.name in self.tag_names):
            self.finish()
        elif kind == "error" and self.finished:
            self.finish()
        if self.visitor is None or (self.finished and kind in ("move", "number")):
            self.begin().visit_start(where)
        visitor = self.visitor
        if kind == "tag":
            self.tag_names.add(token.name)
            visitor.visit_tag(token.name, token.value, where)
            return
        if kind == "error":
            visitor.handle_error(token.value, where)
            return
        if not self.in_movetext:
            visitor.end_tags()
            self.in_movetext = True
        if kind == "number":
            visitor.visit_move_number(int(token.value), where)
        elif kind in self.movetext:
            method, attribute = self.movetext[kind]
            getattr(visitor, method)(getattr(token, attribute), where)
            self.finished = self.finished or kind == "result"


def iter_visit_games(chunks: Iterable[str], make_visitor: Callable[[], BaseVisitor]) -> Iterator[object]:
    """What each game's visitor gave, game by game, from text that comes in
    pieces (a file read a block at a time): only the game being read and
    the unread rest of the last piece are held, whatever the file's size.

    The pieces may be cut anywhere; the result is that of `visit_games` on
    the whole text. A piece is tokenized up to the start of its last token
    (which may go on in the next piece), and the rest is kept for the next.
    """
    splitter = _Splitter(make_visitor)
    rest, line, column = "", 1, 0
    pending: list[str] = []
    waiting = 0
    for chunk in chunks:
        pending.append(chunk)
        waiting += len(chunk)
        if waiting < len(rest):
            continue  # speed: a long open comment is re-read only when the text has doubled
        text = rest + "".join(pending)
        pending, waiting = [], 0
        lines = Lines(text, line, column)
        last: Token | None = None
        for token in tokenize(text, line_start=column == 0):
            if last is not None:
                splitter.feed(last, lines.where(last.offset))
            last = token
        cut = last.offset if last is not None else text.rfind("\n") + 1
        line, column = lines.after(cut)
        rest = text[cut:]
        yield from splitter.results
        splitter.results.clear()
    text = rest + "".join(pending)
    lines = Lines(text, line, column)
    for token in tokenize(text, line_start=column == 0):
        splitter.feed(token, lines.where(token.offset))
    splitter.finish()
    yield from splitter.results


def visit_games(text: str, make_visitor: Callable[[], BaseVisitor]) -> list[object]:
    """Feed every game of `text` to a fresh visitor from `make_visitor()`;
    return what each visitor's `end_game` gave."""
    return list(iter_visit_games([text], make_visitor))


def iter_games(chunks: Iterable[str], default_variant: str | None = DEFAULT_VARIANT) -> Iterator[PdnGame]:
    """`read_games` game by game, from text in pieces (see `iter_visit_games`)."""
    return iter_visit_games(chunks, lambda: GameBuilder(default_variant))  # type: ignore[return-value]


def read_games(text: str, default_variant: str | None = DEFAULT_VARIANT) -> list[PdnGame]:
    """Every game in PDN `text`. Never raises for bad records: see `PdnGame.errors`.

    `default_variant` is used when a record has neither a Variant nor a
    GameType tag (PDN's default is international); None makes that an error.
    """
    return visit_games(text, lambda: GameBuilder(default_variant))  # type: ignore[return-value]


def read_game(text: str, default_variant: str | None = DEFAULT_VARIANT, strict: bool = False) -> PdnGame:
    """The first game in `text`; RecordError if there is none, or (`strict`) if it has errors."""
    games = read_games(text, default_variant)
    if not games:
        raise RecordError("no game record in the text")
    game = games[0]
    if strict and game.errors:
        more = f" (and {len(game.errors) - 1} more)" if len(game.errors) > 1 else ""
        raise RecordError(f"{game.errors[0]}{more}")
    return game


__all__ = [
    "DEFAULT_VARIANT", "DETECT", "LINE_WIDTH", "ROSTER", "SETUP_TAGS", "OPTION_TAGS", "VARIANT_TAG", "VARIANT_TAGS", "BaseVisitor", "GameBuilder", "PdnGame",
    "Token", "iter_games", "iter_visit_games", "read_game", "read_games", "result_text", "tokenize", "variant_from_tags", "variant_tags",
    "visit_games", "write_game", "write_games",
]
