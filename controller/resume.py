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

from damka.controller import hints
from damka.controller.clock import Clock
from damka.controller.clock_errors import ClockError
from damka.controller.session import CommittedMove, Mode, Session, SessionSettings
from damka.controller.store import StoredGame
from damka.controller.tracker import BoardMap
from damka.display.menu import GameSetup
from damka.engine import levels
from damka.hardware.interfaces import LedFrame

# The game's tags (also written to PDN): the sides the computer plays, e.g. "1"
# (0-based, comma separated), the computer's level, and the hints allowed per
# game in learning mode ("" for no limit).
COMPUTER_TAG = "DamkaComputer"
LEVEL_TAG = "DamkaLevel"
HINTS_TAG = "DamkaHints"


def describe(stored: StoredGame) -> str:
    """One line for the offer: 'game 12, classic, move 23, Ala - Ola'."""
    game = stored.game
    per_round = max(1, game.variant.moves_per_turn) * max(1, len(game.variant.sides))
    number = game.ply // per_round + 1
    return f"game {stored.id}, {game.variant.title}, move {number}, {' - '.join(stored.players)}"


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


def resume_session(stored: StoredGame, *, settings: SessionSettings | None = None,
                   mode: str | None = None) -> tuple[Session, Clock | None, GameSetup]:
    """A session on the stored game, waiting for the pieces to stand as saved."""
    game = stored.game
    variant = game.variant
    chosen = mode or stored.mode
    try:
        session_mode = Mode(chosen)
    except ValueError:
        session_mode = Mode.CASUAL
    if settings is None:
        computer = stored.tags.get(COMPUTER_TAG, "")
        sides = frozenset(int(side) for side in computer.split(",") if side.strip().isdigit())
        settings = SessionSettings(mode=session_mode, computer_sides=sides or frozenset({1}))
    session = Session(variant, settings, position=game.position)
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
    # No take-back to before a player went out (the drop is part of the record).
    floor = max((drop.ply for drop in stored.drops if drop.ply <= game.ply), default=0)
    session.resume(game, committed, floor_ply=floor)
    options = stored.options
    setup = GameSetup(
        variant=stored.variant,
        sides=int(options.get("sides", 2)),
        teams=bool(options.get("teams", False)),
        mode=session_mode.value,
        time_control=stored.time_control or "",
        level=stored_level(stored),
        hint_limit=stored_hint_limit(stored),
    )
    return session, restore_clock(stored), setup
