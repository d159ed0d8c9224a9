"""Resume after a crash or a power cut: the last unfinished game, exactly where it was.

At start-up the app asks the store for the last unfinished game (every
committed move was stored in its own transaction, the clock checkpointed).
While the offer is on the screen the LEDs already guide the players to the
saved position (PUT_HERE where a piece is missing, TAKE_AWAY where one is too
many). Once they accept, a session starts in its set-up phase on the saved
game (its whole history, so take-backs and repetitions still work): it keeps
guiding until the pieces stand as saved, then play goes on. The clock comes
back paused (`Clock.restore`) with the times of the last save; it runs again
at the first committed move or when a player presses ok.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

from damka.controller.board import hints
from damka.controller.players.chooser import Chooser
from damka.controller.clock.clock import Clock
from damka.controller.clock.errors import ClockError
from damka.controller.game.factory import BuiltGame, build_game
from damka.controller.players.seat_opponents import far_seats, seat_remote
from damka.controller.session import CommittedMove, Mode
from damka.controller.session.types import CarryingOut
from damka.controller.players import Opponent
from damka.controller.game.setup import Engines, GameSetup
from damka.controller.store.rows import StoredGame
from damka.controller.board.board_map import BoardMap
from damka.controller.words import say, translate
from damka.engine import levels
from damka.engine.variant import Variant
from damka.hardware.interfaces import LedFrame

# The game's tags (also written to PDN): the sides the computer plays, e.g. "1"
# (0-based, comma separated), the computer's level, and the hints allowed per
# game in learning mode ("" for no limit); the engine of the computer and the
# coach by its config name ("Damka": its own); the seats played from afar (a
# player on the web page), among the computer's sides, e.g. "1".
COMPUTER_TAG = "DamkaComputer"
LEVEL_TAG = "DamkaLevel"
HINTS_TAG = "DamkaHints"
ENGINE_TAG = "DamkaEngine"
REMOTE_TAG = "DamkaRemote"

# Who plays the seats from afar in a resumed game (`web/driver.py` gives the
# page's player, waiting to be claimed): called with the variant and the seats.
RemoteMaker = Callable[[Variant, frozenset[int]], Opponent]


def describe(stored: StoredGame) -> str:
    """One line for the offer: 'game 12, classic, move 23, Ala - Ola'."""
    game = stored.game
    per_round = max(1, game.variant.moves_per_turn) * max(1, len(game.variant.sides))
    number = game.ply // per_round + 1
    return say("resume.describe", id=stored.id, variant=translate(game.variant.title), number=number,
               players=" - ".join(stored.players))


def target_squares(stored: StoredGame) -> frozenset[str]:
    """Where pieces must stand for the game to go on."""
    board = BoardMap(stored.game.variant)
    return frozenset(board.names(stored.game.variant.occupancy(stored.game.position)))


def guidance_frame(stored: StoredGame, occupied: frozenset[str]) -> LedFrame:
    """PUT_HERE / TAKE_AWAY for every square that differs from the saved position."""
    board = BoardMap(stored.game.variant)
    target = stored.game.variant.occupancy(stored.game.position)
    return hints.compose(hints.guidance(board, board.bits(occupied), target))


def matches(stored: StoredGame, occupied: frozenset[str]) -> bool:
    return occupied == target_squares(stored)


def restore_clock(stored: StoredGame) -> Clock | None:
    """The clock as last saved, paused; None if the game had no clock (or the
    saved state cannot be read: the game goes on without it, never lost)."""
    if stored.clock_state is None:
        return None
    try:
        return Clock.restore(stored.clock_state, now=0)
    except ClockError:
        return None


def stored_level(stored: StoredGame) -> str:
    """The computer's level the game was played at (the default for games stored before it was kept)."""
    name = stored.tags.get(LEVEL_TAG, "")
    try:
        return levels.find_level(name).name
    except ValueError:
        return levels.DEFAULT_LEVEL


def stored_hint_limit(stored: StoredGame) -> int | None:
    text = stored.tags.get(HINTS_TAG)
    if text is None:
        return GameSetup().hint_limit
    return int(text) if text.strip().isdigit() else None


