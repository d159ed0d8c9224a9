"""Move generation for the draughts family: bitboards in, small tuples out.

This is the hot path of perft and of the computer opponent, so it works on
plain ints, never on `Move` objects or positions. Everything is side-relative:
`mine` and `theirs` are bitboards, `side` is 0 (white, moves towards higher
ranks, i.e. left shifts) or 1 (black, right shifts), `kings` holds the kings
of both colours. The rules are the `MoveGenerator`'s settings; the variant
classes in `draughts.py` choose them.

Speed tricks, each marked `# speed:` where used (classic perft 8 from the
start, 907830 nodes, runs well over 1,000,000 nodes/s on one core; see
benchmarks/perft_speed.py):
- whole-bitboard shifts (the padded layout of `geometry.py`): the landing
  squares of every first jump and every man's steps come from a few shifts,
  steps are counted by popcount;
- if no first jump's landing square allows a second jump, the captures are
  counted (or played) straight from those bitboards, with no search;
- leaf counters and child generators specialised per side at construction,
  rule settings bound as closure constants; men-only chains counted without
  paths; perft's last ply counted, never played (bulk counting);
- per-square jump, ray and ray-mask tables (the first piece on a king's ray is
  one lowest/highest-bit trick away);
- captures collected as `{(start, end, captured_bits): (path, promoted)}`, so
  duplicate routes of one move collapse for free.

Size: the white and black move generators are hot-path twins specialised on
purpose (one per colour, no per-move branching); `_make_counter` and
`_make_children` are long for the same reason.
"""

from __future__ import annotations

from itertools import starmap
from typing import Callable

from damka.engine.geometry import Geometry

# A capture found by the generator: (start, end, captured bits) -> (path, promoted).
Captures = dict[tuple[int, int, int], tuple[tuple[int, ...], bool]]
# A child position for perft, seen from the side to move in it: (mine, theirs, kings).
Child = tuple[int, int, int]


