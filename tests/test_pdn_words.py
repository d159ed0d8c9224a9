"""Why a record of an uploaded PDN file (a FEN, a move) was passed over, said in the language of
the board: the rules engine's reasons (engine/reasons.py) have a Polish form each, the reading
path gives no sentence outside them, a Polish board says a real archive's refusals in Polish, and
the page's upload reports them so (real uvicorn, real subprocess import job)."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest

from damka.controller import words
from damka.controller.store.pdn import import_records, iter_outcomes
from damka.controller.words.engine_reasons import POLISH
from damka.engine.errors import IllegalMoveError
from damka.engine.notation import parse_move
from damka.engine.reasons import ENGLISH, Reason, reason_of
from damka.engine.variants import default_variant

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "pdn-corpus"
# The modules that read a PDN record: every sentence they give a reader is a Reason.
READING = ["engine/pdn.py", "engine/pdn_tokens.py", "engine/pdn_builder.py", "engine/pdn_tags.py",
           "engine/notation.py", "engine/geometry.py", "engine/draughts_position.py",
           "engine/multiwarcaby_position.py", "engine/option_spec.py", "engine/variants.py"]
# Functions of those modules whose errors no reader of a record sees: a config's or a command's.
NOT_READING = {"check", "check_options"}


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def _fixed_parts(template: str) -> list[str]:
    """The words of an English reason that are its own (not a field's), long enough to be telling."""
    return [literal.strip(" ;:,()") for literal, _, _, _ in string.Formatter().parse(template)
            if len(literal.strip(" ;:,()")) >= 10]


ENGLISH_PARTS = sorted({part for template in ENGLISH.values() for part in _fixed_parts(template)})


def test_every_reason_of_the_engine_has_a_polish_form_with_the_same_fields() -> None:
    assert len(ENGLISH) > 80 and set(POLISH) == set(ENGLISH)
    for key, english in ENGLISH.items():
        assert _fields(english) == _fields(POLISH[key]), key
        assert POLISH[key] != english or not _fixed_parts(english), key   # said, not copied


def _sentences_raised(path: Path) -> list[tuple[int, str]]:
    """Each place in `path` that gives a reader an error as a bare string: a raise or an error
    token with a literal or f-string message, handle_error/handle_warning given one."""
    found = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = {id(node) for function in ast.walk(tree) if isinstance(function, ast.FunctionDef)
               and function.name in NOT_READING for node in ast.walk(function)}
    for node in ast.walk(tree):
        if id(node) in skipped or not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "id", "") or getattr(node.func, "attr", "")
        given = [*node.args[:1], *(k.value for k in node.keywords if k.arg == "value" and name == "Token")]
        if name.endswith("Error") or name in ("handle_error", "handle_warning", "Token", "fail"):
            for arg in given[-1:] if name == "Token" else given:
                if isinstance(arg, ast.JoinedStr) or (isinstance(arg, ast.Constant) and isinstance(arg.value, str)
                                                      and " " in arg.value):
                    found.append((node.lineno, ast.unparse(arg)[:80]))
    return found


def test_the_reading_path_gives_reasons_not_bare_english() -> None:
    paths = [ROOT / name for name in READING]
    assert all(path.exists() for path in paths)
    left = [(str(path.relative_to(ROOT)), line, text) for path in paths for line, text in _sentences_raised(path)]
    assert not left


def test_a_reason_is_the_english_sentence_and_a_polish_board_says_it_whole() -> None:
    classic = default_variant("classic")
    with pytest.raises(IllegalMoveError) as refused:
        parse_move(classic, classic.start_position(), "c3-c5")
    reason = reason_of(refused.value)
    assert isinstance(reason, Reason) and reason.key == "move.illegal"
    assert str(refused.value) == reason == "'c3-c5' is not a legal move here; legal from c3: c3-b4, c3-d4"
    with words.speaking("pl"):
        assert words.said(reason) == "'c3-c5' to tutaj nie jest legalny ruch; legalne z pola c3: c3-b4, c3-d4"
    with words.speaking("en"):
        assert words.said(reason) == reason
    assert words.said("a sentence from elsewhere") == "a sentence from elsewhere"
    after = Reason("pdn.after_end", number=61, move="27-21", ending="threefold repetition")   # a stored game's end
    stray = Reason("pdn.unexpected_word", word="draw")   # a file's word, which the catalogue also holds
    with words.speaking("pl"):
        assert words.said(after) == "ruch 61 (27-21) jest po końcu partii (trzykrotne powtórzenie pozycji)"
        assert words.said(stray) == "niespodziewane słowo 'draw' (to nie ruch, numer ruchu ani wynik)"


