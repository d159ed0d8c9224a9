"""The app: inputs to the session, every committed move to the store, the
clock started, checkpointed and flagged, matches, and the hardware loop."""

from __future__ import annotations

from pathlib import Path

from damka.controller.app import App, AppState
from damka.controller.board_loop import BoardLoop
from damka.controller.app.match import Match
from damka.controller.clock.records import State
from damka.controller.store.store import Store
from damka.controller.board.board_map import BoardMap
from damka.controller.game.setup import GameSetup
from damka.display.screen import GameView, ResultView
from damka.engine import Result
from damka.hardware.interfaces import Button, ButtonPress, Buttons, BoardSensor, ClockPress, LedOutput, Role, Snapshot
from damka.sim.virtual_board import VirtualBoard, carry_out
from app_rig import on_board
from waiting import wait_on_board


class CountingStore(Store):
    transactions = 0

    def record_plies(self, *args, **kwargs):
        self.transactions += 1
        return super().record_plies(*args, **kwargs)



def computer_answers(app: App, board: VirtualBoard) -> None:
    """Let the board's time pass (the loop stays live) until the computer's search answers."""
    wait_on_board(board, lambda: not app.session.thinking, "the computer's answer")


def make(board: VirtualBoard, app: App, move) -> None:
    name = app.session.variant.geometry.name
    carry_out(board, name(move.start), [name(s) for s in move.path], [name(s) for s in move.captures])


def test_each_committed_move_is_stored_at_once(tmp_path: Path) -> None:
    with CountingStore(tmp_path / "g.db") as store:
        app = App(store=store, setup=GameSetup("russian"), start_game=True)
        board = on_board(app)
        for ply in range(1, 7):
            make(board, app, app.session.game.legal_moves()[0])
            board.advance(2500)
            assert app.session.game.ply == ply
            assert store.load_game(app.game_id).game.ply == ply  # already in the database
        assert store.transactions == 6
        assert len(store.events(app.game_id)) > 10  # the raw sensor log goes along


def test_a_multiwarcaby_turn_is_one_transaction(tmp_path: Path) -> None:
    with CountingStore(tmp_path / "g.db") as store:
        app = App(store=store, setup=GameSetup("multiwarcaby7"), start_game=True)
        board = on_board(app)
        variant = app.session.variant
        position = app.session.game.position
        first = next(m for m in variant.legal_moves(position) if not m.captures)
        make(board, app, first)
        position = variant.play(position, first)
        second = next(m for m in variant.legal_moves(position) if not m.captures and m.start != first.end
                      and m.end != first.start)
        make(board, app, second)
        board.advance(200)
        board.press(0)
        board.advance(200)
        assert app.session.game.ply == 2
        assert store.transactions == 1 and store.load_game(app.game_id).game.ply == 2


def test_take_back_is_stored(tmp_path: Path) -> None:
    with Store(tmp_path / "g.db") as store:
        app = App(store=store, setup=GameSetup("classic"), start_game=True)
        board = on_board(app)
        move = app.session.game.legal_moves()[0]
        make(board, app, move)
        board.advance(2500)
        assert store.load_game(app.game_id).game.ply == 1
        name = app.session.variant.geometry.name
        board.lift(name(move.end))
        board.drop(name(move.start))
        board.advance(2500)
        assert app.session.game.ply == 0 and store.load_game(app.game_id).game.ply == 0


def test_the_clock_starts_with_the_first_press_and_a_flag_ends_the_game(tmp_path: Path) -> None:
    with Store(tmp_path / "g.db") as store:
        app = App(store=store, setup=GameSetup("classic", mode="tournament", time_control="0.05"), start_game=True)
        assert app.clock.state is State.READY
        board = on_board(app)
        board.advance(60_000)   # set up, nobody has pressed or moved: the clock waits (as tournament clocks do)
        assert app.clock.state is State.READY and app.session.result is None
        board.press(1)          # black starts white's clock
        assert app.clock.state is State.RUNNING and app.clock.active == 0
        board.advance(1000)
        saved = store.load_game(app.game_id).clock_ms
        assert saved[0] < 3000  # checkpointed while white thinks
        board.advance(3000)
        assert app.state is AppState.RESULT
        view = app.view()
        assert isinstance(view, ResultView) and view.title == "Black wins" and view.reason == "on time"
        games = store.list_games()
        assert games[0].result == "0-2"
        assert store.arbiter_log(app.game_id)[0][2:] == ("result", "on time")


