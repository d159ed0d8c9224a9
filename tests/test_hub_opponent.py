"""An external Hub engine as the board's computer and coach: `damka hub`
started as an outside command (a real Hub engine) plays whole games against
the person at the virtual board; killed mid-game, a hung engine or one that
answers an illegal move is reported and Damka's own engine plays on, with no
move lost."""

from __future__ import annotations

import os
import random
import signal
import sys
import textwrap
from pathlib import Path

import pytest

from damka.controller import events as ev
from damka.controller.app import App
from damka.controller.game.factory import build_game, build_variant
from damka.controller.players.hub_coach import HubCoach
from damka.controller.players.hub_opponent import HubOpponent
from damka.controller.players.computer import ComputerOpponent
from damka.controller.game.setup import GameSetup
from damka.engine import Game, find_variant
from damka.engine.notation import parse_move
from damka.config import parse_config
from damka.hardware.errors import ConfigError
from damka.sim.virtual_board import VirtualBoard
from waiting import DEADLINE_S, wait_on_board, wait_until
from app_rig import make_move as make, on_board

HUB = f"{sys.executable} -m damka hub"


def idle(app: App, board: VirtualBoard) -> None:
    wait_on_board(board, lambda: not app.session.busy, "an answer from the computer")


def play_out(app: App, board: VirtualBoard, rng: random.Random, *, kill_at: int | None = None,
             max_plies: int = 400, killed_at: list[int] | None = None) -> list[str]:
    """Play the person's side at random and carry out the computer's moves
    until the game ends; `kill_at`: SIGKILL the engine while it thinks at that ply."""
    session = app.session
    killed_at = [] if killed_at is None else killed_at
    while not session.game.is_over and session.game.ply < max_plies:
        ply = session.game.ply
        if session.game.turn in session.settings.computer_sides:
            if kill_at is not None and ply >= kill_at and len(session.game.legal_moves()) > 1:
                pid = session.opponent._client.pid if session.opponent._client else None  # noqa: SLF001
                assert pid is not None and session.thinking
                os.kill(pid, signal.SIGKILL)
                killed_at.append(ply)
                kill_at = None
                session.opponent.fallback.time_per_move = 0.05  # the rest of the game quickly
            idle(app, board)
            make(board, app, session.planned[0])
        else:
            if kill_at is not None and ply + 1 >= kill_at:
                session.opponent.time_per_move = 5.0       # it cannot answer before it is killed
            make(board, app, rng.choice(session.game.legal_moves()))
        assert session.game.ply == ply + 1, f"the move at ply {ply + 1} was not committed"
    return [event.text for event in app_events(app) if isinstance(event, ev.EngineFellBack)]


_SEEN: dict[int, list] = {}


def app_events(app: App) -> list:
    return _SEEN[id(app)]


def make_app(variant: str, move_time: float) -> App:
    setup = GameSetup(variant, mode="computer", colours="first", level="master", move_time=move_time,
                      engines=((variant, "DamkaHub", HUB),))
    app = App(setup=setup, start_game=True, seed=7)
    _SEEN[id(app)] = []
    app.bus.subscribe(_SEEN[id(app)].append)
    return app


@pytest.mark.parametrize("variant", ["classic", "international"])
def test_the_board_plays_a_whole_game_against_damka_hub_as_an_external_engine(variant: str) -> None:
    app = make_app(variant, 0.05)
    opponent = app.session.opponent
    assert isinstance(opponent, HubOpponent)
    board = on_board(app)
    try:
        fell_back = play_out(app, board, random.Random(1))
        game = app.session.game
        assert game.is_over, f"no result after {game.ply} plies"
        assert fell_back == [] and not opponent.failed
        # Every computer move came from the engine and was carried out on the board.
        computer_plies = sum(1 for i in range(game.ply) if i % 2 == 1)
        assert opponent.engine_moves == computer_plies > 5
        assert opponent._client is not None and opponent._client.engine_id.get("name") == "Damka"  # noqa: SLF001
    finally:
        app.session.close()
    assert opponent._client is None  # noqa: SLF001 - the engine process was ended with the game


