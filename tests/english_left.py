"""English words left on a screen or page in Polish (issue 38): the words of the English
catalogue's sentences that no Polish sentence uses, found in rendered text. A word both
languages keep (PDN, a variant's own name) is in the Polish catalogue too, or in `KEPT`.
It holds no tests itself (tests/test_words_english_left.py, test_web_words_english.py)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from damka.controller.words import catalogue
from damka.controller.words.catalogue import Counted, Text

# Words the English catalogue uses that a Polish screen may show as they are: names of things
# that are the same in both languages, and people's names a test gives its players.
KEPT = frozenset({"ala", "ola", "bartek", "celina", "dominika",
                  *(name.lower() for name in catalogue.LANGUAGE_NAMES.values())})  # "English", in its own words

_WORD = re.compile(r"[^\W\d_]{2,}")
_FIELD = re.compile(r"\{[^}]*\}")
# A command line's or a file's own words inside a sentence (`--players`, ms_left, `damka run`): not Polish.
_TECHNICAL = re.compile(r"`[^`]*`|--[\w-]+|\S*[_=/.]\w\S*|\[[^\]]*\]|^[a-z_]+:")


def _words(text: Text) -> set[str]:
    forms = text.forms if isinstance(text, Counted) else (text,)
    return {word.lower() for form in forms for word in _WORD.findall(_FIELD.sub(" ", form))}


def _plain(text: Text) -> Text:
    if isinstance(text, Counted):
        return Counted(tuple(_TECHNICAL.sub(" ", form) for form in text.forms))
    return _TECHNICAL.sub(" ", text)


@cache
def english_only() -> frozenset[str]:
    """Every word of the English catalogue no Polish text of it uses (minus `KEPT`)."""
    english: set[str] = set()
    polish: set[str] = set()
    for key in catalogue.keys():
        en, pl = catalogue.entry(key)
        english |= _words(en)
        polish |= _words(_plain(pl))
    return frozenset(english - polish - KEPT)


def english_left(texts: Iterable[str]) -> dict[str, str]:
    """Each English-only word found in `texts` -> the first text it was found in."""
    only = english_only()
    found: dict[str, str] = {}
    for text in texts:
        for word in _WORD.findall(text):
            if word.lower() in only:
                found.setdefault(word, text)
    return found
