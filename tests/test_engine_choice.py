"""Choosing the computer's engine when setting up a game: the board's menu,
a resumed game, the web page and `damka run --engine`. The external engine is
`python -m damka hub` started as an outside command (a real Hub engine), named
"DamkaHub" in the board's config."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from app_rig import on_board
from damka.cli import main
from damka.controller import events as ev
from damka.controller.app import App, AppState
from damka.controller.players.hub_coach import HubCoach
from damka.controller.players.hub_opponent import HubOpponent
from damka.controller.players.computer import ComputerOpponent
from damka.controller.game.setup import GameSetup
from damka.controller.store.store import Store
from damka.controller.board.board_map import BoardMap
from damka.hardware.interfaces import Button, ButtonPress
from damka.sim.virtual_board import VirtualBoard
from test_hub_opponent import idle, make
from waiting import wait_on_board, wait_until

HUB = f"{sys.executable} -m damka hub"
ENGINES = (("classic", "DamkaHub", HUB), ("international", "Other", HUB))


def press(app: App, button: Button) -> None:
    app.handle(ButtonPress(button, app.now))


def set_row(app: App, key: str, value: str) -> None:
    """Walk the menu with the buttons to the row `key` and step it to `value`."""
    menu = app.menu
    keys = [row.key for row in menu.visible_rows()]
    assert key in keys, f"the menu shows no {key} row: {keys}"
    while menu.current.key != key:
        press(app, Button.UP if keys.index(key) < menu.cursor else Button.DOWN)
    for _ in range(len(menu.current.choices)):
        if menu.current.value == value:
            return
        press(app, Button.OK)
    raise AssertionError(f"{key}: no choice {value!r} in {menu.current.choices}")


def start_from_menu(app: App, engine: str = "DamkaHub") -> None:
    """Against the computer, the person moving second (the computer at once), the engine chosen."""
    set_row(app, "mode", "computer")
    set_row(app, "colours", "second")
    set_row(app, "level", "beginner")
    set_row(app, "engine", engine)
    while app.menu.current.key != "start":
        press(app, Button.DOWN)
    press(app, Button.OK)
    assert app.state is AppState.GAME


def events_of(app: App) -> list:
    seen: list = []
    app.bus.subscribe(seen.append)
    return seen


def computer_moves(app: App, board: VirtualBoard) -> str:
    """Wait for the computer's move, note the screen's status while it thinks, carry the move out."""
    statuses: list[str] = []

    def answered() -> bool:
        if app.session.thinking:
            statuses.append(app.view().status)
        return not app.session.busy

    wait_on_board(board, answered, "an answer from the computer")
    status = next((text for text in statuses if text), "")
    ply = app.session.game.ply
    make(board, app, app.session.planned[0])
    assert app.session.game.ply == ply + 1
    return status


def person_moves(app: App, board: VirtualBoard, rng: random.Random) -> None:
    ply = app.session.game.ply
    make(board, app, rng.choice(app.session.game.legal_moves()))
    assert app.session.game.ply == ply + 1


def test_the_menu_offers_the_engines_configured_for_the_variant() -> None:
    app = App(setup=GameSetup(engines=ENGINES))
    menu = app.menu
    assert not menu.row("engine").visible  # casual: no computer, no coach
    set_row(app, "mode", "computer")
    assert menu.row("engine").visible
    assert menu.row("engine").choices == (("DamkaHub", "DamkaHub"), ("Damka", "Damka (own, by level)"))
    assert menu.row("engine").value == "DamkaHub"           # the config's first is the default
    set_row(app, "variant", "international")
    assert [value for value, _ in menu.row("engine").choices] == ["Other", "Damka"]
    set_row(app, "engine", "Damka")
    set_row(app, "variant", "russian")                         # none configured: nothing to choose
    assert not menu.row("engine").visible and menu.setup().engine == ""
    set_row(app, "variant", "classic")
    assert menu.row("engine").value == "Damka"                 # Damka's own, chosen, is kept
    set_row(app, "mode", "learning")                           # the coach uses the same choice
    assert menu.row("engine").visible
    set_row(app, "engine", "DamkaHub")
    assert menu.setup().engine == "DamkaHub" and menu.setup().engine_command() == HUB
    while app.menu.current.key != "start":
        press(app, Button.DOWN)
    press(app, Button.OK)
    coach = app.session.coach
    assert isinstance(coach, HubCoach) and coach.name == "DamkaHub" and coach.command == HUB
    assert app.view().title == "Classic draughts (Brazilian rules) - learning - DamkaHub"
    app.session.close()


def test_the_engine_chosen_in_the_menu_plays_the_computers_moves_and_shows_on_the_screen() -> None:
    app = App(setup=GameSetup(engines=ENGINES), seed=3)
    start_from_menu(app)
    opponent = app.session.opponent
    assert isinstance(opponent, HubOpponent) and opponent.command == HUB
    assert any(name.endswith(" (DamkaHub)") for name in app.game_players)   # the record names the engine
    board = on_board(app)
    try:
        status = computer_moves(app, board)
        assert status == "Waiting for the DamkaHub engine's move"
        assert app.view().title == "Classic draughts (Brazilian rules) - computer - DamkaHub"
        person_moves(app, board, random.Random(1))
        computer_moves(app, board)
        assert opponent.engine_moves == 2 and not opponent.failed
        assert opponent._client.engine_id.get("name") == "Damka"  # noqa: SLF001 - `damka hub` answered
    finally:
        app.session.close()
    # The next game from the menu starts with the same choice; Damka's own is one step away.
    press(app, Button.MENU)
    while app.overlay.current.key != "new":
        press(app, Button.DOWN)
    press(app, Button.OK)
    assert app.menu.row("engine").value == "DamkaHub"
    start_from_menu(app, "Damka")
    assert isinstance(app.session.opponent, ComputerOpponent) and app.view().title == "Classic draughts (Brazilian rules) - computer"
    app.session.close()


@pytest.fixture
def stored_game(tmp_path: Path) -> Path:
    """A game against DamkaHub, three plies played, then the power goes."""
    db = tmp_path / "games.db"
    with Store(db) as store:
        app = App(store=store, setup=GameSetup(engines=ENGINES), offer_resume=False, seed=5)
        start_from_menu(app)
        board = on_board(app)
        try:
            computer_moves(app, board)
            person_moves(app, board, random.Random(2))
            computer_moves(app, board)
            assert app.session.opponent.engine_moves == 2
            assert store.load_game(app.game_id).tags["DamkaEngine"] == "DamkaHub"
        finally:
            app.session.close()
    return db


def resume(store: Store, engines) -> tuple[App, VirtualBoard, list]:
    app = App(store=store, setup=GameSetup(engines=engines), seed=9)
    seen = events_of(app)
    assert app.state is AppState.RESUME and app.menu.current.key == "resume"
    press(app, Button.OK)
    game = app.session.game
    board = VirtualBoard(BoardMap(game.variant).names(game.variant.occupancy(game.position)))
    board.connect(app)
    board.advance(1000)
    assert app.session.game.ply == 3 and app.session.phase.value == "playing"
    return app, board, seen


def test_a_stored_game_resumes_with_its_engine(stored_game: Path) -> None:
    with Store(stored_game) as store:
        app, board, seen = resume(store, ENGINES)
        try:
            opponent = app.session.opponent
            assert isinstance(opponent, HubOpponent) and opponent.name == "DamkaHub"
            person_moves(app, board, random.Random(3))
            assert computer_moves(app, board) == "Waiting for the DamkaHub engine's move"
            assert opponent.engine_moves == 1 and app.view().title.endswith("- DamkaHub")
            assert not [e for e in seen if isinstance(e, ev.EngineFellBack)]
        finally:
            app.session.close()


def test_a_stored_game_whose_engine_is_no_longer_configured_says_so_and_damka_plays_on(stored_game: Path) -> None:
    with Store(stored_game) as store:
        app, board, seen = resume(store, ())
        try:
            person_moves(app, board, random.Random(3))
            assert "DamkaHub" not in computer_moves(app, board) and app.session.opponent.label == "computer"
            fell_back = [e.text for e in seen if isinstance(e, ev.EngineFellBack)]
            assert fell_back == ["engine DamkaHub is not configured for classic (board config [engines]); "
                                 "Damka's own engine plays on"]
            assert any(isinstance(e, ev.MessageShown) and e.text == fell_back[0] for e in seen)
            assert app.session.opponent.engine_moves == 0 and app.view().title == "Classic draughts (Brazilian rules) - computer"
            game = app.session.game
            assert game.ply == 5 and store.load_game(app.game_id).game.ply == 5  # no move lost, all stored
        finally:
            app.session.close()


def test_damka_run_engine_must_name_a_configured_engine(tmp_path: Path, capsys) -> None:
    config = tmp_path / "board.toml"
    config.write_text('[board]\nbackend = "sim"\n[engines.classic]\nDamkaHub = "damka hub"\n')
    base = ["run", "--config", str(config), "--variant", "classic", "--mode", "computer", "--db", str(tmp_path / "g.db")]
    assert main([*base, "--engine", "Scan"]) == 2
    line = capsys.readouterr().err.strip()
    assert "--engine Scan:" in line and "names no such engine for classic" in line and "DamkaHub, Damka" in line
    assert "\n" not in line
    assert main([*base, "--variant", "russian", "--engine", "DamkaHub"]) == 2
    assert "for russian; choose one of Damka" in capsys.readouterr().err


# -- the web page's setup -------------------------------------------------------------------


@pytest.fixture
def served_with_engines(tmp_path):
    pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")
    from web_support import Served

    served = Served(tmp_path, setup=GameSetup(engines=ENGINES))
    yield served
    served.rig.do(lambda: served.app.session and served.app.session.close())
    served.close()


def test_the_web_setup_offers_the_configured_engines_and_plays_through_the_chosen_one(served_with_engines) -> None:
    from web_support import request

    served = served_with_engines
    status, options = request(served, "GET", "/api/options")
    assert status == 200
    assert options["engines"] == {"classic": [["DamkaHub", "DamkaHub"], ["Damka", "Damka (own, by level)"]],
                                  "international": [["Other", "Other"], ["Damka", "Damka (own, by level)"]]}
    assert HUB not in str(options)  # the page sees names, never commands
    game = {"variant": "classic", "mode": "computer", "colours": "second", "level": "beginner", "engine": "DamkaHub"}
    status, answer = request(served, "POST", "/api/game/new", {"game": game}, code=served.code)
    assert status == 200, answer
    opponent = served.rig.do(lambda: served.app.session.opponent)
    assert isinstance(opponent, HubOpponent) and opponent.name == "DamkaHub" and opponent.command == HUB
    served.rig.set_up()
    wait_until(lambda: served.rig.do(lambda: served.app.session.planned), "a move from the engine")
    assert opponent.engine_moves == 1
    status, state = request(served, "GET", "/api/state")
    assert state["view"]["title"].endswith("- computer - DamkaHub"), state["view"]


def test_the_web_setup_refuses_an_engine_the_config_does_not_name(served_with_engines) -> None:
    from web_support import request

    served = served_with_engines
    before = served.rig.do(lambda: (served.app.state, id(served.app.built)))
    for engine in ("Other", "scan hub", "rm -rf /", HUB):  # another variant's name, commands
        game = {"variant": "classic", "mode": "computer", "engine": engine}
        status, answer = request(served, "POST", "/api/game/new", {"game": game}, code=served.code)
        assert status == 400, answer
        shown = repr(engine) if len(engine) <= 40 else repr(engine[:40] + "...")
        assert answer["error"] == (f"engine: {shown} is not an engine the board's config names for classic; "
                                   "choose one of DamkaHub, Damka")
    status, answer = request(served, "POST", "/api/game/new",
                             {"game": {"variant": "classic", "mode": "computer", "engine": "x" * 5000}}, code=served.code)
    assert status == 400 and len(answer["error"]) < 200 and answer["error"].startswith("engine: ")
    assert served.rig.do(lambda: (served.app.state, id(served.app.built))) == before
    status, _ = request(served, "POST", "/api/game/new",
                        {"game": {"variant": "classic", "mode": "computer", "engine": "damka"}}, code=served.code)
    assert status == 200 and isinstance(served.rig.do(lambda: served.app.session.opponent), ComputerOpponent)
