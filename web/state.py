"""What the page shows, as plain JSON-able data, read from the App's read model on the board's thread.

One `snapshot(app.read_model())` gives the whole picture: the app's state, the game
(variant, squares, pieces, the LED roles of the moment, the move list in PDN
notation, sides with scores, clocks, result), when a seat is played from
the page, the moves it may make, and the lesson or puzzle on the board with
the child's tries. The page draws only this; it never reasons
about the rules itself.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from damka.controller.app.board_settings import setting_rows
from damka.controller.clock.records import State
from damka.controller.app.views import GameView, MenuView, ResultView
from damka.controller.words.wording import reason_text
from damka.controller.words import say
from damka.engine.variant import Result
from damka.engine.variants import default_variant
from damka.hardware.interfaces import Role
from damka.hardware.palette import role_colour

if TYPE_CHECKING:
    from damka.controller.app import AppReadModel, GameFacts
    from damka.controller.app.teaching_facts import TeachingFacts
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


def clock_data(game: GameFacts) -> dict[str, Any] | None:
    view = game.clock
    if view is None or game.clock_state is None:
        return None
    return {"state": str(game.clock_state), "running": game.clock_state is State.RUNNING,
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


def board_data(model: AppReadModel) -> dict[str, Any]:
    """Squares (playable ones with file/rank), pieces and LED roles of the game on the board."""
    if model.board is None:
        return {"files": 0, "ranks": 0, "squares": [], "pieces": {}, "frame": {}}
    variant, position = model.board
    return picture(variant, position, {square: role.value for square, role in model.frame})


def game_data(model: AppReadModel) -> dict[str, Any] | None:
    game = model.game
    if game is None:
        return None
    variant = game.variant
    names = list(game.names)
    view = game.screen
    return {
        "id": game.id, "variant": variant.name, "title": variant.title, "mode": game.mode,
        "time_control": game.time_control, "phase": game.phase.value, "turn": game.turn,
        "ply": game.ply, "shows_scores": bool(variant.shows_scores), "status": view.status,
        "message": game.message, "thinking": game.thinking,
        "sides": [{"name": names[i] if i < len(names) else side, "side": side, "label": game.labels[i],
                   "score": game.scores[i],
                   "colour": hex_colour(line.colour), "out": i not in game.active, "to_move": line.to_move}
                  for i, (side, line) in enumerate(zip(variant.sides, view.sides))],
        "moves": [{"ply": m.ply, "turn": m.turn, "side": m.side, "text": m.text} for m in game.moves],
        "result": result_data(game.result, names),
        "clock": clock_data(game), "hints_left": game.hints_left,
        "computer": sorted(game.computer_sides),
    }


def offer_data(model: AppReadModel) -> dict[str, Any] | None:
    """The pending offer (a draw, a take-back) and how the last one ended; None without a game."""
    offers = model.offers
    if offers is None:
        return None
    pending = offers.pending
    last = offers.last
    return {"pending": None if pending is None else {"kind": pending.kind, "side": pending.side,
                                                      "where": pending.where, "moves": pending.moves,
                                                      "ply": pending.ply, "text": offers.line},
            "last": None if last is None else {"kind": last[0].kind, "answer": last[1], "where": last[2],
                                               "offered_from": last[0].where}}


def teaching_data(teaching: TeachingFacts | None) -> dict[str, Any] | None:
    """The lesson or puzzle on the board (None: neither): its position and lights as board.js draws
    them, the words the board shows (already in its language), the tries so far, stars and hints."""
    if teaching is None:
        return None
    variant = default_variant(teaching.variant)
    board = picture(variant, variant.parse_position(teaching.fen), dict(teaching.lights))
    return {"kind": teaching.kind, "name": teaching.name, "title": teaching.title, "variant": teaching.variant,
            "step": teaching.step, "steps": teaching.steps, "phase": teaching.phase,
            "instruction": teaching.instruction, "message": teaching.message,
            "tries": [{"move": one.move, "right": one.right, "why": one.why} for one in teaching.tries],
            "stars": teaching.stars, "hints": teaching.hints, "learner": teaching.learner, "board": board}


def view_data(model: AppReadModel) -> dict[str, Any]:
    """What the board's own screen shows, in words (the menu's rows, the result)."""
    view = model.view
    if isinstance(view, MenuView):
        return {"kind": "menu", "title": view.menu.title, "subtitle": view.subtitle,
                "rows": [row.label for row in view.menu.visible_rows()]}
    if isinstance(view, ResultView):
        return {"kind": "result", "title": view.title, "reason": view.reason,
                "standings": [{"name": s.name, "points": s.points, "small": s.small_points, "games": s.games}
                              for s in view.standings], "next": view.next_first}
    assert isinstance(view, GameView)
    return {"kind": "game", "title": view.title, "status": view.status, "messages": list(view.messages)}


def snapshot(model: AppReadModel, remote: RemoteOpponent | None = None,
             arbiter_log: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:
    """The whole picture, from the App's read model; `remote`: the page's
    `RemoteOpponent` of the game (or None); `arbiter_log`: the console's list, newest last."""
    data = {"app": model.state.value, "now": model.now, "board": board_data(model), "game": game_data(model),
            "view": view_data(model), "remote": None, "offer": offer_data(model),
            "teaching": teaching_data(model.teaching),
            "arbiter_log": list(arbiter_log[-50:]), "settings": setting_rows(model.settings)}
    game = model.game
    if remote is not None and game is not None:
        data["remote"] = {"seats": sorted(remote.seats or game.computer_sides), "waiting": remote.waiting,
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