def test_the_engine_killed_mid_game_is_reported_and_damkas_engine_plays_on() -> None:
    app = make_app("classic", 0.05)
    opponent = app.session.opponent
    board = on_board(app)
    try:
        killed_at: list[int] = []
        fell_back = play_out(app, board, random.Random(2), kill_at=6, killed_at=killed_at)
        game = app.session.game
        assert game.is_over
        assert len(fell_back) == 1 and "died" in fell_back[0] and "Damka's own engine plays on" in fell_back[0]
        # The engine's moves up to the kill (the computer plays the odd plies), the rest from Damka's own.
        assert len(killed_at) == 1 and opponent.engine_moves == killed_at[0] // 2 >= 3
        assert any(isinstance(e, ev.MessageShown) and "failed" in e.text for e in app_events(app))
        moves = [e for e in app_events(app) if isinstance(e, ev.MoveCommitted) and not e.redo]
        assert [e.move for e in moves] == list(game.moves)  # every move committed once, none lost
    finally:
        app.session.close()


# -- broken engines: real subprocesses that break the protocol --------------------------

FAKE = textwrap.dedent('''
    import sys, time
    mode = sys.argv[1]
    for line in sys.stdin:
        word = line.split()[0] if line.split() else ""
        if word == "hub":
            print("id name=Fake"); print("wait", flush=True)
        elif word == "init":
            print("ready", flush=True)
        elif word == "go":
            if mode == "hang":
                time.sleep(60)
            elif mode == "illegal":
                print("done move=1-5", flush=True)
            elif mode == "exit":
                sys.exit(3)
        elif word == "quit":
            break
''')


@pytest.fixture
def fake_engine(tmp_path: Path):
    path = tmp_path / "fake_engine.py"
    path.write_text(FAKE)
    return lambda mode: f"{sys.executable} {path} {mode}"


@pytest.mark.parametrize("mode, words", [("hang", "hangs"), ("illegal", "not legal"), ("exit", "died"),
                                          ("missing", "cannot start")])
def test_a_broken_engine_is_given_up_and_the_move_still_comes(fake_engine, mode: str, words: str) -> None:
    variant = find_variant("classic")
    command = "/nonexistent/engine hub" if mode == "missing" else fake_engine(mode)
    opponent = HubOpponent(variant, command, fallback=ComputerOpponent(variant, "casual", time_per_move=0.1),
                           time_per_move=0.1, grace=1.0)
    game = Game(variant)
    game.push(parse_move(variant, game.position, "c3-d4"))
    try:
        opponent.start(game)
        move = opponent.wait(DEADLINE_S)
        assert move in variant.legal_moves(game.position)
        notices = opponent.take_notices()
        assert len(notices) == 1 and words in notices[0], notices
        assert opponent.take_notices() == []               # said once
        opponent.start(game)                               # the rest of the game: Damka's own, at once
        assert opponent.wait(DEADLINE_S) in variant.legal_moves(game.position)
    finally:
        opponent.close()


def test_an_engine_that_died_between_moves_is_reported_not_restarted() -> None:
    variant = find_variant("classic")
    opponent = HubOpponent(variant, HUB, fallback=ComputerOpponent(variant, "casual", time_per_move=0.05),
                           time_per_move=0.05)
    game = Game(variant)
    try:
        opponent.start(game)
        assert opponent.wait(DEADLINE_S) in variant.legal_moves(game.position) and opponent.engine_moves == 1
        client = opponent._client  # noqa: SLF001
        os.kill(client.pid, signal.SIGKILL)
        wait_until(lambda: not client.alive, "the engine process gone")
        game.push(game.legal_moves()[0])
        game.push(game.legal_moves()[0])
        opponent.start(game)
        assert opponent.wait(DEADLINE_S) in variant.legal_moves(game.position) and opponent.engine_moves == 1
        assert "died between moves" in opponent.take_notices()[0]
    finally:
        opponent.close()


