"""A session attribute that belongs to one of its parts.

`session.opponent` is `session.assistants.opponent`, `session.message` is
`session.line.text`: App, the page, the hall and the tests keep reading (and,
where `settable`, writing) the session's one public face, while each field
has one owner. One line per attribute instead of a property pair each.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class Forward(Generic[T]):
    def __init__(self, path: str, *, settable: bool = False) -> None:
        """`path`: the part and its attribute, dotted ("assistants.opponent")."""
        *self._parts, self._name = path.split(".")
        self._read = attrgetter(path)   # read on every input: kept as cheap as a property
        self._settable = settable

    def _owner(self, session: Any) -> Any:
        for part in self._parts:
            session = getattr(session, part)
        return session

    def __set_name__(self, owner: type, name: str) -> None:
        self._public = name

    def __get__(self, session: Any, owner: type | None = None) -> T:
        if session is None:
            return self  # type: ignore[return-value]  # the class attribute itself (introspection, docs)
        return self._read(session)

    def __set__(self, session: Any, value: T) -> None:
        if not self._settable:
            raise AttributeError(f"{self._public} is read-only")
        setattr(self._owner(session), self._name, value)
