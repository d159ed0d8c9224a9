"""What each piece on the simulator's virtual board is: reed switches cannot
see colours, so the window keeps its own note (`Pieces`), corrected from the
engine's position whenever the board matches it. Also the board's size for a
game and the squares of its start."""

from __future__ import annotations

from dataclasses import dataclass, field

from damka.controller.app import App
from damka.controller.board.board_map import BoardMap
from damka.sim.virtual_board import FILE_LETTERS


@dataclass
class Pieces:
    """What each piece on the virtual board is (a reed switch cannot tell)."""

    codes: dict[str, str] = field(default_factory=dict)
    in_hand: list[str] = field(default_factory=list)

    def lift(self, square: str) -> None:
        self.in_hand.append(self.codes.pop(square, "?"))

    def drop(self, square: str, fallback: str = "?") -> None:
        self.codes[square] = self.in_hand.pop() if self.in_hand else fallback

    def remove(self, square: str) -> None:
        self.codes.pop(square, None)

    def sync(self, app: App, occupied: frozenset[str]) -> None:
        """Take the engine's word whenever the board shows the game's position."""
        game = app.board_game
        if game is None:
            return
        variant = game.variant
        board = BoardMap(variant)
        position = game.position
        if frozenset(board.names(variant.occupancy(position))) != occupied:
            return
        self.codes = {}
        for square in occupied:
            index = variant.geometry.index(FILE_LETTERS.index(square[0]), int(square[1:]) - 1)
            self.codes[square] = variant.piece_at(position, index) or "?"
        self.in_hand.clear()


def fallback_code(app: App, square: str | None = None) -> str:
    """The best guess for a piece the window's hands did not carry: the
    variant's only piece, else what last stood on `square` in the game."""
    game = app.board_game
    if game is None:
        return "?"
    variant = game.variant
    if variant.uniform_piece is not None:
        return variant.uniform_piece
    if square is not None:
        try:
            index = variant.geometry.parse(square)
        except ValueError:
            return "?"
        for position in reversed(game.positions):
            code = variant.piece_at(position, index)
            if code:
                return code
    return "?"


def board_size(app: App) -> tuple[int, int]:
    """Files and ranks of the physical board: 9x9, larger for 10x10 and 12x12 games."""
    game = app.board_game
    if game is None:
        return 9, 9
    geometry = game.variant.geometry
    return max(9, geometry.width), max(9, geometry.height)


def start_squares(app: App) -> list[str]:
    """The squares the game's position occupies (where a helping hand sets the pieces)."""
    game = app.board_game
    if game is None:
        return []
    return BoardMap(game.variant).names(game.variant.occupancy(game.position))
