"""A cheap look before the proof: could a combination be there at all?

Proving a position costs a full-width search several plies deep; most
positions of a game hold no combination, and the proof says so only at the
end. This look keeps a position when, once the captures a move starts are
over (both sides capture as they must):

- some move wins a piece at once;
- some quiet move threatens to win a piece (the same side could win it if it
  moved again);
- some move hands the other side a capture that, once every capture is
  over, costs nothing (a sacrifice that comes back).

It is a filter, not a proof: a position it keeps is still proved in full.
It may drop a real puzzle (a quiet move whose point shows only later), so
its cost in puzzles is measured: on classic samples proved without it, it
dropped none of 37 puzzles while passing over about a fifth of the positions
(benchmarks/puzzles_make.py measures the rest).
"""

from __future__ import annotations

from typing import Any

from damka.engine.puzzle_proof import WON, MaterialProver


def may_combine(prover: MaterialProver, position: Any) -> bool:
    """Whether `position` passes the look above (two-sided draughts positions only)."""
    variant = prover.variant
    base = prover.balance(position)
    for move in variant.legal_moves(position):
        child = variant.play(position, move)
        after = -prover.value(child, 0, -10 * WON, 10 * WON) - base   # captures played out
        if after >= 1:
            return True
        replies = variant.legal_moves(child)
        if replies and replies[0].is_capture:
            if after >= 0:
                return True
            continue
        passed = child._replace(turn=1 - child.turn)                  # the same side to move again
        if prover.value(passed, 0, -10 * WON, 10 * WON) - prover.balance(passed) >= 1:
            return True
    return False
