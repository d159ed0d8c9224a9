"""Resume after a crash: the offer, the LEDs that guide the pieces back, the
same game and clock going on in the same database row."""

from __future__ import annotations

from pathlib import Path

import pytest

from damka.controller.app import App, AppState
from damka.controller.clock.records import State
from damka.controller.app.resume import describe, matches, target_squares
from damka.controller.session import Phase
from damka.controller.store.store import Store
from damka.controller.game.setup import GameSetup
from damka.display.screen import MenuView
from damka.hardware.interfaces import Button, Role
from damka.sim.virtual_board import VirtualBoard, carry_out
from app_rig import start_squares


def play_moves(app: App, board: VirtualBoard, count: int, press: bool = True) -> None:
    name = app.session.variant.geometry.name
    for _ in range(count):
        game = app.session.game
        move = game.legal_moves()[0]
        carry_out(board, name(move.start), [name(s) for s in move.path], [name(s) for s in move.captures])
        board.advance(1200)
        if press:
            board.press(game.turn)
        board.advance(300)


@pytest.fixture
def interrupted(tmp_path: Path) -> tuple[Path, list[str], list[int], int]:
    """A tournament game of 5 moves with a 5+3 clock, then the power goes."""
    db = tmp_path / "games.db"
    store = Store(db)
    app = App(store=store, setup=GameSetup("classic", mode="tournament", time_control="5+3"), start_game=True,
              offer_resume=False)
    board = VirtualBoard(start_squares(app.session.variant))
    board.connect(app)
    board.advance(1000)
    play_moves(app, board, 5)
    board.advance(2000)  # white thinks: a checkpoint of the running clock is stored
    clock_at_cut = app.clock_ms()
    moves = [c.text for c in app.session.committed]
    store.close()  # nothing more is written: the process is gone
    return db, moves, clock_at_cut, len(board.pieces)


def test_the_board_offers_to_resume_and_guides_the_pieces_back(interrupted) -> None:
    db, moves, clock_at_cut, _ = interrupted
    with Store(db) as store:
        app = App(store=store)
        assert app.state is AppState.RESUME
        view = app.view()
        assert isinstance(view, MenuView) and "move 3" in view.subtitle and "Ala" not in view.subtitle
        stored = store.last_unfinished()
        assert "game 1" in describe(stored)
        # An empty board (the pieces were swept off): every saved square lit PUT_HERE.
        board = VirtualBoard([])
        board.connect(app)
        assert set(board.leds) == set(target_squares(stored))
        assert set(board.leds.values()) == {Role.PUT_HERE}
        # One piece on a square that should be empty: TAKE_AWAY there.
        extra = sorted({"e5", "d4", "f4"} - target_squares(stored))[0]
        board.put(extra)
        assert board.leds[extra] is Role.TAKE_AWAY


def test_resume_goes_on_with_the_same_game_and_paused_clock(interrupted) -> None:
    db, moves, clock_at_cut, _ = interrupted
    with Store(db) as store:
        stored = store.last_unfinished()
        app = App(store=store)
        board = VirtualBoard(sorted(target_squares(stored)))
        assert matches(stored, board.pieces)
        board.connect(app)
        assert board.leds == {}  # the pieces stand as saved: nothing to guide
        board.button(Button.OK)  # "Resume"
        assert app.state is AppState.GAME
        board.advance(1000)
        assert app.session.phase is Phase.PLAYING
        assert [c.text for c in app.session.committed] == moves
        assert app.clock.state is State.PAUSED
        resumed = [side.remaining_ms for side in app.clock.view(board.now).sides]
        assert all(abs(a - b) <= 1000 for a, b in zip(resumed, clock_at_cut)), (resumed, clock_at_cut)
        board.advance(5000)
        assert [side.remaining_ms for side in app.clock.view(board.now).sides] == resumed  # still paused
        play_moves(app, board, 1)
        assert app.clock.state is State.RUNNING
        assert app.game_id == stored.id
        after_move = store.load_game(stored.id).clock_ms
        board.advance(3000)  # the side to move thinks: its running clock is checkpointed again
        checkpoint = store.load_game(stored.id).clock_ms
        thinking = app.session.game.turn
        assert checkpoint[1 - thinking] == after_move[1 - thinking]
        assert after_move[thinking] - 3000 <= checkpoint[thinking] < after_move[thinking] - 2000
    with Store(db) as store:
        again = store.load_game(stored.id)
        assert [m.text for m in again.moves][:5] == moves and again.game.ply == 6
        assert len(store.list_games()) == 1


def test_resume_waits_for_the_pieces_and_lights_the_difference(interrupted) -> None:
    db, moves, _, _ = interrupted
    with Store(db) as store:
        stored = store.last_unfinished()
        squares = sorted(target_squares(stored))
        missing = squares[0]
        app = App(store=store)
        board = VirtualBoard([sq for sq in squares if sq != missing])
        board.connect(app)
        assert board.leds == {missing: Role.PUT_HERE}
        board.button(Button.OK)
        board.advance(3000)
        assert app.session.phase is Phase.SETUP
        assert board.leds.get(missing) is Role.PUT_HERE
        assert missing in app.session.message
        board.put(missing)
        board.advance(1000)
        assert app.session.phase is Phase.PLAYING
        assert app.session.game.ply == len(moves)


def test_declining_keeps_the_game_as_abandoned(interrupted) -> None:
    db, _, _, _ = interrupted
    with Store(db) as store:
        app = App(store=store)
        board = VirtualBoard([])
        board.connect(app)
        board.button(Button.DOWN)
        board.button(Button.OK)  # "Start a new game instead"
        assert app.state is AppState.MENU
        assert store.last_unfinished() is None
        assert store.list_games()[0].result == "*" and store.list_games()[0].moves == 5
    with Store(db) as store:
        assert App(store=store).state is AppState.MENU


def test_a_game_against_the_computer_resumes_against_the_computer(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    with Store(db) as store:
        app = App(store=store, setup=GameSetup("classic", mode="computer", colours="second"), start_game=True,
                  offer_resume=False)
        board = VirtualBoard(start_squares(app.session.variant))
        board.connect(app)
        board.advance(1000)
        assert app.session.settings.computer_sides == frozenset({0})
    with Store(db) as store:
        stored = store.last_unfinished()
        from damka.controller.app.resume import resume_game

        built = resume_game(stored)
        session, clock, setup = built.session, built.clock, built.setup
        assert session.settings.computer_sides == frozenset({0}) and setup.mode == "computer" and clock is None
