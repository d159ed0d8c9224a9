"""A take-back and the clock: the side whose move was taken back is to move
again and its clock runs; the time each side used stays used, the increment
of the move taken back comes off again; the stored game (moves, clock times,
the clock itself for a resume) says the same as the board.

Through the real paths: `damka replay` on the sensor log of issue 20, and the
App on a virtual board (virtual time) with a store, `damka export`'s PDN and
a resume after a power cut. The times are worked out by hand in comments.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from damka.cli import main
from damka.controller.app import App
from damka.controller.game.setup import GameSetup
from damka.controller.store.store import Store
from damka.controller.store.pdn import export_pdn
from damka.controller.clock.controls import make_clock
from damka.engine.notation import format_move
from damka.hardware.interfaces import Button
from damka.sim.virtual_board import VirtualBoard, carry_out
from app_rig import on_board, resumed_at_board
from test_session_rig import Rig, events_of

# Issue 20's log: c3-d4 and press, the take-back button, the piece put back,
# white thinks 56 s, c3-d4 again.
ISSUE_LOG = """\
0 press black
1000 up c3
1200 down d4
1500 press white
4000 button takeback
4100 up d4
4200 down c3
60000 up c3
61000 down d4
62000 press white
"""
# 5+3 (3 s before move 1 too): both start on 303000.
#   white presses at 1500: 303000 - 1500 + 3000 = 304500; black 303000, running.
#   the board shows c3 again from 4200, quiet for 1000 ms: taken back at 5200.
#   black's clock ran 1500-5200: 303000 - 3700 = 299300, and stops;
#   white's increment for the move taken back comes off: 304500 - 3000 = 301500, and runs.
#   c3-d4 again, settled at 61300 (300 ms after the drop): 301500 - 56100 + 3000 = 248400.
WHITE_BACK, BLACK_BACK = 301500, 299300
WHITE_AGAIN = 248400


def replay_lines(capsys, tmp_path: Path, *args: str) -> list[dict]:
    log = tmp_path / "takeback.log"
    log.write_text(ISSUE_LOG)
    assert main(["replay", "classic", str(log), "--time-control", "5+3", *args]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_replay_after_a_takeback_the_clock_of_the_side_to_move_runs(capsys, tmp_path: Path) -> None:
    lines = replay_lines(capsys, tmp_path)
    moves = [line for line in lines if "ply" in line]
    assert [line for line in lines if "event" in line] == [
        {"event": "takeback", "plies": 1, "time_ms": 5200, "clock": {"white": WHITE_BACK, "black": BLACK_BACK}}]
    assert moves[0]["clock"] == {"white": 304500, "black": 303000}
    assert moves[1]["move"] == "c3-d4" and moves[1]["time_ms"] == 61300
    assert moves[1]["clock"] == {"white": WHITE_AGAIN, "black": BLACK_BACK}
    # The log ends at 62000 with black to move: black's clock has run 700 ms since.
    assert lines[-1]["clock"] == {"white": WHITE_AGAIN, "black": BLACK_BACK - 700}


def test_replay_pdn_stores_the_times_the_board_showed(capsys, tmp_path: Path) -> None:
    log = tmp_path / "takeback.log"
    log.write_text(ISSUE_LOG)
    assert main(["replay", "classic", str(log), "--time-control", "5+3", "--pdn", "-"]) == 0
    flat = " ".join(capsys.readouterr().out.split())
    # 248400 -> 0:04:08, 299300 -> 0:04:59 (whole seconds, rounded down); one move only.
    assert "1. c3-d4 {[%clock w0:04:08 b0:04:59]} *" in flat


# -- the App on a virtual board, with the store ------------------------------------------


def carry(board: VirtualBoard, app: App, text: str) -> None:
    session = app.session
    move = next(m for m in session.variant.legal_moves(session.game.position)
                if format_move(session.variant, session.game.position, m) == text)
    name = session.variant.geometry.name
    carry_out(board, name(move.start), [name(s) for s in move.path], [name(s) for s in sorted(move.captures)])


def issue_game(store: Store) -> tuple[App, VirtualBoard]:
    """Issue 20's game in the App, casual 5+3, up to the take-back (virtual time from 0)."""
    app = App(store=store, setup=GameSetup("classic", mode="casual", time_control="5+3"), start_game=True,
              offer_resume=False)
    board = on_board(app, settle_ms=0)
    board.press(1)                                  # black starts white's clock at 0
    board.advance(1000)
    board.lift("c3")
    board.advance(200)
    board.drop("d4")
    board.advance(300)
    board.press(0)                                  # 1500
    board.advance(2500)
    board.button(Button.TAKE_BACK)                  # 4000
    board.advance(100)
    board.lift("d4")
    board.advance(100)
    board.drop("c3")                                # 4200: taken back at 5200
    board.advance(1000)
    return app, board


