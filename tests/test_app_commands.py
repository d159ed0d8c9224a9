"""The App's command API (controller/app/commands.py) on a live game on the virtual board:
each command does what it says, is logged (event, clock log, store) with who, and gives a
one-line reason when it cannot be done now. Real App, clock, SQLite store."""

from __future__ import annotations

from pathlib import Path

import pytest

from damka.controller import events as ev
from damka.controller.app import App, AppState
from damka.controller.app import BadArgument, CommandRefused
from damka.controller.clock.records import State
from damka.controller.game.setup import GameSetup
from damka.controller.store.store import Store
from damka.hardware.interfaces import Button
from damka.sim.virtual_board import carry_out
from test_app_clock import on_board, play

WHO = "web arbiter@127.0.0.1"


def live(tmp_path: Path, **setup) -> tuple[App, object, list]:
    """A tournament game with a running clock on the virtual board; the ArbiterActed events seen."""
    store = Store(tmp_path / "games.db")
    options = dict(variant="classic", mode="tournament", time_control="5+3") | setup
    app = App(store=store, setup=GameSetup(**options), start_game=True, offer_resume=False)
    acted: list = []
    app.bus.subscribe(acted.append, ev.ArbiterActed)
    board = on_board(app)
    return app, board, acted


def stored_log(app: App) -> list[tuple[str, str]]:
    return [(action, detail) for _ms, _at, action, detail in app.store.arbiter_log(app.game_id)]


def test_pause_and_resume_the_clock_and_refused_when_it_cannot(tmp_path) -> None:
    app, board, acted = live(tmp_path)
    assert "pause" in app.pause_clock(WHO)
    assert app.clock.state is State.PAUSED
    with pytest.raises(CommandRefused, match="only a running clock can be paused"):
        app.pause_clock(WHO)
    frozen = app.clock_ms()
    board.advance(5000)
    app.resume_clock(WHO)
    assert app.clock.state is State.RUNNING and app.clock_ms() == frozen   # the 5 s paused counted for no one
    with pytest.raises(CommandRefused, match="only a paused clock"):
        app.resume_clock(WHO)
    assert [(e.who, e.action) for e in acted] == [(WHO, "pause"), (WHO, "resume")]
    assert [entry.by for entry in app.clock.log if entry.action == "pause"] == [WHO]
    assert ("pause", f"clock paused (by {WHO})") in stored_log(app)


def test_the_board_menu_pause_is_the_same_command_and_logged_from_the_board(tmp_path) -> None:
    app, board, acted = live(tmp_path)
    board.button(Button.MENU)
    app.tap_menu([row.key for row in app.overlay.visible_rows()].index("pause"))
    assert app.clock.state is State.PAUSED
    assert [(e.who, e.action) for e in acted] == [("the board's menu", "pause")]
    board.button(Button.OK)                               # ok on the game restarts a paused clock: logged too
    assert app.clock.state is State.RUNNING
    assert [(e.who, e.action) for e in acted][-1] == ("the board's ok button", "resume")


def test_adjust_and_set_a_sides_time(tmp_path) -> None:
    app, board, acted = live(tmp_path)
    before = app.clock_ms()
    line = app.adjust_clock(1, 60_000, WHO)                 # black's clock does not run: exactly a minute more
    assert app.clock_ms()[1] - before[1] == 60_000 and "Black +1:00" in line
    app.adjust_clock(1, -30_000, WHO)
    assert app.clock_ms()[1] - before[1] == 30_000
    app.set_clock(1, 90_000, WHO)
    assert app.clock_ms()[1] == 90_000
    assert [e.detail for e in acted] == ["Black +1:00", "Black -0:30", "Black set to 1:30"]
    assert [entry.action for entry in app.clock.log][-3:] == ["adjust", "adjust", "set-time"]
    assert [action for action, _ in stored_log(app)] == ["adjust", "adjust", "set-time"]
    with pytest.raises(BadArgument, match="side: 2 is not a side of this game"):
        app.adjust_clock(2, 1000, WHO)
    with pytest.raises(BadArgument, match="0 changes nothing"):
        app.adjust_clock(0, 0, WHO)
    with pytest.raises(BadArgument, match="no time left"):
        app.set_clock(0, 0, WHO)
    with pytest.raises(CommandRefused, match="would have .* ms left"):
        app.adjust_clock(1, -200_000, WHO)
    assert app.clock_ms()[1] == 90_000                      # a refused command changed nothing


def test_undo_the_last_press_takes_the_turn_back_with_the_clock(tmp_path) -> None:
    app, board, acted = live(tmp_path)
    with pytest.raises(CommandRefused, match="no move has been played"):
        app.undo_clock_press(WHO)
    before = app.clock_ms()
    play(board, app, "c3-d4")
    board.advance(2000)
    board.press(0)
    board.advance(100)
    assert app.session.game.ply == 1 and app.clock.active == 1
    line = app.undo_clock_press(WHO)
    assert "c3-d4 taken back" in line and "White" in line
    assert app.session.game.ply == 0 and app.clock.active == 0 and app.clock.state is State.PAUSED
    assert app.clock_ms()[1] == before[1]                    # black's time as before the press
    carry_out(board, "d4", ["c3"], [])                        # the board is put back
    app.resume_clock(WHO)
    play(board, app, "a3-b4")
    board.advance(300)
    board.press(0)
    board.advance(100)
    assert [m.text for m in app.session.committed] == ["a3-b4"] and app.clock.active == 1
    assert [e.action for e in acted] == ["undo", "resume"]


