"""The session's game as PDN, with the clock in it (`damka replay --pdn`).

    text = game_pdn(session, controls, {"Event": "Club night"})

The clock's part of the record (the `[%clock ...]` values and the
TimeControl tags) is `clock/pdn.py`; here the session's moves and the
game's events (a flag, a player out) become comments.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping, Sequence

from damka.controller.clock.pdn import format_clock, time_control_tags
from damka.controller.clock.timecontrol import TimeControl
from damka.controller.events import FlagFell, GameEvent, SideOut
from damka.engine import pdn
from damka.engine.variant import Variant

if TYPE_CHECKING:
    from damka.controller.session import Session


def game_pdn(session: Session, controls: Sequence[TimeControl] | None = None,
             tags: Mapping[str, str] | None = None, events: Sequence[GameEvent] = ()) -> str:
    """The session's game as PDN: `[%clock ...]` after the last move of every
    turn, the TimeControl tags, a comment where a flag fell or a player went
    out (from `events`, the game's events as a listener kept them), and the
    result (`*` while the game goes on).

    A multiwarcaby player going out is in the comments only: PDN cannot say
    it, so a reader gives the later turns to the sides in the old order."""
    variant = session.variant
    game = session.game
    all_tags = dict(tags or {})
    if controls:
        all_tags.update(time_control_tags(controls))
    moves = list(game.moves)
    committed = session.committed[-len(moves):] if moves else []
    clocks = [format_clock(variant, c.clock_ms) if c.clock_ms else None for c in committed]
    comments: list[str] = [""] * len(moves)
    intro: list[str] = []
    for event in events:
        text = _event_comment(variant, event)
        if text is None:
            continue
        ply = min(event.ply, len(moves))
        if ply == 0:
            intro.append(text)
        else:
            comments[ply - 1] = f"{comments[ply - 1]}; {text}" if comments[ply - 1] else text
    return pdn.write_game(variant, game.start, moves, all_tags, clocks=clocks, comments=comments,
                          intro="; ".join(intro), result=game.result)


def _event_comment(variant: Variant, event: GameEvent) -> str | None:
    if isinstance(event, FlagFell):
        return f"{_name(variant, event.side)}'s flag fell at {event.time_ms} ms (stage {event.stage})"
    if isinstance(event, SideOut):
        return f"{_name(variant, event.side)} out ({event.reason})"
    return None


def _name(variant: Variant, side: int) -> str:
    name = variant.sides[side]
    return f"player {name}" if name.isdigit() else name