class MoveGenerator:
    """Legal moves of one rule set on one geometry.

    Settings:
    - `men_capture_backward`: men jump backward as well as forward (classic);
    - `flying_kings`: kings move and capture along whole diagonals;
    - `majority`: only the sequences capturing the most pieces are legal;
    - `promote_mid_capture`: a man reaching the far rank during a capture
      becomes a king at once and goes on capturing as one (russian);
    - `free_capture`: capturing is optional and a sequence may stop after
      any jump (the kurnik "free capture" option);
    - `promotion`: far-rank bitboards for white and black.
    """

    # Long on purpose: it precomputes every table the hot paths read, in one place.
    def __init__(
        self,
        geometry: Geometry,
        *,
        men_capture_backward: bool,
        flying_kings: bool,
        majority: bool,
        promote_mid_capture: bool,
        free_capture: bool,
        promotion: tuple[int, int],
    ) -> None:
        self.geometry = geometry
        self.men_capture_backward = men_capture_backward
        self.flying_kings = flying_kings
        self.majority = majority and not free_capture
        self.promote_mid_capture = promote_mid_capture
        self.free_capture = free_capture
        self.promotion = promotion
        self.playable = playable = geometry.playable
        stride = geometry.stride
        # Left/right diagonal distances; north is a left shift, south a right shift.
        self.dl, self.dr = stride - 1, stride + 1
        deltas = (stride + 1, stride - 1, -(stride - 1), -(stride + 1))  # ne nw se sw
        north = (0, 1)  # indices of the northward deltas
        south = (2, 3)

        def jumps(sq: int, directions: tuple[int, ...]) -> tuple[tuple[int, int, int], ...]:
            found = []
            for i in directions:
                mid, land = sq + deltas[i], sq + 2 * deltas[i]
                if mid >= 0 and land >= 0 and playable >> mid & 1 and playable >> land & 1:
                    found.append((1 << mid, 1 << land, land))
            return tuple(found)

        def ray(sq: int, delta: int) -> tuple[tuple[int, int], ...]:
            found = []
            sq += delta
            while sq >= 0 and playable >> sq & 1:
                found.append((sq, 1 << sq))
                sq += delta
            return tuple(found)

        size = playable.bit_length()
        everywhere = (0, 1, 2, 3)
        # speed: per-square tables, so the capture search does no arithmetic or bounds checks.
        self.jumps_all = [jumps(sq, everywhere) for sq in range(size)]
        men_dirs = (everywhere, everywhere) if men_capture_backward else (north, south)
        self.man_jumps = tuple([jumps(sq, dirs) for sq in range(size)] for dirs in men_dirs)
        self.rays = [tuple(r for r in (ray(sq, d) for d in deltas) if r) for sq in range(size)]
        self.steps = [tuple(r[0] for r in self.rays[sq]) for sq in range(size)]
        # speed: each ray also as one mask with its step and sense, so the first
        # piece on it is one bit trick away (lowest bit going up, highest going down).
        self.ray_masks = [
            tuple((sum(bit for _, bit in r), abs(d), d > 0) for r, d in ((ray(sq, d), d) for d in deltas) if r)
            for sq in range(size)
        ]
        self._king_search = self._make_flying_king() if flying_kings else self._short_king
        # speed: one specialised leaf counter per side, chosen once per perft node.
        self.counters = (self._make_counter(0), self._make_counter(1))
        self.child_makers = (self._make_children(0), self._make_children(1))
        self.leaf_tests = (self._make_leaf_test(0), self._make_leaf_test(1))

    # -- tests on whole bitboards -------------------------------------------

    def jumpers(self, mine: int, theirs: int, kings: int, side: int) -> int:
        """Bitboard of the pieces that can make a first jump (before any majority rule)."""
        empty = self.playable ^ (mine | theirs)
        dl, dr = self.dl, self.dr
        men = mine & ~kings
        own_kings = mine & kings
        back = self.men_capture_backward
        up = men if side == 0 or back else 0
        down = men if side == 1 or back else 0
        if not self.flying_kings:
            up |= own_kings
            down |= own_kings
        # speed: one shift pair per direction finds every piece with a jump at once.
        found = (
            (((empty >> dl) & theirs) >> dl | ((empty >> dr) & theirs) >> dr) & up
            | (((empty << dl) & theirs) << dl | ((empty << dr) & theirs) << dr) & down
        )
        if own_kings and self.flying_kings:
            occupied = mine | theirs
            ray_masks = self.ray_masks
            kings_left = own_kings
            while kings_left:
                bit = kings_left & -kings_left
                kings_left ^= bit
                for mask, d, up in ray_masks[bit.bit_length() - 1]:
                    blockers = mask & occupied
                    if blockers:
                        first = blockers & -blockers if up else 1 << (blockers.bit_length() - 1)
                        if first & theirs and (first << d if up else first >> d) & empty:
                            found |= bit
                            break
        return found

    def has_capture(self, mine: int, theirs: int, kings: int, side: int) -> bool:
        """Whether the side to move has any capture (no sequences built)."""
        return bool(self.jumpers(mine, theirs, kings, side))

    def count_quiet(self, mine: int, theirs: int, kings: int, side: int) -> int:
        """Number of non-capturing moves, counted without listing them."""
        empty = self.playable ^ (mine | theirs)
        dl, dr = self.dl, self.dr
        men = mine & ~kings
        own_kings = mine & kings
        # speed: popcount of shifted bitboards counts every man's steps at once.
        if side == 0:
            n = ((men << dl) & empty).bit_count() + ((men << dr) & empty).bit_count()
        else:
            n = ((men >> dl) & empty).bit_count() + ((men >> dr) & empty).bit_count()
        if own_kings:
            if self.flying_kings:
                occupied = mine | theirs
                ray_masks = self.ray_masks
                while own_kings:
                    bit = own_kings & -own_kings
                    own_kings ^= bit
                    for mask, _, up in ray_masks[bit.bit_length() - 1]:
                        blockers = mask & occupied
                        if not blockers:
                            n += mask.bit_count()
                        elif up:  # speed: the squares before the first piece, by one popcount
                            n += (mask & ((blockers & -blockers) - 1)).bit_count()
                        else:
                            n += (mask >> blockers.bit_length()).bit_count()
            else:
                n += (
                    ((own_kings << dl) & empty).bit_count() + ((own_kings << dr) & empty).bit_count()
                    + ((own_kings >> dl) & empty).bit_count() + ((own_kings >> dr) & empty).bit_count()
                )
        return n

    def _make_leaf_test(self, side: int) -> Callable[[int, int, int], int]:
        """`test(mine, theirs, kings)`: 2 if the side to move can capture, 1 if it
        has only quiet moves, 0 if it has none. The search's leaves ask this
        instead of listing moves (speed: men only, a few shifts; otherwise
        `jumpers` and `count_quiet`)."""
        playable, dl, dr = self.playable, self.dl, self.dr
        back = self.men_capture_backward
        jumpers, count_quiet = self.jumpers, self.count_quiet

        def general(mine: int, theirs: int, kings: int) -> int:
            if jumpers(mine, theirs, kings, side):
                return 2
            return 1 if count_quiet(mine, theirs, kings, side) else 0

        def test_white(mine: int, theirs: int, kings: int) -> int:
            if mine & kings:
                return general(mine, theirs, kings)
            empty = playable ^ (mine | theirs)
            if (((mine << dr) & theirs) << dr | ((mine << dl) & theirs) << dl) & empty:
                return 2
            if back and (((mine >> dl) & theirs) >> dl | ((mine >> dr) & theirs) >> dr) & empty:
                return 2
            return 1 if ((mine << dl) | (mine << dr)) & empty else 0

        def test_black(mine: int, theirs: int, kings: int) -> int:
            if mine & kings:
                return general(mine, theirs, kings)
            empty = playable ^ (mine | theirs)
            if (((mine >> dl) & theirs) >> dl | ((mine >> dr) & theirs) >> dr) & empty:
                return 2
            if back and (((mine << dr) & theirs) << dr | ((mine << dl) & theirs) << dl) & empty:
                return 2
            return 1 if ((mine >> dl) | (mine >> dr)) & empty else 0

        return test_white if side == 0 else test_black

    def count(self, mine: int, theirs: int, kings: int, side: int) -> int:
        """Number of legal moves (distinct by start, end and captured set)."""
        return self.counters[side](mine, theirs, kings)

    def _count_general(self, mine: int, theirs: int, kings: int, side: int) -> int:
        """`count` for any position (the fast counters hand kings and crowning
        mid-capture over to it)."""
        jumpers = self.jumpers(mine, theirs, kings, side)
        if not jumpers:
            return self.count_quiet(mine, theirs, kings, side)
        n = len(self.captures(mine, theirs, kings, side, jumpers))
        return n + self.count_quiet(mine, theirs, kings, side) if self.free_capture else n

    @staticmethod
    def _walk_men(
        jumps: list, theirs: int, empty: int, start: int, sq: int, cap: int,
        found: dict[tuple[int, int, int], None], free: bool,
    ) -> None:
        """Add to `found` the (start, end, captured) of every men's chain from `sq`,
        in the order `captures` finds them (a dict keeps the first)."""
        more = False
        for mid, land, lsq in jumps[sq]:
            if mid & theirs and not mid & cap and land & empty:
                more = True
                MoveGenerator._walk_men(jumps, theirs, empty, start, lsq, cap | mid, found, free)
        if cap and (free or not more):
            found[(start, sq, cap)] = None

    # Long on purpose: the perft/count hot path, inlined (no calls per node).
    def _make_counter(self, side: int) -> Callable[[int, int, int], int]:
        """A move counter specialised for one side of this rule set: settings and
        tables become closure constants (speed: no attribute look-ups, no side tests)."""
        playable, dl, dr = self.playable, self.dl, self.dr
        dl2, dr2 = 2 * dl, 2 * dr
        back = self.men_capture_backward
        free = self.free_capture
        promo = self.promotion[side] if self.promote_mid_capture else 0
        general = self._count_general
        captures = self.captures
        count_quiet = self.count_quiet
        man_jumps = self.man_jumps[side]
        majority = self.majority
        walk = self._walk_men

        def count_chains(mine: int, theirs: int, kings: int, jumpers: int) -> int:
            # Men's capture chains counted without building paths or moves.
            if promo:  # crowning mid-capture: the full search
                return len(captures(mine, theirs, kings, side, jumpers))
            found: dict[tuple[int, int, int], None] = {}
            empty0 = playable ^ (mine | theirs)
            while jumpers:
                bit = jumpers & -jumpers
                jumpers ^= bit
                sq = bit.bit_length() - 1
                walk(man_jumps, theirs, empty0 | bit, sq, sq, 0, found, free)
            if majority and len(found) > 1:
                best = max(cap.bit_count() for _, _, cap in found)
                return sum(1 for _, _, cap in found if cap.bit_count() == best)
            return len(found)

        def count_white(mine: int, theirs: int, kings: int) -> int:
            if mine & kings:
                return general(mine, theirs, kings, 0)
            empty = playable ^ (mine | theirs)
            up_r, up_l = mine << dr, mine << dl  # speed: shared by the jump test and the step count
            # speed: landing squares of every first jump, one bitboard per direction.
            ne = ((up_r & theirs) << dr) & empty
            nw = ((up_l & theirs) << dl) & empty
            if back:
                se = (((mine >> dl) & theirs) >> dl) & empty
                sw = (((mine >> dr) & theirs) >> dr) & empty
                landings = ne | nw | se | sw
            else:
                landings = ne | nw
            if not landings:
                # speed: popcount of shifted bitboards counts every man's steps at once.
                return (up_l & empty).bit_count() + (up_r & empty).bit_count()
            if landings & promo:
                return general(mine, theirs, kings, 0)
            # speed: if no landing square allows a second jump (the piece just taken
            # cannot be jumped back over), every first jump is one whole move.
            if back:
                again = (
                    ((((ne | nw | se) << dr) & theirs) << dr) & empty
                    or ((((ne | nw | sw) << dl) & theirs) << dl) & empty
                    or ((((ne | se | sw) >> dl) & theirs) >> dl) & empty
                    or ((((nw | se | sw) >> dr) & theirs) >> dr) & empty
                )
            else:
                again = ((((ne | nw) << dr) & theirs) << dr) & empty or ((((ne | nw) << dl) & theirs) << dl) & empty
            if again:
                jumpers = (ne >> dr2 | nw >> dl2 | se << dl2 | sw << dr2) & mine if back else (ne >> dr2 | nw >> dl2)
                n = count_chains(mine, theirs, kings, jumpers)
            elif back:
                n = ne.bit_count() + nw.bit_count() + se.bit_count() + sw.bit_count()
            else:
                n = ne.bit_count() + nw.bit_count()
            return n + count_quiet(mine, theirs, kings, 0) if free else n

        def count_black(mine: int, theirs: int, kings: int) -> int:
            if mine & kings:
                return general(mine, theirs, kings, 1)
            empty = playable ^ (mine | theirs)
            down_l, down_r = mine >> dl, mine >> dr
            se = ((down_l & theirs) >> dl) & empty
            sw = ((down_r & theirs) >> dr) & empty
            if back:
                ne = (((mine << dr) & theirs) << dr) & empty
                nw = (((mine << dl) & theirs) << dl) & empty
                landings = ne | nw | se | sw
            else:
                landings = se | sw
            if not landings:
                return (down_l & empty).bit_count() + (down_r & empty).bit_count()
            if landings & promo:
                return general(mine, theirs, kings, 1)
            if back:
                again = (
                    ((((ne | nw | se) << dr) & theirs) << dr) & empty
                    or ((((ne | nw | sw) << dl) & theirs) << dl) & empty
                    or ((((ne | se | sw) >> dl) & theirs) >> dl) & empty
                    or ((((nw | se | sw) >> dr) & theirs) >> dr) & empty
                )
            else:
                again = ((((se | sw) >> dl) & theirs) >> dl) & empty or ((((se | sw) >> dr) & theirs) >> dr) & empty
            if again:
                jumpers = (ne >> dr2 | nw >> dl2 | se << dl2 | sw << dr2) & mine if back else (se << dl2 | sw << dr2)
                n = count_chains(mine, theirs, kings, jumpers)
            elif back:
                n = ne.bit_count() + nw.bit_count() + se.bit_count() + sw.bit_count()
            else:
                n = se.bit_count() + sw.bit_count()
            return n + count_quiet(mine, theirs, kings, 1) if free else n

        return count_white if side == 0 else count_black

    # -- listing moves ------------------------------------------------------

    def captures(self, mine: int, theirs: int, kings: int, side: int, jumpers: int | None = None) -> Captures:
        """Every legal capture, majority rule applied, duplicates merged.

        `jumpers` (from `jumpers()`) limits the search to pieces that can capture."""
        if jumpers is None:
            jumpers = self.jumpers(mine, theirs, kings, side)
        out: Captures = {}
        own_kings = mine & kings
        empty0 = self.playable ^ (mine | theirs)
        men_jumpers = jumpers & ~own_kings
        if men_jumpers:
            self._man_captures(men_jumpers, theirs, empty0, side, out)
        if jumpers & own_kings:
            self._king_captures(jumpers & own_kings, theirs, empty0, out)
        # speed: the majority filter only runs when there is a choice.
        if self.majority and len(out) > 1:
            best = max(cap.bit_count() for _, _, cap in out)
            out = {key: value for key, value in out.items() if key[2].bit_count() == best}
        return out

    def _man_captures(self, jumpers: int, theirs: int, empty0: int, side: int, out: Captures) -> None:
        """Add to `out` the capture sequences of the men in `jumpers`."""
        promo = self.promotion[side]
        man_jumps = self.man_jumps[side]
        mid_capture = self.promote_mid_capture
        free = self.free_capture
        king = self._king_search
        empty = 0

        def man(start: int, sq: int, cap: int, path: tuple[int, ...]) -> None:
            more = False
            for mid, land, lsq in man_jumps[sq]:
                if mid & theirs and not mid & cap and land & empty:
                    more = True
                    if mid_capture and land & promo:
                        king(start, lsq, cap | mid, path + (lsq,), theirs, empty, out)
                    else:
                        man(start, lsq, cap | mid, path + (lsq,))
            if cap and (free or not more) and (start, sq, cap) not in out:
                out[(start, sq, cap)] = (path, False)

        while jumpers:  # speed: only pieces with a first jump are searched
            bit = jumpers & -jumpers
            jumpers ^= bit
            sq = bit.bit_length() - 1
            empty = empty0 | bit  # the moving piece's square is free to cross or land on
            man(sq, sq, 0, ())

    def _king_captures(self, jumpers: int, theirs: int, empty0: int, out: Captures) -> None:
        """Add to `out` the capture sequences of the kings in `jumpers`."""
        king = self._king_search
        while jumpers:
            bit = jumpers & -jumpers
            jumpers ^= bit
            sq = bit.bit_length() - 1
            king(sq, sq, 0, (), theirs, empty0 | bit, out, False)

    def _short_king(
        self, start: int, sq: int, cap: int, path: tuple[int, ...], theirs: int, empty: int, out: Captures,
        promoted: bool = True,
    ) -> None:
        """Capture sequences of a short (one-step) king from `sq`, `cap` taken so far."""
        more = False
        for mid, land, lsq in self.jumps_all[sq]:
            if mid & theirs and not mid & cap and land & empty:
                more = True
                self._short_king(start, lsq, cap | mid, path + (lsq,), theirs, empty, out, promoted)
        if cap and (self.free_capture or not more) and (start, sq, cap) not in out:
            out[(start, sq, cap)] = (path, promoted)

    def _make_flying_king(self) -> Callable[..., None]:
        """`king(start, sq, cap, path, theirs, empty, out, promoted=True)`: add to
        `out` the capture sequences of a flying king from `sq`, `cap` taken so
        far. speed: a closure, its tables and settings constants (it recurses
        once per jump)."""
        ray_masks, free = self.ray_masks, self.free_capture

        def continues(sq: int, cap: int, theirs: int, empty: int) -> bool:
            # Whether a flying king on `sq` can capture again, `cap` already taken.
            for mask, d, up in ray_masks[sq]:
                blockers = mask & ~empty
                if blockers:
                    first = blockers & -blockers if up else 1 << (blockers.bit_length() - 1)
                    if first & theirs and not first & cap and (first << d if up else first >> d) & empty:
                        return True
            return False

        def king(start: int, sq: int, cap: int, path: tuple[int, ...], theirs: int, empty: int, out: Captures,
                 promoted: bool = True) -> None:
            more = False
            for mask, _, up in ray_masks[sq]:
                # speed: the first piece on the ray and the free squares behind
                # it by bit tricks (lowest bit going up, highest going down).
                blockers = mask & ~empty
                if not blockers:
                    continue
                first = blockers & -blockers if up else 1 << (blockers.bit_length() - 1)
                if not first & theirs or first & cap:
                    continue
                if up:
                    beyond = mask & ~((first << 1) - 1)
                    stop = beyond & ~empty
                    if stop:
                        beyond &= (stop & -stop) - 1
                else:
                    beyond = mask & (first - 1)
                    stop = beyond & ~empty
                    if stop:
                        beyond &= ~((1 << stop.bit_length()) - 1)
                if not beyond:
                    continue
                landings = []  # in the order a king reaches them
                while beyond:
                    if up:
                        bit = beyond & -beyond
                    else:
                        bit = 1 << (beyond.bit_length() - 1)
                    beyond ^= bit
                    landings.append(bit.bit_length() - 1)
                more = True
                ncap = cap | first
                if not free:
                    # A king must land where it can capture on, when such a square exists.
                    onward = [lsq for lsq in landings if continues(lsq, ncap, theirs, empty)]
                    if onward:
                        landings = onward
                for lsq in landings:
                    king(start, lsq, ncap, path + (lsq,), theirs, empty, out, promoted)
            if cap and (free or not more) and (start, sq, cap) not in out:
                out[(start, sq, cap)] = (path, promoted)

        return king

    def quiet_moves(self, mine: int, theirs: int, kings: int, side: int) -> list[tuple[int, int]]:
        """Every non-capturing move as (start, end), men first."""
        empty = self.playable ^ (mine | theirs)
        moves = []
        men = mine & ~kings
        # speed: men's steps from shifted bitboards, one bit walk per direction.
        for d in (self.dl, self.dr):
            targets = (men << d if side == 0 else men >> d) & empty
            while targets:
                land = targets & -targets
                targets ^= land
                end = land.bit_length() - 1
                moves.append((end - d if side == 0 else end + d, end))
        own_kings = mine & kings
        while own_kings:
            bit = own_kings & -own_kings
            own_kings ^= bit
            sq = bit.bit_length() - 1
            if self.flying_kings:
                for line in self.rays[sq]:
                    for tsq, tbit in line:
                        if not tbit & empty:
                            break
                        moves.append((sq, tsq))
            else:
                moves.extend((sq, tsq) for tsq, tbit in self.steps[sq] if tbit & empty)
        return moves

    # -- perft --------------------------------------------------------------

    def children(self, mine: int, theirs: int, kings: int, side: int) -> list[Child]:
        """The positions after each legal move, seen from the opponent (who moves
        next): (mine, theirs, kings) with `theirs` the pieces of the side that moved.
        In the order of `DraughtsVariant.legal_moves`, so the search, which
        walks these, orders its moves as a move list would."""
        return self.child_makers[side](mine, theirs, kings)

    def _children_general(self, mine: int, theirs: int, kings: int, side: int) -> list[Child]:
        """`children` for any position (the fast versions hand kings over to it)."""
        result: list[Child] = []
        promo = self.promotion[side]
        jumpers = self.jumpers(mine, theirs, kings, side)
        if jumpers:
            for (start, end, cap), (_, promoted) in self.captures(mine, theirs, kings, side, jumpers).items():
                sbit, ebit = 1 << start, 1 << end
                k = kings & ~cap
                if sbit & kings:
                    k = k ^ sbit | ebit
                elif promoted or ebit & promo:
                    k |= ebit
                result.append((theirs ^ cap, mine ^ sbit | ebit, k))
            if not self.free_capture:
                return result
        self._quiet_children(mine, theirs, kings, side, result)
        return result

    def _quiet_children(self, mine: int, theirs: int, kings: int, side: int, result: list[Child]) -> None:
        empty = self.playable ^ (mine | theirs)
        promo = self.promotion[side]
        men = mine & ~kings
        # speed: quiet man moves come from shifted bitboards, one bit walk per direction.
        for d in (self.dl, self.dr):
            targets = (men << d if side == 0 else men >> d) & empty
            while targets:
                ebit = targets & -targets
                targets ^= ebit
                sbit = ebit >> d if side == 0 else ebit << d
                result.append((theirs, mine ^ sbit ^ ebit, kings | ebit if ebit & promo else kings))
        own_kings = mine & kings
        if own_kings:
            for start, end in self.quiet_moves(own_kings, theirs | men, kings, side):
                sbit, ebit = 1 << start, 1 << end
                result.append((theirs, mine ^ sbit ^ ebit, kings ^ sbit ^ ebit))

    @staticmethod
    def _jump_children(
        result: list[Child], ne: int, nw: int, se: int, sw: int, dl: int, dr: int,
        mine: int, theirs: int, kings: int, promo: int,
    ) -> None:
        """Children of single jumps (no second jump possible) landing on `ne`..`sw`,
        in the order `legal_moves` lists them (by start square, then ne, nw, se,
        sw), so the search sees the same move order as a move list."""
        dl2, dr2 = 2 * dl, 2 * dr
        starts = ne >> dr2 | nw >> dl2 | se << dl2 | sw << dr2
        append = result.append
        while starts:
            start = starts & -starts
            starts ^= start
            if start << dr2 & ne:
                mid, land = start << dr, start << dr2
                k = kings & ~mid
                append((theirs ^ mid, mine ^ start ^ land, k | land if land & promo else k))
            if start << dl2 & nw:
                mid, land = start << dl, start << dl2
                k = kings & ~mid
                append((theirs ^ mid, mine ^ start ^ land, k | land if land & promo else k))
            if start >> dl2 & se:
                mid, land = start >> dl, start >> dl2
                k = kings & ~mid
                append((theirs ^ mid, mine ^ start ^ land, k | land if land & promo else k))
            if start >> dr2 & sw:
                mid, land = start >> dr, start >> dr2
                k = kings & ~mid
                append((theirs ^ mid, mine ^ start ^ land, k | land if land & promo else k))

    # Long on purpose: the move-generation hot path, inlined (no calls per move).
    def _make_children(self, side: int) -> Callable[[int, int, int], list[Child]]:
        """A child generator specialised for one side (speed: as `_make_counter`)."""
        playable, dl, dr = self.playable, self.dl, self.dr
        back = self.men_capture_backward
        free = self.free_capture
        dl2, dr2 = 2 * dl, 2 * dr
        promo = self.promotion[side]
        mid_promo = promo if self.promote_mid_capture else 0
        general = self._children_general
        jump_children = self._jump_children
        man_jumps = self.man_jumps[side]
        majority = self.majority
        walk = self._walk_men

        def chain_children(result: list[Child], mine: int, theirs: int, kings: int, jumpers: int) -> None:
            # speed: men's capture chains walked without paths, `Move`s or
            # crowning mid-capture (that variant takes the general path).
            found: dict[tuple[int, int, int], None] = {}
            empty0 = playable ^ (mine | theirs)
            while jumpers:
                bit = jumpers & -jumpers
                jumpers ^= bit
                sq = bit.bit_length() - 1
                walk(man_jumps, theirs, empty0 | bit, sq, sq, 0, found, free)
            keys = list(found)
            if majority and len(keys) > 1:
                best = max(cap.bit_count() for _, _, cap in keys)
                keys = [key for key in keys if key[2].bit_count() == best]
            append = result.append
            for start, end, cap in keys:
                ebit = 1 << end
                k = kings & ~cap
                append((theirs ^ cap, mine ^ (1 << start) | ebit, k | ebit if ebit & promo else k))

        def children_white(mine: int, theirs: int, kings: int) -> list[Child]:
            if mine & kings:
                return general(mine, theirs, kings, 0)
            empty = playable ^ (mine | theirs)
            ne = (((mine << dr) & theirs) << dr) & empty
            nw = (((mine << dl) & theirs) << dl) & empty
            se = sw = 0
            if back:
                se = (((mine >> dl) & theirs) >> dl) & empty
                sw = (((mine >> dr) & theirs) >> dr) & empty
            result: list[Child] = []
            if ne | nw | se | sw:
                if (ne | nw | se | sw) & mid_promo:
                    return general(mine, theirs, kings, 0)
                if (
                    ((((ne | nw | se) << dr) & theirs) << dr) & empty
                    or ((((ne | nw | sw) << dl) & theirs) << dl) & empty
                    or back and (
                        ((((ne | se | sw) >> dl) & theirs) >> dl) & empty
                        or ((((nw | se | sw) >> dr) & theirs) >> dr) & empty
                    )
                ):
                    if mid_promo:  # a chain may crown on its way: the general path
                        return general(mine, theirs, kings, 0)
                    chain_children(result, mine, theirs, kings, ne >> dr2 | nw >> dl2 | se << dl2 | sw << dr2)
                else:
                    # speed: single jumps only: children straight from the landing bitboards.
                    jump_children(result, ne, nw, se, sw, dl, dr, mine, theirs, kings, promo)
                if not free:
                    return result
            append = result.append
            for d in (dl, dr):
                targets = (mine << d) & empty
                if targets & promo:  # in square order, as `legal_moves` lists them
                    while targets:
                        land = targets & -targets
                        targets ^= land
                        append((theirs, mine ^ (land >> d) ^ land, kings | land if land & promo else kings))
                    continue
                while targets:  # speed: no crowning step: the common loop has no test
                    land = targets & -targets
                    targets ^= land
                    append((theirs, mine ^ (land >> d) ^ land, kings))
            return result

        def children_black(mine: int, theirs: int, kings: int) -> list[Child]:
            if mine & kings:
                return general(mine, theirs, kings, 1)
            empty = playable ^ (mine | theirs)
            se = (((mine >> dl) & theirs) >> dl) & empty
            sw = (((mine >> dr) & theirs) >> dr) & empty
            ne = nw = 0
            if back:
                ne = (((mine << dr) & theirs) << dr) & empty
                nw = (((mine << dl) & theirs) << dl) & empty
            result: list[Child] = []
            if ne | nw | se | sw:
                if (ne | nw | se | sw) & mid_promo:
                    return general(mine, theirs, kings, 1)
                if (
                    ((((ne | se | sw) >> dl) & theirs) >> dl) & empty
                    or ((((nw | se | sw) >> dr) & theirs) >> dr) & empty
                    or back and (
                        ((((ne | nw | se) << dr) & theirs) << dr) & empty
                        or ((((ne | nw | sw) << dl) & theirs) << dl) & empty
                    )
                ):
                    if mid_promo:  # a chain may crown on its way: the general path
                        return general(mine, theirs, kings, 1)
                    chain_children(result, mine, theirs, kings, ne >> dr2 | nw >> dl2 | se << dl2 | sw << dr2)
                else:
                    jump_children(result, ne, nw, se, sw, dl, dr, mine, theirs, kings, promo)
                if not free:
                    return result
            append = result.append
            for d in (dl, dr):
                targets = (mine >> d) & empty
                if targets & promo:
                    while targets:
                        land = targets & -targets
                        targets ^= land
                        append((theirs, mine ^ (land << d) ^ land, kings | land if land & promo else kings))
                    continue
                while targets:
                    land = targets & -targets
                    targets ^= land
                    append((theirs, mine ^ (land << d) ^ land, kings))
            return result

        return children_white if side == 0 else children_black

    def perft(self, mine: int, theirs: int, kings: int, side: int, depth: int) -> int:
        """Leaf count of the move tree, bulk-counted at depth 1."""
        if depth <= 1:
            return self.counters[side](mine, theirs, kings) if depth == 1 else 1
        other = side ^ 1
        if depth == 2:
            # speed: leaves counted, never played; starmap runs the loop in C.
            return sum(starmap(self.counters[other], self.child_makers[side](mine, theirs, kings)))
        perft = self.perft
        depth -= 1
        total = 0
        for m, t, k in self.child_makers[side](mine, theirs, kings):
            total += perft(m, t, k, other, depth)
        return total
