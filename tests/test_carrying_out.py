"""An outside program's move is timed by its own clock, which stopped when it
sent the move. The time people take to carry it out on the board counts as
the board's config says ([clock] carrying_out): for nobody (the default: the
board's clock stops, the screen says "carrying out"), for the mover (its
clock runs on until the move stands) or for the side to move next (its clock
starts as the move arrives); for a DXP peer and a Hub engine at the board.
Damka's own computer is timed as before. Real sockets and processes; the
board's time is the virtual board's."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from damka.commands.run import app_options
from damka.config import load_config, parse_config
from damka.controller.config.board_config import CARRYING_OUT
from damka.hardware.errors import ConfigError

from damka.controller import events as ev
from damka.controller.app import App, AppState
from damka.controller.clock.records import State
from damka.controller.game.setup import GameSetup
from damka.controller.session.types import CarryingOut
from damka.controller.store.store import Store
from damka.dxp import protocol as dxp
from damka.engine.move import Move
from damka.hardware.interfaces import Button
from damka.sim.virtual_board import VirtualBoard
from tests.test_dxp import make as make_dxp, next_of, wait_for_peer
from tests.test_dxp_clock import follower_game
from tests.test_cli_run_options import damka
from tests.test_hub_opponent import idle, make, on_board

HUB = f"{sys.executable} -m damka hub"
CARRY_MS = 20_000      # people slow to carry the move out
SETTLE_MS = 5_000      # at most this much more: the pieces moved step by step, the board settling
# A Hub engine thinks for its share of the clock in real time (`damka hub`: a
# 25th of it): one minute, not five, so each answer takes 2-4 s, not 12-13.
# A minute still holds the person's move and CARRY_MS + SETTLE_MS.
HUB_CLOCK = "1+0"
HUB_CLOCK_INC = "1+3"


def history(app: App) -> ev.EventHistory:
    events = ev.EventHistory()
    app.bus.subscribe(events)
    return events


def lost(before: tuple[int, ...], after: tuple[int, ...] | None) -> tuple[int, ...]:
    """Time each side lost between two readings of the clock (ms)."""
    assert after is not None
    return tuple(b - a for b, a in zip(before, after))


def assert_charged(who: CarryingOut, mover: int, loss: tuple[int, ...]) -> None:
    """The carrying out was `who`'s time: `mover` is the program's side, the other the person's."""
    person = 1 - mover
    charged = {CarryingOut.NOBODY: None, CarryingOut.MOVER: mover, CarryingOut.NEXT: person}[who]
    for side in (0, 1):
        if side == charged:
            assert CARRY_MS <= loss[side] <= CARRY_MS + SETTLE_MS, (who, loss)
        else:
            assert loss[side] == 0, (who, loss)


def assert_screen_while_lit(app: App, who: CarryingOut) -> None:
    status = app.view().status
    if who is CarryingOut.NOBODY:
        assert app.clock.state is State.PAUSED and "carrying out" in status
    else:
        assert app.clock.state is State.RUNNING and "carrying out" not in status and "paused" not in status


@pytest.mark.parametrize("paused", [False, True], ids=["clock running", "paused while the peer thinks"])
@pytest.mark.parametrize("who", list(CarryingOut))
def test_a_dxp_peers_move_carried_out_is_charged_as_the_config_says(who: CarryingOut, paused: bool) -> None:
    """`paused`: the arbiter pauses while the peer thinks and restarts once its move is lit. The
    move came on a stopped clock, so nothing was done for it then; the restart does it. (Before,
    the restarted clock ran for the peer while people carried its move out, whatever the config.)"""
    app, board, peer, _port, redial = follower_game(minutes=5, carrying_out=who)
    events = history(app)
    try:
        session = app.session
        make_dxp(board, app, session.game.legal_moves()[0])          # the board (white) moves
        next_of(peer, dxp.MoveMessage)
        board.advance(4_000)                                          # the peer thinks: its time
        if paused:
            app.pause_clock("arbiter")
        reply = session.game.legal_moves()[0]
        peer.send(dxp.move_message(session.variant, reply))
        wait_for_peer(app, board)                                     # its move is lit
        if paused:
            board.advance(1_000)
            app.resume_clock("arbiter")
        lit = app.clock_ms()
        assert lit is not None and lit[1] <= 300_000 - 4_000
        assert_screen_while_lit(app, who)
        board.advance(CARRY_MS)
        make_dxp(board, app, reply)
        assert session.game.ply == 2 and app.clock.state is State.RUNNING
        assert_charged(who, 1, lost(lit, events.of(ev.MoveCommitted)[-1].clock_ms))
        assert "carrying out" not in app.view().status
    finally:
        peer.close()
        redial.close()