def test_against_the_computer_its_move_is_lit_and_carried_out() -> None:
    app = App(setup=GameSetup("classic", mode="computer", colours="second"), start_game=True)
    board = on_board(app)
    computer_answers(app, board)
    assert Role.COMPUTER_FROM in board.leds.values()
    start = next(sq for sq, role in board.leds.items() if role is Role.COMPUTER_FROM)
    end = next(sq for sq, role in board.leds.items() if role is Role.COMPUTER_TO)
    board.lift(start)
    board.drop(end)
    board.advance(2500)
    assert app.session.game.ply == 1
    assert isinstance(app.view(), GameView)


def test_menu_button_opens_the_game_menu_and_draw_by_agreement(tmp_path: Path) -> None:
    with Store(tmp_path / "g.db") as store:
        app = App(store=store, setup=GameSetup("classic"), start_game=True, players=["Ala", "Ola"])
        board = on_board(app)
        board.button(Button.MENU)
        assert app.overlay is not None and app.view().menu.title == "Game"
        board.button(Button.DOWN)
        board.button(Button.OK)
        assert app.state is AppState.RESULT and app.view().title == "Draw"
        assert app.match.points == {"Ala": 0.5, "Ola": 0.5}
        assert store.list_games()[0].result == "1-1"


def test_match_for_three_players_ranks_by_small_points_and_rotates() -> None:
    match = Match(["A", "B", "C"])
    assert match.order() == ["A", "B", "C"]
    match.record(["A", "B", "C"], Result((0, 0, 0), (2, 1, 3), "stand-off"), (4, 7, 1))
    assert match.order() == ["B", "C", "A"]
    match.record(["B", "C", "A"], Result((0, 0, 0), (1, 2, 3), "stand-off"), (5, 2, 0))
    assert match.small_points == {"A": 4, "B": 12, "C": 3}
    assert [s.name for s in match.standings({})] == ["A", "B", "C"]


class FakeDevices(BoardSensor, LedOutput, Buttons):
    def __init__(self, occupied) -> None:
        self.occupied = frozenset(occupied)
        self.queue: list = []
        self.frames: list = []

    def snapshot(self) -> Snapshot:
        return Snapshot(self.occupied, 0)

    def show(self, frame) -> None:
        self.frames.append(dict(frame))

    def presses(self):
        out, self.queue = self.queue, []
        return out


def test_board_loop_drives_the_app_from_devices() -> None:
    app = App(setup=GameSetup("classic"), start_game=True)
    variant = app.session.variant
    devices = FakeDevices(BoardMap(variant).names(variant.occupancy(variant.start_position())))
    now = [0]
    views = []
    loop = BoardLoop(app, devices, devices, devices, now_ms=lambda: now[0], draw=views.append)
    for _ in range(20):
        loop.step()
        now[0] += 100
    assert app.session.phase.value == "playing"
    devices.occupied = (devices.occupied - {"c3"}) | {"d4"}
    for _ in range(30):
        loop.step()
        now[0] += 100
    assert [c.text for c in app.session.committed] == ["c3-d4"]
    assert devices.frames and devices.frames[-1].get("d4") is Role.LAST_MOVE
    devices.queue.append(ButtonPress(Button.MENU, 0))
    loop.step()
    assert app.overlay is not None
    assert views and isinstance(views[0], GameView)
    devices.queue.append(ClockPress(0, 0))
    loop.step()  # a press goes nowhere while the menu is open, and nothing breaks


def test_leaving_a_game_for_a_new_one_keeps_it_as_abandoned(tmp_path: Path) -> None:
    with Store(tmp_path / "g.db") as store:
        app = App(store=store, setup=GameSetup("classic"), start_game=True)
        board = on_board(app)
        make(board, app, app.session.game.legal_moves()[0])
        board.advance(2500)
        first = app.game_id
        board.button(Button.MENU)
        for _ in range(9):
            board.button(Button.DOWN)    # down to "New game", the last row: the cursor stops there
        board.button(Button.OK)
        assert app.state is AppState.MENU
        board.button(Button.MENU)        # back: the game goes on, still open
        assert app.state is AppState.GAME and store.last_unfinished().id == first
        board.button(Button.MENU)
        for _ in range(9):
            board.button(Button.DOWN)
        board.button(Button.OK)
        board.button(Button.OK)          # start a new game
        board.advance(1500)
        assert app.game_id != first
        games = store.list_games()
        assert [(g.id, g.result, g.finished) for g in games][:1] == [(first, "*", True)]


def test_colours_by_lot_or_chosen() -> None:
    orders = {tuple(App(setup=GameSetup("classic"), players=["Ala", "Ola"], seed=seed).match.players)
              for seed in range(20)}
    assert orders == {("Ala", "Ola"), ("Ola", "Ala")}
    chosen = App(setup=GameSetup("classic", colours="first"), players=["Ala", "Ola"], start_game=True)
    assert chosen.game_players == ["Ala", "Ola"]
