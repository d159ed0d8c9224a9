"""`[board] language` in the board's config: the board starts speaking it (the
screen, the menus, the page), and a language it does not speak is one clear error."""

from __future__ import annotations

from pathlib import Path

import pytest

from damka.commands.run import attach_cues
from damka.controller import words
from damka.controller.app import App
from damka.controller.app.views import MenuView
from damka.controller.game.setup import GameSetup
from damka.hardware.backends import open_board
from damka.config import load_config, parse_config
from damka.hardware.errors import ConfigError


def test_a_board_configured_in_polish_starts_in_polish() -> None:
    config = parse_config({"board": {"backend": "sim", "language": "pl"}, "voice": {"enabled": False}})
    assert config.language == "pl"
    with open_board(config, mock=True) as hardware:
        app = App(setup=GameSetup("classic"))
        sinks = attach_cues(app, hardware, config)
        try:
            view = app.view()
            assert app.board_settings.language == "pl" and words.language() == "pl"
            assert isinstance(view, MenuView) and view.menu.title == "Nowa gra"
        finally:
            for sink in sinks:
                sink.close()


def test_the_language_is_english_unless_configured() -> None:
    assert parse_config({}).language == "en"


def test_a_language_the_board_does_not_speak_is_one_clear_error() -> None:
    with pytest.raises(ConfigError, match=r"board.toml: \[board\] language: .*'de'"):
        parse_config({"board": {"language": "de"}}, "board.toml")


def test_the_example_config_says_it(tmp_path) -> None:
    example = Path(__file__).resolve().parent.parent / "docs" / "board.example.toml"
    assert load_config(example).language == "en" and 'language = "en"' in example.read_text(encoding="utf-8")