def test_app_takeback_by_button_gives_the_turn_and_the_clock_back(tmp_path: Path) -> None:
    with Store(tmp_path / "g.db") as store:
        app, board = issue_game(store)
        session, clock = app.session, app.clock
        assert session.game.ply == 0 and session.game.turn == 0
        assert clock.active == 0 and clock.view(board.now).remaining_ms == (WHITE_BACK, BLACK_BACK)
        board.advance(54800)                        # white thinks (60000)
        assert clock.view(board.now).remaining_ms == (WHITE_BACK - 54800, BLACK_BACK)
        assert "White" in session.message
        board.lift("c3")
        board.advance(1000)
        board.drop("d4")
        board.advance(300)                          # settled: 61300
        board.press(0)
        board.advance(700)                          # 62000
        assert session.game.ply == 1 and clock.active == 1
        assert session.committed[-1].clock_ms == (WHITE_AGAIN, BLACK_BACK)
        assert clock.view(board.now).remaining_ms == (WHITE_AGAIN, BLACK_BACK - 700)
        app.recorder.flush()
        stored = store.load_game(app.game_id)
        assert [m.clock_ms for m in stored.moves] == [c.clock_ms for c in session.committed]
        flat = " ".join(export_pdn(stored).split())
        assert "1. c3-d4 {[%clock w0:04:08 b0:04:59]}" in flat


def test_moves_restored_after_a_takeback_press_the_clock_for_their_sides() -> None:
    # A stuck switch on c5 makes the board look two plies back (a take-back); freed, the moves
    # are restored (the same fault as test_session's): each restored turn presses the clock again.
    rig = Rig("classic", fen="W:Wa3,h2:Bc5,h8")
    clock = rig.session.clock = make_clock(rig.variant, "5+3")
    rig.move("a3-b4")
    rig.wait()
    rig.move("c5xa3")
    rig.wait()
    white, black = rig.session.committed[-1].clock_ms
    rig.board.stick("c5", True)
    rig.wait(1500)
    taken = events_of(rig.history, "takeback")[0]["time_ms"]
    assert rig.texts == [] and clock.active == 0
    # white's clock ran from black's press to the take-back and stays spent; both increments come off
    black_press = events_of(rig.history, "move")[-1]["time_ms"]
    white_back = white - (taken - black_press) - 3000
    assert clock.view(taken).remaining_ms == (white_back, black - 3000)
    rig.board.unstick("c5")
    rig.wait(1500)
    redo = events_of(rig.history, "redo")[0]["time_ms"]
    assert rig.texts == ["a3-b4", "c5xa3"] and clock.active == 0
    white_again = white_back - (redo - taken) + 3000
    assert [c.clock_ms for c in rig.session.committed] == [(white_again, black - 3000), (white_again, black)]


