"""LED frames: layers merged by role priority, and what each layer lights."""

from __future__ import annotations

from damka.controller.board import hints
from damka.controller.board.board_map import BoardMap
from damka.controller.board.tracker import Kind, Tracker
from damka.engine import Game, find_variant
from damka.engine.notation import parse_move
from damka.hardware.interfaces import Role


def classic(fen: str):
    variant = find_variant("classic")
    game = Game(variant, variant.parse_position(fen))
    return variant, game, Tracker(variant), BoardMap(variant)


def test_compose_keeps_the_higher_priority_role() -> None:
    frame = hints.compose([("d4", Role.LAST_MOVE), ("e5", Role.LEGAL_TARGET)],
                          [("d4", Role.FLAG), ("e5", Role.HINT_TO)])
    assert frame == {"d4": Role.FLAG, "e5": Role.LEGAL_TARGET}


def test_guidance_and_its_message() -> None:
    variant, game, tracker, board = classic("W:Wc3:Bf6")
    target = board.bits(["c3", "f6"])
    occ = board.bits(["e5", "f6"])
    assert hints.compose(hints.guidance(board, occ, target)) == {"c3": Role.PUT_HERE, "e5": Role.TAKE_AWAY}
    assert hints.guidance_message(board, occ, target) == "put a piece back on c3 and take the piece off e5"
    many = board.bits(["a1", "e5"])
    assert "more square" in hints.guidance_message(board, many, target)


def test_must_move_only_when_every_move_captures() -> None:
    variant, game, tracker, board = classic("W:Wc3,g1:Bd4")
    assert hints.compose(hints.must_move(board, tracker.index(game.position))) == {"c3": Role.MUST_MOVE}
    variant, game, tracker, board = classic("W:Wc3,g1:Bf6")
    assert hints.must_move(board, tracker.index(game.position)) == []


def test_learning_in_progress_and_illegal_lift() -> None:
    variant, game, tracker, board = classic("W:Wc3,g1:Bd4,f6")
    index = tracker.index(game.position)
    base = index.occ
    lifted = tracker.read(game, base & ~board.bits(["c3"]))
    frame = hints.compose(hints.learning(board, index, lifted))
    assert frame == {"c3": Role.LIFTED, "d4": Role.TO_CAPTURE, "f6": Role.TO_CAPTURE, "e5": Role.LEGAL_TARGET,
                     "g7": Role.LEGAL_TARGET}
    wrong = tracker.read(game, base & ~board.bits(["g1"]))
    assert wrong.kind is Kind.UNKNOWN
    frame = hints.compose(hints.learning(board, index, wrong))
    assert frame == {"g1": Role.ILLEGAL_LIFT, "c3": Role.MUST_MOVE}


def test_learning_shows_how_a_free_chain_can_go_on() -> None:
    variant = find_variant("classic", free_capture=True)
    game = Game(variant, variant.parse_position("W:Wc3:Bd4,f6"))
    tracker, board = Tracker(variant), BoardMap(variant)
    index = tracker.index(game.position)
    stop = tracker.read(game, board.bits(["e5", "f6"]))
    assert stop.kind is Kind.COMPLETE and stop.extendable
    assert hints.compose(hints.learning(board, index, stop)) == {"g7": Role.LEGAL_TARGET, "f6": Role.TO_CAPTURE}


def test_planned_and_last_move_layers() -> None:
    variant, game, tracker, board = classic("W:Wc3:Bd4,f6")
    move = parse_move(variant, game.position, "c3xg7")
    occ = tracker.index(game.position).occ
    computer = hints.compose(hints.planned(board, [move], occ, computer=True))
    assert computer == {"c3": Role.COMPUTER_FROM, "e5": Role.COMPUTER_TO, "g7": Role.COMPUTER_TO,
                        "d4": Role.TO_CAPTURE, "f6": Role.TO_CAPTURE}
    hint = hints.compose(hints.planned(board, [move], occ, computer=False))
    assert hint["c3"] is Role.HINT_FROM and hint["g7"] is Role.HINT_TO
    assert hints.compose(hints.last_move(board, [move])) == {sq: Role.LAST_MOVE for sq in ("c3", "e5", "g7")}
    assert hints.compose(hints.flag(board, board.bits(["f6"]))) == {"f6": Role.FLAG}
