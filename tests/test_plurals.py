"""Counts are worded as people say them, on every output: "1 move", "2 moves";
in Polish, three forms ("1 sekunda", "2 sekundy", "5 sekund"). The voice, the
terminal lines of `damka sim --headless` and `damka import`, the coach."""

from __future__ import annotations

import pytest

from damka.cli import main
from damka.controller.words import plurals
from damka.controller.words import wording
from damka.controller.words.wording_voice import phrases_for


@pytest.mark.parametrize(("count", "words"), [(0, "0 moves"), (1, "1 move"), (2, "2 moves"), (21, "21 moves")])
def test_english(count: int, words: str) -> None:
    assert plurals.english(count, "move") == words


@pytest.mark.parametrize(("count", "form"), [(1, "sekunda"), (2, "sekundy"), (4, "sekundy"), (5, "sekund"),
                                             (12, "sekund"), (14, "sekund"), (22, "sekundy"), (25, "sekund"),
                                             (0, "sekund"), (112, "sekund"), (102, "sekundy")])
def test_polish_has_three_forms(count: int, form: str) -> None:
    assert plurals.polish(count, "sekunda", "sekundy", "sekund") == f"{count} {form}"


def test_the_voice_counts_seconds_and_periods_in_both_languages() -> None:
    en, pl = phrases_for("en"), phrases_for("pl")
    assert en.last_seconds("Ala", 1) == "Ala: 1 second"
    assert en.last_seconds("Ala", 10) == "Ala: 10 seconds"
    assert en.byoyomi("Ala", 1) == "Ala: byo-yomi, 1 period left"
    assert en.byoyomi("Ala", 3) == "Ala: byo-yomi, 3 periods left"
    assert pl.last_seconds("Ala", 1) == "Ala: 1 sekunda"
    assert pl.last_seconds("Ala", 3) == "Ala: 3 sekundy"
    assert pl.last_seconds("Ala", 10) == "Ala: 10 sekund"
    assert pl.byoyomi("Ala", 1) == "Ala: bajomi, 1 okres został"
    assert pl.byoyomi("Ala", 2) == "Ala: bajomi, 2 okresy zostały"
    assert pl.byoyomi("Ala", 5) == "Ala: bajomi, 5 okresów zostało"


def test_the_coach_counts_hints() -> None:
    assert wording.hints_left_text(1) == " (1 hint left)"
    assert wording.hints_left_text(3) == " (3 hints left)"


def test_a_headless_run_of_one_move_says_1_move(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    log = tmp_path / "one.log"
    log.write_text("1000 up c3\n1200 down d4\n")
    assert main(["sim", "--variant", "classic", "--headless", "--script", str(log), "--screenshot",
                 str(tmp_path / "one.png"), "--no-store"]) == 0
    assert "2 events played, 1 move committed" in capsys.readouterr().err


def test_importing_one_game_of_one_move_says_so(tmp_path, capsys) -> None:
    pdn = tmp_path / "one.pdn"
    pdn.write_text('[Event "x"]\n[GameType "20"]\n[Result "*"]\n\n32-28 *\n')
    assert main(["import", str(pdn), "--db", str(tmp_path / "games.db")]) == 0
    out = capsys.readouterr().out
    assert ", 1 move, " in out and "1 game stored in" in out, out
