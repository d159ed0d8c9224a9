"""The clock in the app: the session alone drains the clock's events, so a
last-stage flag is a loss on time with two sides, takes the player out with
three or four (the board guided back, play going on), and the store keeps the
drop so that a resumed game goes on after it. Driven through the virtual board
and the real App, clock and store."""

from __future__ import annotations

from pathlib import Path

from damka.controller.app import App, AppState
from damka.controller.events import EventHistory
from damka.controller.clock.records import State
from damka.controller.store.store import Store
from damka.controller.board.board_map import BoardMap
from damka.controller.game.setup import GameSetup
from damka.display.screen import GameView, ResultView
from damka.engine.notation import parse_move
from damka.hardware.interfaces import Button, ClockPress, Role
from damka.sim.virtual_board import VirtualBoard, carry_out
from test_session_rig import events_of

THREE = dict(variant="multiwarcaby", sides=3, mode="tournament")


def on_board(app: App, variant=None, start_clock: bool = True) -> VirtualBoard:
    """The pieces set up on a virtual board; then (as at a tournament) a player
    who does not move first presses to start the clock of the one who does."""
    variant = variant or app.session.variant
    board = VirtualBoard(BoardMap(variant).names(variant.occupancy(variant.start_position())))
    board.connect(app)
    board.advance(1000)
    if start_clock and app.clock is not None and app.clock.state is State.READY:
        board.press((app.session.game.turn + 1) % len(variant.sides))
        assert app.clock.state is State.RUNNING and app.clock.active == app.session.game.turn
    return board


def play(board: VirtualBoard, app: App, text: str) -> None:
    """Carry out the move written `text` (algebraic) in the position the board shows now."""
    session = app.session
    position = session.game.position
    for done in session.tracker.index(position).moves:  # the first move of a turn already on the board
        after = session.variant.play(position, done)
        if session.tracker.occupancy_of(after) == session.occupancy:
            position = after
            break
    move = parse_move(session.variant, position, text)
    name = session.variant.geometry.name
    carry_out(board, name(move.start), [name(s) for s in move.path], [name(s) for s in sorted(move.captures)])


def turn(board: VirtualBoard, app: App, side: int, first: str, second: str) -> None:
    play(board, app, first)
    play(board, app, second)
    board.advance(300)
    board.press(side)
    board.advance(100)
    assert app.session.game.turn != side, app.session.message


def events(app: App, kind: str) -> list[dict]:
    return events_of(app.history, kind)


def watched(app: App) -> App:
    """The app with every event it publishes kept (`app.history`)."""
    app.history = EventHistory()
    app.bus.subscribe(app.history)
    return app


def test_a_press_after_the_flag_does_not_commit_the_move(tmp_path: Path) -> None:
    with Store(tmp_path / "g.db") as store:
        app = watched(App(store=store, setup=GameSetup("classic", mode="tournament", time_control="0.05"), start_game=True))
        board = on_board(app)
        flag_at = app.clock.next_deadline(app.now)
        assert flag_at is not None and flag_at > board.now
        carry_out(board, "c3", ["d4"], step_ms=20)  # a complete move on the board, not yet pressed
        assert app.session.game.ply == 0
        # The press reaches the app after the flag fell, before any tick found it.
        app.handle(ClockPress(0, flag_at + 5))
        session = app.session
        assert session.game.ply == 0 and session.committed == []
        assert session.result is not None and session.result.reason == "on time" and session.result.winner == 1
        assert app.state is AppState.RESULT and app.view().title == "Black wins"
        assert app.clock.state is State.FINISHED
        stored = store.load_game(app.game_id)
        assert stored.game.ply == 0 and store.list_games()[0].result == "0-2"
        assert [row[2:] for row in store.arbiter_log(app.game_id)] == [("result", "on time")]


def test_a_press_one_millisecond_before_the_flag_commits() -> None:
    app = watched(App(setup=GameSetup("classic", mode="tournament", time_control="0.05"), start_game=True))
    board = on_board(app)
    flag_at = app.clock.next_deadline(app.now)
    carry_out(board, "c3", ["d4"], step_ms=20)
    app.handle(ClockPress(0, flag_at - 1))
    assert app.session.game.ply == 1 and app.session.result is None and app.state is AppState.GAME


def test_an_earlier_stage_flag_is_shown_and_play_goes_on(tmp_path: Path) -> None:
    # 3 s for the first move, then 5 minutes.
    with Store(tmp_path / "g.db") as store:
        app = watched(App(store=store, setup=GameSetup("classic", mode="tournament", time_control="1/0.05:5"),
                          start_game=True))
        board = on_board(app)
        board.advance(3500)                       # white's stage-1 time runs out: a flag, not a loss
        assert events(app, "flag") and not events(app, "flag")[0]["final"]
        assert app.session.result is None and app.state is AppState.GAME
        view = app.view()
        assert isinstance(view, GameView)
        assert any("flag fell in stage 1" in line for line in view.messages)
        assert store.arbiter_log(app.game_id)[0][2] == "flag"