def stored_setup(stored: StoredGame, engines: Engines = ()) -> GameSetup:
    """The setup the stored game was played with (mode, clock, computer level,
    hints, engine), with the board's configured `engines` (`GameSetup.engines`)."""
    options = dict(stored.options)
    sides = int(options.pop("sides", 2))
    teams = bool(options.pop("teams", False))
    try:
        mode = Mode(stored.mode).value
    except ValueError:
        mode = Mode.CASUAL.value
    return GameSetup(variant=stored.variant, sides=sides, teams=teams, mode=mode,
                     time_control=stored.time_control or "", level=stored_level(stored),
                     hint_limit=stored_hint_limit(stored), options=tuple(options.items()),
                     engines=engines, engine=stored.tags.get(ENGINE_TAG, "").strip()[:64])


def stored_computer_sides(stored: StoredGame) -> frozenset[int]:
    computer = stored.tags.get(COMPUTER_TAG, "")
    return frozenset(int(side) for side in computer.split(",") if side.strip().isdigit())


def stored_remote_sides(stored: StoredGame) -> frozenset[int]:
    """The seats played from afar (none for a game stored before they were kept)."""
    return frozenset(int(side) for side in stored.tags.get(REMOTE_TAG, "").split(",") if side.strip().isdigit())


def stored_record(stored: StoredGame) -> list[CommittedMove]:
    """The committed-move record of the stored game (the turns as played, players out included)."""
    game = stored.game
    variant = game.variant
    committed: list[CommittedMove] = []
    turn = 0
    previous_turn_side = None
    for index, stored_move in enumerate(stored.moves):
        before = game.positions[index]
        if variant.move_in_turn(before) == 0 or previous_turn_side != stored_move.side:
            turn += 1
        previous_turn_side = stored_move.side
        committed.append(CommittedMove(
            stored_move.ply, turn, stored_move.side, variant.sides[stored_move.side], stored_move.move,
            stored_move.text, tuple(variant.geometry.name(sq) for sq in sorted(stored_move.move.captures)), 0))
    return committed


def resume_game(stored: StoredGame, *, chooser: Chooser | None = None, seed: int | None = None,
                engines: Engines = (), remote: RemoteMaker | None = None,
                carrying_out: CarryingOut = CarryingOut.NOBODY) -> BuiltGame:
    """The stored game built as the board builds any game (`game/factory.py`),
    waiting for the pieces to stand as saved; its clock as last saved, paused.
    `engines`: the board's configured engines now; the game's engine when it
    is still among them, else Damka's own (the board says so). The seats
    played from afar are `remote`'s again (the same seats, the computer
    keeping its own); with no `remote` (no web page) they are at the table.
    `carrying_out`: the board's config now, as for a new game (`build_game`)."""
    setup = stored_setup(stored, engines)
    game = stored.game
    computer = stored_computer_sides(stored) or frozenset({1})
    far = stored_remote_sides(stored) & computer if setup.mode == Mode.COMPUTER.value else frozenset()
    engine = computer - far
    if far and remote is None:
        computer = engine
        if not engine:
            setup = replace(setup, mode=Mode.CASUAL.value)
    built = build_game(setup, variant=game.variant, position=game.position, clock=restore_clock(stored),
                       chooser=None if far and engine and remote is not None else chooser, seed=seed,
                       computer_sides=computer, carrying_out=carrying_out)
    if far and remote is not None:
        seat_remote(built.session, remote(game.variant, far), far, engine)
    # No take-back to before a player went out (the drop is part of the record).
    floor = max((drop.ply for drop in stored.drops if drop.ply <= game.ply), default=0)
    built.session.resume(game, stored_record(stored), floor_ply=floor)
    return built


def record_tags(built: BuiltGame) -> dict[str, str]:
    """What a resume needs beyond the game: which sides the computer plays
    (those played from afar among them, `REMOTE_TAG`) and at which level, the hints allowed in learning mode, the engine of both."""
    setup = built.setup
    if setup.mode == Mode.COMPUTER.value:
        tags = {COMPUTER_TAG: ",".join(str(side) for side in sorted(built.computer_sides)),
                LEVEL_TAG: setup.level, ENGINE_TAG: setup.engine_name()}
        far = far_seats(built.session.opponent, built.computer_sides)
        return {**tags, REMOTE_TAG: ",".join(str(side) for side in sorted(far))} if far else tags
    if setup.mode == Mode.LEARNING.value:
        limit = setup.hint_limit
        return {HINTS_TAG: "" if limit is None else str(limit), ENGINE_TAG: setup.engine_name()}
    return {}
