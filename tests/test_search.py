"""The computer's search: it finds the shots, never plays an illegal move,
keeps to its time, and stops when told."""

from __future__ import annotations

import gc
import random
import time
from pathlib import Path

import pytest

from damka.engine import Game, find_variant
from damka.engine.evaluate import DraughtsEvaluator, MaterialEvaluator
from damka.engine.levels import make_searcher
from damka.engine.multisearch import MultiSearcher
from damka.engine.notation import format_move, parse_move
from damka.engine.search import WIN_BOUND, Searcher, think

POSITIONS = Path(__file__).parent / "positions"


def variant_from_spec(spec: str):
    """`classic`, `multiwarcaby:sides=4`, `multiwarcaby:teams=True`."""
    name, _, options_text = spec.partition(":")
    options: dict[str, object] = {}
    for item in filter(None, options_text.split(",")):
        key, _, value = item.partition("=")
        options[key.strip()] = True if value.strip() == "True" else int(value)
    return find_variant(name.strip(), **options)


def load_positions(filename: str) -> list[tuple[str, str, list[str], str]]:
    cases = []
    for line in (POSITIONS / filename).read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        spec, text, best, note = (part.strip() for part in line.split("|"))
        cases.append((spec, text, best.split(), note))
    return cases


class FakeClock:
    """Seconds that pass only when the search looks: `step` per call."""

    def __init__(self, step: float) -> None:
        self.time = 0.0
        self.step = step
        self.calls = 0

    def __call__(self) -> float:
        self.calls += 1
        self.time += self.step
        return self.time


def random_positions(variant, count: int, seed: int, max_plies: int = 60, min_moves: int = 1):
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        game = Game(variant)
        for _ in range(rng.randrange(max_plies)):
            moves = game.legal_moves()
            if not moves:
                break
            game.push_unchecked(rng.choice(moves))
        if len(game.legal_moves()) >= min_moves:
            found.append(game.position)
    return found


# -- composed positions -----------------------------------------------------------


DRAUGHTS_CASES = load_positions("draughts.txt")


@pytest.mark.parametrize("spec,text,best,note", DRAUGHTS_CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(DRAUGHTS_CASES)])
def test_finds_the_shot(spec: str, text: str, best: list[str], note: str) -> None:
    variant = variant_from_spec(spec)
    position = variant.parse_position(text)
    expected = {parse_move(variant, position, move) for move in best}
    result = Searcher(variant).search(position, max_depth=8, max_nodes=60_000)
    assert result.move in expected, (
        f"{note}: played {format_move(variant, position, result.move)} (depth {result.depth}, score {result.score}), "
        f"expected one of {best}"
    )
    # ... and knows it wins material: the score is at least most of a man up.
    assert result.score >= 60


MULTI_CASES = load_positions("multiwarcaby.txt")


@pytest.mark.parametrize("spec,text,best,note", MULTI_CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(MULTI_CASES)])
def test_plans_both_moves_of_a_multiwarcaby_turn(spec: str, text: str, best: list[str], note: str) -> None:
    variant = variant_from_spec(spec)
    position = variant.parse_position(text)
    expected = {parse_move(variant, position, move) for move in best}
    assert not any(move.captures for move in expected)  # the point: a quiet first move
    result = MultiSearcher(variant).search(position, max_depth=4)
    assert result.move in expected, f"{note}: played {format_move(variant, position, result.move)}"


def test_multiwarcaby_takes_the_biggest_capture_when_it_is_free() -> None:
    variant = find_variant("multiwarcaby")
    position = variant.parse_position("MW9:S2:T1.1:P0,0:K0:Q0:O9/9/9/9/9/9/1oo1o1o2/9/9")
    # b3 jumps c3, then e3 and g3: three pieces, the most on offer.
    result = MultiSearcher(variant).search(position, max_depth=4)
    assert len(result.move.captures) == 3


def test_finds_a_forced_win_and_scores_it_as_one() -> None:
    variant = find_variant("classic")
    # White men d4 and f4, the last black man on e5: either capture wins.
    position = variant.parse_position("W:Wd4,f4:Be5")
    result = Searcher(variant).search(position, max_depth=6)
    assert result.move.captures
    assert result.score > WIN_BOUND


def test_avoids_a_move_that_hangs_a_man() -> None:
    variant = find_variant("classic")
    # d4-e5 walks into f6xd4; every other move keeps the material.
    position = variant.parse_position("W:Wa1,d4:Bf6,h8")
    result = Searcher(variant).search(position, max_depth=5)
    assert format_move(variant, position, result.move) != "d4-e5"


