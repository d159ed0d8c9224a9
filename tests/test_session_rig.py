"""A test rig: a variant, a session and a virtual board wired together.

Moves are given in PDN text (`c3-d4`, `c3xe5xg7`) or as engine moves and
carried out by a virtual hand (`carry_out`). Used by the tracker, session,
hints and fuzz tests; it holds no tests itself.
"""

from __future__ import annotations

from typing import Any

from damka.controller import events as ev
from damka.controller.players.chooser import GreedyChooser
from damka.controller.session import Mode, Session, SessionSettings
from damka.engine import find_variant
from damka.engine.move import Move
from damka.engine.notation import parse_move
from damka.hardware.interfaces import Role
from damka.sim.virtual_board import VirtualBoard, carry_out


# The short names the tests use for the event types.
EVENT_NAMES: dict[str, type] = {
    "start": ev.GameStarted, "new_game": ev.NewGame, "move": ev.MoveCommitted, "refused": ev.MoveRefused,
    "takeback": ev.TakenBack, "redo": ev.Redone, "flag": ev.FlagFell, "side_out": ev.SideOut,
    "result": ev.GameOver, "computer": ev.ComputerPlanned, "hint": ev.HintShown, "warning": ev.BlunderWarned,
}


def event_dict(event: ev.GameEvent) -> dict[str, Any]:
    """An event as a plain dict with its short name under "type" (tuples as lists), for comparisons."""
    name = next(key for key, kind in EVENT_NAMES.items() if type(event) is kind)
    fields = {key: list(value) if isinstance(value, tuple) else value for key, value in vars(event).items()}
    return {"type": name, **fields}


def events_of(history: ev.EventHistory, kind: str) -> list[dict[str, Any]]:
    """The events of one short name, as dicts."""
    return [event_dict(event) for event in history.of(EVENT_NAMES[kind]) if type(event) is EVENT_NAMES[kind]]


def kinds(history: ev.EventHistory) -> list[str]:
    """The short names of the game events seen, in order (sensor lines and messages left out)."""
    names = {kind: name for name, kind in EVENT_NAMES.items()}
    return [names[type(event)] for event in history.events if type(event) in names]


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
        self.history = ev.EventHistory()
        self.session.bus.subscribe(self.history)
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


def two_move_turn(session: Session, rng: Any) -> tuple[Move, Move]:
    """A legal multiwarcaby turn whose board is not also one single move (that
    would read as half a turn), drawn with `rng`."""
    variant, game = session.variant, session.game
    start = game.position
    for _ in range(50):
        first = rng.choice(variant.legal_moves(start))
        middle = variant.play(start, first)
        seconds = variant.legal_moves(middle)
        if not seconds:
            continue
        second = rng.choice(seconds)
        after = variant.occupancy(variant.play(middle, second))
        if session.tracker.read(game, after).kind.value != "half_turn" and after != variant.occupancy(start):
            return first, second
    raise AssertionError("no two-move turn found")
