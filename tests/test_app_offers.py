"""Offers on the board: a draw offered and a take-back asked by one party and
answered by the other (the board's menu, a remote player's page), with the
App on the virtual board and a remote seat played through `RemoteOpponent`."""

from __future__ import annotations

from pathlib import Path

import pytest

from damka.controller import events as ev
from damka.controller.app import App, AppState
from damka.controller.game.factory import build_variant
from damka.controller.app.offers import OfferError, Offers, last_turn_moves
from damka.controller.game.setup import GameSetup
from damka.controller.store.store import Store
from damka.engine.notation import format_move
from damka.hardware.interfaces import Button, Role
from damka.sim.virtual_board import VirtualBoard, carry_out
from damka.web.remote import RemoteOpponent
from app_rig import on_board


def remote_game(store: Store | None = None, seat: int = 1, setup: GameSetup = GameSetup("classic", mode="computer")
                ) -> tuple[App, VirtualBoard, ev.EventHistory, RemoteOpponent]:
    app = App(store=store, offer_resume=False)
    remote = RemoteOpponent(build_variant(setup), frozenset({seat}))
    app.new_game(setup, remote=remote)
    history = ev.EventHistory()
    app.bus.subscribe(history)
    return app, on_board(app), history, remote


def play(board: VirtualBoard, app: App, move) -> None:
    name = app.session.variant.geometry.name
    carry_out(board, name(move.start), [name(s) for s in move.path], [name(s) for s in move.captures])
    board.advance(2500)


def remote_plays(app: App, board: VirtualBoard, remote: RemoteOpponent) -> None:
    """The page's player answers with its first legal move; the person at the table carries it out."""
    board.advance(50)
    assert remote.waiting
    remote.submit(remote.legal()[0]["text"])
    board.advance(50)
    planned = app.session.planned
    assert planned
    play(board, app, planned[0])


def menu_rows(app: App) -> list[str]:
    return [row.key for row in app.overlay.visible_rows()]


def choose(board: VirtualBoard, app: App, key: str) -> None:
    """Open the game menu on the board and choose the row `key`."""
    board.button(Button.MENU)
    rows = menu_rows(app)
    for _ in range(rows.index(key)):
        board.button(Button.DOWN)
    board.button(Button.OK)


def test_an_offer_lapses_when_a_move_is_committed(tmp_path: Path) -> None:
    with Store(tmp_path / "g.db") as store:
        app, board, history, _remote = remote_game(store)
        app.offer("draw", None, "remote page")                     # the remote player (black) offers
        assert app.pending_offer.side == 1 and app.pending_offer.where == "remote page"
        assert "Draw offered by Black (remote) from the remote page: accept in menu" in app.view().messages
        play(board, app, app.session.game.legal_moves()[0])        # the person at the table plays on instead
        assert app.pending_offer is None
        answered = history.of(ev.OfferAnswered)
        assert [(a.kind, a.answer, a.where) for a in answered] == [("draw", "lapsed", "")]
        assert not any("Draw offered" in line for line in app.view().messages)
        assert [row[2] for row in store.arbiter_log(app.game_id)] == ["offer", "offer lapsed"]


def test_a_draw_offered_from_the_board_is_declined_and_play_goes_on() -> None:
    app, board, history, _remote = remote_game()
    board.button(Button.MENU)
    assert app.overlay.row("draw").label == "Offer a draw"             # someone to ask: an offer, not an end
    board.button(Button.MENU)
    choose(board, app, "draw")
    assert app.state is AppState.GAME and app.session.result is None
    assert history.of(ev.OfferMade)[0].where == "board" and history.of(ev.OfferMade)[0].side == 0
    assert "waiting for the answer" in " ".join(app.view().messages)
    app.answer_offer(False, "remote page")
    assert app.pending_offer is None and app.session.result is None
    assert history.of(ev.OfferAnswered)[-1].answer == "declined"
    play(board, app, app.session.game.legal_moves()[0])                # the game goes on
    assert app.session.game.ply == 1


def test_an_accepted_draw_ends_the_game_by_agreement(tmp_path: Path) -> None:
    with Store(tmp_path / "g.db") as store:
        app, board, history, _remote = remote_game(store)
        app.offer("draw", None, "remote page")
        board.button(Button.MENU)
        assert menu_rows(app)[:2] == ["accept", "decline"]            # the offer first in the board's menu
        assert "accept in menu" in app.view().subtitle
        board.button(Button.OK)                                        # Accept
        assert app.state is AppState.RESULT and app.view().title == "Draw"
        assert app.session.result.reason == "agreement"
        assert history.of(ev.OfferAnswered)[-1].answer == "accepted"
        assert store.list_games()[0].result == "1-1"
        assert [row[2:] for row in store.arbiter_log(app.game_id)] == [
            ("offer", "Draw offered by Black (remote) from the remote page"),
            ("offer accepted", "Draw offered by Black (remote) from the remote page: accepted from the board"),
            ("result", "agreement")]