def test_resume_after_a_takeback_runs_the_clock_of_the_side_to_move(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    store = Store(db)
    app, board = issue_game(store)
    app.recorder.flush()
    pieces = set(board.pieces)
    store.close()                                   # the power goes before anyone moves again

    with Store(db) as store:
        again, board = resumed_at_board(store, pieces)
        session, clock = again.session, again.clock
        assert session.phase.value == "playing" and session.game.ply == 0 and session.game.turn == 0
        assert clock.active == 0
        assert clock.view(board.now).remaining_ms == (WHITE_BACK, BLACK_BACK)
        carry(board, again, "c3-d4")
        board.advance(300)
        board.press(0)
        board.advance(100)
        assert session.game.ply == 1 and clock.active == 1
        white, black = session.committed[-1].clock_ms
        assert black == BLACK_BACK and WHITE_BACK - 5000 < white - 3000 <= WHITE_BACK


# -- 4-player multiwarcaby ---------------------------------------------------------------------


TURN = ("d4-e5", "h2-i1")  # player 1's first turn: two steps, far apart


def carry_turn(board: VirtualBoard, app: App, side: int, texts: tuple[str, str]) -> tuple[list, int]:
    """The two steps `texts` (no capture) of `side` carried out, then its
    button; the moves and when the button was pressed."""
    session = app.session
    variant, position = session.variant, session.game.position
    moves = []
    for text in texts:
        move = next(m for m in variant.legal_moves(position) if format_move(variant, position, m) == text)
        name = variant.geometry.name
        carry_out(board, name(move.start), [name(s) for s in move.path], [])
        board.advance(200)
        position = variant.play(position, move)
        moves.append(move)
    pressed = board.now
    board.press(side)
    board.advance(100)
    return moves, pressed


def test_multiwarcaby_four_players_takeback_player_one_replays_on_their_own_clock(tmp_path: Path) -> None:
    with Store(tmp_path / "g.db") as store:
        app = App(store=store, setup=GameSetup("multiwarcaby", sides=4, mode="casual", time_control="casual"),
                  start_game=True, offer_resume=False)
        board = on_board(app, settle_ms=0)
        session, clock = app.session, app.clock
        board.press(3)                              # starts player 1's clock at 0
        assert clock.active == 0
        board.advance(1000)
        moves, _ = carry_turn(board, app, 0, TURN)
        assert session.game.turn == 1 and clock.active == 1
        seen, after = board.now, clock.view(board.now).remaining_ms
        board.advance(2000)
        name = session.variant.geometry.name
        for move in reversed(moves):                # the pieces carried back ...
            board.lift(name(move.path[-1]))
            board.drop(name(move.start))
        board.advance(500)
        board.button(Button.TAKE_BACK)              # ... and the button says what they mean
        back = board.now
        assert session.game.ply == 0 and session.game.turn == 0 and clock.active == 0
        times = clock.view(back).remaining_ms
        increment = 1000                            # 4+1: the move taken back earned player 1 one second
        assert times[0] == after[0] - increment
        assert times[1] == after[1] - (back - seen)  # player 2's clock ran on until the take-back
        assert times[2:] == after[2:]
        board.advance(30000)                        # player 1 thinks again: only their clock runs
        assert clock.view(board.now).remaining_ms == (times[0] - 30000, *times[1:])
        carry_turn(board, app, 0, TURN)
        assert session.game.turn == 1 and clock.active == 1
        assert session.committed[-1].clock_ms[1:] == times[1:]
        app.recorder.flush()
        stored = store.load_game(app.game_id)
        assert [m.clock_ms for m in stored.moves] == [c.clock_ms for c in session.committed]


# -- a take-back asked from the board and accepted from the page ---------------------------------


def test_an_accepted_takeback_offer_hands_the_clock_back_one_move_at_a_time(tmp_path: Path) -> None:
    from test_app_offers import choose, play, remote_game, remote_plays

    with Store(tmp_path / "g.db") as store:
        app, board, _history, remote = remote_game(store, setup=GameSetup("classic", mode="computer",
                                                                           time_control="5+3"))
        session, clock = app.session, app.clock
        play(board, app, session.game.legal_moves()[0])         # white at the table
        remote_plays(app, board, remote)                         # black from the page
        assert session.game.ply == 2 and clock.active == 0
        choose(board, app, "takeback")
        app.answer_offer(True, "remote page")
        moves = [m.move for m in session.committed]
        name = session.variant.geometry.name
        for ply, move in ((1, moves[1]), (0, moves[0])):         # the pieces go back one move at a time
            board.lift(name(move.end))
            board.drop(name(move.start))
            board.advance(2500)
            assert session.game.ply == ply and clock.active == session.game.turn
            before = clock.view(board.now).remaining_ms
            board.advance(1000)                                  # only the side to move's clock runs
            now = clock.view(board.now).remaining_ms
            assert [b - n for b, n in zip(before, now)] == [1000 if side == session.game.turn else 0
                                                            for side in range(2)]
        app.recorder.flush()
        stored = store.load_game(app.game_id)
        assert stored.game.ply == 0 and json_state(stored)["active"] == 0


def json_state(stored) -> dict:
    return stored.clock_state if isinstance(stored.clock_state, dict) else json.loads(stored.clock_state)


# -- a take-back after the end of the game ----------------------------------------------------


def test_a_takeback_after_the_game_ended_on_the_board_runs_the_clock_again() -> None:
    rig = Rig("classic", fen="W:Wf2,h2:Bc5")
    clock = rig.session.clock = make_clock(rig.variant, "5+3")
    for text in ("f2-e3", "c5-d4", "e3xc5"):           # white takes black's last piece
        rig.move(text)
        rig.wait()
    assert rig.session.result is not None and clock.state.value == "finished"
    times = clock.view(rig.board.now).remaining_ms
    rig.board.lift("c5")                                # the capture put back
    rig.board.drop("e3")
    rig.board.drop("d4")
    rig.wait(1500)
    taken = events_of(rig.history, "takeback")[0]["time_ms"]
    assert rig.session.result is None and rig.session.game.turn == 0
    assert clock.state.value == "running" and clock.active == 0
    # the increment of the move taken back comes off; the stopped time counted for no one
    assert clock.view(taken).remaining_ms == (times[0] - 3000, times[1])
    assert clock.view(rig.board.now).remaining_ms == (times[0] - 3000 - (rig.board.now - taken), times[1])


def test_a_loss_on_time_stands_no_takeback_reopens_the_game() -> None:
    rig = Rig("classic", fen="W:Wc3,h2:Bd6")
    clock = rig.session.clock = make_clock(rig.variant, "0.05")    # 3 s each
    rig.move("c3-d4")
    rig.wait(5000)                                     # black's flag falls
    assert rig.session.result.reason == "on time" and clock.state.value == "finished"
    rig.board.lift("d4")                               # the move put back
    rig.board.drop("c3")
    rig.wait(1500)
    assert rig.texts == ["c3-d4"] and rig.session.result.reason == "on time"
    assert events_of(rig.history, "takeback") == []
    rig.board.button(Button.TAKE_BACK)
    rig.wait(100)
    assert rig.session.message == "no take-back past a loss on time"
    assert rig.texts == ["c3-d4"] and rig.session.phase.value == "over"


def test_against_the_computer_the_button_takes_back_both_moves_and_the_persons_clock_runs() -> None:
    rig = Rig("classic", mode="computer", computer_sides=frozenset({1}))
    session = rig.session
    clock = session.clock = make_clock(rig.variant, "5+3")
    white = rig.move("c3-d4")
    rig.wait()
    session.settle()
    black = session.planned[0]
    rig.play(black)
    rig.wait()
    assert rig.texts[0] == "c3-d4" and len(rig.texts) == 2 and clock.active == 0
    white_ms, black_ms = session.committed[-1].clock_ms
    pressed = events_of(rig.history, "move")[-1]["time_ms"]
    rig.board.button(Button.TAKE_BACK)                 # lit back to before the person's own move
    for move in (black, white):
        rig.board.lift(rig.name(move.end))
        for square in sorted(move.captures):
            rig.board.drop(rig.name(square))
        rig.board.drop(rig.name(move.start))
    rig.wait(1500)
    taken = events_of(rig.history, "takeback")[0]["time_ms"]
    assert rig.texts == [] and session.game.turn == 0 and clock.active == 0
    # white used its time from the computer's press on; both increments come off
    assert clock.view(taken).remaining_ms == (white_ms - (taken - pressed) - 3000, black_ms - 3000)
    rig.wait(2000)
    assert clock.view(rig.board.now).remaining_ms[1] == black_ms - 3000   # the computer's clock stands


def quiet_turn(rig: Rig) -> tuple:
    """Two steps of the side to move (no capture, apart) whose board reads as the whole turn."""
    session = rig.session
    variant, game = rig.variant, session.game
    for first in variant.legal_moves(game.position):
        middle = variant.play(game.position, first)
        for second in variant.legal_moves(middle):
            if first.captures or second.captures or {second.start, second.end} & {first.start, first.end}:
                continue
            after = variant.occupancy(variant.play(middle, second))
            if session.tracker.read(game, after).kind.value == "complete":
                return first, second
    raise AssertionError("no quiet turn")


@pytest.mark.parametrize("options", [{"sides": 3}, {"sides": 4, "teams": True}], ids=["three", "teams"])
def test_multiwarcaby_takeback_by_the_button_hands_the_clock_back(options: dict) -> None:
    rig = Rig("multiwarcaby", options=options)
    session = rig.session
    clock = session.clock = make_clock(rig.variant, "5+3")
    sides = len(rig.variant.sides)
    rig.press((session.game.turn + 1) % sides)          # starts the first side's clock
    turns = []
    for _ in range(2):
        side = session.game.turn
        turn = quiet_turn(rig)
        for move in turn:
            rig.play(move)
        rig.wait(300)
        rig.press(side)
        turns.append((side, turn))
    side, (first, second) = turns[-1]
    assert session.game.turn != side and clock.active == session.game.turn
    for move in (second, first):                        # the last turn carried back ...
        rig.board.lift(rig.name(move.end))
        rig.board.drop(rig.name(move.start))
    rig.wait(300)
    rig.board.button(Button.TAKE_BACK)                  # ... and the button says what it means
    rig.wait(10)
    assert session.game.ply == 2 and session.game.turn == side and clock.active == side
    before = clock.view(rig.board.now).remaining_ms
    rig.wait(5000)
    after = clock.view(rig.board.now).remaining_ms
    assert [b - a for b, a in zip(before, after)] == [5000 if s == side else 0 for s in range(sides)]


def test_moves_restored_are_stored_with_the_times_of_their_own_turns(tmp_path: Path) -> None:
    from damka.controller.app.recorder import Recorder

    rig = Rig("classic", fen="W:Wa3,h2:Bc5,h8", setup=False)
    session = rig.session
    clock = session.clock = make_clock(rig.variant, "5+3")
    with Store(tmp_path / "g.db") as store:
        recorder = Recorder(store, session, clock, players=["Ala", "Ola"], mode="casual", time_control="5+3",
                            tags={}, now=lambda: rig.board.now)
        session.bus.subscribe(recorder)
        for square in ("a3", "h2", "c5", "h8"):         # the pieces set up
            rig.board.drop(square)
        rig.wait()
        rig.move("a3-b4")
        rig.wait()
        rig.move("c5xa3")
        rig.wait()
        rig.board.stick("c5", True)                     # looks like two plies back: taken back
        rig.wait(1500)
        rig.board.unstick("c5")                         # restored: two turns, two presses
        rig.wait(1500)
        recorder.flush()
        assert rig.texts == ["a3-b4", "c5xa3"]
        stored = store.load_game(recorder.game_id)
        assert [m.clock_ms for m in stored.moves] == [c.clock_ms for c in session.committed]
        assert stored.moves[0].clock_ms != stored.moves[1].clock_ms
