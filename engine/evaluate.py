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
  those endings score near zero whatever the count of kings;
- balance (the wings) and men on the side files: weight 0 in the hand-set
  weights, there for a fit to use.

The weights are one `EvalWeights`; `features` gives each term's value so
`benchmarks/tune_eval.py` can fit the weights to self-play results.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from damka.engine.geometry import iter_bits

MAN = 100
FLYING_KING = 300
SHORT_KING = 165
DRAWN_ENDING_SHRINK = 16  # a drawn king ending keeps this fraction of its count


@dataclass(frozen=True)
class EvalWeights:
    """The evaluation's weights, in centi-men (a man is `MAN`, fixed: the scale).

    `HAND` are the hand-set weights; `TUNED` would hold weights fitted to
    self-play results for a variant (`benchmarks/tune_eval.py`) once a match
    shows them stronger. None has yet: the international weights fitted to
    62,000 positions of depth-4 self-play scored 23.8% against TurboEngine
    at depth 5 where these score 30.0% (docs/computer.md). Each weight
    multiplies one of `EVAL_TERMS`."""

    king: int = FLYING_KING  # a king (flying; `SHORT_KING` where a king steps)
    trade: int = 25  # % of the lead the side ahead gains as the board empties
    tempo: int = 2  # per rank a man has advanced...
    tempo_late: int = 4  # ...plus this much more on an empty board
    back: int = 10  # per man on its own back rank while the other side has men to crown
    centre: int = 6  # per piece on the central squares
    road: int = 20  # per king on the long diagonal (flying kings)
    mobility: int = 2  # per free step
    blocked: int = 30  # a side with no free step at all
    near: int = 25  # per free crowning square in front of a man one rank short
    balance: int = 0  # per piece of difference between the left and right wings
    edge: int = 0  # per man on the two side files (a man there guards less and is stuck sooner)


# The terms, in the order `DraughtsEvaluator.features` lists them (white minus black).
EVAL_TERMS = ("man", "king", "trade", "tempo", "tempo_late", "back", "centre", "road", "mobility", "blocked",
              "near", "balance", "edge")
