"""Looks up what the board says, in the board's language.

Every sentence a player reads or hears has a key here (the texts live in the
sibling modules: `screen`, `menus`, `voice`, `game`, `page`), in English and
in Polish, with named placeholders ("{side} to move"). A count that changes
the noun ("1 hint", "2 hints"; "1 sekunda", "2 sekundy", "5 sekund") is a
`Counted` entry, chosen by its `count` field through `controller/words/plurals.py`.

The board speaks one language at a time; this module owns which one
(`set_language`, followed from the board settings by `follow`). Code that
must speak another (the voice set to Polish on an English screen) passes it
to `text_in`.
"""

from __future__ import annotations

import string
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Protocol, Union

from damka.controller.words import plurals
from damka.engine.reasons import OWN_WORDS, Reason
LANGUAGES: tuple[str, ...] = ("en", "pl")
LANGUAGE_NAMES: Mapping[str, str] = {"en": "English", "pl": "Polski"}  # each in its own words


@dataclass(frozen=True)
class Counted:
    """A text whose noun follows a count: English (one, other), Polish (one, few, many)."""

    forms: tuple[str, ...]

    def pick(self, language: str, count: int) -> str:
        return self.forms[plurals.form_index(language, count)]


Text = Union[str, Counted]
Entry = tuple[Text, Text]  # (English, Polish)

_entries: dict[str, Entry] = {}
_language = "en"
# A language for one thread or task only (a page asking in its own language while the board speaks another).
_asked: ContextVar[str | None] = ContextVar("damka_words_language", default=None)


def add(entries: Mapping[str, Entry]) -> None:
    """Register a module's texts; a key registered twice is a mistake (ValueError)."""
    for key, entry in entries.items():
        if key in _entries and _entries[key] != entry:
            raise ValueError(f"catalogue key {key!r} given twice")
        _entries[key] = entry


def keys() -> tuple[str, ...]:
    _load()
    return tuple(_entries)


def entry(key: str) -> Entry:
    _load()
    return _entries[key]


def language() -> str:
    """The language spoken here now ("en" or "pl"): the board's, unless `speaking` chose another."""
    return _asked.get() or _language


def set_language(code: str) -> None:
    """Speak `code` from now on; ValueError naming the choices for anything else."""
    global _language
    _language = check_language(code)


def check_language(code: str) -> str:
    if code not in LANGUAGES:
        raise ValueError(f"language {code!r}: expected one of {', '.join(LANGUAGES)}")
    return code


class Spoken(Protocol):
    """What `follow` needs of the board settings (controller/app/board_settings.py BoardSettings)."""

    @property
    def language(self) -> str: ...


def follow(settings: Spoken) -> None:
    """The board's language follows its settings' `language` (the settings menu, the page, the config)."""
    set_language(settings.language)


@contextmanager
def speaking(code: str) -> Iterator[None]:
    """Speak `code` inside the block, in this thread or task only (a page that asked for
    its own language): the board, speaking in another thread, keeps its own."""
    token = _asked.set(check_language(code))
    try:
        yield
    finally:
        _asked.reset(token)


def say(key: str, /, **fields: object) -> str:
    """The text under `key` in the language spoken here, its placeholders filled from `fields`."""
    return text_in(language(), key, **fields)


def text_in(code: str, key: str, /, **fields: object) -> str:
    """The text under `key` in `code` (KeyError for an unknown key: a typo must not go unseen)."""
    _load()
    english, polish = _entries[key]
    chosen = polish if check_language(code) == "pl" else english
    if isinstance(chosen, Counted):
        count = fields.get("count")
        if not isinstance(count, int):
            raise TypeError(f"{key}: a counted text needs a whole number `count`, got {count!r}")
        chosen = chosen.pick(code, count)
    return chosen.format(**fields) if fields else chosen


def said(text: str) -> str:
    """A sentence of the rules engine (engine/reasons.py: why a record, a FEN or a move was
    refused) in the language spoken here, the reasons inside it with it, and its fields of the
    engine's own words (a game's end) as the catalogue says them (`translate`); a field quoted
    from a file stays as the file wrote it. Other text as it came."""
    if not isinstance(text, Reason):
        return text
    fields = {name: said(value) if isinstance(value, Reason) else
              translate(value) if name in OWN_WORDS and isinstance(value, str) else value
              for name, value in text.fields.items()}
    return say(f"engine.{text.key}", **fields)


def placeholders(text: Text) -> set[str]:
    """The named fields a text fills ({side}, {count}); every form of a counted one."""
    forms = text.forms if isinstance(text, Counted) else (text,)
    return {name for form in forms for _, name, _, _ in string.Formatter().parse(form) if name}


def translate(english: str, code: str | None = None) -> str:
    """A sentence that reaches the board already in English (a game's end reason from
    the rules engine, a menu label kept by another part) in the board's language, when
    the catalogue knows it word for word; else as it came."""
    _load()
    code = code or language()
    if code == "en":
        return english
    for english_text, polish in _entries.values():
        if english_text == english and isinstance(polish, str) and not placeholders(polish):
            return polish
    return english


def retell(text: str, before: str, code: str | None = None) -> str:
    """`text`, said in `before`, said again in `code` (the board's language): for what was
    shown when the language changed (an open menu). A text the catalogue does not hold word
    for word (a name, a filled-in sentence) stays as it is."""
    key = _index(before).get(text)
    return text_in(code or language(), key) if key is not None else text


def page_words(code: str) -> dict[str, str | list[str]]:
    """The phone page's own words in `code` (keys "page.*", placeholders left for the page to fill);
    a counted text as its forms, in `plurals.form_index` order (words.js picks one by its count)."""
    _load()
    return {key[len("page."):]: _page_text(code, key) for key in _entries if key.startswith("page.")}


def _page_text(code: str, key: str) -> str | list[str]:
    english, polish = _entries[key]
    chosen = polish if code == "pl" else english
    return list(chosen.forms) if isinstance(chosen, Counted) else chosen


def _index(code: str) -> dict[str, str]:
    """Each plain text of `code` (no placeholders, not counted) -> its key; the first key wins."""
    _load()
    index: dict[str, str] = {}
    for key, (english, polish) in _entries.items():
        text = polish if code == "pl" else english
        if isinstance(text, str) and not placeholders(text):
            index.setdefault(text, key)
    return index


_loaded = False


def _load() -> None:
    """Import the text modules once (they call `add`); lazy, so importing this is cheap.
    Marked loaded only once they are: a second thread (a DXP link's reader, the web
    server) asking at the same moment imports them too, and Python's import system
    makes it wait for the first (no lock of ours beside the import system's to deadlock with)."""
    global _loaded
    if not _loaded:
        from damka.controller.words import game, lessons, menus, page, puzzles, screen, voice, web  # noqa: F401
        from damka.controller.words import learn_page  # noqa: F401  (the page's Learn tab)
        from damka.controller.words import engine_reasons, pdn_import  # noqa: F401  (a PDN file's refusals)
        _loaded = True
