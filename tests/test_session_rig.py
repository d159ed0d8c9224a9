"""A test rig: a variant, a session and a virtual board wired together.

Moves are given in PDN text (`c3-d4`, `c3xe5xg7`) or as engine moves and
carried out by a virtual hand (`carry_out`). Used by the tracker, session,
hints and fuzz tests; it holds no tests itself.
"""

from __future__ import annotations

from typing import Any

from damka.controller.chooser import GreedyChooser
from damka.controller.session import Mode, Session, SessionSettings
from damka.engine import find_variant
from damka.engine.move import Move
from damka.engine.notation import parse_move
from damka.hardware.interfaces import Role
from damka.sim.virtual_board import VirtualBoard, carry_out


class Rig:
    def __init__(self, variant: Any = "classic", mode: str = "casual", fen: str | None = None,
                 options: dict | None = None, seed: int = 0, setup: bool = True, **settings: Any) -> None:
        self.variant = find_variant(variant, **(options or {})) if isinstance(variant, str) else variant
        position = self.variant.parse_position(fen) if fen else None
        self.session = Session(self.variant, SessionSettings(mode=Mode(mode), **settings), position=position,
                               chooser=GreedyChooser(seed))
        geometry = self.variant.geometry
        start = position if position is not None else self.variant.start_position()
        occupied = geometry.names_of(self.variant.occupancy(start)) if setup else []
        self.board = VirtualBoard(occupied, files=max(9, geometry.width), ranks=max(9, geometry.height))
        self.board.connect(self.session)
        self.turn_position = self.session.game.position
        self._turn_ply = self.session.game.ply

    # -- names ------------------------------------------------------------------

    def name(self, square: int) -> str:
        return self.variant.geometry.name(square)

    def names(self, squares) -> list[str]:
        return [self.name(square) for square in squares]

    # -- hands --------------------------------------------------------------------

    def _sync(self) -> None:
        game = self.session.game
        if game.ply != self._turn_ply or self.session.reading.kind.value == "unchanged":
            self.turn_position = game.position
            self._turn_ply = game.ply

    def parse(self, text: str) -> Move:
        self._sync()
        return parse_move(self.variant, self.turn_position, text)

    def move(self, text: str, **how: Any) -> Move:
        move = self.parse(text)
        self.play(move, **how)
        return move

    def play(self, move: Move, remove: str = "after", touch_down: bool = True, step_ms: int = 150) -> None:
        self._sync()
        carry_out(self.board, self.name(move.start), self.names(move.path), self.names(sorted(move.captures)),
                  remove=remove, step_ms=step_ms, touch_down=touch_down)
        self.turn_position = self.variant.play(self.turn_position, move)

    def wait(self, ms: int = 2000) -> None:
        self.board.advance(ms)

    def press(self, side: int | None = None) -> None:
        self.board.press(self.session.game.turn if side is None else side)
        self.board.advance(10)

    # -- what it shows --------------------------------------------------------------

    @property
    def texts(self) -> list[str]:
        return [c.text for c in self.session.committed]

    @property
    def kind(self) -> str:
        return self.session.reading.kind.value

    def lit(self, role: Role) -> set[str]:
        return {square for square, shown in self.session.frame.items() if shown is role}
