"""Playing strengths, from a learner's first opponent to full strength.

A `Level` limits the search (depth, time) and spoils its choice on purpose:
`noise` adds a random amount (centi-men, Gaussian sigma) to every root move's
score before the best is taken, so a weak level picks among the moves that
look nearly as good; `blunder_rate` is the chance per move of a believable
mistake: a random move among those that look playable at a glance (within
`BLUNDER_WINDOW` of the best by the level's own shallow search), and, where
the rules leave the choice free (multiwarcaby, free-capture classic), often
one that simply misses an available capture, as beginners do.

The level and the time per move are game settings: `choose_move(...,
time_limit=...)` overrides the level's default time, and the level's depth
limit still applies.

The engine owns no clock and no randomness source of its own: `now` (for the
deadline) and `rng` (a `random.Random`) come from the caller.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from damka.engine.move import Move
from damka.engine.search import SearchResult, Searcher

BLUNDER_WINDOW = 250  # centi-men: mistakes are moves that do not look lost at once


@dataclass(frozen=True)
class Level:
    """One playing strength. `depth`: the deepest iteration (plies); `time`:
    default seconds per move; `noise`: sigma of the random score added per
    root move; `blunder_rate`: chance of a deliberate mistake per move."""

    name: str
    depth: int
    time: float
    noise: int
    blunder_rate: float
    description: str = ""

    @property
    def exact(self) -> bool:
        """Plays the search's best move, unspoilt."""
        return self.noise == 0 and self.blunder_rate == 0.0


LEVELS: tuple[Level, ...] = (
    Level("beginner", 1, 0.3, 120, 0.30, "sees one move ahead; often misses a capture it could choose"),
    Level("novice", 2, 0.5, 70, 0.15, "sees its own move and the reply; still makes mistakes"),
    Level("casual", 3, 0.5, 40, 0.07, "plays sensibly, sometimes loosely"),
    Level("club", 5, 1.0, 15, 0.02, "rarely errs; punishes loose pieces"),
    Level("strong", 8, 1.0, 0, 0.0, "no deliberate mistakes, limited depth"),
    Level("master", 64, 2.0, 0, 0.0, "full strength: as deep as the time allows"),
)
DEFAULT_LEVEL = "casual"


def find_level(name: str) -> Level:
    """The level called `name` (case-insensitive); ValueError lists the names."""
    wanted = name.strip().lower()
    for level in LEVELS:
        if level.name == wanted:
            return level
    raise ValueError(f"unknown level {name!r}; known: {', '.join(level.name for level in LEVELS)}")


def level_names() -> list[str]:
    return [level.name for level in LEVELS]


def _optional_captures(variant: Any) -> bool:
    return variant.search_kind == "multi" or bool(getattr(variant, "free_capture", False))


def make_searcher(variant: Any) -> Any:
    """The search object for a variant (reuse it for a whole game: it keeps its tables)."""
    if variant.search_kind == "multi":
        from damka.engine.multisearch import MultiSearcher

        return MultiSearcher(variant)
    return Searcher(variant)


def choose_move(
    variant: Any,
    position: Any,
    level: Level,
    *,
    time_limit: float | None = None,
    now: Callable[[], float] | None = None,
    stop: Callable[[], bool] | None = None,
    history: Iterable[Any] = (),
    rng: random.Random | None = None,
    searcher: Any = None,
    max_depth: int | None = None,
    max_nodes: int | None = None,
) -> SearchResult:
    """Pick a move for `level`: search, then (for learner levels) spoil the choice.

    Without `now` the search runs to the level's depth with no deadline.
    `max_depth` lowers the level's depth limit (never raises it); `max_nodes`
    caps the nodes searched (the Hub protocol's `level depth=` and `nodes=`).
    The returned move is always one of `variant.legal_moves(position)`.
    """
    rng = rng or random.Random()
    searcher = searcher or make_searcher(variant)
    seconds = level.time if time_limit is None else time_limit
    result = searcher.search(
        position,
        max_depth=level.depth if max_depth is None else max(1, min(level.depth, max_depth)),
        time_limit=seconds if now is not None else None,
        max_nodes=max_nodes,
        now=now,
        stop=stop,
        history=history,
        all_root_scores=not level.exact,
    )
    if level.exact:
        return result
    scores = dict(result.root_scores)
    if not scores:
        return result  # a single legal move, or stopped before any score
    legal = variant.legal_moves(position)
    scores = {move: score for move, score in scores.items() if move in legal}
    if not scores:
        return result

    if level.blunder_rate and rng.random() < level.blunder_rate:
        mistake = _mistake(variant, legal, scores, rng)
        if mistake is not None:
            result.move = mistake
            result.score = scores.get(mistake, result.score)
            result.pv = (mistake,)
            return result
    if level.noise:
        noisy = {move: score + rng.gauss(0.0, level.noise) for move, score in scores.items()}
        choice = max(noisy, key=noisy.__getitem__)
        if choice != result.move:
            result.move = choice
            result.score = scores[choice]
            result.pv = (choice,)
    return result


def _mistake(variant: Any, legal: list[Move], scores: dict[Move, int], rng: random.Random) -> Move | None:
    best = max(scores.values())
    if _optional_captures(variant) and any(m.captures for m in legal) and rng.random() < 0.6:
        quiet = [m for m in legal if not m.captures]
        if quiet:
            return rng.choice(quiet)  # overlooks the capture
    plausible = [m for m, s in scores.items() if best - BLUNDER_WINDOW <= s < best]
    if not plausible:
        plausible = [m for m, s in scores.items() if s < best]
    return rng.choice(plausible) if plausible else None
