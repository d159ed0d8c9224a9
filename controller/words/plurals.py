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
    return f"{count} {(one, few, many)[polish_form(count)]}"


def polish_form(count: int) -> int:
    """Which of Polish's three forms a count takes: 0 one, 1 few, 2 many."""
    if count == 1:
        return 0
    if count % 10 in (2, 3, 4) and count % 100 not in (12, 13, 14):
        return 1
    return 2


def form_index(language: str, count: int) -> int:
    """The form a count takes in `language`: English (one, other), Polish (one, few, many)."""
    if language == "pl":
        return polish_form(count)
    return 0 if count == 1 else 1
