"""PDN records: every variant round-trips, the reader is lenient, the writer strict."""

from __future__ import annotations

import random

import pytest

from damka.engine import Game, Move, RecordError, Result, find_variant
from damka.engine.pdn import BaseVisitor, iter_games, read_game, read_games, tokenize, visit_games, write_game
from damka.engine.pdn_tags import result_text, variant_from_tags, variant_tags

VARIANT_CASES = [
    ("classic", {}), ("classic", {"free_capture": True}), ("classic", {"draw_moves": 20}),
    ("classic81", {}), ("classic81", {"symmetric": True}), ("russian", {}), ("american", {}),
    ("international", {}), ("international", {"threefold": False}), ("canadian", {}),
    ("multiwarcaby", {}), ("multiwarcaby", {"sides": 3}), ("multiwarcaby", {"sides": 4}),
    ("multiwarcaby", {"teams": True}), ("multiwarcaby", {"quiet_rounds": None}), ("multiwarcaby7", {}),
]


def random_game(variant, seed: int, limit: int = 300) -> Game:
    rng = random.Random(seed)
    game = Game(variant)
    while not game.is_over and game.ply < limit:
        game.push(rng.choice(game.legal_moves()))
    return game


def same_variant(a, b) -> bool:
    return a.name == b.name and variant_tags(a) == variant_tags(b) and a.sides == b.sides


# -- round trips ----------------------------------------------------------------


@pytest.mark.parametrize(("name", "options"), VARIANT_CASES, ids=lambda case: str(case))
def test_random_games_round_trip(name: str, options: dict) -> None:
    variant = find_variant(name, **options)
    for seed in range(2):
        game = random_game(variant, seed)
        comments = ["" if i % 7 else f"note {i}" for i in range(game.ply)]
        clocks = [f"0:0{i % 10}:00" if i % 5 == 0 else None for i in range(game.ply)]
        text = write_game(variant, None, game.moves, {"Event": "Round trip"},
                          comments=comments, clocks=clocks, result=game.result)
        assert all(len(line) <= 80 for line in text.splitlines())
        back = read_game(text)
        assert back.errors == []
        assert same_variant(back.variant, variant)
        assert back.moves == list(game.moves)
        assert [move.path for move in back.moves] == [move.path for move in game.moves]
        assert variant.format_position(back.end) == variant.format_position(game.position)
        assert back.comments == comments
        assert back.clocks == clocks
        assert back.result == result_text(variant, game.result)
        assert back.pdn() == text  # what was read writes back the same


@pytest.mark.parametrize(("name", "options"), VARIANT_CASES[:10], ids=lambda case: str(case))
def test_round_trip_from_a_set_up_position(name: str, options: dict) -> None:
    variant = find_variant(name, **options)
    middle = random_game(variant, 11, limit=9)
    start = middle.position
    game = Game(variant, start)
    rng = random.Random(3)
    while not game.is_over and game.ply < 30:
        game.push(rng.choice(game.legal_moves()))
    text = write_game(variant, start, game.moves)
    assert f'[FEN "{variant.format_position(start)}"]' in text
    back = read_game(text)
    assert back.errors == []
    assert variant.format_position(back.start) == variant.format_position(start)
    assert back.moves == list(game.moves)


# -- reading --------------------------------------------------------------------

INTERNATIONAL = """\
[Event "Club night"]
[White "Ann"]
[Black "Bob"]
[Result "1-1"]
[GameType "20"]

{A quiet game.}
1. 32-28 {[%clock w0:05:00 b0:05:00] solid} 19-23! 2. 28x19 (2. 33-29 23x34) 14x23 $1
3. 37-32 ; a line comment
3... 10-14 1-1

[Event "Second"]
[GameType "20"]
1.31-27 20-25 *
"""


def test_reads_tags_moves_comments_clocks_and_variations() -> None:
    first, second = read_games(INTERNATIONAL)
    assert first.errors == []
    assert first.tags["White"] == "Ann" and first.variant.name == "international"
    assert len(first.moves) == 6
    assert first.intro == "A quiet game."
    assert first.comments[0] == "solid"
    assert first.clocks[0] == "w0:05:00 b0:05:00"
    assert first.comments[4] == "a line comment"
    assert first.variations == ["(2. 33-29 23x34)"]
    assert first.result == "1-1"
    assert len(second.moves) == 2 and second.result == "*" and second.tags["Event"] == "Second"


