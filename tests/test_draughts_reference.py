"""The bitboard move generator against a naive reference, over random games.

The reference below shares no code with the engine: squares are (file, rank)
pairs, a board is a dict of piece codes, and captures are every jump chain
found by plain recursion, then filtered by the rules as RULES.md words them.
It is slow but plainly follows the rules, so random games that reach kings,
long chains and promotions check what the published perft counts (start
positions only) cannot: flying-king captures, free capture, classic81.
"""

from __future__ import annotations

import random

import pytest

from damka.engine import draughts
from damka.engine.draughts import DraughtsVariant

DIAGONALS = ((1, 1), (-1, 1), (1, -1), (-1, -1))


class Reference:
    """Legal moves of one draughts variant, the slow and obvious way."""

    def __init__(self, variant: DraughtsVariant) -> None:
        self.variant = variant
        geometry = variant.geometry
        self.squares = {geometry.file_rank(sq) for sq in geometry.squares}
        self.height = geometry.height

    def board(self, position) -> tuple[dict, int]:
        geometry = self.variant.geometry
        pieces = {}
        for sq in geometry.squares:
            piece = self.variant.piece_at(position, sq)
            if piece:
                pieces[geometry.file_rank(sq)] = piece
        return pieces, position.turn

    def moves(self, pieces: dict, turn: int) -> dict:
        """{(start, end, frozenset(captured)): king after the move} for the side to move."""
        v = self.variant
        mine = "wW"[0] if turn == 0 else "b"
        forward = 1 if turn == 0 else -1
        far = self.height - 1 if turn == 0 else 0
        captures: dict = {}
        for start, piece in pieces.items():
            if piece.lower() != mine:
                continue
            self._captures(pieces, start, start, piece.isupper(), (), captures, turn, forward, far)
        if v.majority and not v.free_capture and captures:
            best = max(len(key[2]) for key in captures)
            captures = {key: king for key, king in captures.items() if len(key[2]) == best}
        if captures and not v.free_capture:
            return captures
        moves = dict(captures)
        for start, piece in pieces.items():
            if piece.lower() != mine:
                continue
            king = piece.isupper()
            for df, dr in DIAGONALS:
                if not king and dr != forward:
                    continue
                f, r = start[0] + df, start[1] + dr
                while (f, r) in self.squares and (f, r) not in pieces:
                    moves[(start, (f, r), frozenset())] = king or r == far
                    if not (king and v.flying_kings):
                        break
                    f, r = f + df, r + dr
        return moves

    def _enemy(self, pieces: dict, square, turn: int) -> bool:
        piece = pieces.get(square)
        return piece is not None and (piece in "bB" if turn == 0 else piece in "wW")

    def _free(self, pieces: dict, square, start) -> bool:
        return square in self.squares and (square not in pieces or square == start)

    def _jumps(self, pieces, start, at, king, taken, turn, forward):
        """[(captured square, landing squares)] of one jump from `at`."""
        v = self.variant
        found = []
        for df, dr in DIAGONALS:
            if not king and not v.men_capture_backward and dr != forward:
                continue
            f, r = at[0] + df, at[1] + dr
            if king and v.flying_kings:
                while self._free(pieces, (f, r), start):
                    f, r = f + df, r + dr
            victim = (f, r)
            if not self._enemy(pieces, victim, turn) or victim in taken:
                continue  # a taken piece blocks until the move ends (Turkish strike)
            landings = []
            f, r = f + df, r + dr
            while self._free(pieces, (f, r), start):
                landings.append((f, r))
                if not (king and v.flying_kings):
                    break
                f, r = f + df, r + dr
            if landings:
                found.append((victim, landings))
        return found

    def _captures(self, pieces, start, at, king, taken, out, turn, forward, far):
        v = self.variant
        jumps = self._jumps(pieces, start, at, king, taken, turn, forward)
        if taken and (v.free_capture or not jumps):
            key = (start, at, frozenset(taken))
            out[key] = out.get(key, False) or king or at[1] == far
        for victim, landings in jumps:
            now = taken + (victim,)
            if king and v.flying_kings and not v.free_capture:
                onward = [sq for sq in landings if self._jumps(pieces, start, sq, True, now, turn, forward)]
                landings = onward or landings
            for land in landings:
                crowned = king or (v.promote_mid_capture and land[1] == far)
                self._captures(pieces, start, land, crowned, now, out, turn, forward, far)


    def perft(self, pieces: dict, turn: int, depth: int) -> int:
        moves = self.moves(pieces, turn)
        if depth == 1:
            return len(moves)
        total = 0
        for (start, end, taken), king in moves.items():
            after = {sq: piece for sq, piece in pieces.items() if sq not in taken and sq != start}
            piece = pieces[start]
            after[end] = piece.upper() if king else piece
            total += self.perft(after, 1 - turn, depth - 1)
        return total


