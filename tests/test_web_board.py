"""The board's menu from the page (web/board.py): its settings and pausing/starting the clock,
against a real server on 127.0.0.1 with the App on the virtual board (HTTP client, no browser)."""

from __future__ import annotations

import http.client
import json
import socket
import threading

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")

from damka.controller.app.board_settings import BoardSettings, settings_menu  # noqa: E402
from damka.controller.game.setup import GameSetup  # noqa: E402
from test_board_play import FULL, go_to_row, set_row  # noqa: E402
from web_support import PIN, request, served  # noqa: E402,F401  (fixture)
from app_listeners import SettingsHeard  # noqa: E402
from waiting import wait_until  # noqa: E402


class Watcher:
    """A page watching the SSE stream: every state picture's settings, as they arrive."""

    def __init__(self, served) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", served.web.port, timeout=10)
        self.conn.request("GET", "/api/events")
        self.response = self.conn.getresponse()
        self.settings: list[dict] = []
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        kind = None
        try:
            for raw in self.response:
                line = raw.decode().rstrip("\n")
                if line.startswith("event: "):
                    kind = line[7:]
                elif line.startswith("data: ") and kind == "state":
                    self.settings.append({k: row["value"] for k, row in json.loads(line[6:])["settings"].items()})
        except (OSError, ValueError):
            pass

    def wait_for(self, **values: str) -> dict:
        def seen() -> dict | None:
            return next((s for s in list(self.settings) if all(s.get(k) == v for k, v in values.items())), None)

        return wait_until(seen, f"a picture with {values} (seen {self.settings[-3:]})")

    def close(self) -> None:
        self.conn.sock.shutdown(socket.SHUT_RDWR)   # the reader's blocked read ends at once
        self.thread.join(5)
        self.conn.close()


def test_settings_from_the_page_are_applied_pushed_to_watching_pages_and_shown_on_the_board(served) -> None:
    heard: list[BoardSettings] = []
    served.rig.do(lambda: served.app.listen(SettingsHeard(heard.append)))   # the LEDs and the cues listen so
    watcher = Watcher(served)
    watcher.wait_for(brightness="64", palette="standard")
    status, answer = request(served, "POST", "/api/board/settings",
                             {"settings": {"brightness": "128", "palette": "colour-blind", "night": False}},
                             code=served.code)
    assert status == 200, answer
    assert answer["settings"]["brightness"] == "128"
    assert served.rig.do(lambda: served.app.board_settings) == BoardSettings(brightness=128, palette="colour-blind")
    assert heard[-1] == BoardSettings(brightness=128, palette="colour-blind")
    watcher.wait_for(brightness="128", palette="colour-blind")
    banner = served.rig.do(lambda: served.app.view().subtitle)   # the board's screen: what, from where
    assert "LED brightness Bright (50%), LED colours Colour-blind safe from web player@127.0.0.1" in banner
    watcher.close()


def test_a_setting_changed_on_the_board_s_menu_is_pushed_to_the_page(served) -> None:
    watcher = Watcher(served)
    watcher.wait_for(voice="off")

    def menu_voice_on() -> None:        # the board's buttons: the new-game menu, Board settings, Voice
        go_to_row(served.app, served.rig.board, FULL, "settings")
        FULL.ok(served.rig.board)
        set_row(served.app, served.rig.board, FULL, "voice", "on")
    served.rig.do(menu_voice_on)
    watcher.wait_for(voice="on")
    status, _ = request(served, "POST", "/api/board/settings", {"settings": {"sound": "off"}}, code=served.code)
    assert status == 200
    overlay = served.rig.do(lambda: {row.key: row.value for row in served.app.overlay.rows})
    assert overlay["sound"] == "off" and overlay["voice"] == "on"   # the open menu shows the page's change
    watcher.close()


def test_bad_settings_are_refused_naming_the_field_and_change_nothing(served) -> None:
    before = served.rig.do(lambda: served.app.board_settings)
    brightness = [value for value, _ in settings_menu(before).row("brightness").choices]
    for body, words in [
        ({"settings": {"glow": "on"}}, ["'glow' is not a board setting", "brightness"]),
        ({"settings": {"brightness": "100"}}, ["brightness: '100' is not one of", ", ".join(brightness)]),
        ({"settings": {"palette": "pink"}}, ["palette: 'pink'", "colour-blind"]),
        ({"settings": {"night": "maybe"}}, ["night: 'maybe' is not one of on, off"]),
        ({"settings": {"sound": None}}, ["sound: None"]),
        ({"settings": {"brightness": "128", "voice": 3}}, ["voice: 3"]),   # all or nothing
        ({"settings": {}}, ["settings: an object"]),
        ({"settings": "bright"}, ["settings: an object"]),
    ]:
        status, answer = request(served, "POST", "/api/board/settings", body, code=served.code)
        assert status == 400, (body, answer)
        assert "\n" not in answer["error"] and all(word in answer["error"] for word in words), (body, answer)
    assert served.rig.do(lambda: served.app.board_settings) == before
    status, answer = request(served, "POST", "/api/board/clock", {"action": "stop"}, code=served.code)
    assert status == 400 and "'stop' is not one of pause, start" in answer["error"]


def clock_ms(served) -> list[int]:
    return served.rig.do(lambda: served.app.clock_ms())


def board_time_passes(served, ms: int) -> None:
    """Wait until the board's own time (the app's) has moved on `ms`."""
    then = served.rig.do(lambda: served.app.now)
    wait_until(lambda: served.rig.do(lambda: served.app.now) >= then + ms, f"{ms} ms of the board's time")


def test_a_player_pauses_and_starts_the_clock_from_the_page_with_the_pairing_code(served) -> None:
    status, answer = request(served, "POST", "/api/board/clock", {"action": "pause"}, code=served.code)
    assert status == 409 and "no game" in answer["error"]
    served.rig.do(lambda: served.app.new_game(GameSetup("classic", time_control="5+3")))
    served.rig.set_up()
    served.rig.play(served.rig.do(lambda: served.app.session.game.legal_moves()[0]))
    first = clock_ms(served)
    wait_until(lambda: clock_ms(served) != first, "the clock to run")
    status, answer = request(served, "POST", "/api/board/clock", {"action": "pause"}, code=served.code)
    assert status == 200 and answer["clock"] == "paused", answer
    paused = clock_ms(served)
    board_time_passes(served, 300)
    assert clock_ms(served) == paused                  # its times stop moving
    assert "clock paused from web player@127.0.0.1" in served.rig.do(lambda: " ".join(served.app.view().messages))
    status, answer = request(served, "POST", "/api/board/clock", {"action": "pause"}, code=served.code)
    assert status == 409 and "cannot pause the clock: it is paused" in answer["error"]
    status, answer = request(served, "POST", "/api/board/clock", {"action": "start"}, code=served.code)
    assert status == 200 and answer["clock"] == "running"
    wait_until(lambda: clock_ms(served) != paused, "the clock to move again")


def test_a_game_without_a_clock_has_none_to_pause(served) -> None:
    served.rig.do(lambda: served.app.new_game(GameSetup("classic")))
    status, answer = request(served, "POST", "/api/board/clock", {"action": "pause"}, code=PIN)
    assert status == 409 and "no clock" in answer["error"]