def test_results_of_every_style_are_not_moves() -> None:
    kinds = [(token.kind, token.text) for token in tokenize("2-0 0-2 1-1 0-0 1-0 0-1 1/2-1/2 * 1-0-0-0 32-28")]
    assert kinds[:-1] == [("result", text) for text in
                          ("2-0", "0-2", "1-1", "0-0", "1-0", "0-1", "1/2-1/2", "*", "1-0-0-0")]
    assert kinds[-1] == ("move", "32-28")


def test_illegal_move_is_reported_with_line_and_column_and_the_rest_skipped() -> None:
    text = '[GameType "20"]\n\n1. 32-28 18-22\n2. 33-27 22-27 *\n'
    game = read_game(text)
    assert len(game.moves) == 2
    assert len(game.errors) == 1
    assert game.errors[0].startswith("4:4: move 3 '33-27'")
    assert "legal from 33" in game.errors[0]
    with pytest.raises(RecordError, match="4:4"):
        read_game(text, strict=True)


def test_one_bad_game_does_not_spoil_the_next() -> None:
    text = '[GameType "20"]\n1. 32-99 *\n\n[GameType "20"]\n1. 32-28 *\n'
    bad, good = read_games(text)
    assert bad.errors and not bad.moves
    assert good.errors == [] and len(good.moves) == 1


def test_records_of_tags_alone_are_separate_games() -> None:
    games = read_games('[Event "a"]\n[GameType "20"]\n\n[Event "b"]\n[GameType "21"]\n')
    assert [(game.tags["Event"], game.variant.name, game.moves) for game in games] == [
        ("a", "international", []), ("b", "american", [])]


def test_unknown_variants_are_clear_errors() -> None:
    game = read_game('[GameType "22"]\n1. 9-13 *')
    assert "GameType 22 is Italian draughts, a game Damka does not play" in game.errors[0]  # named, not misread
    game = read_game('[GameType "44"]\n1. 9-13 *')
    assert "GameType '44' is not a game Damka plays" in game.errors[0]
    assert game.moves == []
    game = read_game('[Variant "chess"]\n1. e2-e4 *')
    assert "unknown variant 'chess'" in game.errors[0]
    game = read_game("1. 32-28 *", default_variant=None)
    assert "no GameType or Variant tag" in game.errors[0]


def test_no_tags_means_international_as_pdn_says() -> None:
    game = read_game("1. 32-28 19-23 *")
    assert game.variant.name == "international" and len(game.moves) == 2


def test_fen_tag_sets_the_start_and_a_bad_one_is_reported() -> None:
    game = read_game('[GameType "20"]\n[FEN "W:W28:B23"]\n1. 28x19 2-0')
    assert game.errors == [] and len(game.moves) == 1
    assert game.variant.format_position(game.end) == "B:W19:B"
    game = read_game('[GameType "20"]\n[FEN "W:W99:B23"]\n1. 28x19 2-0')
    assert game.errors and game.errors[0].startswith("2:1: FEN tag")


def test_mismatched_result_and_junk_are_reported() -> None:
    game = read_game('[GameType "20"]\n[Result "2-0"]\n1. 32-28 hello 0-2')
    assert any("unexpected 'hello'" in error for error in game.errors)
    assert any("Result tag says 2-0" in error for error in game.warnings)  # stored, and said
    assert game.result == "0-2"
    game = read_game('[GameType "20"]\n1. 32-28 {never closed')
    assert game.errors == ["2:10: comment '{' is never closed"]


def test_aliases_and_options_in_tags() -> None:
    variant = variant_from_tags({"Variant": "brazilian", "FreeCapture": "yes"})
    assert variant.name == "classic" and variant.free_capture
    assert variant_from_tags({"GameType": "21,B,8,8,N1,0"}).name == "american"
    assert variant_from_tags({"GameType": "26,W,9,9,A0,0"}).name == "classic81"
    assert len(variant_from_tags({"Variant": "mw", "Sides": "4"}).sides) == 4
    with pytest.raises(ValueError, match="Sides"):
        variant_from_tags({"Variant": "multiwarcaby", "Sides": "many"})


# -- writing --------------------------------------------------------------------


