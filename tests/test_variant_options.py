"""Variant options declared once: every option of every variant survives a
played game stored, exported as PDN (`damka export`), imported (`damka
import`) into another database and reloaded; the checks, the flags and the
menu catalogue come from the same declarations."""

from __future__ import annotations

from pathlib import Path

import pytest

from damka.cli import main
from damka.controller.store.store import Store
from damka.engine import Game, find_variant
from damka.engine.option_spec import OptionSpec
from damka.engine.variants import variant_catalogue, variant_class, variant_names

# An option value that needs another option to be allowed (the 3rd and 4th side to start need 4 sides).
NEEDS = {("multiwarcaby", "first", 2): {"sides": 4}, ("multiwarcaby", "first", 3): {"sides": 4}}


def other_values(spec: OptionSpec) -> list[object]:
    """Every non-default value of a small range (sides, first); for a long one (a
    count), its ends and one value past the default."""
    if spec.kind is bool:
        return [not spec.default]
    assert spec.minimum is not None
    if spec.maximum is not None and spec.maximum - spec.minimum < 10:
        values: list[object] = list(range(spec.minimum, spec.maximum + 1))
    else:
        values = [spec.minimum, int(spec.default) + 7]  # type: ignore[call-overload]
        if spec.maximum is not None:
            values.append(spec.maximum)
    if spec.off:
        values.append(None)
    return [value for value in values if value != spec.default]


CASES = [
    pytest.param(name, {spec.name: value, **NEEDS.get((name, spec.name, value), {})},
                 id=f"{name}-{spec.name}={spec.format(value)}")
    for name in variant_names() for spec in variant_class(name).option_specs for value in other_values(spec)
] + [
    pytest.param("classic81", {"free_capture": True, "symmetric": True, "draw_moves": 30, "threefold": False},
                 id="classic81-all"),
    pytest.param("multiwarcaby", {"teams": True, "first": 1, "quiet_rounds": None}, id="multiwarcaby-teams-all"),
]


def play(variant_name: str, options: dict[str, object], plies: int = 10) -> Game:
    game = Game(find_variant(variant_name, **options))
    for ply in range(plies):
        moves = game.legal_moves()
        if game.is_over or not moves:
            break
        game.push(moves[(ply * 7) % len(moves)])
    return game


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


@pytest.mark.parametrize(("name", "options"), CASES)
def test_every_option_survives_store_export_import_reload(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, options: dict[str, object]) -> None:
    game = play(name, options)
    variant = game.variant
    assert variant.changed_options() == options
    first_db, second_db, record = tmp_path / "first.db", tmp_path / "second.db", tmp_path / "game.pdn"
    with Store(first_db) as store:
        gid = store.new_game(variant)
        replay = Game(variant)
        for move in game.moves:
            replay.push(move)
            store.record_move(gid, replay)
        if game.result is not None:
            store.finish(gid, game.result)
    cli(capsys, "export", str(gid), "--db", str(first_db), "--pdn", str(record))
    text = record.read_text(encoding="utf-8")
    for spec in variant.option_specs:
        if spec.name in options:
            assert f'[{spec.tag} "{spec.format(options[spec.name])}"]' in text
    cli(capsys, "import", str(record), "--db", str(second_db))
    with Store(second_db) as store:
        reloaded = store.load_game(store.list_games()[-1].id)
    assert reloaded.game.variant.name == variant.name
    assert reloaded.game.variant.option_values() == variant.option_values()
    assert reloaded.options == variant.changed_options()
    assert reloaded.game.moves == game.moves and reloaded.game.ply > 0


