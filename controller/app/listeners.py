"""The App's listeners (`hooks.AppListener`): who they are, in which order
they are told, and their subscriptions to the event stream. One owner of
that list; the App tells them through it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterator

from damka.controller.app.hooks import AppListener
from damka.controller.events import EventBus

if TYPE_CHECKING:
    from damka.controller.players import Opponent
    from damka.controller.app.resume import RemoteMaker
    from damka.engine.variant import Variant


class Listeners:
    """The listeners, in the order they are told; those that hear events are on `bus`."""

    def __init__(self, bus: EventBus) -> None:
        self.bus = bus
        self._all: list[AppListener] = []
        self._unsubscribe: dict[int, Callable[[], None]] = {}
        self._telling = False

    def __iter__(self) -> Iterator[AppListener]:
        return iter(list(self._all))   # (a listener may leave while the others are told)

    def __len__(self) -> int:
        return len(self._all)

    def add(self, listener: AppListener, *, first: bool = False) -> Callable[[], None]:
        if first:
            self._all.insert(0, listener)
        else:
            self._all.append(listener)
        if type(listener).on_event is not AppListener.on_event:   # (only those that hear events)
            self._unsubscribe[id(listener)] = self.bus.subscribe(listener.on_event)
        return lambda: self.remove(listener)

    def remove(self, listener: AppListener) -> None:
        if listener in self._all:
            self._all.remove(listener)
        unsubscribe = self._unsubscribe.pop(id(listener), None)
        if unsubscribe is not None:
            unsubscribe()

    def after_input(self) -> None:
        """Tell each `after_input`; a listener that drives the App meanwhile
        (a command of the page that ticks it) does not set off another round."""
        if not self._all or self._telling:
            return
        self._telling = True
        try:
            for listener in self:
                listener.after_input()
        finally:
            self._telling = False

    def remote_maker(self) -> RemoteMaker | None:
        """Who plays a resumed game's seats from afar: the first listener that
        says (`AppListener.remote_player`; the page's driver); None: at the table."""
        makers = [listener for listener in self._all
                  if type(listener).remote_player is not AppListener.remote_player]
        if not makers:
            return None

        def make(variant: Variant, seats: frozenset[int]) -> Opponent:
            for listener in makers:
                player = listener.remote_player(variant, seats)
                if player is not None:
                    return player
            raise LookupError("no listener plays the far seats")   # (each maker answers for its own)
        return make
