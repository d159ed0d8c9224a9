"""The `damka` command line, run for real: `perft` and `moves`."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from damka.cli import main
from damka.commands import perft
from damka.engine import find_variant
from damka.engine.notation import parse_move


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# -- perft ----------------------------------------------------------------------


def test_perft_prints_every_depth(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "perft", "classic", "4")
    assert code == 0 and err == ""
    assert out.splitlines() == ["1 7", "2 49", "3 302", "4 1469"]


@pytest.mark.parametrize("name", ["classic81", "russian", "american", "international", "canadian",
                                  "multiwarcaby", "multiwarcaby7"])
def test_perft_matches_the_engine(capsys: pytest.CaptureFixture[str], name: str) -> None:
    variant = find_variant(name)
    code, out, _ = run(capsys, "perft", name, "2")
    assert code == 0
    expected = [f"{depth} {variant.perft(variant.start_position(), depth)}" for depth in (1, 2)]
    assert out.splitlines() == expected


def test_perft_options_and_fen(capsys: pytest.CaptureFixture[str]) -> None:
    variant = find_variant("multiwarcaby", sides=4)
    code, out, _ = run(capsys, "perft", "multiwarcaby", "1", "--sides", "4")
    assert code == 0 and out == f"1 {variant.perft(variant.start_position(), 1)}\n"
    code, out, _ = run(capsys, "perft", "international", "2", "--fen", "W:W28:B23,5")
    assert code == 0 and out.splitlines() == ["1 1", "2 1"]
    free = find_variant("classic", free_capture=True)
    code, out, _ = run(capsys, "perft", "classic", "3", "--free-capture")
    assert out.splitlines()[-1] == f"3 {free.perft(free.start_position(), 3)}"


@pytest.mark.parametrize(("argv", "message"), [
    (["perft", "chess", "3"], "unknown variant 'chess'"),
    (["perft", "classic", "three"], "DEPTH must be a whole number"),
    (["perft", "classic", "0"], "DEPTH must be at least 1"),
    (["perft", "classic", "2", "--fen", "W:Wz9:B"], "damka perft: error:"),
    (["perft", "multiwarcaby", "2", "--sides", "9"], "sides"),
    (["moves", "classic", "--sides", "3"], "takes no option 'sides'"),
    (["moves", "classic", "--fen", "X:W:B"], "FEN"),
])
def test_bad_input_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and message in err


# -- moves ----------------------------------------------------------------------


def test_moves_lists_the_start_moves(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "moves", "international")
    assert code == 0
    assert out.splitlines() == ["31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30"]
    code, out, _ = run(capsys, "moves", "classic")
    assert out.splitlines()[0] == "a3-b4" and len(out.splitlines()) == 7


def test_moves_json_with_routes(capsys: pytest.CaptureFixture[str]) -> None:
    fen = "W:We1:Bd2,d4,f2,f4,h8"
    code, out, _ = run(capsys, "moves", "classic", "--free-capture", "--fen", fen, "--json")
    assert code == 0
    listing = json.loads(out)
    by_pdn = {entry["pdn"]: entry for entry in listing}
    assert by_pdn["e1xc3xe5"] == {"from": "e1", "to": "e5", "path": ["c3", "e5"],
                                  "captures": ["d2", "d4"], "pdn": "e1xc3xe5"}
    assert "e1xg3xe5" in by_pdn and "e1xc3" in by_pdn
    variant = find_variant("classic", free_capture=True)
    position = variant.parse_position(fen)
    legal = variant.legal_moves(position)
    assert {parse_move(variant, position, entry["pdn"]) for entry in listing} == set(legal)
    assert len(listing) == len(legal)


def test_moves_json_uses_numbers_on_numeric_variants(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "moves", "international", "--fen", "W:W28:B23", "--json")
    assert json.loads(out) == [{"from": "28", "to": "19", "path": ["19"], "captures": ["23"], "pdn": "28x19"}]


def test_help_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("perft", "moves"):
        with pytest.raises(SystemExit) as info:
            main([command, "--help"])
        assert info.value.code == 0
        assert "--fen" in capsys.readouterr().out


def test_real_process() -> None:
    result = subprocess.run([sys.executable, "-m", "damka", "perft", "russian", "3"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["1 7", "2 49", "3 302"]
    result = subprocess.run([sys.executable, "-m", "damka", "moves", "nonsense"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "unknown variant" in result.stderr


def test_perft_progress_goes_to_its_own_stream(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(perft, "PROGRESS_AFTER", 0.0)
    variant = find_variant("classic")
    progress = io.StringIO()
    assert perft.count(variant, variant.start_position(), 4, progress) == 1469
    assert "depth 4: 7/7 root moves, 1469 nodes" in progress.getvalue()


def test_every_error_line_is_one_line() -> None:
    """Whatever a message holds (SQLite's integrity report runs over lines), the person gets one line."""
    from damka.cli import UsageError, error_line
    from damka.engine.errors import DamkaError

    assert error_line("games", DamkaError("db: damaged (*** in database main ***\nPage 5: bad)\n")) == \
        "damka games: error: db: damaged (*** in database main ***; Page 5: bad)"
    assert error_line("", UsageError("damka perft", "the following arguments are required: DEPTH")) == \
        "damka perft: error: the following arguments are required: DEPTH (see 'damka perft --help')"
    assert error_line("run", FileNotFoundError(2, "No such file or directory", "x.toml")) == \
        "damka run: error: x.toml: No such file or directory"
    assert error_line("export", OverflowError("Python int too large")) == \
        "damka export: error: a number is too large (Python int too large)"