def test_a_hand_written_record_keeps_its_draw_rules(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The reported defect: `[DrawMoves "25"]` and `[Threefold "no"]` were lost on import."""
    record = tmp_path / "game.pdn"
    record.write_text('[GameType "26"]\n[DrawMoves "25"]\n[Threefold "no"]\n\n1. c3-d4 f6-e5 *\n', encoding="utf-8")
    db = tmp_path / "games.db"
    cli(capsys, "import", str(record), "--db", str(db))
    with Store(db) as store:
        stored = store.load_game(1)
    assert stored.options == {"draw_moves": 25, "threefold": False}
    assert stored.game.variant.draw_moves == 25 and stored.game.variant.threefold is False
    assert stored.game.ply == 2


@pytest.mark.parametrize(("name", "options", "words"), [
    ("classic", {"draw_moves": 0}, ["draw_moves", "--draw-moves", "1-1000"]),
    ("classic", {"draw_moves": 10 ** 20}, ["draw_moves", "1-1000"]),
    ("classic", {"threefold": "no"}, ["threefold", "yes or no"]),
    ("multiwarcaby", {"sides": 5}, ["sides", "2-4"]),
    ("multiwarcaby", {"quiet_rounds": 0}, ["quiet_rounds", "1 or more, or off"]),
    ("multiwarcaby7", {"first": 2}, ["first", "1-2"]),
    ("russian", {"free_capture": True}, ["takes no option 'free_capture'", "draw_moves, threefold"]),
])
def test_a_bad_option_is_one_error_naming_it_and_the_allowed_values(
        name: str, options: dict[str, object], words: list[str]) -> None:
    with pytest.raises(ValueError) as caught:
        find_variant(name, **options)
    message = str(caught.value)
    assert "\n" not in message and all(word in message for word in words), message


def test_the_generated_flags_set_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    def perft_one(*argv: str) -> str:
        return cli(capsys, "perft", *argv, "1")

    mw = find_variant("multiwarcaby", sides=4, first=3, quiet_rounds=None)
    assert perft_one("multiwarcaby", "--sides", "4", "--first", "4", "--quiet-rounds", "off") == \
        f"1 {mw.perft(mw.start_position(), 1)}\n"
    free = find_variant("classic", free_capture=True)
    out = cli(capsys, "moves", "classic", "--free-capture", "--draw-moves", "3", "--threefold", "no",
              "--fen", "W:WKa1,b2:Bc3")
    assert len(out.splitlines()) == len(free.legal_moves(free.parse_position("W:WKa1,b2:Bc3")))
    code = main(["moves", "classic", "--threefold", "maybe"])
    assert code == 2 and "--threefold must be yes or no, not 'maybe'" in capsys.readouterr().err


def test_the_catalogue_tells_the_menu_each_game_and_its_board() -> None:
    catalogue = {info.name: info for info in variant_catalogue()}
    assert list(catalogue) == variant_names()
    assert catalogue["classic"].board_size == (8, 8) and catalogue["classic81"].board_size == (9, 9)
    assert catalogue["international"].board_size == (10, 10) and catalogue["canadian"].board_size == (12, 12)
    assert catalogue["multiwarcaby"].board_size == (9, 9) and catalogue["multiwarcaby7"].board_size == (9, 9)
    assert catalogue["international"].title == "International draughts (10x10)"
    assert [spec.name for spec in catalogue["classic81"].options] == ["draw_moves", "threefold", "free_capture",
                                                                      "symmetric"]
    assert catalogue["american"].options[0].default == 40 and catalogue["international"].options[0].default == 25


@pytest.mark.parametrize(("name", "options", "names", "tokens", "labels", "scores", "preset"), [
    ("classic", {}, ["White", "Black"], ["white", "black"], ["w", "b"], False, "rapid-64"),
    ("american", {}, ["White", "Black"], ["white", "black"], ["w", "b"], False, "rapid-64"),
    ("canadian", {}, ["White", "Black"], ["white", "black"], ["w", "b"], False, "rapid-100"),
    ("multiwarcaby", {"sides": 3}, ["Player 1", "Player 2", "Player 3"], ["1", "2", "3"], ["p1=", "p2=", "p3="],
     True, "multiwarcaby-3"),
    ("multiwarcaby", {"teams": True}, ["Team A", "Team B"], ["1", "2"], ["p1=", "p2="], True, "multiwarcaby-2"),
    ("multiwarcaby7", {}, ["Player 1", "Player 2"], ["1", "2"], ["p1=", "p2="], True, "multiwarcaby7"),
])
def test_the_variant_names_its_sides(name: str, options: dict[str, object], names: list[str], tokens: list[str],
                                     labels: list[str], scores: bool, preset: str) -> None:
    """What the screen, the sensor log and the clock annotation call each side come from the variant."""
    variant = find_variant(name, **options)
    sides = range(len(variant.sides))
    assert [variant.player_name(side) for side in sides] == names
    assert [variant.side_token(side) for side in sides] == tokens
    assert variant.clock_labels() == labels
    assert variant.shows_scores is scores
    assert variant.casual_time_preset() == preset
