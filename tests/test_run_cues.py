"""`damka run` wires the cues and the light to the board it opened: a refused
press on the App sounds on the Pico's buzzer (TONE over the link, played by
the firmware on a pty), and night mode from the menu dims the Pico's LEDs."""

from __future__ import annotations

import sys

import pytest

from damka.commands.run import attach_cues
from damka.controller.app import App
from damka.controller.app.board_settings import BoardSettings
from damka.controller.game.setup import GameSetup
from damka.hardware.backends import open_board
from damka.config import parse_config
from test_app import on_board
from waiting import wait_until as waited

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="ptys are POSIX only")


def wait_until(check, what: str) -> None:
    waited(check, what)


def test_a_refused_press_sounds_on_the_pico_and_night_mode_dims_its_leds() -> None:
    pytest.importorskip("serial")
    config = parse_config({"board": {"backend": "serial"}, "voice": {"enabled": False}})
    with open_board(config, mock=True) as hardware:
        app = App(setup=GameSetup("classic", mode="casual"), start_game=True)
        sinks = attach_cues(app, hardware, config)
        board = on_board(app)  # the App played on the virtual board; its cues go to the Pico
        start = app.session.variant.geometry.name(app.session.game.legal_moves()[0].start)
        board.lift(start)
        board.advance(100)
        board.press(0)          # refused: a piece in the hand
        wait_until(lambda: (0, 220) in [(0, hz) for _, hz in hardware.sim.buzzer.played], "the refusal's 220 Hz")
        app.set_board_settings(BoardSettings(night=True))
        # The LEDS frame the Pico applied last starts with its brightness (docs/protocol.md).
        wait_until(lambda: hardware.sim.device.image.head_len and hardware.sim.device.image.head[0] == 8,
                   "the Pico's LEDs at night brightness")
        for sink in sinks:
            sink.close()


def test_damka_runs_simulator_window_speaks_the_configs_language(tmp_path, monkeypatch) -> None:
    """`damka run --config` with `backend = "sim"`: the window is the board, so
    the config's [board] language (and [light], [sound], [voice]) reach it as they
    reach a real board. The window's screenshot (F12) is the Polish screen
    (the window was English: the settings were applied only on the hardware path)."""
    pygame = pytest.importorskip("pygame")
    from damka.cli import main
    from damka.controller import words
    from damka.sim.window import build

    config = tmp_path / "board.toml"
    config.write_text('[board]\nbackend = "sim"\nlanguage = "pl"\n[web]\nenabled = false\n[sound]\nenabled = false\n',
                      encoding="utf-8")
    monkeypatch.chdir(tmp_path)   # where F12 saves its screenshot
    pygame.display.set_mode((10, 10))
    for key in (pygame.K_F12, pygame.K_q):
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0))
    assert main(["run", "--config", str(config), "--db", str(tmp_path / "games.db"), "--seconds", "60"]) == 0
    shots = list(tmp_path.glob("damka-*.png"))
    assert len(shots) == 1, shots
    shown = pygame.image.tobytes(pygame.image.load(str(shots[0])), "RGB")

    def screen(language: str) -> bytes:
        """The new-game menu the window opens on, on a board speaking `language`."""
        words.set_language(language)
        return pygame.image.tobytes(build(App(offer_resume=False)).render(), "RGB")

    pygame.display.set_mode((10, 10))
    english, polish = shown == screen("en"), shown == screen("pl")
    assert (english, polish) == (False, True), "the window should be the Polish screen"
