"""Building a `PdnGame` from a record's parts: the tags name the variant, the moves are played.

Tolerant (PDN 3.0): a record with no tag naming its game is held back until
its first moves say which it is (`pdn_detect.py`); a capture written short
where two routes end on the same square (`32x7`) is read as the route after
which the game goes on as written; a result of a ResultFormat that looks
like a move (`4-6`) is read as the result. Every problem goes to the game's
`errors` or `warnings` with its line and column, never raised.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from damka.engine.errors import AmbiguousMoveError, DamkaError, MoveError
from damka.engine.move import Move
from damka.engine.notation import format_move, format_route, parse_square, split_move_text
from damka.engine.notation import parse_move as parse_move_text
from damka.engine.pdn_detect import DETECT, PROBE_MOVES, detect_variant, fen_side_fixed
from damka.engine.pdn_game import BaseVisitor, PdnGame
from damka.engine.pdn_tags import DEFAULT_VARIANT, OUT_TAG, VARIANT_TAG, read_out_tag, variant_from_tags
from damka.engine.reasons import Reason, reason_of
from damka.engine.variant import Position, Variant

# The errors (and warnings) a record keeps; the rest are counted. Each is kept as a Reason, and
# a 2 MB file of stray tokens, an error each, held 1.4 GB and took 20 s to read with every one kept.
KEPT_PROBLEMS = 20
# The parts of a record held while its game is found from its first moves: a record of a million
# results or comments and no move held them all (140 MB from a 2 MB file); this many, it goes on.
HELD_PARTS = 1000
_FIRST_SQUARE_RE = re.compile(r"[a-zA-Z]?\d+")  # a move's first square: its piece's moves are the ones to read
_ANNOTATION_RE = re.compile(r"\[%(\w+)\s*([^\]]*)\]")


class GameBuilder(BaseVisitor):
    """Builds a `PdnGame`, playing the moves on the variant read from the tags.

    With `default_variant` DETECT, a record with no tag naming its game is
    held back until its first moves are read, to find its game from them
    (`pdn_detect.py`; `named`: the variant the caller names for such records,
    read as it unless they plainly belong to another board); then what was held is played."""

    def __init__(self, default_variant: str | None = DEFAULT_VARIANT, named: str | None = None) -> None:
        self.default_variant = default_variant
        self.named = named
        self.game = PdnGame()
        self._stopped = False  # a move could not be read: skip the rest
        self._tag_where: dict[str, str] = {}
        self._held: list[tuple[str, str, str]] | None = None  # (method, text, where) until the variant is known
        self._ambiguous: tuple[str, str, list[Move]] | None = None  # a move the next one must choose
        # The comments after the last move (before the first: the intro), joined once it is followed:
        # joined one by one, 500,000 comments of one move took 12 s.
        self._notes: list[str] = []

    def begin_game(self) -> None:
        self.game = PdnGame()
        self._stopped = False
        self._tag_where = {}
        self._held = None
        self._ambiguous = None
        self._notes = []

    def _settle_notes(self) -> None:
        """The comments gathered since the last move (or the start) written to it (or the intro)."""
        if self._notes:
            game = self.game
            if game.moves:
                game.comments[-1] = " ".join(filter(None, [game.comments[-1], *self._notes]))
            else:
                game.intro = " ".join(filter(None, [game.intro, *self._notes]))
            self._notes = []

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
        if len(self._held) >= HELD_PARTS or (self._ambiguous is None and method == "visit_move" and
                                             sum(1 for held in self._held if held[0] == "visit_move") >= PROBE_MOVES):
            self._release()  # (an ambiguous move waits for the end of the game, `end_game`, or HELD_PARTS)
        return True

    def _release(self) -> None:
        """Find the variant from the FEN and the moves held (or which move an ambiguous
        one was, from the next), then play what was held."""
        held, self._held = self._held or [], None
        moves = [text for method, text, _ in held if method == "visit_move"]
        if self._ambiguous is not None:
            self._choose(moves)
        else:
            fen = self.game.tags.get("FEN", "")
            self._start(detect_variant(fen, moves, lambda variant, position, text: variant.play(
                position, _read_move(variant, position, text)[0]), self.named))
        for method, text, where in held:
            getattr(self, method)(text, where)

    def _choose(self, following: list[str]) -> None:
        """Play the ambiguous move (`32x7` where two routes end on 7) as the one after which
        the game's `following` moves are legal (real files write the short form where only one
        route lets the game go on as written); an error if the moves after do not tell."""
        text, where, candidates = self._ambiguous or ("", "", [])
        self._ambiguous = None
        game = self.game
        position = game.positions[-1]
        variant = self._variant()
        reach = [_moves_read(variant, variant.play(position, move), following) for move in candidates]
        if reach and reach.count(max(reach)) == 1:
            move = candidates[reach.index(max(reach))]
            self.handle_warning(Reason("pdn.ambiguous_read", number=len(game.moves) + 1, text=text,
                                       count=len(candidates), route=format_route(variant, move)), where)
            self._play(move, variant.legal_moves(position))
            return
        routes = ", ".join(sorted(format_route(variant, move) for move in candidates))
        self.handle_error(Reason("pdn.ambiguous_left_out", number=len(game.moves) + 1, text=text,
                                 count=len(candidates), routes=routes), where)
        self._stopped = True

    def _start(self, default_variant: str | None) -> None:
        """Set the variant, the start position and the players out, from the tags."""
        game = self.game
        where = self._tag_where.get(VARIANT_TAG) or self._tag_where.get("GameType") or "1:1"
        try:
            game.variant = variant_from_tags(game.tags, default_variant,
                                             warn=lambda message: self.handle_warning(message, where))
        except (DamkaError, ValueError) as exc:
            self.handle_error(Reason("pdn.moves_not_read", why=reason_of(exc)), where)
            self._stopped = True
            return
        fen_where = self._tag_where.get("FEN", "1:1")
        try:
            fen = fen_side_fixed(game.variant, game.tags.get("FEN", "").strip(),
                                 lambda message: self.handle_warning(message, fen_where))
            game.start = game.variant.parse_position(fen) if fen else game.variant.start_position()
        except (DamkaError, ValueError) as exc:
            self.handle_error(Reason("pdn.fen_moves_not_read", why=reason_of(exc)), fen_where)
            self._stopped = True
            return
        game.positions = [game.start]
        try:
            game.drops = read_out_tag(game.tags.get(OUT_TAG, ""))
        except ValueError as exc:
            self.handle_error(Reason("pdn.moves_not_read", why=reason_of(exc)), self._tag_where.get(OUT_TAG, "1:1"))
            self._stopped = True
            return
        self._apply_drops()

    def _variant(self) -> Variant:
        """The game's variant: moves are read only once it is known (from the tags or detected)."""
        variant = self.game.variant
        assert variant is not None, "a move read before the game's variant is known"
        return variant

    def _apply_drops(self) -> None:
        """Take out the players who went out after the moves read so far."""
        game = self.game
        for ply, side in game.drops:
            if ply == len(game.moves):
                drop_side = getattr(game.variant, "drop_side", None)
                try:
                    if drop_side is None:
                        raise ValueError(Reason("pdn.no_players_out", variant=self._variant().name))
                    game.positions[-1] = drop_side(game.positions[-1], side)
                except (DamkaError, ValueError) as exc:
                    self.handle_error(Reason("pdn.out_side", tag=OUT_TAG, side=side + 1, ply=ply, why=reason_of(exc)),
                                      self._tag_where.get(OUT_TAG, "1:1"))
                    self._stopped = True

    def visit_move(self, text: str, where: str) -> None:
        game = self.game
        if self._hold("visit_move", text, where) or self._stopped:
            return
        position = game.positions[-1]
        variant = self._variant()
        try:
            move, legal = _read_move(variant, position, text)
        except AmbiguousMoveError:
            legal = variant.legal_moves(position)
            squares, kind = split_move_text(variant, text)
            self._ambiguous = (text, where, [m for m in legal if m.start == squares[0] and m.end == squares[-1]
                                             and bool(m.captures) == (kind == "x")])
            self._held = []  # what follows, until the next move says which it was
            return
        except MoveError as exc:
            if text == game.tags.get("Result", "").strip():
                self.visit_result(text, where)  # a result of a ResultFormat (`4-6`): it looks like a move
                return
            number = len(game.moves) + 1
            self.handle_error(Reason("pdn.move_left_out", number=number, text=text, why=reason_of(exc)), where)
            self._stopped = True
            return
        self._play(move, legal)

    def _play(self, move: Move, legal: list[Move]) -> None:
        """Add a move read (`legal`: its piece's legal moves, to write its text)."""
        game = self.game
        position = game.positions[-1]
        variant = self._variant()
        self._settle_notes()
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
        if game.moves and self._stopped:
            return  # it would follow a move that was left out
        self._notes.append(comment)
        if game.moves:
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
            self.handle_warning(Reason("pdn.result_differs", text=text, tag=tag), where)
        game.result = text

    def handle_error(self, message: str, where: str) -> None:
        game = self.game
        if len(game.errors) < KEPT_PROBLEMS:
            game.errors.append(Reason("pdn.at", where=where, message=message))
        else:
            game.errors_left_out += 1

    def handle_warning(self, message: str, where: str) -> None:
        game = self.game
        if len(game.warnings) < KEPT_PROBLEMS:
            game.warnings.append(Reason("pdn.at", where=where, message=message))
        else:
            game.warnings_left_out += 1

    def end_game(self) -> PdnGame:
        if self._held is not None:
            self._release()
        self._settle_notes()
        return self.game


def _moves_read(variant: Variant, position: Position, texts: Sequence[str]) -> int:
    """How many of `texts` read as legal moves one after another from `position` (a later
    ambiguous move ends the count there: all of them, as far as this can tell)."""
    for count, text in enumerate(texts):
        try:
            move = _read_move(variant, position, text)[0]
        except AmbiguousMoveError:
            return len(texts)
        except MoveError:
            return count
        position = variant.play(position, move)
    return len(texts)


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