def _refusals(files: list[Path], language: str) -> list[str]:
    reasons = []
    with words.speaking(language):
        for path in files:
            text = path.read_text(encoding="utf-8", errors="replace")
            reasons += [words.said(outcome.reason) for outcome in iter_outcomes([text], variant=None)
                        if outcome.record is None]
    return reasons


def test_a_polish_board_says_why_each_record_of_a_real_archive_was_passed_over() -> None:
    files = sorted((CORPUS / "wiegerw" / "games" / "fail").glob("*.pdn"))
    assert len(files) >= 5, f"no PDN files under {CORPUS}"
    english, polish = _refusals(files, "en"), _refusals(files, "pl")
    assert len(english) == len(polish) >= 50
    # The check can fail: the English reasons are made of the engine's own sentences.
    assert sum(any(part in reason for part in ENGLISH_PARTS) for reason in english) == len(english)
    left = [reason for reason in polish if any(part in reason for part in ENGLISH_PARTS)]
    assert not left, left[:5]
    assert any("dalej zapis nie jest czytany" in reason for reason in polish)


def test_a_time_control_the_board_cannot_read_keeps_the_game_and_the_tag() -> None:
    text = '[GameType "20"]\n[TimeControl "90 min + 30 s"]\n\n1. 32-28 19-23 2. 28x19 14x23 *\n'
    [(game, details)] = import_records(text)
    assert len(game.moves) == 4 and details.get("time_control") is None
    assert details["tags"]["TimeControl"] == "90 min + 30 s"


@pytest.fixture
def polish_board(tmp_path):
    pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")
    from damka.controller.app.board_settings import BoardSettings
    from web_support import Served

    served = Served(tmp_path)
    served.rig.do(lambda: served.app.set_board_settings(BoardSettings(language="pl")))
    yield served
    served.close()


def test_the_page_s_upload_says_in_polish_why_records_were_passed_over(polish_board) -> None:
    from upload_rig import upload
    from web_support import request

    status, answer = request(polish_board, "POST", "/api/games/import", {"pdn": '[GameType "20"]\n1. 99-98 *\n'},
                             code=polish_board.code)
    assert status == 400, answer
    assert answer["error"].startswith("PDN nie wczytany: club.pdn, partia 1: wiersz 1: ") or \
        answer["error"].startswith("PDN nie wczytany: upload, partia 1: wiersz 1: "), answer
    assert "'99-98': pole numer 99 jest poza planszą (1-50); dalej zapis nie jest czytany" in answer["error"]
    good = '[GameType "20"]\n1. 32-28 *\n\n'
    bad = '[GameType "20"]\n1. 32-28 19-23 2. 28-22 *\n'
    done = upload(polish_board, good + bad)
    assert done["state"] == "done" and done["stored"] == 1 and done["refused"] == 1, done
    problem = done["problems"][0]
    assert problem.startswith("partia 2 (wiersz "), problem
    assert "ruch 3 '28-22': '28-22' to tutaj nie jest legalny ruch" in problem, problem
    assert not any(part in problem for part in ENGLISH_PARTS), problem
    assert re.search(r"legalne z pola 28: 28x19|bicie jest obowiązkowe", problem), problem


def test_a_record_of_stray_tokens_keeps_its_first_problems_and_counts_the_rest() -> None:
    """A 2 MB file of stray tokens has an error each: all kept, they held 1.4 GB as reasons."""
    from damka.engine.pdn import read_games
    from damka.engine.pdn_builder import KEPT_PROBLEMS

    [game] = read_games('[GameType "20"]\n' + "} " * 100_000)
    assert len(game.errors) == KEPT_PROBLEMS and game.errors_left_out == 100_000 - KEPT_PROBLEMS
    assert game.first_error() == "2:1: unexpected '}' (and 99999 more)"
    with words.speaking("pl"):
        assert words.said(game.first_error()) == "2:1: niespodziewany znak '}' (i jeszcze 99999)"


def test_a_big_file_of_stray_tokens_goes_to_the_import_job_which_says_what_it_found(polish_board) -> None:
    """The check made while the page waits reads the first 32 KiB only (it shares the board's
    interpreter); the job, in a process of its own, reads the rest and reports the record."""
    from upload_rig import upload

    done = upload(polish_board, '[GameType "20"]\n' + "} " * (1 << 19))
    assert done["state"] == "done" and done["stored"] == 0 and done["refused"] == 1, done
    assert done["problems"] == [f"partia 1 (wiersz 1): 2:1: niespodziewany znak '}}' (i jeszcze {(1 << 19) - 1})"]
