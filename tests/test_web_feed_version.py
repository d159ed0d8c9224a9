"""The page's feed pictures the App again whenever anything the page shows
changed, not only the fields a hand-made key listed (web/feed.py reads the
App's read model and compares its version).

Driven through the real App and WebFeed, with the board's time given by hand.
"""

from __future__ import annotations

from damka.controller.app import App
from damka.hardware.interfaces import Button, ButtonPress
from damka.web.feed import WebFeed


def pictures(feed: WebFeed) -> list[dict]:
    return [item.data for item in feed.history if item.kind == "state"]


def test_a_menu_change_without_an_event_reaches_the_page_at_the_next_pass_of_the_loop() -> None:
    app = App(offer_resume=False)
    feed = WebFeed(app)
    for step in range(8):                                # up to the first row: the game
        app.handle(ButtonPress(Button.UP, 10 + step))
    assert app.menu.current.key == "variant"
    while app.menu.current.value != "international":    # the keyboard's right arrow (the simulator)
        app.step_menu(1)
    before = len(pictures(feed))
    app.tick(1000)                                       # the board loop's next pass
    shown = pictures(feed)
    assert len(shown) == before + 1
    assert "10x10" in shown[-1]["view"]["subtitle"]     # the page says what the board's screen says
    app.tick(1100)
    app.tick(1200)
    assert len(pictures(feed)) == before + 1             # nothing changed since: no new picture


def test_rows_that_appear_in_the_menu_reach_the_page() -> None:
    app = App(offer_resume=False)
    feed = WebFeed(app)
    for step in range(8):
        app.handle(ButtonPress(Button.UP, 10 + step))
    while app.menu.current.value != "multiwarcaby":
        app.step_menu(1)
    app.tick(1000)
    rows = pictures(feed)[-1]["view"]["rows"]
    assert "Sides" in rows and rows == [row.label for row in app.menu.visible_rows()]
    app.step_menu(1)                                     # a variant without the "sides" row
    app.tick(2000)
    assert pictures(feed)[-1]["view"]["rows"] == [row.label for row in app.menu.visible_rows()] != rows
