"""PDN text built to cost: an upload is at most 2 MB, and reading it must stay small in
memory and in what it says. The import job reads it in a process of its own; the check made
while the page waits reads its first 32 KiB in the board's (test_pdn_words.py). Memory is
measured with tracemalloc, which counts every allocation, so these do not depend on the
machine's speed or load."""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable
from typing import Any

import pytest

from damka.engine.pdn import DETECT, read_games
from damka.engine.reasons import FIELD_CHARS

MB = 1 << 20


def peak_of(read: Callable[[], Any]) -> tuple[Any, float]:
    """What `read` gives, and the most memory it held at once (MB)."""
    tracemalloc.start()
    try:
        value = read()
        return value, tracemalloc.get_traced_memory()[1] / MB
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("text, reason", [
    ('[Event "' + "a" * (2 * MB), "malformed tag '[Event \"aaa"),    # a tag's value never closed: 378 MB before
    ("x" * (2 * MB), "unexpected 'xxx"),                                # one 2 MB word: the reason was 2 MB
], ids=["tag never closed", "one long word"])
def test_a_2_mb_token_is_one_short_reason_read_in_little_memory(text: str, reason: str) -> None:
    games, peak = peak_of(lambda: read_games(text, DETECT))
    [game] = games
    [error] = game.errors
    assert reason in error and len(error) <= FIELD_CHARS + 60, len(error)
    assert peak < 20, f"{peak:.0f} MB held to read a 2 MB token"


def test_a_record_of_results_and_no_move_is_not_held_whole_while_its_game_is_found() -> None:
    """With no tag naming its game, a record's parts wait for its first moves: held whole,
    32 Ki results and no move took 4.3 MB (a 2 MB file of them, 140 MB)."""
    games, peak = peak_of(lambda: read_games("* " * (32 << 10), DETECT))
    assert len(games) == 1 and not games[0].errors
    assert peak < 1, f"{peak:.1f} MB held"


def test_the_comments_of_one_move_are_joined_once() -> None:
    """100,000 comments after one move (joined one by one, 500,000 took 12 s): all kept, in order."""
    game = read_games('[GameType "20"]\n{intro} {more}\n1. 32-28 ' + "".join(f"{{c{n}}} " for n in range(100_000)))[0]
    assert game.intro == "intro more" and len(game.moves) == 1
    assert game.comments[0].split() == [f"c{n}" for n in range(100_000)]