def test_declare_a_win_or_a_draw_and_refused_after_the_end(tmp_path) -> None:
    app, board, acted = live(tmp_path)
    app.declare_result(1, "arbiter's decision", WHO)
    assert app.session.result.winner == 1 and app.session.result.reason == "arbiter's decision"
    assert app.store.load_game(app.game_id).result.winner == 1
    with pytest.raises(CommandRefused, match="no game in play"):
        app.declare_result(None, "arbiter", WHO)
    with pytest.raises(CommandRefused, match="game is over"):
        app.adjust_clock(0, 1000, WHO)
    app.new_game(GameSetup("classic", time_control="5+3"))
    app.declare_result(None, "arbiter", WHO)
    assert app.session.result.is_draw
    assert [e.detail for e in acted] == ["Black wins", "draw"]


def test_a_win_declared_in_a_four_player_game_names_the_player(tmp_path) -> None:
    store = Store(tmp_path / "games.db")
    app = App(store=store, setup=GameSetup("multiwarcaby", sides=4, time_control="casual"), start_game=True,
              offer_resume=False, players=["Ann", "Bob", "Cid", "Dee"])
    on_board(app)
    names = [app.side_label(i) for i in range(4)]
    assert sorted(names) == sorted(f"{n} (Player {i})" for n, i in zip(app.game_players, range(1, 5)))
    line = app.declare_result(2, "arbiter", WHO)
    result = app.session.result
    assert result.winner == 2 and result.places == (2, 2, 1, 2) and result.points == (0.0, 0.0, 1.0, 0.0)
    assert line.startswith(f"{names[2]} wins")
    assert app.store.load_game(app.game_id).result.winner == 2


def test_team_sides_are_named_as_teams() -> None:
    app = App(setup=GameSetup("multiwarcaby", teams=True), start_game=True, offer_resume=False)
    assert [app.side_label(i) for i in range(2)] == ["Team A", "Team B"]


def test_player_names_and_menu_rows(tmp_path) -> None:
    app = App(offer_resume=False)
    with pytest.raises(CommandRefused, match="no game on the board"):
        app.menu_action("resign", WHO)
    with pytest.raises(CommandRefused, match="no game on the board"):
        app.pause_clock(WHO)
    with pytest.raises(CommandRefused, match="no stored game to resume"):
        app.menu_action("resume", WHO)
    with pytest.raises(BadArgument, match="'explode' is not one of"):
        app.menu_action("explode", WHO)
    with pytest.raises(BadArgument, match="players: a list of names"):
        app.set_player_names(["x" * 41])
    app.set_player_names(["Ann", "Bob"])
    app.new_game(GameSetup("classic"))
    assert app.game_players == ["Ann", "Bob"]
    with pytest.raises(CommandRefused, match="this game has no clock"):
        app.adjust_clock(0, 1000, WHO)
    app.menu_action("resign", WHO)
    assert app.session.result.winner == 1
    with pytest.raises(CommandRefused, match="over already"):
        app.menu_action("draw", WHO)


def test_against_the_computer_the_board_resigns_the_persons_side_even_while_the_computer_thinks(tmp_path) -> None:
    app, board, acted = live(tmp_path, mode="computer", time_control="", colours="first")
    person = next(side for side in range(2) if side not in app.built.computer_sides)
    if app.session.game.turn == person:
        move = app.session.game.legal_moves()[0]
        name = app.session.variant.geometry.name
        carry_out(board, name(move.start), [name(s) for s in move.path], [])   # the computer is to move (thinking)
        board.advance(2000)
    assert app.session.game.turn != person
    line = app.resign("the board's menu")
    assert app.session.result.winner == 1 - person and "resigned" in line


def resumed_after_a_power_cut(app: App, board) -> App:
    """The power goes off (nothing closed); the board comes back on the same
    store, offers the game and it is resumed with ok, the pieces as they stand."""
    again = App(store=Store(app.store.path), offer_resume=True)
    board.connect(again)
    assert again.state is AppState.RESUME
    board.button(Button.OK)
    assert again.state is AppState.GAME and again.clock is not None
    return again


def test_an_arbiters_time_change_on_a_paused_clock_survives_a_power_cut(tmp_path) -> None:
    """The arbiter pauses, gives Black a minute and sets White's time; the
    power goes off before the clock runs again. The resumed clock had
    neither: a paused clock was never stored again."""
    app, board, _ = live(tmp_path)
    app.pause_clock(WHO)
    board.advance(2000)
    app.adjust_clock(1, 60_000, WHO)
    app.set_clock(0, 90_000, WHO)
    at_the_cut = app.clock.view(board.now).remaining_ms
    again = resumed_after_a_power_cut(app, board)
    assert again.clock.view(board.now).remaining_ms == at_the_cut


def test_a_clock_restarted_in_a_resumed_game_is_stored_while_it_runs(tmp_path) -> None:
    """A game resumed after a power cut (its clock paused), the arbiter
    restarts the clock and White thinks 20 s; the power goes off again. The
    second resume gave White back the 20 s: the recorder planned no save of
    the running clock until some later input, and none came."""
    app, board, _ = live(tmp_path)
    board.advance(3000)
    again = resumed_after_a_power_cut(app, board)
    board.advance(500)
    again.tick(board.now)           # (the board's loop passes at the board's time, as `BoardLoop.step` does)
    again.resume_clock(WHO)
    board.advance(20_000)           # White thinks: the board has no input, its loop ticks at the App's deadlines
    at_the_cut = again.clock.view(board.now).remaining_ms
    third = resumed_after_a_power_cut(again, board)
    back = third.clock.view(board.now).remaining_ms
    assert back[1] == at_the_cut[1]
    assert 0 <= back[0] - at_the_cut[0] <= again.checkpoint_ms   # at most one checkpoint's time is lost
