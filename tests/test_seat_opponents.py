"""Remote and computer seats in one game: in a three-player multiwarcaby game
seat 1 is played from the page, seat 2 by the computer and seat 0 at the
table; each turn goes to its own player (`SeatOpponents`), the board lights
the page's and the computer's moves alike. The App on the virtual board."""

from __future__ import annotations


import pytest

from damka.controller.app import App
from damka.controller.game.factory import build_variant
from damka.controller.players.computer import ComputerOpponent
from damka.controller.players.seat_opponents import SeatOpponents, engine_seats
from damka.controller.game.setup import GameSetup
from damka.engine.game import Game
from damka.engine.notation import format_move
from damka.hardware.interfaces import Role
from damka.sim.virtual_board import VirtualBoard, carry_out
from damka.web.remote import RemoteOpponent
from app_rig import on_board
from waiting import wait_on_board


def wait_planned(app: App, board: VirtualBoard) -> tuple:
    """Board time passes, as the loop lets it, until the session has the seat's turn to light."""
    return wait_on_board(board, lambda: app.session.planned, "an answer for the seat")


def carry(app: App, board: VirtualBoard, move) -> None:
    name = app.session.variant.geometry.name
    carry_out(board, name(move.start), [name(s) for s in move.path], [name(s) for s in sorted(move.captures)])


def quiet_pair(app: App) -> tuple:
    """Two moves of one turn at the table that do not touch each other."""
    variant, position = app.session.variant, app.session.game.position
    first = next(m for m in variant.legal_moves(position) if not m.captures)
    after = variant.play(position, first)
    second = next(m for m in variant.legal_moves(after)
                  if not m.captures and m.start != first.end and m.end != first.start)
    return first, second


def test_a_remote_seat_and_a_computer_seat_play_a_round_with_the_person_at_the_table() -> None:
    setup = GameSetup("multiwarcaby", sides=3, mode="computer", computers=1, colours="first",
                      level="beginner", move_time=0.05)
    app = App(offer_resume=False, seed=3)
    remote = RemoteOpponent(build_variant(setup), frozenset({1}))
    app.new_game(setup, remote=remote)
    session = app.session
    assert app.built.computer_sides == frozenset({1, 2})
    assert isinstance(session.opponent, SeatOpponents) and session.opponent.seats == frozenset({1})
    assert app.game_players == ["Player 1", "Player 2 (remote)", "Player 3 (computer)"]
    assert app.remote_sides() == frozenset({1})                  # offers are asked of the page's seat only
    board = on_board(app)
    for move in quiet_pair(app):                                 # seat 0 at the table: its whole turn
        carry(app, board, move)
    board.advance(300)
    board.press(0)
    board.advance(100)
    assert session.game.turn == 1 and remote.waiting           # the page's turn: nothing from the computer
    assert app.view().status == "Waiting for the remote player's move"
    texts = []
    for _ in range(2):
        position = remote.position_now()
        move = next(m for m in session.variant.legal_moves(position) if not m.captures)
        texts.append(format_move(session.variant, position, move))
        remote.submit(texts[-1])
    first, second = wait_planned(app, board)
    assert [format_move(session.variant, p, m) for p, m in
            ((session.game.position, first), (session.variant.play(session.game.position, first), second))] == texts
    for move in (first, second):
        assert Role.COMPUTER_FROM in board.leds.values()        # lit for the person at the table
        carry(app, board, move)
        board.advance(300)
    board.advance(2500)
    assert session.game.turn == 2 and session.game.ply == 4
    assert not remote.waiting                                   # the computer's turn: the page waits
    board.advance(20)
    assert app.view().status in ("The computer is thinking...", "Player 3 (computer) to move")
    first, second = wait_planned(app, board)                    # the engine answers for seat 2
    for move in (first, second):
        carry(app, board, move)
        board.advance(300)
    board.advance(2500)
    assert session.game.ply == 6 and session.game.turn == 0     # a full round: back at the table
    assert [m.side for m in session.committed] == [0, 0, 1, 1, 2, 2]
    session.close()


def test_the_computers_seats_beside_a_remote_seat() -> None:
    assert engine_seats(1, "first", 3, frozenset({1})) == frozenset({2})
    assert engine_seats(1, "second", 3, frozenset({1})) == frozenset({0})
    assert engine_seats(2, "first", 4, frozenset({0})) == frozenset({2, 3})
    assert engine_seats(3, "first", 3, frozenset({1})) == frozenset({2})      # one seat stays at the table
    assert engine_seats(0, "first", 4, frozenset({1})) == frozenset()
    assert engine_seats(1, "first", 2, frozenset({1})) == frozenset()         # two players: none
    with pytest.raises(ValueError, match="no seat"):
        SeatOpponents({})


def test_seat_opponents_ask_only_the_seat_to_move() -> None:
    variant = build_variant(GameSetup("multiwarcaby", sides=3))
    remote, computer = RemoteOpponent(variant, frozenset({1})), ComputerOpponent(variant, "beginner",
                                                                                   time_per_move=0.05)
    both = SeatOpponents({1: remote, 2: computer})
    assert both.remote and both.label == "remote player"
    assert (both.label_for(1), both.label_for(2)) == ("remote player", "computer")
    game = Game(variant)
    with pytest.raises(ValueError, match="seat 0 is not one of"):
        both.start(game)
    both.close()