def test_forward_pruning_reaches_a_depth_in_fewer_positions() -> None:
    """A null-window node a shallow search clears by a margin is cut: the same
    depth for fewer positions, the more so the deeper (here 0.64 of them at
    depth 8, 0.88 at depth 6), so more depth in a move's time. The shots above
    are found with it on (`test_finds_the_shot`)."""
    variant = find_variant("classic")
    positions = random_positions(variant, 8, seed=11, min_moves=4)
    pruned = sum(Searcher(variant).search(position, max_depth=8).nodes for position in positions)
    full = sum(Searcher(variant, forward_pruning=False).search(position, max_depth=8).nodes for position in positions)
    assert pruned < 0.8 * full


# -- legality -------------------------------------------------------------------------

LEGALITY_VARIANTS = [
    ("classic", {}), ("classic", {"free_capture": True}), ("classic81", {}), ("russian", {}),
    ("american", {}), ("international", {}), ("canadian", {}),
    ("multiwarcaby", {}), ("multiwarcaby", {"sides": 3}), ("multiwarcaby", {"sides": 4}),
    ("multiwarcaby", {"teams": True}), ("multiwarcaby7", {}),
]


@pytest.mark.parametrize("name,options", LEGALITY_VARIANTS, ids=[f"{n}{o or ''}" for n, o in LEGALITY_VARIANTS])
def test_never_returns_an_illegal_move(name: str, options: dict) -> None:
    variant = find_variant(name, **options)
    searcher = make_searcher(variant)
    positions = random_positions(variant, 8, seed=hash(name) & 0xFFFF)
    for index, position in enumerate(positions):
        legal = variant.legal_moves(position)
        # Budgets from "stopped at the first check" to a short real search.
        clock = FakeClock(step=0.02 * (index + 1))
        result = searcher.search(position, time_limit=0.1, now=clock, check_every=4)
        assert result.move in legal
        # And the move is returned with a route the rules list.
        assert result.move.path == legal[legal.index(result.move)].path or result.move.path


@pytest.mark.parametrize("name", ["classic", "international", "multiwarcaby"])
def test_stopped_at_once_still_returns_a_legal_move(name: str) -> None:
    variant = find_variant(name)
    position = random_positions(variant, 1, seed=3)[0]
    result = make_searcher(variant).search(position, stop=lambda: True, check_every=1)
    assert result.move in variant.legal_moves(position)


# -- time -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["classic", "russian", "american", "international", "multiwarcaby"])
def test_keeps_to_the_time_limit_on_a_fake_clock(name: str) -> None:
    variant = find_variant(name)
    position = random_positions(variant, 1, seed=7, max_plies=10, min_moves=2)[0]
    # Every look at the clock costs 10 ms of simulated time: the deadline
    # falls in the middle of an iteration.
    clock = FakeClock(step=0.01)
    result = make_searcher(variant).search(position, time_limit=1.0, now=clock, max_depth=64)
    assert result.elapsed <= 1.0 * 1.10
    assert result.move in variant.legal_moves(position)
    assert result.depth >= 1


@pytest.mark.parametrize("name", ["classic", "russian", "international"])
def test_uses_the_whole_time_it_is_given(name: str) -> None:
    """Equal time means equal time: the search goes on to its deadline (an
    unfinished iteration still tries the last best move deeper) instead of
    stopping once an iteration would probably not finish."""
    variant = find_variant(name)
    for position in random_positions(variant, 4, seed=21, max_plies=20, min_moves=3):
        clock = FakeClock(step=0.002)
        result = Searcher(variant).search(position, time_limit=1.0, now=clock)
        if abs(result.score) > WIN_BOUND:
            continue  # a forced result seen to its end: deeper adds nothing
        assert result.stopped and result.elapsed >= 1.0
        assert result.move in variant.legal_moves(position)


