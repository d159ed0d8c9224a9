"""Resuming a DXP game: which positions of a GAMEREQ continue this game.

DXP has no resume message. A game goes on over a new connection the only
way the protocol allows: the initiator sends a GAMEREQ with setup `B`, the
position and the side to move, and the follower accepts it (GAMEACC 0) when
it continues the game it has. Either side may be one move ahead of the
other when the connection dropped (a move sent and lost, or made on the
board while the link was down), so the board accepts three positions:

- `SAME`: exactly its own;
- `RESEND`: the position before its own last move (the peer never got it):
  accepted, and the move is sent again;
- `DELIVER`: its position after one legal move of the peer (the peer's move
  never arrived): accepted, and the move is lit for the person as if it had.

Anything else is another game: refused with GAMEACC 1.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from damka.dxp import protocol as dxp
from damka.controller.clock.view import SideView
from damka.engine.game import Game
from damka.engine.move import Move
from damka.engine.variant import Position, Variant


class Fit(enum.Enum):
    SAME = "same"
    RESEND = "resend"
    DELIVER = "deliver"


@dataclass(frozen=True)
class Resume:
    fit: Fit
    move: Move | None = None   # RESEND: the board's move to send again; DELIVER: the peer's move


def position_letters(variant: Variant, position: Position) -> tuple[str, str]:
    """The side to move (W/Z) and the 50 board letters of `position` (e w z W Z, as GAMEREQ writes them)."""
    letters = []
    for number in range(1, variant.geometry.playable.bit_count() + 1):
        bit = 1 << variant.geometry.from_number(number)
        letter = "w" if position.white & bit else "z" if position.black & bit else "e"
        letters.append(letter.upper() if position.kings & bit and letter != "e" else letter)
    return dxp.COLOURS[position.turn], "".join(letters)


def resume_fit(variant: Variant, game: Game, peer_side: int, shown: tuple[str, str]) -> Resume | None:
    """How the position `shown` (side to move, 50 letters) continues `game`; None: it does not."""
    if position_letters(variant, game.position) == shown:
        return Resume(Fit.SAME)
    if game.ply and game.positions[-2].turn != peer_side and position_letters(variant, game.positions[-2]) == shown:
        return Resume(Fit.RESEND, game.moves[-1])
    if not game.is_over and game.turn == peer_side:
        for move in variant.legal_moves(game.position):
            if position_letters(variant, variant.play(game.position, move)) == shown:
                return Resume(Fit.DELIVER, move)
    return None


def time_left(side: SideView) -> tuple[int, int]:
    """GAMEREQ's (minutes, moves) for a side's time left: the protocol has whole
    minutes only, so the time is rounded *down* (the peer never plans with
    time the board's clock does not give it), but never to 0, which means
    "no clock": under a minute left is sent as 1 (at most 999, the field's
    width). `moves`: the turns left to the time control (0: the time is for
    the rest of the game)."""
    if side.untimed:
        return 0, 0
    minutes = min(999, max(1, side.remaining_ms // 60_000))
    return minutes, side.turns_to_control or 0


def time_of(time_control: str) -> tuple[int, int]:
    """GAMEREQ's (minutes, moves) from the board's time control text (`50/90`, `90+0`; (0, 0): none)."""
    text = time_control.strip()
    try:
        if "/" in text:
            moves, minutes = text.split("/", 1)
            return int(float(minutes.split("+")[0])), int(moves)
        if text:
            return int(float(text.split("+")[0])), 0
    except ValueError:
        pass
    return 0, 0
