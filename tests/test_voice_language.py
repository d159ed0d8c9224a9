"""A Polish board speaks Polish: every sentence given to espeak-ng (a stand-in
`espeak-ng` first on PATH writes down what it was asked) is in the board's
language, each computer move is said once, the simulator speaks as the board
does, and a board without espeak-ng plays on and says why."""

from __future__ import annotations

import dataclasses
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from damka.commands.run import attach_cues
from damka.config import parse_config
from damka.controller.app import App
from damka.controller.game.setup import GameSetup
from damka.controller.words import text_in
from damka.hardware.backends import open_board
from damka.sim.virtual_board import VirtualBoard
from waiting import DEADLINE_S, wait_on_board, wait_until
from app_rig import make_move as make, on_board

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="a stand-in program on PATH: POSIX only")

# Words only the English voice says (the catalogue's English sentences and side names).
ENGLISH = ("White", "Black", "Computer plays", " to ", " takes ", "wins", "Refused", "Draw", "computer)")


def standin_espeak(folder: Path) -> Path:
    """`espeak-ng` that appends `VOICE<TAB>TEXT` to said.txt beside it and says nothing."""
    folder.mkdir(parents=True, exist_ok=True)
    said = folder / "said.txt"
    program = folder / "espeak-ng"
    program.write_text(f"#!{sys.executable}\n"
                       "import sys\n"
                       "args = sys.argv[1:]\n"
                       "voice = args[args.index('-v') + 1]\n"
                       "text = args[args.index('--') + 1]\n"
                       f"with open({str(said)!r}, 'a', encoding='utf-8') as out:\n"
                       "    out.write(voice + '\\t' + text + '\\n')\n", encoding="utf-8")
    program.chmod(0o755)
    return said


def spoken(said: Path) -> list[tuple[str, str]]:
    if not said.exists():
        return []
    return [tuple(line.split("\t", 1)) for line in said.read_text(encoding="utf-8").splitlines()]  # type: ignore[misc]


def play_plies(app: App, board: VirtualBoard, plies: int) -> None:
    rng = random.Random(2)
    for _ in range(plies):
        session = app.session
        if session.game.is_over:
            return
        if session.game.turn in session.settings.computer_sides:
            wait_on_board(board, lambda: not session.busy, "the computer's move")
            make(board, app, session.planned[0])
        else:
            make(board, app, rng.choice(session.game.legal_moves()))


def polish_board(voice: bool = True) -> dict:
    return {"board": {"backend": "serial", "language": "pl"}, "voice": {"enabled": voice}}


def test_a_polish_game_with_the_voice_on_is_spoken_in_polish_each_move_once(tmp_path, monkeypatch) -> None:
    pytest.importorskip("serial")
    said = standin_espeak(tmp_path / "bin")
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}")
    config = parse_config(polish_board())
    with open_board(config, mock=True) as hardware:
        app = App(setup=GameSetup("classic", mode="computer", colours="first", level="beginner", move_time=0.05),
                  start_game=True)
        sinks = attach_cues(app, hardware, config)
        try:
            board = on_board(app)
            play_plies(app, board, 8)
            plies = app.session.game.ply
            assert all(sink.drain(DEADLINE_S) for sink in sinks)
        finally:
            for sink in sinks:
                sink.close()
    lines = spoken(said)
    assert len(lines) == plies >= 8, lines          # each move said once: the computer's when it is lit
    assert {voice for voice, _ in lines} == {"pl"}
    english = [text for _, text in lines if any(word in text for word in ENGLISH)]
    assert english == [], english
    computer = text_in("pl", "voice.computer")
    assert sum(text.startswith(computer) for _, text in lines) == plies // 2
    assert all(text.startswith(computer) or text.startswith("Białe:") for _, text in lines), lines


def test_a_polish_voice_on_an_english_board_says_the_side_names_in_polish() -> None:
    """[voice] language = "pl" on an English board: "Komputer gra: ...", then "Białe: ...",
    never "White: ..." (the issue heard "Komputer gra: 31 na 26" and "White (computer): ...")."""
    from damka.controller.cues.listener import CueListener, CueSettings
    from damka.controller.cues.sinks import RecordingSink

    app = App(setup=GameSetup("classic", mode="computer", colours="first", level="beginner", move_time=0.05),
              start_game=True)
    sink = RecordingSink()
    CueListener.attach(app, [sink], CueSettings(voice=True, language="pl"))
    board = on_board(app)
    play_plies(app, board, 4)
    app.session.close()
    texts = [item.text for item in sink.items]
    assert len(texts) == 4 and {item.language for item in sink.items} == {"pl"}, texts
    assert [text for text in texts if any(word in text for word in ENGLISH)] == [], texts
    assert texts[0].startswith("Białe:") and texts[1].startswith(text_in("pl", "voice.computer")), texts