def test_writer_puts_the_roster_first_and_checks_moves() -> None:
    variant = find_variant("international")
    game = random_game(variant, 1, limit=4)
    text = write_game(variant, None, game.moves, {"Black": "Bob", "Annotator": "me", "White": "Ann"})
    names = [line.split()[0][1:] for line in text.splitlines() if line.startswith("[")]
    assert names == ["Event", "Site", "Date", "Round", "White", "Black", "Result", "GameType", "Annotator"]
    assert '[White "Ann"]' in text and '[Date "????.??.??"]' in text and "FEN" not in text
    assert text.rstrip().endswith("*")
    with pytest.raises(RecordError, match="move 2"):
        write_game(variant, None, [game.moves[0], game.moves[0]])


def test_writer_keeps_a_true_route_and_mends_a_false_one() -> None:
    variant = find_variant("classic", free_capture=True)
    start = variant.parse_position("W:We1:Bd2,d4,f2,f4,h8")
    geometry = variant.geometry
    e1, c3, e5, g3 = (geometry.parse(name) for name in ("e1", "c3", "e5", "g3"))
    via_c3 = next(move for move in variant.legal_moves(start) if move.path == (c3, e5))
    assert "1. e1xc3xe5 " in write_game(variant, start, [via_c3])
    bogus = Move(e1, (g3, e5), via_c3.captures)  # same move, a route that does not take d2 and d4
    assert "1. e1xc3xe5 " in write_game(variant, start, [bogus])


def test_second_side_to_move_starts_with_dots() -> None:
    variant = find_variant("international")
    start = variant.parse_position("B:W28,32:B19,23")
    move = variant.legal_moves(start)[0]
    text = write_game(variant, start, [move])
    assert "\n1... " in text


def test_american_numbers_rounds_from_black() -> None:
    variant = find_variant("american")
    game = random_game(variant, 2, limit=4)
    movetext = write_game(variant, None, game.moves).split("\n\n")[1]
    assert movetext.startswith("1. ") and " 2. " in movetext and "..." not in movetext


def test_american_from_white_to_move_numbers_pairs_from_white() -> None:
    # PDN 2.0's pairs, as CheckerBoard writes them (and pydraughts reads only them); not `1... 32-27`.
    variant = find_variant("american")
    start = variant.parse_position("W:W25,29,32:B6,9,20")
    record = read_game('[GameType "21"]\n[FEN "W:W25,29,32:B6,9,20"]\n\n1. 32-27 9-14 2. 25-22 6-10 *', strict=True)
    text = write_game(variant, start, record.moves)
    assert text.split("\n\n")[1] == "1. 32-27 9-14 2. 25-22 6-10 *\n"
    assert read_game(text, strict=True).moves == record.moves


def test_results_in_each_style() -> None:
    win, loss, draw = (Result((1.0, 0.0), (1, 2), "x", 0), Result((0.0, 1.0), (2, 1), "x", 1),
                       Result((0.5, 0.5), (1, 1), "x"))
    international, american = find_variant("international"), find_variant("american")
    assert [result_text(international, r) for r in (win, loss, draw, None)] == ["2-0", "0-2", "1-1", "*"]
    assert [result_text(american, r) for r in (win, loss, draw)] == ["1-0", "0-1", "1/2-1/2"]
    assert result_text(find_variant("multiwarcaby"), Result((0.0, 0.0), (1, 1), "x")) == "0-0"


def test_multiwarcaby_record_numbers_turns() -> None:
    variant = find_variant("multiwarcaby", sides=3)
    game = random_game(variant, 4, limit=12)
    text = write_game(variant, None, game.moves, {"Player1": "Ann", "Player3": "Cy"})
    assert '[Variant "multiwarcaby"]' in text and '[Sides "3"]' in text and '[MovesPerTurn "2"]' in text
    assert '[Player1 "Ann"]' in text and '[Player2 "?"]' in text and '[Player3 "Cy"]' in text
    assert "White" not in text and "GameType" not in text
    movetext = " ".join(text.split("\n\n")[1].split())
    assert movetext.startswith("1. ") and " 6. " in movetext and " 7. " not in movetext  # 12 moves = 6 turns