HAND = EvalWeights()
TUNED: dict[str, EvalWeights] = {}

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

    def __init__(self, variant: Any, weights: EvalWeights | None = None) -> None:
        geometry = variant.geometry
        self.variant = variant
        self.read = bitboard_reader(variant)
        self.side_to_move = variant.side_to_move
        self.white_index = variant.sides.index("white") if "white" in variant.sides else 0
        self.flying = bool(getattr(variant, "flying_kings", variant.name != "american"))
        if weights is None:
            weights = TUNED.get(variant.name, HAND if self.flying else EvalWeights(king=SHORT_KING))
        self.weights = weights
        self.king_value = weights.king
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
        # The wings for the balance term: the files left and right of the middle two.
        self.left = sum(files[f] for f in range(0, width // 2 - 1))
        self.right = sum(files[f] for f in range(width - width // 2 + 1, width))
        self.edges = files[0] | files[width - 1]
        self.start_count = max(1, sum(self.read(variant.start_position())[i].bit_count() for i in (0, 1)))
        self.white_score = self._make_white_score()

    def __call__(self, position: Any) -> int:
        white, black, kings = self.read(position)
        score = self.white_score(white, black, kings)
        return score if self.side_to_move(position) == self.white_index else -score

    # Long on purpose: the evaluation's terms summed in one pass over the pieces (hot path).
    def _make_white_score(self) -> Callable[[int, int, int], int]:
        """`white_score(white, black, kings)`: the score for white. speed: a
        closure with the tables and weights as constants (no attribute look-ups per call)."""
        start, flying = self.start_count, self.flying
        w = self.weights
        king_value, trade, tempo_early, tempo_late = w.king, w.trade, w.tempo, w.tempo_late
        back_w, centre_w, road_w, mobility_w, blocked_w, near_w, balance_w, edge_w = (
            w.back, w.centre, w.road, w.mobility, w.blocked, w.near, w.balance, w.edge)
        if len(self.white_tempo) > 4:
            raise ValueError("the evaluation takes boards of at most 16 ranks")
        wt0, wt1, wt2, wt3 = (self.white_tempo + [0, 0, 0, 0])[:4]
        bt0, bt1, bt2, bt3 = (self.black_tempo + [0, 0, 0, 0])[:4]
        white_back, black_back, centre, diagonal = self.white_back, self.black_back, self.centre, self.long_diagonal
        white_near, black_near, playable = self.white_near, self.black_near, self.playable
        left, right, edges = self.left, self.right, self.edges
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
            # 0 at the start, rising towards `start` as the board empties.
            phase_num = start - pieces if pieces < start else 0

            if flying and not (wm or bm) and _drawn_king_ending(n_wk, n_bk, wk, bk, diagonal):
                shrunk = abs(material) // DRAWN_ENDING_SHRINK  # abs: floor division is not symmetric
                return shrunk if material > 0 else -shrunk

            score = material
            if material:
                # Trade bonus: the side ahead gains as pieces come off.
                bonus = abs(material) * trade * phase_num // (100 * start)  # abs: floor division is not symmetric
                score += bonus if material > 0 else -bonus

            # Tempo: per rank of advance, more as the board empties.
            tempo = ((wm & wt0).bit_count() + ((wm & wt1).bit_count() << 1) + ((wm & wt2).bit_count() << 2)
                     + ((wm & wt3).bit_count() << 3)
                     - (bm & bt0).bit_count() - ((bm & bt1).bit_count() << 1) - ((bm & bt2).bit_count() << 2)
                     - ((bm & bt3).bit_count() << 3))
            late = abs(tempo) * tempo_late * phase_num // start  # abs: floor division is not symmetric
            score += tempo * tempo_early + (late if tempo > 0 else -late)

            # Back-rank guard, only worth it while the other side still has men to crown.
            if n_bm:
                score += back_w * (wm & white_back).bit_count()
            if n_wm:
                score -= back_w * (bm & black_back).bit_count()

            score += centre_w * ((white & centre).bit_count() - (black & centre).bit_count())
            if balance_w:
                score -= balance_w * (abs((white & left).bit_count() - (white & right).bit_count())
                                      - abs((black & left).bit_count() - (black & right).bit_count()))
            if edge_w:
                score += edge_w * ((wm & edges).bit_count() - (bm & edges).bit_count())

            if flying and (wk or bk):
                score += road_w * ((wk & diagonal).bit_count() - (bk & diagonal).bit_count())

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
            score += mobility_w * (w_moves - b_moves)
            # A side with no free step at all is close to losing on blocked men.
            if not w_moves:
                score -= blocked_w
            if not b_moves:
                score += blocked_w

            # Men one step from crowning with a free square in front.
            near = wm & white_near
            if near:
                score += near_w * (((near << n_e) | (near << n_w)) & empty).bit_count()
            near = bm & black_near
            if near:
                score -= near_w * (((near >> s_e) | (near >> s_w)) & empty).bit_count()
            return score

        return white_score

    def features(self, white: int, black: int, kings: int) -> tuple[float, ...]:
        """The value of each of `EVAL_TERMS` for a position, white minus black:
        `white_score` is their sum weighted by `EvalWeights` (to rounding), except
        in a drawn king ending. For fitting the weights (benchmarks/tune_eval.py);
        the search never calls it."""
        start = self.start_count
        wk, bk = white & kings, black & kings
        wm, bm = white ^ wk, black ^ bk
        n_wm, n_bm, n_wk, n_bk = wm.bit_count(), bm.bit_count(), wk.bit_count(), bk.bit_count()
        pieces = n_wm + n_bm + n_wk + n_bk
        phase = (start - pieces if pieces < start else 0) / start
        material = (n_wm - n_bm) * MAN + (n_wk - n_bk) * self.king_value
        tempo = sum((wm & mask).bit_count() << j for j, mask in enumerate(self.white_tempo)) - sum(
            (bm & mask).bit_count() << j for j, mask in enumerate(self.black_tempo))
        back = ((wm & self.white_back).bit_count() if n_bm else 0) - ((bm & self.black_back).bit_count() if n_wm else 0)
        centre = (white & self.centre).bit_count() - (black & self.centre).bit_count()
        road = (wk & self.long_diagonal).bit_count() - (bk & self.long_diagonal).bit_count() if self.flying else 0
        empty = self.playable & ~(white | black)
        n_e, n_w, s_e, s_w = self.d_ne, self.d_nw, -self.d_se, -self.d_sw

        def steps(men: int, kings_: int, north: bool) -> int:
            men_steps = (((men << n_e) & empty).bit_count() + ((men << n_w) & empty).bit_count() if north
                         else ((men >> s_e) & empty).bit_count() + ((men >> s_w) & empty).bit_count())
            return men_steps + (((kings_ << n_e) & empty).bit_count() + ((kings_ << n_w) & empty).bit_count()
                                + ((kings_ >> s_e) & empty).bit_count() + ((kings_ >> s_w) & empty).bit_count())

        w_moves, b_moves = steps(wm, wk, True), steps(bm, bk, False)
        near_w, near_b = wm & self.white_near, bm & self.black_near
        near = ((((near_w << n_e) | (near_w << n_w)) & empty).bit_count()
                - (((near_b >> s_e) | (near_b >> s_w)) & empty).bit_count())
        left, right = self.left, self.right
        balance = -(abs((white & left).bit_count() - (white & right).bit_count())
                    - abs((black & left).bit_count() - (black & right).bit_count()))
        trade = (abs(material) if material > 0 else -abs(material)) * phase / 100
        return (float(n_wm - n_bm), float(n_wk - n_bk), trade, float(tempo), tempo * phase, float(back),
                float(centre), float(road), float(w_moves - b_moves), float((not b_moves) - (not w_moves)),
                float(near), float(balance), float((wm & self.edges).bit_count() - (bm & self.edges).bit_count()))


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
