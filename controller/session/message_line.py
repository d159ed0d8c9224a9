"""The screen's message line: what the session says, owned in one place.

Beside the line itself it keeps two pieces of wording that outlive one
sentence: a notice (a flag fell, a player is out) shown before the turn
prompt until the next move, and the words of the hint on the board while
the hint stands. Every line said is published (`MessageShown`), even a
repeat: something new was said.
"""

from __future__ import annotations

from typing import Callable

from damka.controller import events as ev
from damka.controller.words import say
from damka.controller.words.catalogue import retell


class MessageLine:
    def __init__(self, bus: ev.EventBus, stamp: Callable[[], tuple[int, int]], text: str | None = None) -> None:
        """`stamp`: (the time now, the game's ply) for the events; `text`: the first line
        (None: ask for the pieces to be set up, in the board's language)."""
        self._bus = bus
        self._stamp = stamp
        self._text = say("session.setup") if text is None else text
        self._notice = ""
        self._hint_text = ""

    @property
    def text(self) -> str:
        return self._text

    @property
    def hint_text(self) -> str:
        """The hint's words ("hint: ..."), "" when no hint was shown since the last take-back or new game."""
        return self._hint_text

    def say(self, text: str) -> None:
        """Show `text` and publish it, even when it repeats."""
        self._text = text
        now, ply = self._stamp()
        self._bus.publish(ev.MessageShown(now, ply, text))

    def show(self, text: str) -> None:
        """Show `text` if it differs from the line on the screen."""
        if text != self._text:
            self.say(text)

    def retell(self, before: str) -> None:
        """The board's language changed from `before`: the line and the notice said again in
        the new one where the catalogue holds them word for word ("set up the pieces")."""
        self._text = retell(self._text, before)
        self._notice = retell(self._notice, before)

    def with_notice(self, prompt: str, over: bool) -> str:
        """The turn prompt after the notice, if any (none once the game is `over`)."""
        return f"{self._notice}; {prompt}" if self._notice and not over else prompt

    def set_notice(self, text: str) -> None:
        self._notice = text

    def clear_notice(self) -> None:
        """A move was made (or a new game began): the notice has been seen."""
        self._notice = ""

    def set_hint(self, text: str) -> None:
        self._hint_text = text

    def clear_hint(self) -> None:
        self._hint_text = ""
