"""A model of what people and programs do at the board, for the model-based
test of the turn machine (`test_turn_model.py`). It holds no tests itself.

A sequence is a `Config` (variant, sides or teams, mode, clock, a remote
seat) and a list of actions, plain tuples drawn from a seed. The actions are
choices, not recordings: ("move", 17) makes the 17th legal turn (modulo how
many there are) of whatever position the game is in when it comes, so any
sub-list of a sequence is a sequence too and a failing one can be shrunk by
deleting actions (`shrink`).

The `World` drives the real App on a VirtualBoard in virtual time, with a
real SQLite store; a power cut drops the App unclosed and builds a new one
on a fresh connection to the same file, which offers the game back. The
computer is the real search at its fastest level, waited for (never slept
for: the board's virtual time stands still while it thinks); the remote seat
plays through `RemoteOpponent`, as the web page does. After every action
`turn_model_checks.Checker` looks at the read model for broken invariants.
"""

from __future__ import annotations

import random
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from damka.controller import events as ev
from damka.controller.app import App, AppState
from damka.controller.app import CommandRefused
from damka.controller.game import factory
from damka.controller.game.factory import build_variant
from damka.controller.players.computer import ComputerOpponent
from damka.controller.players.hub_opponent import hub_variant
from damka.controller.session.types import CarryingOut
from damka.controller.session import Phase
from damka.controller.game.setup import GameSetup
from damka.controller.store.store import Store
from damka.controller.board.board_map import BoardMap
from damka.engine.game import Game
from damka.engine.variants import default_variant
from damka.engine.move import Move
from damka.hardware.interfaces import Button, Role
from damka.sim.virtual_board import VirtualBoard
from damka.web.remote import RemoteMoveError, RemoteOpponent
from app_listeners import FarSeats

ENGINE_WAIT_S = 60.0   # the computer's search, waited for in real time (a loaded machine is slow)


# Defects the model found that are being fixed on other branches, or that
# are not this branch's to fix (see test_turn_model.py, one named test each).
# While one is listed here the actions that run into it are left out, so the
# random profiles stay green; take it out once its fix is merged.
AVOID: frozenset[str] = frozenset()   # defects the random runs still step around: none


@dataclass(frozen=True)
class Config:
    """One game set up at the board (the part of a sequence that is not actions)."""

    variant: str = "classic"
    sides: int = 2
    teams: bool = False
    mode: str = "casual"
    time_control: str = ""
    colours: str = "first"
    computers: int = 0
    remote_seat: int | None = None   # a seat played from the web page (mode "computer")
    # "nobody", "mover" or "next": the computer stands in for an outside program
    # (`OutsideProgram`) and the board's config says whose time carrying its
    # moves out is; "": the computer is Damka's own.
    carrying_out: str = ""

    def setup(self) -> GameSetup:
        return GameSetup(self.variant, sides=self.sides, teams=self.teams, mode=self.mode,
                         time_control=self.time_control, colours=self.colours, level="beginner",
                         computers=self.computers, hint_limit=None)


# -- drawing a sequence ------------------------------------------------------------------

GAMES = (  # (weight, variant, sides, teams)
    (30, "classic", 2, False), (6, "russian", 2, False), (4, "classic81", 2, False),
    (14, "multiwarcaby", 2, False), (12, "multiwarcaby", 3, False), (12, "multiwarcaby", 4, False),
    (10, "multiwarcaby", 2, True), (6, "multiwarcaby7", 2, False),
    (4, "american", 2, False), (3, "international", 2, False), (1, "canadian", 2, False),
)
CLOCKS = ((40, ""), (35, "5+3"), (20, "0.5+1"), (5, "5+3d"))
ACTIONS = (  # (weight, kind): what happens at the board, by how often
    (30, "move"), (6, "partial"), (5, "lift_back"), (8, "press_right"), (4, "press_wrong"), (12, "wait"),
    (4, "takeback_button"), (4, "takeback_pieces"), (10, "follow_leds"), (6, "computer"), (6, "remote"),
    (2, "pause"), (2, "unpause"), (3, "offer"), (3, "answer"), (1, "resign"), (1, "new_game"), (2, "power_cut"),
    (8, "slide"),
)


def _pick(rng: random.Random, table: tuple) -> Any:
    weights = [row[0] for row in table]
    row = rng.choices(table, weights)[0]
    return row[1:] if len(row) > 2 else row[1]


