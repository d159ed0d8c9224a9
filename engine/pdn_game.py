"""A PDN game record as read (`PdnGame`), and the visitor a reader feeds (`BaseVisitor`).

`engine/pdn.py` cuts the text into games and feeds each game's parts, in
order, to a visitor; `pdn_builder.GameBuilder` is the one that builds a
`PdnGame`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from damka.engine.errors import RecordError
from damka.engine.move import Move
from damka.engine.pdn_write import write_game
from damka.engine.reasons import Reason
from damka.engine.variant import Position, Variant

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
    errors_left_out: int = 0     # beyond the first KEPT_PROBLEMS (a file of stray tokens has one each)
    warnings_left_out: int = 0
    texts: list[str] = field(default_factory=list)
    drops: list[tuple[int, int]] = field(default_factory=list)  # (ply, side) players out, from DamkaOut
    line: int = 0  # where the record starts in its file

    def first_error(self) -> str:
        """The first error, saying how many more there are (the record has at least one)."""
        first, more = self.errors[0], len(self.errors) - 1 + self.errors_left_out
        return Reason("pdn.more", first=first, count=more) if more else first

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