def engine_moves(variant: DraughtsVariant, position) -> dict:
    geometry = variant.geometry
    result = {}
    for move in variant.legal_moves(position):
        after = variant.play(position, move)
        key = (
            geometry.file_rank(move.start),
            geometry.file_rank(move.end),
            frozenset(geometry.file_rank(sq) for sq in move.captures),
        )
        assert key not in result, f"duplicate move {move!r}"
        result[key] = bool(after.kings >> move.end & 1)
    return result


CASES = [
    ("classic", {}), ("classic", {"free_capture": True}), ("classic81", {}),
    ("classic81", {"symmetric": True, "free_capture": True}), ("russian", {}), ("american", {}),
    ("international", {}), ("canadian", {}),
]


@pytest.mark.parametrize(("name", "options"), CASES, ids=[f"{n}{'-' + '-'.join(o) if o else ''}" for n, o in CASES])
def test_random_games_match_the_reference(name: str, options: dict) -> None:
    cls = {c.name: c for c in draughts.VARIANTS}[name]
    variant = cls.create(**options)
    reference = Reference(variant)
    rng = random.Random(f"{name}{sorted(options)}")
    checked = with_kings = 0
    for _ in range(15):
        position = variant.start_position()
        for ply in range(150):
            expected = reference.moves(*reference.board(position))
            got = engine_moves(variant, position)
            assert got == expected, variant.format_position(position)
            assert variant.perft(position, 1) == len(expected)
            # perft's own child generation agrees with legal_moves and play.
            if ply % 4 == 0:
                after = [variant.play(position, m) for m in variant.legal_moves(position)]
                assert variant.perft(position, 2) == sum(variant.perft(child, 1) for child in after)
            checked += 1
            with_kings += bool(position.kings)
            if not got:
                break
            position = variant.play(position, rng.choice(variant.legal_moves(position)))
    assert checked > 500 and with_kings > 50


KING_POSITIONS = [
    ("classic", "W:WKa1,c3,e3,Kh2:Bb4,d6,f6,b6,g7,Kd8"),
    ("classic", "B:WKa1,c3,e3,e5,c5,g3:BKh8,b8"),
    ("russian", "W:Wc5,Kh2:Bd6,f6,f4,d4,b6,b4,g7"),
    ("russian", "W:Wf6,a3:Bg7,e7,c7,c5,e3,b4"),
    ("international", "W:WK46,28,33,38:B7,9,12,14,19,23,32,K5"),
    ("american", "B:W18,19,26,27,K10:B14,15,K23,K31"),
]


@pytest.mark.parametrize(("name", "fen"), KING_POSITIONS)
def test_king_positions_match_the_reference_two_plies_deep(name: str, fen: str) -> None:
    variant = {c.name: c for c in draughts.VARIANTS}[name].create()
    reference = Reference(variant)
    position = variant.parse_position(fen)
    expected = reference.moves(*reference.board(position))
    assert engine_moves(variant, position) == expected
    total = 0
    for move in variant.legal_moves(position):
        after = variant.play(position, move)
        reply = reference.moves(*reference.board(after))
        assert engine_moves(variant, after) == reply, variant.format_position(after)
        total += len(reply)
    assert variant.perft(position, 2) == total


@pytest.mark.parametrize(("name", "options"), CASES, ids=[f"{n}{'-' + '-'.join(o) if o else ''}" for n, o in CASES])
def test_start_perft_matches_the_reference(name: str, options: dict) -> None:
    variant = {c.name: c for c in draughts.VARIANTS}[name].create(**options)
    reference = Reference(variant)
    start = variant.start_position()
    assert variant.perft(start, 3) == reference.perft(*reference.board(start), 3)