def test_the_engines_time_comes_from_the_clock() -> None:
    setup = GameSetup("classic", mode="computer", colours="first", time_control="1+0", engines=(("classic", "DamkaHub", HUB),))
    built = build_game(setup)
    opponent = built.session.opponent
    game = Game(built.variant)
    assert opponent._level(game) == ({"time": "60.000", "inc": "0.000"}, 60.0)  # noqa: SLF001
    untimed = build_game(GameSetup("classic", mode="computer", move_time=0.5, engines=(("classic", "DamkaHub", HUB),)))
    assert untimed.session.opponent._level(game) == ({"move-time": "0.500"}, 0.5)  # noqa: SLF001
    own = build_game(GameSetup("classic", mode="computer", engines=(("international", "DamkaHub", HUB),)))
    assert isinstance(own.session.opponent, ComputerOpponent)  # only the variant named gets the engine


def test_the_coach_hints_and_warns_through_the_engine(fake_engine) -> None:
    variant = build_variant(GameSetup("classic"))
    coach = HubCoach(variant, HUB, hint_time=0.5, check_time=0.3)
    try:
        # g3-h4 wins (puzzle classic-0084, from a real game). Damka's search picks it at every
        # depth from 2 to 18, so the hint does not hang on how deep 0.5 s reaches on a busy
        # machine: in tests/test_coach.py's shot d4-e5 and a1-b2 trade places at depth 12.
        shot = Game(variant, variant.parse_position("W:We1,g3,d4,f4,c5:BKc1,h6,a7,c7,e7"))
        assert coach.hint(shot) == parse_move(variant, shot.position, "g3-h4") and coach.hints_used == 1
        game = Game(variant, variant.parse_position("W:Wa1,d4:Bf6,h8"))
        blunder = parse_move(variant, game.position, "d4-e5")  # f6xd4 follows
        warning = coach.check_blunder(game, blunder)
        assert warning is not None and warning.loss >= 100 and warning.better not in (None, blunder)
        assert warning.line and warning.line[0].captures
        assert coach.check_blunder(game, parse_move(variant, game.position, "d4-c5")) is None
        assert coach.engine_answers == 3 and not coach.failed
    finally:
        coach.close_engine()
    broken = HubCoach(variant, fake_engine("exit"), hint_time=0.1)
    assert broken.hint(Game(variant)) in variant.legal_moves(variant.start_position())
    assert "died" in broken.take_notices()[0] and broken.take_notices() == []


def test_the_engines_section_of_the_board_config() -> None:
    config = parse_config({"engines": {"international": "/usr/games/scan hub",
                                       "classic": {"Scan": "scan hub", "Kingsrow": "kr --hub"}}})
    assert config.engines == {"international": {"scan hub": "/usr/games/scan hub"},
                              "classic": {"Scan": "scan hub", "Kingsrow": "kr --hub"}}
    assert config.engine_table() == (("international", "scan hub", "/usr/games/scan hub"),
                                     ("classic", "Scan", "scan hub"), ("classic", "Kingsrow", "kr --hub"))
    with pytest.raises(ConfigError, match=r"\[engines.classic\] damka: Damka is the board's own engine"):
        parse_config({"engines": {"classic": {"damka": "damka hub"}}})
    with pytest.raises(ConfigError, match=r"\[engines.classic\] scan: named twice"):
        parse_config({"engines": {"classic": {"Scan": "scan hub", "scan": "scan hub"}}})
    with pytest.raises(ConfigError, match=r"\[engines.classic\] Scan: expected an engine command"):
        parse_config({"engines": {"classic": {"Scan": ""}}})
    with pytest.raises(ConfigError, match=r"\[engines\] classic: expected at least one engine"):
        parse_config({"engines": {"classic": {}}})
    with pytest.raises(ConfigError, match=r"\[engines\] chess: unknown variant"):
        parse_config({"engines": {"chess": "stockfish"}})
    with pytest.raises(ConfigError, match=r"\[engines\] classic: expected an engine command"):
        parse_config({"engines": {"classic": " "}})
