"""A take-back made at the board (the pieces put back) in a game with a seat
played from afar is a request to that player: the position waits for the
answer; accepted, the take-back stands; declined, the LEDs guide the pieces
forward again and no move is lost. Against the computer the board takes back
at once, as ever. The App on the virtual board, the remote seat through
`RemoteOpponent` (the page's side of it)."""

from __future__ import annotations

from damka.controller import events as ev
from damka.controller.app import App
from damka.controller.players.chooser import GreedyChooser
from damka.controller.game.setup import GameSetup
from damka.hardware.interfaces import Button, Role
from damka.sim.virtual_board import VirtualBoard
from app_rig import on_board
from test_app_offers import play, remote_game, remote_plays

GUIDES = (Role.PUT_HERE, Role.TAKE_AWAY)


def two_moves_then_put_back(app: App, board: VirtualBoard, remote) -> object:
    """White plays at the table, Black from the page; then the person puts Black's move back by hand."""
    play(board, app, app.session.game.legal_moves()[0])
    remote_plays(app, board, remote)
    assert app.session.game.ply == 2
    last = app.session.committed[-1].move
    name = app.session.variant.geometry.name
    board.lift(name(last.end))
    board.drop(name(last.start))
    board.advance(2500)                                         # settled well past the take-back wait
    return last


def test_a_take_back_by_hand_against_a_remote_player_waits_for_the_answer_and_declined_is_guided_forward() -> None:
    app, board, history, remote = remote_game()
    last = two_moves_then_put_back(app, board, remote)
    assert app.session.game.ply == 2                            # nothing taken back yet
    offer = app.pending_offer
    assert (offer.kind, offer.where, offer.moves, offer.side) == ("takeback", "board", 1, 0)
    assert [(e.kind, e.where, e.moves) for e in history.of(ev.OfferMade)] == [("takeback", "board", 1)]
    messages = " ".join(app.view().messages)
    assert "waiting for the answer" in messages and "remote player" in messages
    assert not any(role in GUIDES or role is Role.COMPUTER_FROM for role in app.frame.values())
    app.answer_offer(False, "remote page")
    name = app.session.variant.geometry.name
    lit = dict(app.frame)                                       # the LEDs guide the piece forward again
    assert lit[name(last.start)] is Role.TAKE_AWAY and lit[name(last.end)] is Role.PUT_HERE
    assert "take-back declined by the remote player" in app.session.message
    board.lift(name(last.start))
    board.drop(name(last.end))
    board.advance(2500)
    assert app.session.game.ply == 2 and not history.of(ev.TakenBack)   # no move lost
    assert not any(role in GUIDES for role in app.frame.values())
    play(board, app, app.session.game.legal_moves()[0])         # and the game goes on
    assert app.session.game.ply == 3


def test_a_take_back_by_hand_accepted_by_the_remote_player_stands() -> None:
    app, board, history, remote = remote_game()
    two_moves_then_put_back(app, board, remote)
    before = app.session.game.positions[1]
    app.answer_offer(True, "remote page")
    assert app.session.game.ply == 1 and app.session.game.position == before
    assert [e.plies for e in history.of(ev.TakenBack)] == [1]
    assert history.of(ev.OfferAnswered)[-1].answer == "accepted"
    board.advance(2500)
    assert app.session.game.ply == 1 and not any(role in GUIDES for role in app.frame.values())
    assert remote.waiting                                       # Black's turn again, on the page


def test_the_take_back_button_against_a_remote_player_asks_first() -> None:
    app, board, history, remote = remote_game()
    play(board, app, app.session.game.legal_moves()[0])
    remote_plays(app, board, remote)
    board.button(Button.TAKE_BACK)
    assert app.session.game.ply == 2 and app.pending_offer.where == "board"
    assert app.pending_offer.moves == 2                         # the person's last turn
    app.answer_offer(True, "remote page")
    assert sorted(role.value for role in app.frame.values() if role in GUIDES) == \
        ["put_here", "put_here", "take_away", "take_away"]


def test_against_the_computer_a_take_back_by_hand_is_at_once() -> None:
    app = App(setup=GameSetup("classic", mode="computer", colours="first"), start_game=True,
              chooser=GreedyChooser(), offer_resume=False)
    history = ev.EventHistory()
    app.bus.subscribe(history)
    board = on_board(app)
    play(board, app, app.session.game.legal_moves()[0])
    board.advance(50)
    play(board, app, app.session.planned[0])                    # the computer's move, carried out
    assert app.session.game.ply == 2
    last = app.session.committed[-1].move
    name = app.session.variant.geometry.name
    board.lift(name(last.end))
    board.drop(name(last.start))
    board.advance(2500)
    assert app.session.game.ply == 1 and app.pending_offer is None and not history.of(ev.OfferMade)
    assert [e.plies for e in history.of(ev.TakenBack)] == [1]
