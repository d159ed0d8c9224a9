"""The catalogue of everything the board says (controller/words/): every text
in English and Polish with the same placeholders, counted words in the forms
each language needs, every key the code asks for present, and no sentence a
player reads left as a bare literal in the modules that show words."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from damka.controller import words

from damka.controller.words import wording
from damka.controller.app.board_settings import BoardSettings, settings_menu
from damka.controller.app.menus import game_actions_menu, game_menu, resume_menu
from damka.controller.game.setup import GameSetup
from damka.controller.words import catalogue
from damka.engine.variants import variant_class

ROOT = Path(__file__).resolve().parent.parent
# The modules whose every sentence comes from the catalogue.
SPEAKING = ["controller/words/wording.py", "controller/words/wording_voice.py", "controller/app/menus.py",
            "controller/app/board_settings.py", "controller/app/view_builder.py", "display/screen.py",
            "display/clock_face.py", "sim/window.py", "sim/painter.py", "sim/interactive.py"]
CODE = ["controller", "display", "sim", "web", "damka", "hall"]


def test_every_text_has_english_and_polish_with_the_same_placeholders() -> None:
    keys = catalogue.keys()
    assert len(keys) > 200
    for key in keys:
        english, polish = catalogue.entry(key)
        assert english and polish, key
        assert catalogue.placeholders(english) == catalogue.placeholders(polish), key
        for text, forms in ((english, 2), (polish, 3)):
            if isinstance(text, words.Counted):
                assert len(text.forms) == forms and "count" in catalogue.placeholders(text), key
                assert all(text.forms), key


def test_counted_words_take_the_polish_forms() -> None:
    shown = {n: words.text_in("pl", "hints.left", count=n) for n in (1, 2, 4, 5, 12, 22, 25)}
    assert shown[1] == " (została 1 podpowiedź)"
    assert shown[2] == shown[2].replace("2", "2") == " (zostały 2 podpowiedzi)" and "zostały 22" in shown[22]
    assert "zostało 5" in shown[5] and "zostało 12" in shown[12] and "zostało 25" in shown[25]
    assert words.text_in("en", "hints.left", count=1) == " (1 hint left)"
    assert words.say("web.code", code="123456") == "Web code 123456"   # a field may be called `code`
    assert words.text_in("en", "takeback.more", count=3) == " (3 more squares to fix)"
    assert words.text_in("pl", "takeback.more", count=3) == " (jeszcze 3 pola do poprawienia)"


def test_the_board_speaks_the_language_it_is_set_to() -> None:
    assert wording.second_move_text(False) == "make the second move, then press"
    words.set_language("pl")
    assert wording.second_move_text(False) == "zrób drugi ruch, potem naciśnij"
    assert game_menu().title == "Nowa gra"
    with pytest.raises(ValueError, match="expected one of en, pl"):
        words.set_language("de")
    with words.speaking("en"):
        assert game_menu().title == "New game"
    assert words.language() == "pl"


def _literal_keys(path: Path) -> list[tuple[str, bool]]:
    """(key, is_prefix) of every say("...") / text_in(x, "...") in `path`; an f-string key gives its prefix."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) and getattr(func.value, "id", "") == "words" \
            else getattr(func, "id", "")
        args = node.args[1:] if name == "text_in" else node.args if name == "say" else []
        if args and isinstance(args[0], ast.Constant) and isinstance(args[0].value, str):
            found.append((args[0].value, False))
        elif args and isinstance(args[0], ast.JoinedStr) and isinstance(args[0].values[0], ast.Constant):
            found.append((str(args[0].values[0].value), True))
    return found


def test_every_key_the_code_asks_for_is_in_the_catalogue() -> None:
    keys = set(catalogue.keys())
    files = [path for folder in CODE for path in (ROOT / folder).rglob("*.py") if "words" not in path.parts]
    asked = [(path, key, prefix) for path in files for key, prefix in _literal_keys(path)]
    assert len(asked) > 100, "the scan found almost no say() calls"
    missing = [(str(path.relative_to(ROOT)), key) for path, key, prefix in asked
               if (not any(k.startswith(key) for k in keys) if prefix else key not in keys)]
    assert not missing


# Exceptions whose text a player reads (the page's refusals, the board's offers, `damka dxp`'s start).
PLAYER_ERRORS = {"CommandRefused", "BadArgument", "OfferError", "DxpStartError", "HintLimitReached"}
LOG_CALLS = {"debug", "info", "warning", "error", "exception", "critical", "log", "flush"}
DOC_CALLS = {"property", "_owned_by"}   # a property's docstring, given as an argument


def _raised_name(node: ast.Raise) -> str:
    call = node.exc
    func = call.func if isinstance(call, ast.Call) else call
    return getattr(func, "id", "") or getattr(func, "attr", "")


