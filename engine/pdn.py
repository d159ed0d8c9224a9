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

Size: cutting a file into games and the reading entry points; the tokenizer
is `pdn_tokens.py`, the game and visitor `pdn_game.py`, the builder
`pdn_builder.py`, the writer `pdn_write.py`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from damka.engine.errors import RecordError
from damka.engine.pdn_builder import GameBuilder
from damka.engine.pdn_detect import DETECT
from damka.engine.pdn_game import BaseVisitor, PdnGame
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
from damka.engine.pdn_tokens import Lines, Token, tokenize
from damka.engine.reasons import Reason
from damka.engine.pdn_write import LINE_WIDTH, ROSTER, SETUP_TAGS, write_game, write_games


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
        assert visitor is not None  # begun just above
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


def iter_games(chunks: Iterable[str], default_variant: str | None = DEFAULT_VARIANT,
               named: str | None = None) -> Iterator[PdnGame]:
    """`read_games` game by game, from text in pieces (see `iter_visit_games`)."""
    return iter_visit_games(chunks, lambda: GameBuilder(default_variant, named))  # type: ignore[return-value]


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
        raise RecordError(Reason("pdn.no_record"))
    game = games[0]
    if strict and game.errors:
        raise RecordError(game.first_error())
    return game


__all__ = [
    "DEFAULT_VARIANT", "DETECT", "LINE_WIDTH", "OPTION_TAGS", "OUT_TAG", "ROSTER", "SETUP_TAGS", "VARIANT_TAG",
    "VARIANT_TAGS", "BaseVisitor", "GameBuilder", "PdnGame", "Token", "iter_games", "iter_visit_games", "read_game",
    "read_games", "read_out_tag", "result_text", "tokenize", "variant_from_tags", "variant_tags", "visit_games",
    "write_game", "write_games", "write_out_tag",
]
