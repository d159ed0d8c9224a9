"""Perft of the multiwarcaby boards, checked against a naive reference.

The reference below shares no code with the engine: squares are (file, rank)
pairs, a board is a frozenset of them, captures are every jump chain found by
plain recursion, and children are deduplicated with a set. It is slow but
obviously follows RULES.md, so it vouches for the bitboard perft and for the
numbers kept in tests/perft/multiwarcaby*.perft.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from damka.engine.multiwarcaby import Multiwarcaby, Multiwarcaby7

PERFT_DIR = Path(__file__).parent / "perft"

DIRECTIONS = [(df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if (df, dr) != (0, 0)]


def ref_squares(size: int) -> frozenset[tuple[int, int]]:
    """Playable squares: the whole 9x9, or b2-h8 for the small board."""
    if size == 9:
        return frozenset((f, r) for f in range(9) for r in range(9))
    return frozenset((f, r) for f in range(1, 8) for r in range(1, 8))


def ref_start(size: int) -> frozenset[tuple[int, int]]:
    squares = ref_squares(size)
    lo, hi = (0, 8) if size == 9 else (1, 7)
    holes = {(lo, lo), (hi, lo), (lo, hi), (hi, hi), (4, 4)}
    return frozenset(squares - holes)


def ref_moves(board: frozenset, squares: frozenset) -> set[frozenset]:
    """Every board one move away (steps and every prefix of every jump chain)."""
    results: set[frozenset] = set()
    for piece in board:
        f, r = piece
        for df, dr in DIRECTIONS:
            to = (f + df, r + dr)
            if to in squares and to not in board:
                results.add(board - {piece} | {to})

        def jump(at, captured):
            for df, dr in DIRECTIONS:
                over = (at[0] + df, at[1] + dr)
                land = (at[0] + 2 * df, at[1] + 2 * dr)
                if over not in board or over == piece or over in captured:
                    continue
                if land not in squares:
                    continue
                if land in board and land != piece:  # occupied (captured pieces still block)
                    continue
                now = captured | {over}
                results.add(board - {piece} - now | {land})
                jump(land, now)

        jump(piece, frozenset())
    return results


def ref_perft(board, turn_start, second, depth, squares) -> int:
    if depth == 0:
        return 1
    children = ref_moves(board, squares)
    if second:
        children.discard(turn_start)
    total = 0
    for child in children:
        if second:
            total += ref_perft(child, child, False, depth - 1, squares)
        else:
            total += ref_perft(child, board, True, depth - 1, squares)
    return total


def read_perft_file(path: Path) -> list[tuple[str, str, int, int, bool]]:
    """(variant, position, depth, nodes, slow) for every count line of a .perft
    file (the format tests/test_perft.py reads: `variant NAME [options]`,
    `fen start` or `fen POSITION`, `DEPTH NODES [slow]`)."""
    cases = []
    variant, position = "", "start"
    for raw in path.read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, _, value = line.partition(" ")
        if key == "variant":
            variant, position = value.split()[0], "start"
        elif key == "fen":
            position = value.strip()
        else:
            depth, nodes, *flags = line.split()
            cases.append((variant, position, int(depth), int(nodes), "slow" in flags))
    return cases


def ref_board(text: str, size: int) -> frozenset[tuple[int, int]]:
    """A board from the `/`-separated ranks of a position string (top rank first)."""
    lo = 0 if size == 9 else 1
    rows = text.split("/")
    board = set()
    for row_index, row in enumerate(rows):
        rank = lo + len(rows) - 1 - row_index
        file = lo
        for char in row:
            if char == "o":
                board.add((file, rank))
                file += 1
            else:
                file += int(char)
    return frozenset(board)


def ref_position(text: str, size: int):
    """(board, turn-start board, second move?) of a position string or `start`."""
    if text == "start":
        start = ref_start(size)
        return start, start, False
    fields = {field[0]: field[1:] for field in text.split(":")[1:]}
    board = ref_board(fields["O"], size)
    second = fields["T"].endswith(".2")
    return board, ref_board(fields["B"], size) if second else board, second


VARIANT_CLASSES = {"multiwarcaby": Multiwarcaby, "multiwarcaby7": Multiwarcaby7}
SIZES = {"multiwarcaby": 9, "multiwarcaby7": 7}
FAST_REFERENCE = 120_000  # nodes; the naive reference runs deeper counts only with --slow
REFERENCE_LIMIT = 10_000_000  # deeper counts (7x7 depth 5) are the engine's alone: days for the reference


def _cases(reference: bool):
    for name in ("multiwarcaby", "multiwarcaby7"):
        for variant, position, depth, nodes, slow in read_perft_file(PERFT_DIR / f"{name}.perft"):
            if reference and nodes > REFERENCE_LIMIT:
                continue
            slow = nodes > FAST_REFERENCE if reference else slow
            marks = [pytest.mark.slow] if slow else []
            label = f"{variant}-{'start' if position == 'start' else position[:12]}-{depth}"
            yield pytest.param(variant, position, depth, nodes, marks=marks, id=label)


def test_perft_files_exist_and_name_their_variants():
    for name in ("multiwarcaby", "multiwarcaby7"):
        cases = read_perft_file(PERFT_DIR / f"{name}.perft")
        assert cases and {case[0] for case in cases} == {name}
        assert ("start" in {case[1] for case in cases})


@pytest.mark.parametrize(("variant_name", "position", "depth", "nodes"), list(_cases(reference=False)))
def test_engine_perft_matches_file(variant_name, position, depth, nodes):
    variant = VARIANT_CLASSES[variant_name].create()
    start = variant.start_position() if position == "start" else variant.parse_position(position)
    assert variant.perft(start, depth) == nodes


@pytest.mark.parametrize(("variant_name", "position", "depth", "nodes"), list(_cases(reference=True)))
def test_reference_perft_matches_file(variant_name, position, depth, nodes):
    size = SIZES[variant_name]
    board, turn_start, second = ref_position(position, size)
    assert ref_perft(board, turn_start, second, depth, ref_squares(size)) == nodes


def test_perft_counts_every_sides_setting_alike():
    two = Multiwarcaby.create()
    for options in ({"sides": 3}, {"sides": 4}, {"teams": True}, {"sides": 4, "first": 3}):
        variant = Multiwarcaby.create(**options)
        assert variant.perft(variant.start_position(), 2) == two.perft(two.start_position(), 2)


def test_perft_depth_zero_is_one():
    variant = Multiwarcaby.create()
    assert variant.perft(variant.start_position(), 0) == 1


def _random_positions(variant, count: int, seed: int):
    import random

    rng = random.Random(seed)
    position = variant.start_position()
    for _ in range(count):
        moves = variant.legal_moves(position)
        captures = [move for move in moves if move.captures]
        pool = captures if captures and rng.random() < 0.7 else moves
        position = variant.play(position, rng.choice(pool))
        if position.occupied.bit_count() < 6:
            position = variant.start_position()
        yield position


@pytest.mark.parametrize("variant_class", [Multiwarcaby, Multiwarcaby7])
def test_legal_moves_give_the_reference_children_along_random_games(variant_class):
    variant = variant_class.create()
    size = 9 if variant_class is Multiwarcaby else 7
    squares = ref_squares(size)
    geometry = variant.geometry

    def as_ref(bits: int) -> frozenset:
        return frozenset(geometry.file_rank(square) for square in geometry.squares if bits >> square & 1)

    for position in _random_positions(variant, 80, seed=size):
        moves = variant.legal_moves(position)
        assert len(set(moves)) == len(moves), "one move per (start, end, captured set)"
        engine = {as_ref(variant.play(position, move).occupied) for move in moves}
        expected = ref_moves(as_ref(position.occupied), squares)
        if position.move_in_turn:
            expected.discard(as_ref(position.turn_start))
        assert engine == expected
        assert variant.perft(position, 1) == len(expected)


def test_two_loops_that_leave_the_same_board_are_one_perft_node():
    # d1 b3 d5 d3 d1 and c3 c5 e3 c1 c3 both take c2 c4 d2 d4 and come home:
    # two moves (different starts), one resulting board.
    from damka.engine.multiwarcaby_position import MultiwarcabyPosition

    variant = Multiwarcaby.create()
    geometry = variant.geometry
    occupied = geometry.mask_of(["d1", "c3", "c2", "c4", "d2", "d4"])
    position = MultiwarcabyPosition(occupied=occupied, turn_start=occupied)
    moves = variant.legal_moves(position)
    ring = frozenset(geometry.parse(name) for name in ("c2", "c4", "d2", "d4"))
    loops = [move for move in moves if move.captures == ring and move.start == move.end]
    assert {geometry.name(move.start) for move in loops} == {"d1", "c3"}
    boards = {variant.play(position, move).occupied for move in moves}
    assert len(boards) == len(moves) - 1
    assert variant.perft(position, 1) == len(boards)
    squares = ref_squares(9)
    as_ref = frozenset(geometry.file_rank(square) for square in geometry.squares if occupied >> square & 1)
    assert len(ref_moves(as_ref, squares)) == len(boards)


@pytest.mark.parametrize(
    ("variant_class", "boards"),
    [
        (Multiwarcaby, 25),
        (Multiwarcaby7, 25),
        pytest.param(Multiwarcaby, 400, marks=pytest.mark.slow),
        pytest.param(Multiwarcaby7, 400, marks=pytest.mark.slow),
    ],
)
def test_bulk_count_matches_the_reference_on_random_boards(variant_class, boards):
    import random

    from damka.engine.multiwarcaby_position import MultiwarcabyPosition

    variant = variant_class.create()
    geometry = variant.geometry
    squares = ref_squares(9 if variant_class is Multiwarcaby else 7)
    rng = random.Random(boards)

    def as_ref(bits: int) -> frozenset:
        return frozenset(geometry.file_rank(square) for square in geometry.squares if bits >> square & 1)

    for _ in range(boards):
        density = rng.uniform(0.2, 0.8)
        occupied = sum(1 << square for square in geometry.squares if rng.random() < density)
        position = MultiwarcabyPosition(occupied=occupied, turn_start=occupied)
        expected = ref_moves(as_ref(occupied), squares)
        assert variant.perft(position, 1) == len(expected)
        steps = [move for move in variant.legal_moves(position) if not move.captures]
        if steps:  # the second move of a turn begun with a step
            second = variant.play(position, rng.choice(steps))
            children = ref_moves(as_ref(second.occupied), squares) - {as_ref(occupied)}
            assert variant.perft(second, 1) == len(children)
