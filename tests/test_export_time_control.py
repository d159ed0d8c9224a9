"""The TimeControl of a stored game, through `damka export`: a casual game on
the variant's casual clock says the clock that ran (`10+3`, multiwarcaby with
four players `4+1`), never `-` (no clock), also for a game stored before the
board spelt `casual` out."""

from __future__ import annotations

from pathlib import Path

import pytest

from damka.cli import main
from damka.controller.app import App
from damka.controller.game.setup import GameSetup
from damka.controller.store.store import Store
from damka.engine import find_variant
from damka.engine.pdn import read_game
from app_rig import on_board


def export(capsys, db: Path, game_id: int) -> str:
    assert main(["export", str(game_id), "--db", str(db)]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("setup, pdn_tag, compact", [
    (GameSetup("classic", mode="casual", time_control="casual"), "600+3", "10+3"),
    (GameSetup("multiwarcaby", sides=4, mode="casual", time_control="casual"), "240+1", "4+1"),
])
def test_a_casual_game_on_the_casual_clock_exports_the_clock_that_ran(capsys, tmp_path: Path, setup: GameSetup,
                                                                      pdn_tag: str, compact: str) -> None:
    db = tmp_path / "g.db"
    with Store(db) as store:
        app = App(store=store, setup=setup, start_game=True, offer_resume=False)
        board = on_board(app)
        board.press((app.session.game.turn + 1) % len(app.session.variant.sides))  # the clock starts
        board.advance(5000)
        assert app.clock is not None and app.clock_ms()[0] < app.clock.controls[0].initial_ms()
        app.recorder.flush()
        game_id = app.game_id
        assert store.load_game(game_id).time_control == compact
    text = export(capsys, db, game_id)
    assert f'[TimeControl "{pdn_tag}"]' in text and f'[DamkaTimeControl "{compact}"]' in text
    assert read_game(text).tags["TimeControl"] == pdn_tag


def test_a_game_stored_as_casual_before_exports_its_variants_casual_clock(capsys, tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    with Store(db) as store:
        classic = store.new_game(find_variant("classic"), mode="casual", time_control="casual")
        four = store.new_game(find_variant("multiwarcaby", sides=4), mode="casual", time_control="casual")
    assert '[TimeControl "600+3"]' in export(capsys, db, classic)
    text = export(capsys, db, four)
    assert '[TimeControl "240+1"]' in text and '[DamkaTimeControl "4+1"]' in text


def test_a_game_without_a_clock_has_no_time_control_tag(capsys, tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    with Store(db) as store:
        app = App(store=store, setup=GameSetup("classic", mode="casual"), start_game=True, offer_resume=False)
        on_board(app)
        app.recorder.flush()
        game_id = app.game_id
    assert "TimeControl" not in export(capsys, db, game_id)


def test_a_record_exported_as_casual_before_imports_with_its_variants_clock(capsys, tmp_path: Path) -> None:
    record = tmp_path / "old.pdn"
    record.write_text('[GameType "26"]\n[TimeControl "-"]\n[DamkaTimeControl "casual"]\n[DamkaMode "casual"]\n\n'
                      '1. c3-d4 *\n')
    db = tmp_path / "g.db"
    assert main(["import", str(record), "--continue", "--db", str(db)]) == 0
    capsys.readouterr()
    with Store(db) as store:
        stored = store.load_game(1)
    assert stored.clock_start == (603000, 603000)          # 10+3: ten minutes and the first 3 s
    assert '[TimeControl "600+3"]' in export(capsys, db, 1)


def test_a_game_lost_on_time_says_so_in_its_pdn(capsys, tmp_path: Path) -> None:
    """Issue 38: a flag fallen was a 0-2 like any other, with no reason in the record."""
    db = tmp_path / "g.db"
    with Store(db) as store:
        app = App(store=store, setup=GameSetup("classic", time_control="1+0"), start_game=True, offer_resume=False)
        board = on_board(app)
        board.press(1)                                   # white's clock starts
        board.advance(61_000)                            # and its minute runs out
        assert app.session.game.result is not None and app.session.game.result.winner == 1
        app.recorder.flush()
        game_id = app.game_id
    text = export(capsys, db, game_id)
    assert '[Result "0-2"]' in text and '[Termination "time forfeit"]' in text
    assert read_game(text).tags["Termination"] == "time forfeit"