def draw_config(rng: random.Random, learning: float = 0.03) -> Config:
    variant, sides, teams = _pick(rng, GAMES)
    modes = (("learning", learning), ("casual", 0.32), ("tournament", 0.25), ("computer", 0.40 - learning))
    mode = rng.choices([m for m, _ in modes], [w for _, w in modes])[0]
    clock = _pick(rng, CLOCKS)
    remote = None
    colours = rng.choice(("first", "second", "lot"))
    computers = 0
    carrying_out = ""
    if mode == "computer":
        computers = rng.randint(0, sides - 1) if sides > 2 else 0
        if rng.random() < 0.4:
            remote = rng.randrange(sides)   # (two teams: two seats)
        if rng.random() < 0.3 and hub_variant(default_variant(variant)) is not None:   # (no program plays
            carrying_out = rng.choice([who.value for who in CarryingOut])          # multiwarcaby: no Hub name)
    return Config(variant, sides, teams, mode, clock, colours, computers, remote, carrying_out)


def draw_action(rng: random.Random, kinds: tuple = ACTIONS) -> tuple:
    kind = _pick(rng, kinds)
    if kind in ("move", "partial", "lift_back", "remote", "follow_leds", "computer", "slide"):
        return (kind, rng.randrange(1000))
    if kind == "wait":
        return (kind, rng.choice((50, 300, 1000, 1500, 4000, 20_000)))
    if kind == "offer":
        return (kind, rng.choice(("draw", "takeback")), rng.choice(("board", "remote page", "page")))
    if kind == "answer":
        return (kind, rng.random() < 0.5, rng.choice(("board", "remote page", "page")))
    return (kind,)


def draw_sequence(seed: int, length: int, kinds: tuple = ACTIONS, learning: float = 0.03) -> tuple[Config, list]:
    rng = random.Random(seed)
    config = draw_config(rng, learning)
    return config, [draw_action(rng, kinds) for _ in range(length)]


# -- the board, the people and the programs -------------------------------------------------


class Violation(AssertionError):
    """An invariant broke: `name` says which (a shrink keeps to the same one)."""

    def __init__(self, name: str, detail: str) -> None:
        super().__init__(f"{name}: {detail}")
        self.name = name


@dataclass
class Watch:
    """What the bus said during one action (the App's public events)."""

    events: list[ev.GameEvent] = field(default_factory=list)

    def __call__(self, event: ev.GameEvent) -> None:
        self.events.append(event)

    def any(self, *kinds: type) -> bool:
        return any(isinstance(event, kinds) for event in self.events)


class Loop:
    """What the virtual board drives: the world's App, and after every input
    and tick the wait for the computer's search (its move is then picked up
    at the App's very next input or tick, whatever the machine's speed)."""

    def __init__(self, world: "World") -> None:
        self.world = world

    def handle(self, event: Any) -> None:
        self.world.app.handle(event)
        self.world.wait_for_engine()

    def tick(self, now_ms: int) -> None:
        self.world.app.tick(now_ms)
        self.world.wait_for_engine()

    def next_deadline(self) -> int | None:
        return self.world.app.next_deadline()

    @property
    def frame(self) -> Any:
        return self.world.app.frame


class OutsideProgram(ComputerOpponent):
    """Damka's own search standing in for an outside program (a Hub engine, a
    DXP peer) that keeps its own clock: the session asks a player only that,
    and times the carrying out of its moves as the board's config says. The
    real programs, slower to start, are in test_carrying_out.py."""

    @property
    def engine_name(self) -> str:
        return "Outside"

    def keeps_own_clock_for(self, seat: int) -> bool:
        return True


@contextmanager
def outside_programs(on: bool) -> Iterator[None]:
    """While on, every game's computer is an `OutsideProgram` (new games and resumed ones)."""
    if not on:
        yield
        return
    real = factory.make_opponent

    def make(setup: GameSetup, variant: Any, clock: Any, controls: Any, seed: int | None,
             now: Callable[[], int]) -> OutsideProgram:
        return OutsideProgram(variant, setup.level, time_per_move=setup.move_time, seed=seed)

    factory.make_opponent = make  # type: ignore[assignment]
    try:
        yield
    finally:
        factory.make_opponent = real


