"""The catalogue of everything the board says (controller/words/): every text
in English and Polish with the same placeholders, counted words in the forms
each language needs, every key the code asks for present, and no sentence a
player reads left as a bare literal in the modules that show words."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from damka.controller import words, wording
from damka.controller.board_settings import BoardSettings, settings_menu
from damka.controller.menus import game_actions_menu, game_menu, resume_menu
from damka.controller.setup import GameSetup
from damka.controller.words import catalogue
from damka.engine.variants import variant_class

ROOT = Path(__file__).resolve().parent.parent
# The modules whose every sentence comes from the catalogue.
SPEAKING = ["controller/wording.py", "controller/wording_voice.py", "controller/menus.py",
            "controller/board_settings.py", "controller/view_builder.py", "display/screen.py",
            "display/clock_face.py", "sim/window.py"]
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


def _sentences(path: Path) -> list[tuple[int, str]]:
    """String literals of `path` that read as a sentence (two words or more), leaving out
    docstrings, exception messages (for the programmer) and catalogue keys."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            skip.add(id(body[0].value))
        if isinstance(node, ast.Raise) or (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "print"):
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


def test_the_sentences_still_written_elsewhere_are_in_the_catalogue_word_for_word() -> None:
    """The session's, the app's and the DXP seat's sentences have catalogue entries
    (controller/words/game.py) for those files to call: each English text, in the
    pieces between its placeholders, is found in the code as it is written today."""
    source = "\n".join(path.read_text(encoding="utf-8") for path in (ROOT / "controller").rglob("*.py")
                       if "words" not in path.parts)
    source = re.sub(r"[\"']\s*\n\s*f?[\"']", "", source)  # a literal written over two lines, as one
    groups = ("session.", "command.", "offer.", "dxp.", "hint.", "coach.", "resume.describe", "where.", "app.")
    files = [path for folder in CODE for path in (ROOT / folder).rglob("*.py") if "words" not in path.parts]
    asked = {key for path in files for key, prefix in _literal_keys(path) if not prefix}
    checked = 0
    for key in catalogue.keys():
        english = catalogue.entry(key)[0]
        if not key.startswith(groups) or isinstance(english, words.Counted) or key in asked:
            continue
        pieces = [piece for piece in re.split(r"\{\w+\}", english) if len(piece.strip()) >= 4]
        missing = [piece for piece in pieces if piece not in source]
        assert not missing, (key, missing)
        checked += 1
    assert checked > 100


def test_offers_and_the_resume_line_speak_polish_on_a_polish_board() -> None:
    from damka.controller.offers import Offers, offer_text
    draw = Offers().make("draw", side=1, where="remote page", ply=12)
    takeback = Offers().make("takeback", side=0, where="board", ply=12, moves=2)
    assert offer_text(draw, "Ola") == "Draw offered by Ola from the remote page"
    words.set_language("pl")
    assert offer_text(draw, "Ola") == "Propozycja remisu od: Ola (strona zdalna)"
    assert offer_text(takeback) == "Prośba o cofnięcie 2 ruchów (plansza)"
