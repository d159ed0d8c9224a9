"""Builds the screen's views (`controller/app/views.py`) from the game as it stands.

Pure functions of the session, the clock and the names: the board's screen,
the simulator and (later) the web page show the same words.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from damka.controller.words import wording
from damka.controller.words import say, translate
from damka.controller.clock.clock import Clock
from damka.controller.clock.records import State
from damka.controller.app.match import Match
from damka.controller.session import CommittedMove, Phase, Session
from damka.controller.session.types import CarryingOut, seat_away, seat_label
from damka.controller.app.views import Colour, GameView, MenuView, ResultView, SideLine, View, side_colour
from damka.engine.variant import Result
from damka.hardware.interfaces import Role

ALERT_ROLES = {Role.FLAG, Role.PUT_HERE, Role.TAKE_AWAY}


def active_sides(session: Session) -> set[int]:
    """The sides still in play (all of them outside 3-4 player multiwarcaby)."""
    active = getattr(session.game.position, "active", None)
    if active is None:
        return set(range(len(session.variant.sides)))
    return {side for side, playing in enumerate(active) if playing}


def last_turn(committed: Sequence[CommittedMove]) -> str:
    if not committed:
        return ""
    last = committed[-1]
    return " ".join(c.text for c in committed if c.turn == last.turn)


def player_colours(session: Session | None, players: Sequence[str]) -> dict[str, Colour]:
    sides = session.variant.sides if session is not None else ()
    return {name: side_colour(sides[i] if i < len(sides) else "", i) for i, name in enumerate(players)}


def carrying_out(session: Session) -> bool:
    """Whether people are carrying out an outside program's lit move on nobody's
    time (the clock stopped for it: `ClockBinding.pause_for_carrying_out`; the
    config may give that time to a side instead: `CarryingOut`)."""
    opponent = session.opponent
    return (session.settings.carrying_out is CarryingOut.NOBODY and bool(session.planned)
            and opponent is not None and opponent.keeps_own_clock_for(session.game.turn))


def game_view(session: Session, clock: Clock | None, players: Sequence[str], title: str, now: int) -> GameView:
    variant = session.variant
    game = session.game
    playing = session.phase is Phase.PLAYING and not game.is_over
    multi = variant.shows_scores
    scores = game.scores
    active = active_sides(session)
    words = [wording.engine_side_name(variant, i) for i in range(len(variant.sides))]
    sides = [
        SideLine(players[i] if i < len(players) else words[i], side_colour(side, i), scores[i] if multi else None,
                 to_move=playing and game.turn == i, out=i not in active,
                 side=words[i] if i < len(players) and not players[i].startswith(words[i]) else "")
        for i, side in enumerate(variant.sides)
    ]
    status = _status(session, sides, multi)
    if clock is not None and clock.state is State.PAUSED:
        status += say("status.carrying_out" if carrying_out(session) else "status.clock_paused")
    alert = bool(set(session.frame.values()) & ALERT_ROLES) or session.warning is not None
    message = session.message
    messages = [message] if message and message.lower() != status.lower() else []
    return GameView(
        title=title, sides=sides, clock=clock.view(now) if clock is not None else None, status=status,
        last_move=last_turn(session.committed),
        move_number=(game.ply // max(1, variant.moves_per_turn)) // max(1, len(variant.sides)) + 1,
        messages=messages, alert=alert, hints_left=session.hints_left if session.coach is not None else None,
        thinking=session.thinking,
    )


def with_notice(view: GameView, notice: str, *, alert: bool) -> GameView:
    """The game view with a line about saving the game (the store failing, or working again)."""
    if not notice:
        return view
    return replace(view, messages=[*view.messages, notice], alert=view.alert or alert)


def with_warning(view: View, line: str) -> View:
    """Any view with a warning line on top of what it shows (the board unplugged):
    a game's message box, a menu's or a result's warning box."""
    if not line:
        return view
    if isinstance(view, GameView):
        return replace(view, messages=[line, *view.messages], alert=True)
    if isinstance(view, MenuView):
        return replace(view, warning="  ".join(part for part in (line, view.warning) if part))
    return replace(view, warning="  ".join(part for part in (line, view.warning) if part))


def _status(session: Session, sides: list[SideLine], multi: bool) -> str:
    game = session.game
    if session.phase is Phase.SETUP:
        return say("status.setup")
    guide = session.takeback_guide
    if guide is not None:
        return say("status.taking_back", turns=wording.takeback_turns(session.variant, guide))
    if game.is_over:
        return say("status.over")
    if session.thinking:
        label = seat_label(session.opponent, game.turn)
        if seat_away(session.opponent, game.turn):
            return say("status.away", label=translate(label))
        if label == "computer":
            return say("status.computer_thinking")
        return say("status.waiting", label=translate(label))
    mover = sides[game.turn].name
    return say("status.second_move", side=mover) if multi and game.move_in_turn else say("status.to_move", side=mover)


def result_view(session: Session, result: Result | None, players: Sequence[str], match: Match) -> ResultView:
    names = players
    if result is None:
        title = say("result.abandoned")
    elif result.winner is not None:
        title = say("result.title_wins", side=names[result.winner])
    elif result.is_draw:
        title = say("result.title_draw")
    else:
        firsts = [names[i] for i, place in enumerate(result.places) if place == 1]
        title = say("result.first", names=", ".join(firsts))
    reason = wording.reason_text(result.reason) if result is not None else ""
    if session.variant.shows_scores:
        reason += say("result.small_points", scores=" ".join(str(s) for s in session.scores))
    upcoming = match.order()
    return ResultView(title, reason.strip(), match.standings(player_colours(session, players)),
                      by_small_points=len(match.players) > 2,
                      next_first=say("result.next_first", side=upcoming[0]) if upcoming else "",
                      footer=say("result.footer"))