def test_three_players_a_flag_takes_the_player_out_and_the_store_keeps_it(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    store = Store(db)
    app = watched(App(store=store, setup=GameSetup(**THREE, time_control="0.1"), start_game=True))  # 6 s each
    board = on_board(app)
    session = app.session
    turn(board, app, 0, "d4-e5", "b1-a1")
    turn(board, app, 1, "b4xd4", "a4-b4")              # player 2 has a point
    play(board, app, "h1-i1")                          # player 3 makes one move and then nothing
    board.advance(6500)                                # ... and their flag falls
    out = events(app, "side_out")
    assert [(e["side"], e["reason"], e["ply"]) for e in out] == [(2, "on time", 4)]
    assert session.result is None and app.state is AppState.GAME and session.game.turn == 0
    assert app.clock.in_game == [0, 1] and app.clock.active == 0
    # The board goes back to the start of player 3's turn before player 1 plays on.
    assert "i1" in {sq for sq, role in board.leds.items() if role is Role.TAKE_AWAY}
    assert "Player 3 is out" in session.message
    view = app.view()
    assert [side.out for side in view.sides] == [False, False, True]
    board.lift("i1")
    board.drop("h1")
    board.advance(500)
    turn(board, app, 0, "e4xc4", "a6xa4")
    assert session.game.turn == 1                      # player 3 is skipped
    # The store has the drop (arbiter log) and the game reloads through it.
    assert store.drops(app.game_id)[0].side == 2 and store.drops(app.game_id)[0].ply == 4
    assert ("side out", "side 3 out after ply 4: on time") in [row[2:] for row in store.arbiter_log(app.game_id)]
    stored = store.load_game(app.game_id)
    assert stored.game.ply == 6 and stored.game.position == session.game.position
    assert list(stored.game.position.active) == [True, True, False]
    pieces = set(board.pieces)
    store.close()                                      # the power goes

    with Store(db) as store:
        again = watched(App(store=store))
        assert again.state is AppState.RESUME
        board = VirtualBoard(pieces)
        board.connect(again)
        board.button(Button.OK)                        # resume it
        board.advance(1500)
        resumed = again.session
        assert resumed.phase.value == "playing" and resumed.game.ply == 6 and resumed.game.turn == 1
        assert list(resumed.game.position.active) == [True, True, False]
        assert again.clock.in_game == [0, 1]
        # No take-back past the player going out; play goes on between players 1 and 2.
        assert resumed.record.floor_ply == 4
        turn(board, again, 1, "f5-e4", "a3xa5")
        assert resumed.game.turn == 0 and store.load_game(again.game_id).game.ply == 8


def test_resigning_from_the_menu_with_three_players_takes_the_player_out(tmp_path: Path) -> None:
    with Store(tmp_path / "g.db") as store:
        app = watched(App(store=store, setup=GameSetup(**THREE, time_control="5+3"), start_game=True))
        board = on_board(app)
        turn(board, app, 0, "d4-e5", "b1-a1")
        board.button(Button.MENU)
        menu = app.overlay
        menu.cursor = [row.key for row in menu.visible_rows()].index("resign")
        board.button(Button.OK)                        # player 2 resigns
        board.advance(100)
        session = app.session
        assert [(e["side"], e["reason"]) for e in events(app, "side_out")] == [(1, "resignation")]
        assert session.result is None and session.game.turn == 2 and app.clock.active == 2
        assert app.clock.in_game == [0, 2] and app.state is AppState.GAME
        assert store.drops(app.game_id)[0].reason == "resignation"
        # The next resignation leaves one player: the game ends.
        board.button(Button.MENU)
        app.overlay.cursor = [row.key for row in app.overlay.visible_rows()].index("resign")
        board.button(Button.OK)
        board.advance(100)
        assert session.result is not None and app.state is AppState.RESULT
        assert isinstance(app.view(), ResultView)
        assert store.list_games()[0].result is not None


def test_resigning_without_a_clock_with_three_players_takes_the_player_out() -> None:
    app = watched(App(setup=GameSetup("multiwarcaby", sides=3, mode="casual"), start_game=True))
    board = on_board(app)
    board.button(Button.MENU)
    app.overlay.cursor = [row.key for row in app.overlay.visible_rows()].index("resign")
    board.button(Button.OK)
    assert [e["side"] for e in events(app, "side_out")] == [0] and app.session.game.turn == 1
