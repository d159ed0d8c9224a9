"""Static evaluation of draughts positions, for the search in `search.py`.

Scores are integers in centi-men (a man is worth 100) from the point of view
of the side to move, as negamax wants them. Every term is computed on whole
bitboards with shifts and `int.bit_count()`, never square by square: the
evaluation runs at every leaf of the search and is most of its cost after
move generation.

Terms (white minus black, then signed for the side to move):

- material: men 100; kings 300 where kings fly (classic, russian,
  international, canadian, classic81) and 165 in american, where a king
  steps one square;
- trade bonus: the side ahead gains a little for every piece off the board,
  so a won ending is simplified instead of wandered around;
- tempo (advancement): men further up the board, weighted more as the board
  empties (early on advancing for its own sake loosens the position);
- back-rank guard: men still on their own back rank while the opponent has
  men that could crown there;
- centre: men and kings on the central squares;
- king on the long diagonal (flying-king variants): the "main road" that
  holds a king ending;
- mobility: free forward steps for men, free steps for kings (cheap one-shift
  counts, a proxy for tempo reserve and for blocked men);
- runaway men: a man with an empty path right in front of the crowning rank.
"""

from __future__ import annotations

from typing import Any, Callable

from damka.engine.geometry import iter_bits, shift

MAN = 100
FLYING_KING = 300
SHORT_KING = 165

Bitboards = Callable[[Any], tuple[int, int, int]]


def bitboard_reader(variant: Any) -> Bitboards:
    """A function `position -> (white, black, kings)` for `variant`.

    The draughts positions carry these bitboards as fields; reading them
    directly is what makes the evaluation cheap. For any other position type
    the reader falls back to `piece_at` square by square (correct, slower).
    """
    sample = variant.start_position()
    if all(hasattr(sample, name) for name in ("white", "black", "kings")):
        return lambda position: (position.white, position.black, position.kings)
    squares = variant.geometry.squares
    piece_at = variant.piece_at

    def read(position: Any) -> tuple[int, int, int]:
        white = black = kings = 0
        for square in squares:
            piece = piece_at(position, square)
            if piece is None:
                continue
            bit = 1 << square
            if piece in "wW":
                white |= bit
            else:
                black |= bit
            if piece in "WB":
                kings |= bit
        return white, black, kings

    return read


