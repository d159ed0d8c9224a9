"""The simulator lights what is worked out off the loop at its next frame.

The computer's move, a hint or a remote seat's move becomes known on another
thread (or from the web page) at any moment; whichever part of the window's
frame picks it up, the LEDs show it before the next frame ends, with no hand
on the board. The search here is the real one, held by the test until a chosen
moment (between the board's own tick and the window's), in virtual time.
"""

from __future__ import annotations

import threading
from typing import Any

import pygame
import pytest

from damka.controller.app import App, AppListener
from damka.controller.board_loop import BoardLoop
from damka.controller.players.computer import ComputerOpponent
from damka.controller.game.setup import GameSetup
from damka.hardware.interfaces import Role
from damka.hardware.leds import RecordingLeds
from damka.sim.virtual_board import VirtualBoard
from damka.sim.pieces import start_squares
from damka.sim.window import SimWindow, build
from app_listeners import AfterInput
from waiting import DEADLINE_S

FRAME_MS = 33  # the window's frame at 30 fps


@pytest.fixture(autouse=True)
def pygame_display():
    pygame.display.init()
    yield


class HeldOpponent(ComputerOpponent):
    """The real search, which starts only when the test lets it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.go = threading.Event()

    def _run(self, *args: Any) -> None:
        assert self.go.wait(DEADLINE_S), "the test never let the search start"
        super()._run(*args)


class ReleaseOnce(AppListener):
    """An App listener that lets the held search run to its end the next time the
    app is ticked: the moment the board's own tick has already passed."""

    def __init__(self, opponent: HeldOpponent) -> None:
        self.opponent = opponent
        self.armed = False

    def tick(self, now: int) -> None:
        if self.armed:
            self.armed = False
            self.opponent.go.set()
            assert self.opponent.join(DEADLINE_S), "the search did not end"

def lit(window: SimWindow, role: Role) -> set[str]:
    return {square for square, shown in window.board.leds.items() if shown is role}


def test_the_computers_first_move_is_lit_at_the_next_frame_whenever_its_search_ends() -> None:
    app = App(setup=GameSetup("classic", mode="computer", colours="first", level="beginner"),
              start_game=True, seed=1)
    opponent = HeldOpponent(app.session.variant, "beginner", seed=1)
    app.session.opponent = opponent
    release = ReleaseOnce(opponent)
    app.listen(release)
    window = build(app)
    window.update(1000)
    window.board.lift("c3")
    window.update(FRAME_MS)
    window.board.drop("d4")
    for _ in range(60):                       # two seconds of frames: the move is committed, the search held
        window.update(FRAME_MS)
    assert app.session.game.ply == 1 and app.session.thinking
    assert not lit(window, Role.COMPUTER_FROM)
    release.armed = True                      # the search ends within this frame, after the board's own tick
    window.update(FRAME_MS)
    assert not release.armed and not opponent.thinking
    assert "carry out the lit move" in app.session.message
    assert lit(window, Role.COMPUTER_FROM) and lit(window, Role.COMPUTER_TO)


def test_a_press_that_picks_up_the_computers_move_lights_it() -> None:
    """The move is known when a clock button is pressed (the wrong one): the
    press is refused, and the LEDs the board shows after it light the move."""
    app = App(setup=GameSetup("classic", mode="computer", colours="first", level="beginner"),
              start_game=True, seed=1)
    opponent = HeldOpponent(app.session.variant, "beginner", seed=1)
    app.session.opponent = opponent
    window = build(app)
    board = window.board
    board.advance(1000)
    board.slide("c3", "d4")
    board.advance(2000)
    assert app.session.game.ply == 1 and app.session.thinking
    opponent.go.set()
    assert opponent.join(DEADLINE_S), "the search did not end"
    board.press(0)                            # White's button, in Black's turn
    assert "Black" in app.session.message
    assert lit(window, Role.COMPUTER_FROM) and lit(window, Role.COMPUTER_TO)
    board.advance(1000)
    assert lit(window, Role.COMPUTER_FROM) and lit(window, Role.COMPUTER_TO)


def test_a_remote_seats_move_from_the_page_is_lit_in_the_same_frame() -> None:
    """The web page's move is run by the board's loop (the driver, an App listener) at any tick
    of the window's frame: the LEDs show it when that frame ends."""
    from damka.web.driver import Driver
    from damka.web.feed import WebFeed

    app = App(start_game=False, offer_resume=False)
    driver = Driver(app, WebFeed(app))
    answer = driver.new_game(GameSetup("classic", mode="computer", colours="first"), [], 1, "the test")
    window = build(app)
    window.update(1000)
    window.board.slide("c3", "d4")
    for _ in range(60):
        window.update(FRAME_MS)
    assert app.session.game.ply == 1 and app.session.thinking
    assert not lit(window, Role.COMPUTER_FROM)

    frame_end = window.board.now + FRAME_MS

    def page_move() -> None:
        """The page's request, run by the loop at the frame's last tick (the board's own came before)."""
        if app.now >= frame_end:
            app.unlisten(pump)
            driver.remote_move("f6-e5", answer["seat_token"])

    pump = AfterInput(page_move)
    app.listen(pump)
    window.update(FRAME_MS)
    assert pump not in app.listeners
    assert lit(window, Role.COMPUTER_FROM) == {"f6"} and lit(window, Role.COMPUTER_TO) == {"e5"}


def test_the_board_loop_lights_the_computers_move_at_its_next_pass() -> None:
    """The board's own loop (`damka run`, `damka dxp`): whenever the search
    ends, the pass after it shows the move, with no hand on the board."""
    app = App(setup=GameSetup("classic", mode="computer", colours="first", level="beginner"),
              start_game=True, seed=1)
    opponent = HeldOpponent(app.session.variant, "beginner", seed=1)
    app.session.opponent = opponent
    board = VirtualBoard(start_squares(app))   # the loop polls it (not connected: as the Pi's devices)
    leds = RecordingLeds()
    loop = BoardLoop(app, board, leds, board, now_ms=lambda: board.now)

    def passes(ms: int) -> None:
        for _ in range(ms // 5):
            board.now += 5
            loop.step()

    passes(1000)
    board.lift("c3")
    passes(150)
    board.drop("d4")
    passes(2000)
    assert app.session.game.ply == 1 and app.session.thinking
    assert Role.COMPUTER_FROM not in leds.last.values()
    opponent.go.set()
    assert opponent.join(DEADLINE_S), "the search did not end"
    passes(5)
    assert Role.COMPUTER_FROM in leds.last.values() and Role.COMPUTER_TO in leds.last.values()
