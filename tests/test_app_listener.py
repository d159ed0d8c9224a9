"""The one way a part outside the App hears it: `AppListener` (controller/app/hooks.py),
added with `App.listen`. Every hook's default does nothing; the page, the
hall, the cues, the LEDs' light and DXP use no other channel.

Driven through the real App on a virtual board, with virtual time.
"""

from __future__ import annotations

import ast
from pathlib import Path

from damka.controller import events as ev
from damka.controller.app import App, AppListener
from damka.controller.app.board_settings import BoardSettings
from damka.controller.game.setup import GameSetup
from damka.hardware.interfaces import Button, ButtonPress
from damka.sim.virtual_board import carry_out
from test_app_clock import on_board

ROOT = Path(__file__).resolve().parent.parent
OLD_CHANNELS = ("pumps", "tickers", "settings_listeners", "hooks", "remote_player")


class Heard(AppListener):
    """Writes down what it is told."""

    def __init__(self) -> None:
        self.events: list[str] = []
        self.ticks: list[int] = []
        self.inputs = 0
        self.settings: list[BoardSettings] = []

    def on_event(self, event: ev.GameEvent) -> None:
        self.events.append(type(event).__name__)

    def tick(self, now: int) -> None:
        self.ticks.append(now)

    def after_input(self) -> None:
        self.inputs += 1

    def settings_changed(self, settings: BoardSettings) -> None:
        self.settings.append(settings)


def test_a_listener_that_overrides_nothing_changes_nothing() -> None:
    plain = App(setup=GameSetup("classic", mode="casual"), start_game=True)
    heard = App(setup=GameSetup("classic", mode="casual"), start_game=True)
    heard.listen(AppListener())
    for app in (plain, heard):
        on_board(app, start_clock=False)
        app.handle(ButtonPress(Button.MENU, 2000))
    assert heard.view() == plain.view() and heard.next_deadline() == plain.next_deadline()
    assert heard.frame == plain.frame


def test_one_listener_hears_events_ticks_inputs_and_settings_until_it_is_taken_away() -> None:
    app = App(setup=GameSetup("classic", mode="casual"), start_game=True)
    heard = Heard()
    stop = app.listen(heard)
    board = on_board(app, start_clock=False)
    carry_out(board, "c3", ["d4"])
    board.advance(400)
    board.step()
    app.set_board_settings(BoardSettings(brightness=16))
    assert "MoveCommitted" in heard.events and heard.ticks and heard.inputs >= 3
    assert [s.brightness for s in heard.settings] == [16]
    assert heard in app.listeners

    stop()
    before = (list(heard.events), list(heard.ticks), heard.inputs)
    board.slide("f6", "e5")
    board.advance(400)
    board.step()
    app.set_board_settings(BoardSettings(brightness=32))
    assert app.session.game.ply == 2
    assert (heard.events, heard.ticks, heard.inputs) == before and len(heard.settings) == 1
    assert heard not in app.listeners


def test_a_listener_that_fails_on_an_event_leaves_the_others_hearing_it() -> None:
    class Broken(AppListener):
        def on_event(self, event: ev.GameEvent) -> None:
            raise RuntimeError("broken listener")

    app = App(setup=GameSetup("classic", mode="casual"), start_game=True)
    heard = Heard()
    app.listen(Broken())
    app.listen(heard)
    board = on_board(app, start_clock=False)
    carry_out(board, "c3", ["d4"])
    board.advance(400)
    assert "MoveCommitted" in heard.events and len(app.bus.failures) > 0


def test_the_app_offers_one_channel_and_the_parts_beside_it_use_it() -> None:
    app = App()
    assert [name for name in OLD_CHANNELS if hasattr(app, name)] == []
    files = [ROOT / "controller" / "cues" / "listener.py", ROOT / "damka" / "commands" / "run.py"]
    files += [path for folder in ("web", "hall", "dxp", "display") for path in sorted((ROOT / folder).rglob("*.py"))]
    assert len(files) >= 40, f"found {len(files)} modules: moved?"
    old = []
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            text = ast.unparse(node) if isinstance(node, ast.Attribute) else ""
            if text.endswith(("app.bus.subscribe", *(f"app.{name}" for name in OLD_CHANNELS))):
                old.append(f"{path.relative_to(ROOT)}:{node.lineno} {text}")
    assert old == []
    listeners = {path.name for path in files if "AppListener)" in path.read_text(encoding="utf-8")}
    assert listeners >= {"listener.py", "run.py", "feed.py", "driver.py", "publisher.py", "feature.py"}