def _rank_masks(geometry: Any) -> list[int]:
    masks = [0] * geometry.height
    for square in iter_bits(geometry.playable):
        masks[square // geometry.stride] |= 1 << square
    return masks


class DraughtsEvaluator:
    """Callable `evaluator(position) -> int`, side-to-move relative."""

    def __init__(self, variant: Any) -> None:
        geometry = variant.geometry
        self.variant = variant
        self.read = bitboard_reader(variant)
        self.side_to_move = variant.side_to_move
        self.white_index = variant.sides.index("white") if "white" in variant.sides else 0
        self.flying = bool(getattr(variant, "flying_kings", variant.name != "american"))
        self.king_value = FLYING_KING if self.flying else SHORT_KING
        self.playable = playable = geometry.playable
        deltas = geometry.deltas
        self.d_ne, self.d_nw, self.d_se, self.d_sw = deltas["ne"], deltas["nw"], deltas["se"], deltas["sw"]

        ranks = _rank_masks(geometry)
        height = geometry.height
        # Occupied ranks only: classic81 and the 7x7 boards leave some empty.
        occupied_ranks = [r for r in range(height) if ranks[r]]
        low, high = occupied_ranks[0], occupied_ranks[-1]
        self.ranks = ranks
        self.white_back = ranks[low]
        self.black_back = ranks[high]
        # Tempo: bitboards of "at least k ranks advanced", so the weighted
        # rank sum is a handful of popcounts instead of a loop over squares.
        self.white_tempo = [sum(ranks[r] for r in range(low + k, high + 1)) for k in range(1, high - low + 1)]
        self.black_tempo = [sum(ranks[r] for r in range(low, high + 1 - k)) for k in range(1, high - low + 1)]
        # One rank short of crowning: men there are near a king.
        self.white_near = ranks[high - 1]
        self.black_near = ranks[low + 1]

        files = [0] * geometry.width
        for square in iter_bits(playable):
            files[square % geometry.stride] |= 1 << square
        width = geometry.width
        f_lo, f_hi = width // 4, width - 1 - width // 4
        r_lo, r_hi = low + (high - low) // 4 + 1, high - (high - low) // 4 - 1
        self.centre = sum(files[f] for f in range(f_lo, f_hi + 1)) & sum(ranks[r] for r in range(r_lo, r_hi + 1))
        # The long diagonal through a1 (the "main road") on a square board.
        diagonal = 0
        for i in range(min(width, height)):
            square = geometry.index(i, low + i) if low + i < height else None
            if square is not None and geometry.is_playable(square):
                diagonal |= 1 << square
        self.long_diagonal = diagonal
        self.start_count = max(1, sum(self.read(variant.start_position())[i].bit_count() for i in (0, 1)))

    def __call__(self, position: Any) -> int:
        white, black, kings = self.read(position)
        score = self.white_score(white, black, kings)
        return score if self.side_to_move(position) == self.white_index else -score

    # Long on purpose: the evaluation's terms summed in one pass over the pieces (hot path).
    def white_score(self, white: int, black: int, kings: int) -> int:
        wk = white & kings
        bk = black & kings
        wm = white ^ wk
        bm = black ^ bk
        n_wm, n_bm, n_wk, n_bk = wm.bit_count(), bm.bit_count(), wk.bit_count(), bk.bit_count()
        king_value = self.king_value
        material = (n_wm - n_bm) * MAN + (n_wk - n_bk) * king_value
        pieces = n_wm + n_bm + n_wk + n_bk
        start = self.start_count
        # 0 at the start, rising towards 1 as the board empties.
        phase_num = start - pieces if pieces < start else 0

        score = material
        total = (n_wm + n_bm) * MAN + (n_wk + n_bk) * king_value
        if material and total:
            # Trade bonus: up to +25% of the lead as pieces come off.
            bonus = abs(material) * phase_num // (4 * start)  # abs: floor division is not symmetric
            score += bonus if material > 0 else -bonus

        # Tempo: 2..6 per rank of advance, more as the board empties.
        tempo = 0
        for mask in self.white_tempo:
            tempo += (wm & mask).bit_count()
        for mask in self.black_tempo:
            tempo -= (bm & mask).bit_count()
        score += tempo * (2 + 4 * phase_num // start)

        # Back-rank guard, only worth it while the other side still has men to crown.
        if n_bm:
            score += 10 * (wm & self.white_back).bit_count()
        if n_wm:
            score -= 10 * (bm & self.black_back).bit_count()

        centre = self.centre
        score += 6 * ((white & centre).bit_count() - (black & centre).bit_count())

        if self.flying and (wk or bk):
            diagonal = self.long_diagonal
            score += 20 * ((wk & diagonal).bit_count() - (bk & diagonal).bit_count())

        empty = self.playable & ~(white | black)
        d_ne, d_nw, d_se, d_sw = self.d_ne, self.d_nw, self.d_se, self.d_sw
        # Mobility: free steps (white men forward = north, black men = south).
        w_moves = ((wm << d_ne) & empty).bit_count() + ((wm << d_nw) & empty).bit_count()
        b_moves = ((bm >> -d_se) & empty).bit_count() + ((bm >> -d_sw) & empty).bit_count()
        if wk:
            w_moves += sum(((shift(wk, d)) & empty).bit_count() for d in (d_ne, d_nw, d_se, d_sw))
        if bk:
            b_moves += sum(((shift(bk, d)) & empty).bit_count() for d in (d_ne, d_nw, d_se, d_sw))
        score += 2 * (w_moves - b_moves)
        # A side with no free step at all is close to losing on blocked men.
        if not w_moves:
            score -= 30
        if not b_moves:
            score += 30

        # Men one step from crowning with a free square in front.
        runaway_w = (wm & self.white_near) and ((((wm & self.white_near) << d_ne) | ((wm & self.white_near) << d_nw)) & empty)
        runaway_b = (bm & self.black_near) and ((((bm & self.black_near) >> -d_se) | ((bm & self.black_near) >> -d_sw)) & empty)
        if runaway_w:
            score += 25 * runaway_w.bit_count()
        if runaway_b:
            score -= 25 * runaway_b.bit_count()
        return score


def material_balance(variant: Any, position: Any, side: int) -> int:
    """Material of `side` minus the other side's, in centi-men (coach, tests)."""
    read = bitboard_reader(variant)
    white, black, kings = read(position)
    king_value = FLYING_KING if getattr(variant, "flying_kings", True) else SHORT_KING
    white_value = (white & ~kings).bit_count() * MAN + (white & kings).bit_count() * king_value
    black_value = (black & ~kings).bit_count() * MAN + (black & kings).bit_count() * king_value
    white_index = variant.sides.index("white") if "white" in variant.sides else 0
    return white_value - black_value if side == white_index else black_value - white_value


class MaterialEvaluator:
    """Material only, side-to-move relative: what the coach counts as "losing material"."""

    def __init__(self, variant: Any) -> None:
        self.read = bitboard_reader(variant)
        self.side_to_move = variant.side_to_move
        self.white_index = variant.sides.index("white") if "white" in variant.sides else 0
        self.king_value = FLYING_KING if getattr(variant, "flying_kings", True) else SHORT_KING

    def __call__(self, position: Any) -> int:
        white, black, kings = self.read(position)
        king_value = self.king_value
        score = ((white & ~kings).bit_count() - (black & ~kings).bit_count()) * MAN + (
            (white & kings).bit_count() - (black & kings).bit_count()
        ) * king_value
        return score if self.side_to_move(position) == self.white_index else -score
