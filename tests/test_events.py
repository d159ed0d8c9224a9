"""The event stream: typed events reach every listener in one order, and a
listener that raises stops neither the game nor the other listeners."""

from __future__ import annotations

import logging
from pathlib import Path

from damka.controller import events as ev
from damka.controller.app import App
from damka.controller.game.setup import GameSetup
from damka.controller.store.store import Store
from damka.controller.board.board_map import BoardMap
from damka.sim.virtual_board import VirtualBoard, carry_out


def test_listeners_hear_events_in_one_order_even_when_one_publishes() -> None:
    bus = ev.EventBus()
    heard: list[tuple[str, str]] = []

    def first(event: ev.GameEvent) -> None:
        heard.append(("first", type(event).__name__))
        if isinstance(event, ev.GameStarted):
            bus.publish(ev.MessageShown(event.time_ms, 0, "white to move"))  # published while delivering

    bus.subscribe(first)
    bus.subscribe(lambda event: heard.append(("second", type(event).__name__)))
    bus.publish(ev.GameStarted(0, 0, "W:W21-32:B1-12"))
    assert heard == [("first", "GameStarted"), ("second", "GameStarted"),
                     ("first", "MessageShown"), ("second", "MessageShown")]


def test_a_listener_for_some_types_hears_only_those_and_can_leave() -> None:
    bus = ev.EventBus()
    moves = ev.EventHistory()
    unsubscribe = bus.subscribe(moves, ev.TakenBack, ev.Redone)
    bus.publish(ev.TakenBack(5, 0, 1, "x"))
    bus.publish(ev.MessageShown(6, 0, "hello"))
    unsubscribe()
    bus.publish(ev.Redone(7, 1, 1, "y"))
    assert moves.events == [ev.TakenBack(5, 0, 1, "x")]


def play_a_game(app: App, board: VirtualBoard, plies: int) -> list[str]:
    """`plies` legal moves carried out on the board, each left to settle (casual mode)."""
    name = app.session.variant.geometry.name
    for _ in range(plies):
        move = app.session.game.legal_moves()[0]
        carry_out(board, name(move.start), [name(s) for s in move.path], [name(s) for s in sorted(move.captures)])
        board.advance(2000)
    return [c.text for c in app.session.committed]


def test_a_listener_that_raises_stops_neither_the_game_nor_the_store(tmp_path: Path, caplog) -> None:
    with Store(tmp_path / "g.db") as store:
        app = App(store=store, setup=GameSetup("classic"), start_game=True, offer_resume=False)
        calls = []

        def broken(event: ev.GameEvent) -> None:
            calls.append(event)
            raise RuntimeError("the web page fell over")

        heard = ev.EventHistory()
        app.bus.subscribe(broken)
        app.bus.subscribe(heard)            # subscribed after the broken one: still hears everything
        variant = app.session.variant
        board = VirtualBoard(BoardMap(variant).names(variant.occupancy(variant.start_position())))
        with caplog.at_level(logging.ERROR, logger="damka.events"):
            board.connect(app)
            board.advance(500)
            played = play_a_game(app, board, 12)
        assert len(played) == 12
        stored = store.load_game(app.game_id)
        assert [m.text for m in stored.moves] == played              # the store saw every committed move
        assert [e.text for e in heard.of(ev.MoveCommitted)] == played
        assert calls and len(app.bus.failures) == len(calls)           # every failure counted ...
        assert "listener" in caplog.text and "the web page fell over" in caplog.text   # ... and logged