def test_without_espeak_ng_the_board_plays_on_and_says_why(tmp_path, monkeypatch) -> None:
    pytest.importorskip("serial")
    (tmp_path / "empty").mkdir()
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    config = parse_config(polish_board())
    with open_board(config, mock=True) as hardware:
        app = App(setup=GameSetup("classic", mode="computer", colours="first", level="beginner", move_time=0.05),
                  start_game=True)
        sinks = attach_cues(app, hardware, config)   # was: "[voice] needs espeak-ng", and no board at all
        try:
            why = text_in("pl", "sound.no_espeak")
            assert why in app.read_model().view.messages
            board = on_board(app)
            play_plies(app, board, 4)
            assert app.session.game.ply == 4
        finally:
            for sink in sinks:
                sink.close()


def test_the_voice_switched_on_in_the_menu_without_espeak_ng_says_why(tmp_path, monkeypatch) -> None:
    pytest.importorskip("serial")
    (tmp_path / "empty").mkdir()
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    config = parse_config(polish_board(voice=False))
    with open_board(config, mock=True) as hardware:
        app = App(setup=GameSetup("classic", mode="casual"), start_game=True)
        sinks = attach_cues(app, hardware, config)
        why = text_in("pl", "sound.no_espeak")
        assert why not in app.read_model().view.messages   # the voice is off: nothing to say
        app.set_board_settings(dataclasses.replace(app.board_settings, voice=True))   # the menu's Voice
        assert why in app.read_model().view.messages
        for sink in sinks:
            sink.close()


def test_the_first_message_is_said_again_in_the_boards_language() -> None:
    """`damka run` starts the game, then applies the config's [board] language: the
    screen's first line follows (it stayed "set up the pieces" under "Ustaw pionki")."""
    pytest.importorskip("serial")
    config = parse_config({"board": {"backend": "serial", "language": "pl"}, "sound": {"enabled": False}})
    with open_board(config, mock=True) as hardware:
        app = App(setup=GameSetup("classic", mode="computer"), start_game=True)
        sinks = attach_cues(app, hardware, config)
        try:
            view = app.read_model().view
            assert view.status.lower() == text_in("pl", "session.setup").lower()
            assert text_in("en", "session.setup") not in view.messages, view.messages
        finally:
            for sink in sinks:
                sink.close()


def damka(*args: str, home: Path, path: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "HOME": str(home), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "XDG_CONFIG_HOME": str(home / ".config"), "PATH": path}
    return subprocess.run([sys.executable, "-m", "damka", *args], capture_output=True, text=True,
                          timeout=DEADLINE_S, env=env, cwd=home)


def computer_first(tmp_path: Path, *args: str, path: str) -> subprocess.CompletedProcess:
    """The computer moves first in the simulator (nobody carries its move out): one sentence."""
    return damka(*args, "--seconds", "15", "--variant", "classic", "--mode", "computer", "--level", "beginner",
                 "--colours", "second", "--db", str(tmp_path / "games.db"), home=tmp_path, path=path)


def board_toml(tmp_path: Path) -> Path:
    config = tmp_path / "board.toml"
    config.write_text('[board]\nbackend = "sim"\nlanguage = "pl"\n[web]\nenabled = false\n[sound]\nenabled = false\n'
                      '[voice]\nenabled = true\n', encoding="utf-8")
    return config


def test_the_simulator_speaks_polish_through_espeak_ng(tmp_path: Path) -> None:
    pytest.importorskip("pygame")
    said = standin_espeak(tmp_path / "bin")
    done = computer_first(tmp_path, "run", "--config", str(board_toml(tmp_path)),
                          path=f"{tmp_path / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}")
    assert done.returncode == 0, done.stderr
    wait_until(lambda: spoken(said), "the computer's move spoken")   # (espeak-ng may outlive the window)
    lines = spoken(said)
    assert lines[0][0] == "pl" and lines[0][1].startswith(text_in("pl", "voice.computer") + ":"), lines


def test_damka_sim_voice_speaks_through_espeak_ng(tmp_path: Path) -> None:
    pytest.importorskip("pygame")
    said = standin_espeak(tmp_path / "bin")
    done = computer_first(tmp_path, "sim", "--voice",
                          path=f"{tmp_path / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}")
    assert done.returncode == 0, done.stderr
    wait_until(lambda: spoken(said), "the computer's move spoken")
    assert spoken(said)[0][1].startswith(text_in("en", "voice.computer") + ":"), spoken(said)


def test_the_simulator_without_espeak_ng_plays_and_says_why(tmp_path: Path) -> None:
    pytest.importorskip("pygame")
    (tmp_path / "empty").mkdir()
    done = computer_first(tmp_path, "run", "--config", str(board_toml(tmp_path)), path=str(tmp_path / "empty"))
    assert done.returncode == 0, done.stderr
    assert text_in("pl", "sound.no_espeak") in done.stderr, done.stderr
