"""What the board says aloud, in English and Polish: short sentences a
speech synthesiser reads well (squares letter by letter, "to" for a step,
"takes" for a capture), for a player who cannot look at the screen. The
words are the catalogue's (`controller/words/voice.py`); this builds sentences."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator, Mapping

from damka.controller.words import LANGUAGES, text_in
from damka.controller.words.catalogue import translate

__all__ = ["LANGUAGES", "Phrases", "phrases_for"]


class _Words(Mapping[str, str]):
    """The voice's words of one language, read from the catalogue ("voice.<name>")."""

    def __init__(self, language: str) -> None:
        self.language = language

    def __getitem__(self, name: str) -> str:
        try:
            return text_in(self.language, f"voice.{name}")
        except KeyError:
            raise KeyError(name) from None

    def __iter__(self) -> Iterator[str]:
        from damka.controller.words.catalogue import keys
        return (key[len("voice."):] for key in keys() if key.startswith("voice."))

    def __len__(self) -> int:
        return sum(1 for _ in self)


@dataclass(frozen=True)
class Phrases:
    """The sentences of one language. Reasons come from the game in English; the
    Polish voice says those the catalogue translates and leaves the rest out rather
    than mix languages."""

    language: str
    words: Mapping[str, str]

    def path(self, text: str) -> str:
        """PDN text to words: "c3-d4" -> "c3 to d4", "c3xe5xg7" -> "c3 takes e5 takes g7"."""
        out = []
        for part in re.split(r"([-x:])", text.strip()):
            if part in ("x", ":"):
                out.append(self.words["takes"])
            elif part == "-":
                out.append(self.words["to"])
            elif part:
                out.append(part)
        return " ".join(out)

    def _reason(self, reason: str) -> str:
        """The reason (the game's, in English) in this language where the catalogue has it
        word for word ("on time": "na czas"); else left out rather than said in English."""
        if not reason:
            return ""
        said = translate(reason, self.language)
        return f". {said}" if self.language == "en" or said != reason else ""

    def move(self, side: str, text: str) -> str:
        return f"{side}: {self.path(text)}"

    def refused(self, reason: str) -> str:
        return self.words["refused"] + self._reason(reason)

    def illegal(self, missing: tuple[str, ...], extra: tuple[str, ...]) -> str:
        parts = [self.words["illegal"]]
        if missing:
            parts.append(f"{self.words['put_back']} {' '.join(missing)}")
        if extra:
            parts.append(f"{self.words['take_off']} {' '.join(extra)}")
        return ". ".join(parts)

    def computer(self, moves: tuple[str, ...]) -> str:
        return f"{self.words['computer']}: " + ", ".join(self.path(m) for m in moves)

    def flag(self, player: str) -> str:
        return f"{self.words['flag']}: {player}"

    def out(self, player: str, reason: str) -> str:
        return f"{player} {self.words['out']}" + self._reason(reason)

    def result(self, winner: str | None, reason: str) -> str:
        return (f"{winner} {self.words['wins']}" if winner else self.words["draw"]) + self._reason(reason)

    def takeback(self, turns: tuple[tuple[str, str], ...],
                 steps: tuple[tuple[str, str | None, bool, bool], ...]) -> str:
        """A take-back begins: the turns taken back, (player, PDN moves), and
        each square to fix, (square, colour of the piece or None, king, put)."""
        words = self.words
        parts = [f"{words['taking_back']}: " + ", ".join(f"{player} {self.path(moves)}" for player, moves in turns)]
        for square, colour, king, put in steps:
            if not put:
                parts.append(f"{words['take']} {square}")
                continue
            kind = "king" if king else "piece"
            piece = words.get(f"{colour} {kind}", words[kind]) if colour else words[kind]
            parts.append(f"{words['put']} {piece} {words['on']} {square}")
        return ". ".join(parts)

    def byoyomi(self, player: str, periods: int) -> str:
        return f"{player}: {self.words['byoyomi']}, {text_in(self.language, 'voice.periods', count=periods)}"

    def last_seconds(self, player: str, seconds: int) -> str:
        return f"{player}: {text_in(self.language, 'voice.seconds', count=seconds)}"


def phrases_for(language: str) -> Phrases:
    """The phrases of `language` ("en" or "pl"); ValueError naming the choices otherwise."""
    if language not in LANGUAGES:
        raise ValueError(f"voice language {language!r}: expected one of {', '.join(LANGUAGES)}")
    return Phrases(language, _Words(language))
