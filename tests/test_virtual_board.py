"""The headless virtual board: hands, virtual time, noise, LED recording."""

from __future__ import annotations

import pytest

from damka.hardware.interfaces import Button, ButtonPress, ClockPress, Role, Snapshot
from damka.sim.virtual_board import VirtualBoard, carry_out


class Recorder:
    """A listener that records what it is given and asks for one tick."""

    def __init__(self, deadline: int | None = None) -> None:
        self.events: list = []
        self.ticks: list[int] = []
        self.deadline = deadline
        self.frame = {}

    def handle(self, event) -> None:
        self.events.append(event)
        if isinstance(event, Snapshot):
            self.frame = {square: Role.LIFTED for square in event.occupied}

    def tick(self, now_ms: int) -> None:
        self.ticks.append(now_ms)
        self.deadline = None

    def next_deadline(self):
        return self.deadline

    def snapshots(self) -> list[frozenset[str]]:
        return [event.occupied for event in self.events if isinstance(event, Snapshot)]


def test_lift_drop_and_virtual_time() -> None:
    board = VirtualBoard(["c3"])
    listener = Recorder()
    board.connect(listener)
    board.lift("c3")
    board.advance(120)
    board.drop("d4")
    assert board.now == 120
    assert listener.snapshots() == [frozenset({"c3"}), frozenset(), frozenset({"d4"})]
    assert [e.time_ms for e in listener.events] == [0, 0, 120]
    assert board.snapshot() == Snapshot(frozenset({"d4"}), 120)


def test_bad_hands_are_errors() -> None:
    board = VirtualBoard(["c3"])
    with pytest.raises(ValueError):
        board.lift("d4")
    with pytest.raises(ValueError):
        board.drop("c3")
    with pytest.raises(ValueError):
        board.lift("j1")


def test_presses_and_buttons_reach_listener_and_queue() -> None:
    board = VirtualBoard()
    listener = Recorder()
    board.connect(listener)
    board.advance(5)
    board.press(1)
    board.button("hint")
    assert listener.events[1:] == [ClockPress(1, 5), ButtonPress(Button.HINT, 5)]
    assert board.presses() == [ClockPress(1, 5), ButtonPress(Button.HINT, 5)]
    assert board.presses() == []


def test_ticks_at_the_listener_deadline() -> None:
    board = VirtualBoard()
    listener = Recorder(deadline=300)
    board.connect(listener)
    board.advance(1000)
    assert listener.ticks == [300]


def test_bounce_chatters_then_holds() -> None:
    board = VirtualBoard(["c3"])
    listener = Recorder()
    board.connect(listener)
    board.bounce("c3", times=2, every_ms=3)
    board.lift("c3")
    board.advance(100)
    seen = listener.snapshots()
    assert seen[-1] == frozenset()
    assert len(seen) == 1 + 2 * 2 + 1  # initial, then empty/full chatter, then empty
    assert board.sensed == frozenset()


def test_flicker_and_stuck_and_missed_event() -> None:
    board = VirtualBoard(["c3"])
    listener = Recorder()
    board.connect(listener)
    board.flicker("e5", 10, 50, every_ms=10)
    board.advance(15)
    assert "e5" in board.sensed and "e5" not in board.pieces
    board.advance(100)
    assert board.sensed == frozenset({"c3"})
    board.stick("a1", True)
    assert "a1" in board.sensed
    board.unstick("a1")
    assert "a1" not in board.sensed
    board.miss("c3")
    board.lift("c3")
    assert "c3" in board.sensed and "c3" not in board.pieces
    board.resync()
    assert board.sensed == frozenset()


def test_led_history_records_changes_only() -> None:
    board = VirtualBoard(["c3"])
    listener = Recorder()
    board.connect(listener)
    board.show({"c3": Role.LIFTED})
    board.lift("c3")
    assert board.leds == {}
    assert [frame for _, frame in board.led_history] == [{"c3": Role.LIFTED}, {}]


def test_carry_out_a_capture_with_removal_during() -> None:
    board = VirtualBoard(["c3", "d4", "f6"])
    listener = Recorder()
    board.connect(listener)
    carry_out(board, "c3", ["e5", "g7"], ["d4", "f6"], remove="during")
    assert board.pieces == frozenset({"g7"})
    assert frozenset({"e5", "f6"}) in listener.snapshots()  # down on e5 after taking d4


def test_ten_by_ten_board() -> None:
    board = VirtualBoard(["j10"], files=10, ranks=10)
    board.lift("j10")
    assert board.pieces == frozenset()