def _sentences(path: Path) -> list[tuple[int, str]]:
    """String literals of `path` that read as a sentence (two words or more), leaving out
    docstrings, log lines, asserts and exception messages for the programmer, and catalogue keys."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):  # a docstring, a field's too
            skip.add(id(node.value))
        is_log = isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            node.func.attr in LOG_CALLS and ("log" in ast.unparse(node.func.value).lower() or
                                            any(ast.unparse(arg).startswith("logging.") for arg in node.args))
        is_doc = isinstance(node, ast.Call) and getattr(node.func, "id", "") in DOC_CALLS
        if is_log or is_doc or isinstance(node, ast.Assert) or \
                (isinstance(node, ast.Raise) and _raised_name(node) not in PLAYER_ERRORS) or \
                (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "print"):
            skip.update(id(inner) for inner in ast.walk(node))
    found = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and re.search(r"[A-Za-z]{2,} [A-Za-z]{2,}",
                                                                                          node.value):
            found.append((node.lineno, node.value))
    return found


def test_no_sentence_is_left_outside_the_catalogue() -> None:
    """The modules that show words take each sentence from the catalogue (a sentence
    written into them would show in English on a Polish board)."""
    checked = [ROOT / name for name in SPEAKING]
    assert all(path.exists() for path in checked)
    left = [(path.name, line, text) for path in checked for line, text in _sentences(path)]
    assert not left


# The modules that play the game: what they say on the screen, the page, the voice
# and in a refusal is the catalogue's (controller/words/game.py).
PLAYING = ["controller/session", "controller/app", "controller/players", "controller/players/computer.py",
           "controller/players/hub_opponent.py", "controller/players/hub_coach.py", "controller/players/seat_opponents.py",
           "controller/game/factory.py", "controller/app/resume.py", "controller/app/offers.py", "dxp"]
# Words that are data, not sentences: kept in English in the records and the logs and
# put into the board's language where they are shown (`words.translate`).
TOKENS = {
    "on time",              # a result's reason, stored with the game (session/ends.py, session/core.py)
    "game over",            # the clock's stop reason, stored (session/commits.py, types.py, game/factory.py)
    "DXP: connection lost", "DXP: connection lost (paused by hand before)", "DXP: peer back",
    # dxp/clock_hold.py: who paused the clock, stored with the game and compared on resume
    "remote page",          # where an offer came from (app/offer_desk.py, offers.py), compared
    "DXP peer", "other program",  # the peer's name and the seat's label (dxp/), stored with the game
    "the board is playing another peer",  # why dxp/door.py closes a waiting connection: logged only
    " in stage ", ": play goes on",  # the arbiter log's line for a flag play goes on after (app/recorder.py), stored
    "carrying out",         # who paused the clock while a move is carried out (session/clock_binding.py), stored
}
# The DXP protocol's own terms: what a message lacks or why it is refused, in the
# protocol's words (GAMEREQ, BACKACC); shown inside a catalogue sentence ("dxp.refused").
PROTOCOL = ["dxp/protocol.py", "dxp/door.py"]


def test_no_sentence_is_left_outside_the_catalogue_in_the_game() -> None:
    """The session, the app, the players and DXP say nothing in English only: a
    sentence written into them would show in English on a Polish board."""
    files = [path for name in PLAYING for path in ([ROOT / name] if name.endswith(".py") else
                                                    sorted((ROOT / name).rglob("*.py")))
             if str(path.relative_to(ROOT)) not in PROTOCOL]
    assert len(files) > 30 and all(path.exists() for path in files)
    left = [(str(path.relative_to(ROOT)), line, text) for path in files for line, text in _sentences(path)
            if text not in TOKENS]
    assert not left


def _labels(menu) -> list[str]:
    return [menu.title, menu.footer] + [row.label for row in menu.rows] + \
        [label for row in menu.rows for _, label in row.choices]


def test_every_menu_is_polish_on_a_polish_board() -> None:
    """Each label of every menu, built on a Polish board, is the catalogue's Polish text
    (never the English one, where the two languages differ)."""
    english_texts = {catalogue.entry(key)[0] for key in catalogue.keys()}
    polish_texts = {catalogue.entry(key)[1] for key in catalogue.keys()}
    words.set_language("pl")
    menus = [game_menu(GameSetup(name)) for name in ("multiwarcaby", "classic", "international")]
    menus += [game_menu(GameSetup("multiwarcaby", sides=4, mode="computer", computers=3)),
              game_actions_menu(clock_running=True, offer="draw", asks=True), game_actions_menu(clock_paused=True),
              resume_menu("game 1"), settings_menu(BoardSettings(brightness=20, language="pl"))]
    english_only = [label for menu in menus for label in _labels(menu)
                    if label in english_texts and label not in polish_texts]
    assert not english_only
    assert any(row.key == "language" for row in settings_menu(BoardSettings()).rows)
    assert variant_class("classic") and "Klasyczne 8x8" in _labels(menus[1])


def test_offers_and_the_resume_line_speak_polish_on_a_polish_board() -> None:
    from damka.controller.app.offers import Offers, offer_text
    draw = Offers().make("draw", side=1, where="remote page", ply=12)
    takeback = Offers().make("takeback", side=0, where="board", ply=12, moves=2)
    assert offer_text(draw, "Ola") == "Draw offered by Ola from the remote page"
    words.set_language("pl")
    assert offer_text(draw, "Ola") == "Propozycja remisu od: Ola (strona zdalna)"
    assert offer_text(takeback) == "Prośba o cofnięcie 2 ruchów (plansza)"