def hub_app(engines: bool, carrying_out: CarryingOut = CarryingOut.NOBODY) -> App:
    setup = GameSetup("classic", mode="computer", colours="first", level="casual", time_control=HUB_CLOCK,
                      engines=(("classic", "DamkaHub", HUB),) if engines else ())
    return App(setup=setup, start_game=True, seed=7, carrying_out=carrying_out)


def carry_out_the_computers_move(app: App, who: CarryingOut) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The person's first move, the computer's answer lit, people slow to carry it
    out: the clock (ms left per side) when the answer was lit and when it was committed."""
    board = on_board(app)
    events = history(app)
    session = app.session
    make(board, app, session.game.legal_moves()[0])
    idle(app, board)
    assert session.planned, "the computer's move is lit"
    lit = app.clock_ms()
    assert lit is not None
    if session.opponent.engine_name:
        assert_screen_while_lit(app, who)
    else:
        assert "carrying out" not in app.view().status
    board.advance(CARRY_MS)
    make(board, app, session.planned[0])
    assert session.game.ply == 2
    committed = events.of(ev.MoveCommitted)[-1].clock_ms
    assert committed is not None
    return lit, committed


@pytest.mark.parametrize("who", list(CarryingOut))
def test_a_hub_engines_move_carried_out_at_the_board_is_charged_as_the_config_says(who: CarryingOut) -> None:
    app = hub_app(engines=True, carrying_out=who)
    try:
        assert app.session.opponent.engine_name == "DamkaHub"
        lit, committed = carry_out_the_computers_move(app, who)
        assert_charged(who, 1, lost(lit, committed))
        assert app.session.opponent.engine_moves == 1
    finally:
        app.session.close()


@pytest.mark.parametrize("who", [CarryingOut.NOBODY, CarryingOut.NEXT])
def test_a_power_cut_while_an_engines_move_is_carried_out_keeps_the_clock(who: CarryingOut, tmp_path: Path) -> None:
    """The engine's move is lit and the clock stopped for it (nobody's time) or
    pressed for it (the next side's); the power goes before people carry it
    out. The resumed clock is the clock at the cut: before, a stopped clock was
    not stored, so the engine got back the time it had thought, and the early
    press was lost (the person's increment with it)."""
    setup = GameSetup("classic", mode="computer", colours="first", level="casual", time_control=HUB_CLOCK_INC,
                      engines=(("classic", "DamkaHub", HUB),))
    app = App(store=Store(tmp_path / "games.db"), setup=setup, start_game=True, seed=7, carrying_out=who)
    again = None
    try:
        board = on_board(app)
        make(board, app, app.session.game.legal_moves()[0])
        idle(app, board)
        assert app.session.planned, "the engine's move is lit"
        expected_state = State.PAUSED if who is CarryingOut.NOBODY else State.RUNNING
        assert app.clock.state is expected_state
        at_the_cut = app.clock_ms()
        active = app.clock.active
        assert at_the_cut is not None and active == (1 if who is CarryingOut.NOBODY else 0)
        # The power goes: nothing is closed; the board comes back on the same store and resumes.
        again = App(store=Store(tmp_path / "games.db"), setup=setup, offer_resume=True, seed=7, carrying_out=who)
        board.connect(again)
        assert again.state is AppState.RESUME
        board.button(Button.OK)
        assert again.state is AppState.GAME and again.clock is not None
        assert again.clock.state is State.PAUSED                  # a resumed clock waits for play
        assert again.clock_ms() == at_the_cut and again.clock.active == active
    finally:
        app.session.close()
        if again is not None and again.session is not None:
            again.session.close()


@pytest.mark.parametrize("who", [CarryingOut.NOBODY, CarryingOut.NEXT])
def test_damkas_own_computer_is_timed_as_before(who: CarryingOut) -> None:
    """Whatever the config says of outside programs: the board's own computer
    is charged for its moves until they stand, as it always was."""
    app = hub_app(engines=False, carrying_out=who)
    try:
        lit, committed = carry_out_the_computers_move(app, who)
        assert_charged(CarryingOut.MOVER, 1, lost(lit, committed))
    finally:
        app.session.close()


def engine_move_pressed_early() -> tuple[App, VirtualBoard, Move, tuple[int, ...]]:
    """Carrying out counts for the next side, 1+3: the person's first move, the
    engine's answer lit and its turn pressed as it arrived (its increment
    added): the App, its board, the person's move, the clock then."""
    setup = GameSetup("classic", mode="computer", colours="first", level="casual", time_control=HUB_CLOCK_INC,
                      engines=(("classic", "DamkaHub", HUB),))
    app = App(setup=setup, start_game=True, seed=7, carrying_out=CarryingOut.NEXT)
    board = on_board(app)
    session = app.session
    first = session.game.legal_moves()[0]
    make(board, app, first)
    idle(app, board)
    assert session.planned and app.clock.active == 0          # the person's time runs
    lit = app.clock_ms()
    assert lit is not None
    return app, board, first, lit


def test_a_take_back_while_the_next_sides_time_runs_takes_the_early_press_back_too() -> None:
    """The person takes their own move back before carrying the engine's out:
    that move is not played, so its press goes back with the person's (the
    increment comes off) and the person is to move."""
    app, board, first, lit = engine_move_pressed_early()
    session = app.session
    try:
        board.advance(3_000)
        name = session.variant.geometry.name
        board.button(Button.TAKE_BACK)
        board.advance(100)
        board.lift(name(first.path[-1]))
        board.advance(100)
        board.drop(name(first.start))
        board.advance(2_500)
        assert session.game.ply == 0 and app.clock.active == 0 and not session.planned
        assert app.clock_ms()[1] == lit[1] - 3_000                 # the engine's early increment came off
    finally:
        app.session.close()


def test_the_arbiters_undo_while_the_next_sides_time_runs_leaves_board_and_clock_agreeing() -> None:
    """The clock's last press is the engine's, made as its move arrived: the
    arbiter's undo takes it back, and with it the person's turn the App takes
    back; the person is to move on the board and on the clock."""
    app, board, _first, lit = engine_move_pressed_early()
    try:
        board.advance(3_000)
        app.undo_clock_press("test")
        board.advance(100)
        assert app.session.game.ply == 0 and app.clock.active == 0 and app.clock.state is State.PAUSED
        assert app.clock_ms()[1] == lit[1] - 3_000                 # the engine's early increment came off
    finally:
        app.session.close()


# -- the board config: [clock] carrying_out ----------------------------------------------


@pytest.mark.parametrize("who", list(CarryingOut))
def test_the_board_config_gives_the_choice_to_every_game(who: CarryingOut) -> None:
    config = parse_config({"clock": {"carrying_out": who.value}}, "board.toml")
    app = App(setup=GameSetup("international", mode="computer", colours="first"), start_game=True,
              **app_options(config))
    try:
        assert app.session.settings.carrying_out is who
        app.new_game(GameSetup("classic", mode="computer", colours="first"))   # the next game too
        assert app.session.settings.carrying_out is who
    finally:
        app.session.close()


def test_without_the_setting_carrying_out_is_nobodys_time() -> None:
    assert parse_config({}).clock.carrying_out == "nobody"
    example = Path(__file__).resolve().parent.parent / "docs" / "board.example.toml"
    assert load_config(example).clock.carrying_out == "nobody"
    assert 'carrying_out = "nobody"' in example.read_text(encoding="utf-8")
    assert CARRYING_OUT == tuple(who.value for who in CarryingOut)


@pytest.mark.parametrize("value", ["me", "Mover", 1, True])
def test_a_bad_value_is_one_line_naming_the_file_the_key_and_the_values(value) -> None:
    with pytest.raises(ConfigError) as error:
        parse_config({"clock": {"carrying_out": value}}, "/etc/damka/board.toml")
    assert str(error.value) == ("/etc/damka/board.toml: [clock] carrying_out: expected one of nobody, mover, next, "
                                f"got {value!r}")


def test_damka_dxp_says_a_bad_config_before_it_waits_for_a_peer(tmp_path: Path) -> None:
    config = tmp_path / "board.toml"
    config.write_text('[board]\nbackend = "sim"\n[clock]\ncarrying_out = "peer"\n', encoding="utf-8")
    done = damka("dxp", "--listen", "0", "--config", str(config), "--seconds", "30",
                 "--db", str(tmp_path / "games.db"), home=tmp_path)
    assert done.returncode == 2 and "waiting for a DXP peer" not in done.stdout, done.stdout
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].endswith(
        f"{config}: [clock] carrying_out: expected one of nobody, mover, next, got 'peer'"), done.stderr
