"""Hands for the Learn tab's tests: a child at the virtual board (tests/web_rig.py) doing a puzzle
the page started, as the lights ask: set the pieces up, try a move, put them back, make the lit reply."""

from __future__ import annotations

from damka.engine.notation import format_move
from damka.engine.variants import default_variant
from damka.hardware.interfaces import Role
from damka.sim.virtual_board import carry_out
from waiting import wait_until
from web_rig import BoardRig

STILL_MS = 2000   # longer than any settle time: the board is judged


def teaching(rig: BoardRig):  # type: ignore[no-untyped-def]
    """The lesson or puzzle on the board, as the App's read model gives it (None: neither)."""
    return rig.do(lambda: rig.app.read_model().teaching)


def follow_lights(rig: BoardRig) -> None:
    """Take away what the lights say, put pieces where they say; wait until the board has them all."""
    def run() -> None:
        board = rig.board
        for square in sorted(board.lit(Role.TAKE_AWAY)):
            board.remove(square)
        for square in sorted(board.lit(Role.PUT_HERE)):
            board.put(square)
        board.advance(100)
    rig.do(run)
    wait_until(lambda: teaching(rig).phase not in ("setup", "put_back"), "the pieces to be set up")


def moves_now(rig: BoardRig) -> list[tuple[str, object]]:
    """(text, move) of every legal move in the position the board shows now."""
    facts = teaching(rig)
    variant = default_variant(facts.variant)
    position = variant.parse_position(facts.fen)
    legal = variant.legal_moves(position)
    return [(format_move(variant, position, move, legal), move) for move in legal]


def make(rig: BoardRig, text: str) -> None:
    """The child makes the move written `text` (as the puzzle writes it) and keeps still."""
    facts = teaching(rig)
    variant = default_variant(facts.variant)
    move = dict(moves_now(rig))[text]
    name = variant.geometry.name

    def run() -> None:
        carry_out(rig.board, name(move.start), [name(s) for s in move.path], [name(s) for s in move.captures],
                  step_ms=100)
        rig.board.advance(STILL_MS)
    rig.do(run)


def play_line(rig: BoardRig, line: tuple[str, ...]) -> None:
    """The puzzle's line from its first move: the child's moves, and between them the other side's
    replies as the lights show them; each made once the board asks for it. Waits for the end."""
    for number, text in enumerate(line, 1):
        wanted = "reply" if number % 2 == 0 else "play"
        wait_until(lambda: (facts := teaching(rig)).step == number and facts.phase == wanted,
                   f"the board to ask for move {number} of the line ({text})")
        make(rig, text)
    wait_until(lambda: teaching(rig).phase == "done", "the puzzle to be over")