class World:
    """The App on a virtual board with a store, and the hands and pages acting on it."""

    def __init__(self, config: Config, seed: int, db: Path, avoid: frozenset[str] = AVOID) -> None:
        self.config = config
        self.avoid = avoid
        self.seed = seed
        self.db = db
        self.store = Store(db)
        self.stores = [self.store]             # every connection opened (closed at the end, not at a cut)
        self.remote: RemoteOpponent | None = None
        self.app = self._new_app(offer_resume=False)
        self.watch = Watch()
        self.app.bus.subscribe(self.watch)
        self.variant: Any = None
        self.start_game()                      # (no board yet: the game waits for its first snapshot)
        self.variant = self.app.session.variant  # built once (building one builds its move tables)
        self.squares = BoardMap(self.variant)
        geometry = self.variant.geometry      # (international and canadian: a larger reed matrix)
        self.board = VirtualBoard(self.occupied_of(self.variant.start_position()),
                                  files=max(9, geometry.width), ranks=max(9, geometry.height))
        self.seen: set[frozenset[str]] = {self.board.pieces}   # boards some legal sequence gives
        self.loop = Loop(self)
        self.board.connect(self.loop)
        self.board.advance(1000)
        self.wait_for_engine()
        self.note_positions()

    # -- building ---------------------------------------------------------------------

    def _new_app(self, offer_resume: bool) -> App:
        who = CarryingOut(self.config.carrying_out) if self.config.carrying_out else CarryingOut.NOBODY
        app = App(store=self.store, setup=self.config.setup(), offer_resume=offer_resume, seed=self.seed,
                  carrying_out=who)
        app.listen(FarSeats(self._resumed_remote))   # as the web driver does: a resumed seat from afar
        return app

    def _resumed_remote(self, variant: Any, seats: frozenset[int]) -> RemoteOpponent:
        self.remote = RemoteOpponent(variant, seats, claimed=False)
        return self.remote

    def start_game(self) -> None:
        config = self.config
        if config.remote_seat is not None:
            variant = self.variant or build_variant(config.setup())
            self.remote = RemoteOpponent(variant, frozenset({config.remote_seat}))
            self.app.new_game(config.setup(), remote=self.remote)
        else:
            self.remote = None
            self.app.new_game(config.setup())

    def occupied_of(self, position: Any) -> frozenset[str]:
        return frozenset(self.squares.names(self.variant.occupancy(position)))

    @property
    def session(self) -> Any:
        return self.app.session

    @property
    def game(self) -> Game:
        return self.app.session.game

    def name(self, square: int) -> str:
        return self.variant.geometry.name(square)

    def note_positions(self) -> None:
        """Every position the game has had is a board the LEDs may ask for."""
        if self.session is not None:
            for position in self.game.positions:
                self.seen.add(self.occupied_of(position))

    # -- the loop's part ----------------------------------------------------------------

    def engine_player(self) -> Any:
        """The computer's search playing the seat to move (None: a person, or the remote page, moves)."""
        session = self.session
        if session is None or self.app.state is not AppState.GAME or session.game.turn in self.app.remote_sides():
            return None
        player = session.opponent
        by_seat = getattr(player, "by_seat", None)   # (SeatOpponents: one player per seat)
        return by_seat.get(session.game.turn) if by_seat is not None else player

    def wait_for_engine(self) -> None:
        """Real time passes, the board's does not: the computer's search ends
        (the session picks its move up at its next input or tick, as on the
        board), and the coach's check is picked up as `App.inline_thinking` does."""
        deadline = time.monotonic() + ENGINE_WAIT_S
        player = self.engine_player()
        while getattr(player, "thinking", False) or self._coach_busy():
            if time.monotonic() > deadline:
                raise Violation("engine", f"the computer or the coach did not answer in {ENGINE_WAIT_S:.0f} s")
            time.sleep(0.001)
            if self._coach_busy():
                self.app.tick(self.board.now)

    def _coach_busy(self) -> bool:
        session = self.session
        return session is not None and session.busy and not session.thinking

    def tick(self) -> None:
        """One pass of the board's loop: tick, then show the frame (`BoardLoop.step`)."""
        self.loop.tick(self.board.now)
        self.board.show(self.app.frame)

    # -- hands ----------------------------------------------------------------------------

    def set_board(self, target: frozenset[str], step_ms: int = 120) -> None:
        """Hands make the board show `target`: pieces off first, then on."""
        for square in sorted(self.board.pieces - target):
            self.board.lift(square)
            self.board.advance(step_ms)
        for square in sorted(target - self.board.pieces):
            self.board.put(square)
            self.board.advance(step_ms)

    def carry_out(self, move: Move, step_ms: int = 120) -> None:
        """One move by hand: lift, land on each square of the path, take the captured pieces off."""
        board = self.board
        square = self.name(move.start)
        board.lift(square)
        board.advance(step_ms)
        for index, landing in enumerate(move.path):
            board.drop(self.name(landing))
            board.advance(step_ms)
            if index < len(move.path) - 1:
                board.lift(self.name(landing))
                board.advance(step_ms)
        for captured in sorted(move.captures):
            if self.name(captured) in board.pieces:
                board.remove(self.name(captured))
                board.advance(step_ms)

    def slide_square(self, move: Move) -> str | None:
        """An empty square a hand may slide `move`'s piece across on the way (one
        inside the rectangle of its start and end, or next to both, as near the
        start as any), or None: a capture, or no such square."""
        if move.captures:
            return None
        start, end = self.name(move.start), self.name(move.end)

        def apart(a: str, b: str) -> int:
            return max(abs(ord(a[0]) - ord(b[0])), abs(int(a[1:]) - int(b[1:])))

        files = sorted((start[0], end[0]))
        ranks = sorted((int(start[1:]), int(end[1:])))
        board = self.board
        empty = [square for square in sorted(board.squares - board.pieces) if square != end and (
            files[0] <= square[0] <= files[1] and ranks[0] <= int(square[1:]) <= ranks[1]
            or apart(square, start) == apart(square, end) == 1)]
        return min(empty, key=lambda square: apart(square, start)) if empty else None

    def board_matches(self) -> bool:
        return self.board.pieces == self.occupied_of(self.game.position)

    def turn(self, choice: int) -> tuple[Move, ...]:
        """A whole legal turn from the game's position, picked by `choice`
        (multiwarcaby: two moves, or one that ends the game or leaves no
        second move, as the engine says). Empty when there is none."""
        game = self.game
        firsts = game.legal_moves()
        if not firsts:
            return ()
        first = firsts[choice % len(firsts)]
        after = game.copy()
        after.push(first)
        if self.variant.moves_per_turn == 1 or after.is_over or not self.variant.move_in_turn(after.position):
            return (first,)
        seconds = after.legal_moves()
        if not seconds:
            return (first,)
        return (first, seconds[choice // len(firsts) % len(seconds)])

    def may_take_back(self) -> bool:
        """A take-back that runs into none of the defects still `AVOID`ed."""
        session = self.session
        if session is None:
            return False
        if "take-back with a clock" in self.avoid and self.app.clock is not None:
            return False
        return not ("take-back after the end" in self.avoid and session.result is not None)

    # -- pages ----------------------------------------------------------------------------

    def remote_move(self, choice: int) -> bool:
        """The remote page plays its seat's turn (as `web/driver.py` does); whether it did."""
        remote = self.remote
        if remote is None or not remote.waiting or self.session is None:
            return False
        for _ in range(self.variant.moves_per_turn):
            legal = remote.legal()
            if not legal:
                break
            try:
                if remote.submit(legal[choice % len(legal)]["text"]) is not None:
                    break
            except RemoteMoveError:
                return False
        self.tick()
        return True

    def command(self, call: Callable[[], Any]) -> None:
        """A page's or the menu's command: refused ones (the reason given to the page) change nothing.
        It runs as the web driver runs it: in the App's pump, after a pass of
        the board's loop at the board's time (the App's `now` is the time of its
        last input or tick; the virtual board ticks only at deadlines)."""
        self.tick()
        try:
            call()
        except (CommandRefused, ValueError):
            pass
        self.wait_for_engine()
        self.board.show(self.app.frame)

    def close(self) -> None:
        """The end of the sequence: the searches stopped, every connection closed."""
        if self.app.session is not None:
            self.app.session.close()
        for store in self.stores:
            store.close()

    # -- a power cut ------------------------------------------------------------------------

    def power_cut(self) -> None:
        """The process dies (nothing closed); the board is switched on again on
        the same store, offers the game back, and it is resumed with ok."""
        self.store = Store(self.db)                # a new process: a new connection
        self.stores.append(self.store)
        self.app = self._new_app(offer_resume=True)
        self.app.bus.subscribe(self.watch)
        self.board.connect(self.loop)
        if self.app.state is AppState.RESUME:
            self.board.button(Button.OK)          # "Resume it"
        else:
            self.start_game()                    # nothing unfinished: a new game
            self.board.show(self.app.frame)
        self.board.advance(200)


def lit(world: World, *roles: Role) -> set[str]:
    return {square for square, role in world.board.leds.items() if role in roles}


def seat_not_at_the_table(world: World) -> bool:
    """The side to move is the computer's or played from afar (its move is lit for the table)."""
    session = world.session
    return session.mode.value == "computer" and session.game.turn in session.settings.computer_sides


def playing(world: World) -> bool:
    session = world.session
    return (world.app.state is AppState.GAME and session is not None and session.phase is Phase.PLAYING
            and session.result is None)
