"""A count and its noun as people say them: "1 move", "2 moves"; in Polish
"1 sekunda", "2 sekundy", "5 sekund". One place for the rule, so no sentence
on the screen, the page, the voice or the terminal says "1 moves"."""

from __future__ import annotations


def english(count: int, one: str, many: str | None = None) -> str:
    """'1 move', '0 moves', '2 moves' (`many`: an irregular plural, 'men')."""
    return f"{count} {one if count == 1 else many or one + 's'}"


def polish(count: int, one: str, few: str, many: str) -> str:
    """Polish has three forms: 1 'sekunda'; 2-4, 22-24, ... 'sekundy' (not
    12-14); every other count 'sekund'."""
    if count == 1:
        return f"{count} {one}"
    if count % 10 in (2, 3, 4) and count % 100 not in (12, 13, 14):
        return f"{count} {few}"
    return f"{count} {many}"