def test_the_collectors_pass_over_the_search_is_in_its_time() -> None:
    """The cycle collector is off during a search; its first pass over what
    the search made (8-67 ms after 0.5 s) runs before the search returns, in
    its `elapsed`, not at whatever allocation comes next (the other
    engine's move in a match, the board's loop)."""
    variant = find_variant("international")
    position = random_positions(variant, 1, seed=3, max_plies=20, min_moves=3)[0]
    clock = FakeClock(step=0.001)
    passes: list[float] = []

    def stamp(phase: str, info: dict) -> None:
        if phase == "stop" and info["generation"] == 0:
            passes.append(clock())  # a look at the clock: the search's `elapsed` counts it only if it comes before

    was_on = gc.isenabled()
    gc.enable()
    gc.callbacks.append(stamp)
    try:
        started = clock.time + clock.step  # the search's own first look at the clock
        result = Searcher(variant).search(position, time_limit=0.5, now=clock)
    finally:
        gc.callbacks.remove(stamp)
        if not was_on:
            gc.disable()
    assert passes, "the collector made no pass over the search's objects before it returned"
    assert passes[0] <= started + result.elapsed


def test_a_forced_move_answered_at_once_leaves_the_next_search_its_time() -> None:
    """A move with one answer (found at once, then its pass) must not cut
    the next search's time (the pass was once reserved as a share of it)."""
    variant = find_variant("international")
    forced = variant.parse_position("W:W28:B23")
    assert len(variant.legal_moves(forced)) == 1
    position = random_positions(variant, 1, seed=3, max_plies=20, min_moves=3)[0]
    was_on = gc.isenabled()
    gc.enable()
    try:
        searcher = Searcher(variant)
        searcher.search(forced, time_limit=0.5, now=FakeClock(step=0.001))
        result = searcher.search(position, time_limit=0.5, now=FakeClock(step=0.001))
    finally:
        if not was_on:
            gc.disable()
    assert abs(result.score) < WIN_BOUND
    assert result.elapsed >= 0.49


@pytest.mark.parametrize("name", ["classic", "international", "multiwarcaby"])
def test_keeps_to_the_time_limit_on_the_real_clock(name: str) -> None:
    variant = find_variant(name)
    position = random_positions(variant, 1, seed=11, max_plies=12, min_moves=2)[0]
    limit = 0.5
    started = time.monotonic()
    result = make_searcher(variant).search(position, time_limit=limit, now=time.monotonic)
    spent = time.monotonic() - started
    # It stops at its deadline: well short of a second search's worth even on a
    # loaded machine (how precisely is the benchmark's business, not a test's).
    assert spent <= limit * 1.5 + 0.25
    assert result.depth >= 2


def test_search_deepens_and_uses_the_table() -> None:
    variant = find_variant("classic")
    searcher = Searcher(variant)
    position = variant.start_position()
    first = searcher.search(position, max_depth=6)
    assert first.depth == 6 and searcher.tt
    again = searcher.search(position, max_depth=6)
    assert again.nodes < first.nodes  # the table answers much of the second search
    assert again.move in variant.legal_moves(position)


def test_think_picks_the_family_search() -> None:
    for name in ("classic", "multiwarcaby"):
        variant = find_variant(name)
        result = think(variant, variant.start_position(), max_depth=2)
        assert result.move in variant.legal_moves(variant.start_position())


# -- evaluation -----------------------------------------------------------------------


def _mirror(variant, position):
    """Colours swapped and the board turned 180 degrees (a1 <-> h8)."""
    geometry = variant.geometry
    width, height = geometry.width, geometry.height

    def turn(bits: int) -> int:
        out = 0
        for square in geometry.squares:
            if bits >> square & 1:
                file, rank = geometry.file_rank(square)
                out |= 1 << geometry.index(width - 1 - file, height - 1 - rank)
        return out

    return type(position)(turn(position.black), turn(position.white), turn(position.kings), 1 - position.turn,
                          position.quiet)


@pytest.mark.parametrize("name", ["classic", "russian", "international"])
def test_evaluation_is_colour_symmetric(name: str) -> None:
    variant = find_variant(name)
    evaluate = DraughtsEvaluator(variant)
    for position in random_positions(variant, 20, seed=5):
        assert evaluate(position) == evaluate(_mirror(variant, position))


def test_evaluation_values_kings_by_variant() -> None:
    classic, american = find_variant("classic"), find_variant("american")
    assert MaterialEvaluator(classic)(classic.parse_position("W:WKa1:Bh8")) == 300 - 100
    assert MaterialEvaluator(american)(american.parse_position("W:WK29:B4")) == 165 - 100


def test_evaluation_prefers_advanced_men() -> None:
    variant = find_variant("classic")
    evaluate = DraughtsEvaluator(variant)
    back = variant.parse_position("W:Wc3:Bf8")
    forward = variant.parse_position("W:Wc5:Bf8")
    assert evaluate(forward) > evaluate(back)