def test_an_accepted_take_back_guides_the_pieces_back_and_restores_the_position() -> None:
    app, board, history, remote = remote_game()
    start = app.session.game.position
    play(board, app, app.session.game.legal_moves()[0])           # white at the table
    remote_plays(app, board, remote)                              # black from the page, carried out
    assert app.session.game.ply == 2
    choose(board, app, "takeback")                                # the person asks for their last move back
    offer = app.pending_offer
    assert offer.kind == "takeback" and offer.moves == 2 and offer.where == "board"
    assert app.session.game.ply == 2                              # nothing yet: the page must answer
    app.answer_offer(True, "remote page")
    lit = dict(app.frame)                                         # what the board's LEDs show now
    moves = [m.move for m in app.session.committed]
    name = app.session.variant.geometry.name
    assert lit[name(moves[0].start)] is Role.PUT_HERE and lit[name(moves[1].start)] is Role.PUT_HERE
    assert lit[name(moves[0].end)] is Role.TAKE_AWAY and lit[name(moves[1].end)] is Role.TAKE_AWAY
    black, white = moves[1], moves[0]
    board.lift(name(black.end))                                    # the pieces go back as lit, one at a time,
    board.drop(name(black.start))
    board.advance(2500)                                           # and the board waits between them:
    assert app.session.game.ply == 1                              # one move taken back, the LEDs guide on
    assert app.frame[name(white.start)] is Role.PUT_HERE and app.frame[name(white.end)] is Role.TAKE_AWAY
    board.lift(name(white.end))
    board.drop(name(white.start))
    board.advance(2500)
    assert app.session.game.ply == 0 and app.session.game.position == start
    assert [event.plies for event in history.of(ev.TakenBack)] == [1, 1]
    assert not any(role in (Role.PUT_HERE, Role.TAKE_AWAY) for role in app.frame.values())


def test_an_offer_is_never_answered_by_its_own_party() -> None:
    app, board, _history, _remote = remote_game()
    with pytest.raises(OfferError, match="no offer is pending"):
        app.answer_offer(True, "board")
    app.offer("draw", None, "remote page")
    with pytest.raises(OfferError, match="the other player answers it"):
        app.answer_offer(True, "page")                            # any page is the same party as the remote page
    with pytest.raises(OfferError, match="pending already"):
        app.offer("takeback", None, "board")
    assert app.pending_offer is not None and app.session.result is None
    app.answer_offer(True, "board")
    with pytest.raises(OfferError, match="the game is over"):
        app.offer("draw", None, "remote page")


def test_at_the_table_the_menu_draws_at_once_and_a_page_offer_waits_for_the_board() -> None:
    app = App(setup=GameSetup("classic"), start_game=True)
    board = on_board(app)
    app.offer("draw", None, "page")                               # a page watching a game at the table
    assert app.pending_offer is not None and app.session.result is None
    choose(board, app, "decline")
    assert app.pending_offer is None and app.session.result is None
    choose(board, app, "draw")                                    # both players at the board: no one to ask
    assert app.state is AppState.RESULT and app.session.result.reason == "agreement"


def test_a_remote_seat_can_be_any_seat_of_a_three_player_game() -> None:
    setup = GameSetup("multiwarcaby", sides=3, mode="computer")
    app, board, _history, remote = remote_game(setup=setup, seat=2)
    assert app.built.computer_sides == frozenset({2}) and app.game_players[2].endswith("(remote)")
    for _ in range(2):                                            # sides 0 and 1 at the table: whole turns
        game = app.session.game
        assert game.turn != 2
        first = next(m for m in game.legal_moves() if not m.captures)
        name = app.session.variant.geometry.name
        carry_out(board, name(first.start), [name(s) for s in first.path], [])
        position = app.session.variant.play(game.position, first)
        second = next(m for m in app.session.variant.legal_moves(position)
                      if not m.captures and m.start != first.end and m.end != first.start)
        carry_out(board, name(second.start), [name(s) for s in second.path], [])
        board.advance(200)
        board.press(game.turn)
        board.advance(200)
    assert app.session.game.turn == 2 and remote.waiting
    texts = []
    for _ in range(2):                                            # the remote seat's turn: two moves from the page
        position = remote.position_now()
        move = next(m for m in app.session.variant.legal_moves(position) if not m.captures)
        texts.append(format_move(app.session.variant, position, move))
        remote.submit(texts[-1])
    board.advance(50)
    assert len(app.session.planned) == 2
    assert Role.COMPUTER_FROM in board.leds.values()              # lit for the person at the table


def test_a_take_back_asked_defaults_to_the_requesters_last_turn() -> None:
    assert last_turn_moves([0, 1, 0, 1], {1}, 4) == 1
    assert last_turn_moves([0, 1, 0, 1], {0}, 4) == 2
    assert last_turn_moves([0, 0, 1, 1, 2, 2], {0}, 6) == 6         # a multiwarcaby turn is two moves
    assert last_turn_moves([0, 0, 1, 1, 2, 2], {1}, 6) == 4
    assert last_turn_moves([0, 1], set(), 2) == 1
    assert last_turn_moves([0], {1}, 1) == 0
    offers = Offers()
    with pytest.raises(OfferError, match="no move to take back"):
        offers.make("takeback", 1, "remote page", 1, 0)
