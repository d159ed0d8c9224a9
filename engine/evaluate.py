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
- runaway men: a man with an empty path right in front of the crowning rank;
- king endings (flying kings, no men left): one king against one or two
  kings is a draw, and against three when it holds the long diagonal, so
  those endings score near zero whatever the count of kings.
"""

from __future__ import annotations

from typing import Any, Callable

from damka.engine.geometry import iter_bits

MAN = 100
FLYING_KING = 300
SHORT_KING = 165
DRAWN_ENDING_SHRINK = 16  # a drawn king ending keeps this fraction of its count

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
        # Tempo: the ranks advanced, summed over the men. speed: by the bits of
        # the advance (bitboard j holds the ranks whose advance has bit j set),
        # so the sum is a popcount per bit (4 on 10x10), not one per rank.
        bits = (high - low).bit_length()
        self.white_tempo = [sum(ranks[r] for r in range(low, high + 1) if (r - low) >> j & 1) for j in range(bits)]
        self.black_tempo = [sum(ranks[r] for r in range(low, high + 1) if (high - r) >> j & 1) for j in range(bits)]
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
            if low + i < height and geometry.is_playable(square := geometry.index(i, low + i)):
                diagonal |= 1 << square
        self.long_diagonal = diagonal
        self.start_count = max(1, sum(self.read(variant.start_position())[i].bit_count() for i in (0, 1)))
        self.white_score = self._make_white_score()

    def __call__(self, position: Any) -> int:
        white, black, kings = self.read(position)
        score = self.white_score(white, black, kings)
        return score if self.side_to_move(position) == self.white_index else -score

    # Long on purpose: the evaluation's terms summed in one pass over the pieces (hot path).
    def _make_white_score(self) -> Callable[[int, int, int], int]:
        """`white_score(white, black, kings)`: the score for white. speed: a
        closure with the tables as constants (no attribute look-ups per call)."""
        king_value, start, flying = self.king_value, self.start_count, self.flying
        if len(self.white_tempo) > 4:
            raise ValueError("the evaluation takes boards of at most 16 ranks")
        wt0, wt1, wt2, wt3 = (self.white_tempo + [0, 0, 0, 0])[:4]
        bt0, bt1, bt2, bt3 = (self.black_tempo + [0, 0, 0, 0])[:4]
        white_back, black_back, centre, diagonal = self.white_back, self.black_back, self.centre, self.long_diagonal
        white_near, black_near, playable = self.white_near, self.black_near, self.playable
        # North is a left shift, south a right shift.
        n_e, n_w, s_e, s_w = self.d_ne, self.d_nw, -self.d_se, -self.d_sw

        def white_score(white: int, black: int, kings: int) -> int:
            wk = white & kings
            bk = black & kings
            wm = white ^ wk
            bm = black ^ bk
            n_wm, n_bm, n_wk, n_bk = wm.bit_count(), bm.bit_count(), wk.bit_count(), bk.bit_count()
            material = (n_wm - n_bm) * MAN + (n_wk - n_bk) * king_value
            pieces = n_wm + n_bm + n_wk + n_bk
            # 0 at the start, rising towards 1 as the board empties.
            phase_num = start - pieces if pieces < start else 0

            if flying and not (wm or bm) and _drawn_king_ending(n_wk, n_bk, wk, bk, diagonal):
                shrunk = abs(material) // DRAWN_ENDING_SHRINK  # abs: floor division is not symmetric
                return shrunk if material > 0 else -shrunk

            score = material
            if material:
                # Trade bonus: up to +25% of the lead as pieces come off.
                bonus = abs(material) * phase_num // (4 * start)  # abs: floor division is not symmetric
                score += bonus if material > 0 else -bonus

            # Tempo: 2..6 per rank of advance, more as the board empties.
            tempo = ((wm & wt0).bit_count() + ((wm & wt1).bit_count() << 1) + ((wm & wt2).bit_count() << 2)
                     + ((wm & wt3).bit_count() << 3)
                     - (bm & bt0).bit_count() - ((bm & bt1).bit_count() << 1) - ((bm & bt2).bit_count() << 2)
                     - ((bm & bt3).bit_count() << 3))
            score += tempo * (2 + 4 * phase_num // start)

            # Back-rank guard, only worth it while the other side still has men to crown.
            if n_bm:
                score += 10 * (wm & white_back).bit_count()
            if n_wm:
                score -= 10 * (bm & black_back).bit_count()

            score += 6 * ((white & centre).bit_count() - (black & centre).bit_count())

            if flying and (wk or bk):
                score += 20 * ((wk & diagonal).bit_count() - (bk & diagonal).bit_count())

            empty = playable & ~(white | black)
            # Mobility: free steps (white men forward = north, black men = south).
            w_moves = ((wm << n_e) & empty).bit_count() + ((wm << n_w) & empty).bit_count()
            b_moves = ((bm >> s_e) & empty).bit_count() + ((bm >> s_w) & empty).bit_count()
            if wk:
                w_moves += (((wk << n_e) & empty).bit_count() + ((wk << n_w) & empty).bit_count()
                            + ((wk >> s_e) & empty).bit_count() + ((wk >> s_w) & empty).bit_count())
            if bk:
                b_moves += (((bk << n_e) & empty).bit_count() + ((bk << n_w) & empty).bit_count()
                            + ((bk >> s_e) & empty).bit_count() + ((bk >> s_w) & empty).bit_count())
            score += 2 * (w_moves - b_moves)
            # A side with no free step at all is close to losing on blocked men.
            if not w_moves:
                score -= 30
            if not b_moves:
                score += 30

            # Men one step from crowning with a free square in front.
            near = wm & white_near
            if near:
                score += 25 * (((near << n_e) | (near << n_w)) & empty).bit_count()
            near = bm & black_near
            if near:
                score -= 25 * (((near >> s_e) | (near >> s_w)) & empty).bit_count()
            return score

        return white_score


def _drawn_king_ending(n_wk: int, n_bk: int, wk: int, bk: int, diagonal: int) -> bool:
    """Kings only, flying: one king holds a draw against one or two, and
    against three from the long diagonal."""
    if n_wk == 1 and n_bk <= 3:
        return n_bk <= 2 or bool(wk & diagonal)
    if n_bk == 1 and n_wk <= 3:
        return n_wk <= 2 or bool(bk & diagonal)
    return False


class MaterialEvaluator:
    """Material only, side-to-move relative: what the coach counts as "losing material"."""

    def __init__(self, variant: Any) -> None:
        self.read = bitboard_reader(variant)
        self.side_to_move = variant.side_to_move
        self.white_index = variant.sides.index("white") if "white" in variant.sides else 0
        self.king_value = FLYING_KING if getattr(variant, "flying_kings", True) else SHORT_KING

    def __call__(self, position: Any) -> int:
        white, black, kings = self.read(position)
        score = self.white_score(white, black, kings)
        return score if self.side_to_move(position) == self.white_index else -score

    def white_score(self, white: int, black: int, kings: int) -> int:
        """Material, white minus black (the search calls this on its bitboards)."""
        return ((white & ~kings).bit_count() - (black & ~kings).bit_count()) * MAN + (
            (white & kings).bit_count() - (black & kings).bit_count()
        ) * self.king_value