def test_a_custom_visitor_sees_the_parts_in_order() -> None:
    class Headers(BaseVisitor):
        def begin_game(self) -> None:
            self.seen: list[str] = []

        def visit_tag(self, name: str, value: str, where: str) -> None:
            self.seen.append(f"{name}={value}@{where}")

        def visit_move(self, text: str, where: str) -> None:
            self.seen.append(text)

        def handle_error(self, message: str, where: str) -> None:
            self.seen.append(f"error@{where}")

        def end_game(self) -> list[str]:
            return self.seen

    text = '[Event "a"]\n[Event b]\n1. 32-28 (1. 31-27 {a ) in a comment} (1. 33-29)) 19-23 *\n1. 31-26 *'
    assert visit_games(text, Headers) == [
        ["Event=a@1:1", "error@2:1", "32-28", "19-23"], ["31-26"]]


def test_players_out_are_read_from_the_damka_out_tag() -> None:
    variant = find_variant("multiwarcaby", sides=3)
    game = Game(variant)
    for _ in range(4):
        game.push(game.legal_moves()[0])
    game.amend(variant.drop_side(game.position, 2))
    game.push(game.legal_moves()[0])
    text = write_game(variant, game.start, list(game.moves), {"DamkaOut": "3:4"})
    record = read_game(text)
    assert record.errors == [] and record.drops == [(4, 2)]
    assert record.positions[-1] == game.position


def test_a_bad_damka_out_tag_is_an_error_naming_the_tag() -> None:
    variant = find_variant("multiwarcaby", sides=3)
    text = write_game(variant, variant.start_position(), [], {"DamkaOut": "three"})
    record = read_game(text)
    assert any("DamkaOut" in error and "'three'" in error for error in record.errors)


# -- reading a file in pieces, other software's tags ------------------------------------


def test_reading_in_pieces_gives_what_reading_whole_gives() -> None:
    records = []
    for seed, name in enumerate(("classic", "international", "multiwarcaby", "russian")):
        variant = find_variant(name)
        game = random_game(variant, seed, limit=30)
        records.append(write_game(variant, None, game.moves, {"Event": f"e{seed}"},
                                  clocks=["0:01:00"] * game.ply, result=game.result))
    text = ('% escape line\n' + "\n".join(records) + '\n{ a comment\n[%clock w0:01:00]\nover lines }\n'
            '[GameType "20"]\n1. 32-28 (1. 33-28 {x} 18-23) 19-23; rest of line\n2. 37-32 ? *\n'
            '[GameType "26"]\n1. c3-d5 *\n[Event "tags alone"]\n')
    whole = read_games(text)
    rng = random.Random(5)
    for _ in range(20):
        cuts = sorted(rng.sample(range(1, len(text)), rng.randint(1, 40)))
        pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)])]
        streamed = list(iter_games(pieces))
        assert [(g.tags, g.moves, g.comments, g.clocks, g.result, g.errors, g.intro, g.variations)
                for g in streamed] == [(g.tags, g.moves, g.comments, g.clocks, g.result, g.errors, g.intro,
                                        g.variations) for g in whole]
    assert len(whole) == 7 and whole[5].errors[0].startswith(f"{text.count(chr(10), 0, text.index('c3-d5')) + 1}:4:")


@pytest.mark.parametrize(("name", "gametype", "variant"), [
    ("Brazilian draughts", "26", "classic"), ("Russian draughts", "25", "russian"),
    ("Standard (international) checkers", "20", "international"), ("American checkers", "21", "american")])
def test_a_descriptive_variant_name_falls_back_to_gametype_with_a_warning(name, gametype, variant) -> None:
    start = find_variant(variant).start_position()
    move = find_variant(variant).legal_moves(start)[0]
    text = write_game(find_variant(variant), None, [move])
    text = text.replace(f'[GameType "{gametype}"]', f'[GameType "{gametype}"]\n[Variant "{name}"]')
    game = read_game(text, strict=True)
    assert game.variant.name == variant and game.moves == [move]
    assert game.warnings == [f"9:1: Variant {name!r} is not a game Damka knows by that name; "
                             f"GameType {gametype} ({variant}) is used"]


def test_an_unknown_variant_without_a_known_gametype_is_still_an_error() -> None:
    game = read_game('[Variant "Frisian draughts"]\n[GameType "40"]\n\n1. 32-28 *')
    assert "unknown variant 'Frisian draughts'" in game.errors[0] and game.warnings == []


def test_records_in_the_same_variant_share_it() -> None:
    text = '[GameType "26"]\n[FreeCapture "yes"]\n\n1. c3-d4 *\n\n' * 3
    first, second, third = read_games(text)
    assert first.variant is second.variant is third.variant and first.variant.free_capture
