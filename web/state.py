"""What the page shows, as plain JSON-able data, read from the App on the board's thread.

One `snapshot(app)` gives the whole picture: the app's state, the game
(variant, squares, pieces, the LED roles of the moment, the move list in PDN
notation, sides with scores, clocks, result) and, when a seat is played from
the page, the moves it may make. The page draws only this; it never reasons
about the rules itself.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from damka.controller.app.board_settings import setting_rows
from damka.controller.clock.records import State
from damka.controller.app.view_builder import active_sides, game_view
from damka.controller.app.views import GameView, MenuView, ResultView
from damka.controller.words.wording import reason_text
from damka.controller.words import say
from damka.engine.variant import Result
from damka.hardware.interfaces import Role
from damka.hardware.palette import role_colour

if TYPE_CHECKING:
    from damka.controller.app import App
    from damka.web.remote import RemoteOpponent

FEATURES = ("app", "game", "view")


def hex_colour(rgb: tuple[int, int, int]) -> str:
    return "#%02x%02x%02x" % tuple(rgb)


def role_colours(palette: str = "standard") -> dict[str, str]:
    """Each LED role's colour in `palette`, as board.js draws its ring."""
    return {role.value: hex_colour(role_colour(role, palette)) for role in Role}


def result_data(result: Result | None, names: list[str]) -> dict[str, Any] | None:
    if result is None:
        return None
    if result.winner is not None:
        title = say("result.title_wins", side=names[result.winner])
    elif result.is_draw:
        title = say("result.title_draw")
    else:
        title = say("result.first", names=", ".join(names[i] for i, place in enumerate(result.places) if place == 1))
    return {"title": title, "reason": reason_text(result.reason), "points": list(result.points), "places": list(result.places)}


def clock_data(app: App) -> dict[str, Any] | None:
    clock = app.clock
    if clock is None:
        return None
    view = clock.view(app.now)
    return {"state": str(clock.state), "running": clock.state is State.RUNNING,
            "sides": [{"ms": side.remaining_ms, "active": side.active, "flagged": side.flagged, "out": side.out,
                       "untimed": side.untimed, "elapsed": side.elapsed_ms} for side in view.sides]}


def picture(variant: Any, position: Any, frame: dict[str, str]) -> dict[str, Any]:
    """What board.js draws: the variant's squares (name, file, rank), the pieces on them and
    `frame` (square -> LED role); the geometry is the engine's, never the page's."""
    geometry = variant.geometry
    squares, pieces = [], {}
    for index in geometry.squares:
        file, rank = geometry.file_rank(index)
        name = geometry.name(index)
        squares.append([name, file, rank])
        code = variant.piece_at(position, index)
        if code:
            pieces[name] = code
    files = [s[1] for s in squares]
    ranks = [s[2] for s in squares]
    return {"files": [min(files), max(files)], "ranks": [min(ranks), max(ranks)], "squares": squares,
            "pieces": pieces, "frame": dict(frame)}


def board_data(app: App) -> dict[str, Any]:
    """Squares (playable ones with file/rank), pieces and LED roles of the game on the board."""
    game = app.board_game
    if game is None:
        return {"files": 0, "ranks": 0, "squares": [], "pieces": {}, "frame": {}}
    return picture(game.variant, game.position, {square: role.value for square, role in app.frame.items()})


def game_data(app: App) -> dict[str, Any] | None:
    session = app.session
    if session is None:
        return None
    variant = session.variant
    game = session.game
    names = list(app.game_players) or list(variant.sides)
    active = active_sides(session)
    view = game_view(session, app.clock, names, "", app.now)
    return {
        "id": app.game_id, "variant": variant.name, "title": variant.title, "mode": app.setup.mode,
        "time_control": app.setup.time_control, "phase": session.phase.value, "turn": game.turn,
        "ply": game.ply, "shows_scores": bool(variant.shows_scores), "status": view.status,
        "message": session.message, "thinking": session.thinking,
        "sides": [{"name": names[i] if i < len(names) else side, "side": side, "label": app.side_label(i),
                   "score": game.scores[i],
                   "colour": hex_colour(line.colour), "out": i not in active, "to_move": line.to_move}
                  for i, (side, line) in enumerate(zip(variant.sides, view.sides))],
        "moves": [{"ply": m.ply, "turn": m.turn, "side": m.side, "text": m.text} for m in session.committed],
        "result": result_data(session.result, names),
        "clock": clock_data(app), "hints_left": session.hints_left,
        "computer": sorted(app.built.computer_sides) if app.built is not None else [],
    }


def offer_data(app: App) -> dict[str, Any] | None:
    """The pending offer (a draw, a take-back) and how the last one ended; None without a game."""
    if app.built is None:
        return None
    offers = app.offers
    pending = offers.pending
    last = offers.last
    return {"pending": None if pending is None else {"kind": pending.kind, "side": pending.side,
                                                      "where": pending.where, "moves": pending.moves,
                                                      "ply": pending.ply, "text": app.offer_line()},
            "last": None if last is None else {"kind": last[0].kind, "answer": last[1], "where": last[2],
                                               "offered_from": last[0].where}}


def view_data(app: App) -> dict[str, Any]:
    """What the board's own screen shows, in words (the menu's rows, the result)."""
    view = app.view()
    if isinstance(view, MenuView):
        return {"kind": "menu", "title": view.menu.title, "subtitle": view.subtitle,
                "rows": [row.label for row in view.menu.visible_rows()]}
    if isinstance(view, ResultView):
        return {"kind": "result", "title": view.title, "reason": view.reason,
                "standings": [{"name": s.name, "points": s.points, "small": s.small_points, "games": s.games}
                              for s in view.standings], "next": view.next_first}
    assert isinstance(view, GameView)
    return {"kind": "game", "title": view.title, "status": view.status, "messages": list(view.messages)}


def snapshot(app: App, remote: RemoteOpponent | None = None, arbiter_log: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:
    """The whole picture; `remote`: the page's `RemoteOpponent` of the game (or None);
    `arbiter_log`: the console's list, newest last."""
    data = {"app": app.state.value, "now": app.now, "board": board_data(app), "game": game_data(app),
            "view": view_data(app), "remote": None, "offer": offer_data(app),
            "arbiter_log": list(arbiter_log[-50:]), "settings": setting_rows(app.board_settings)}
    if remote is not None and app.session is not None and app.built is not None:
        data["remote"] = {"seats": sorted(remote.seats or app.built.computer_sides), "waiting": remote.waiting,
                          "legal": remote.legal(), "seat_id": remote.key.public,
                          "claimed": remote.claimed}
    return data


def event_data(event: Any) -> dict[str, Any]:
    """A bus event as JSON: its type and fields (moves as their text)."""
    out: dict[str, Any] = {"type": type(event).__name__}
    for field in dataclasses.fields(event):
        value = getattr(event, field.name)
        if field.name == "move":
            continue  # its PDN text is in `text`
        if isinstance(value, Result):
            value = {"points": list(value.points), "places": list(value.places), "reason": value.reason,
                     "winner": value.winner}
        elif isinstance(value, tuple):
            value = list(value)
        out[field.name] = value
    return out
