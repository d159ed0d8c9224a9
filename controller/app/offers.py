"""Offers between the players: a draw offered, a take-back asked, and the answer.

Pure state, no I/O: the board's menu, the web page and (later) DXP share it
through the App (`controller/app/offer_desk.py`). At most one offer is pending at
a time; it is made by a side (or by the board as a whole, side None) from a
place ("board", "page", "remote page") at a ply, and it ends accepted,
declined, or lapsed (a move committed, a take-back, the game's end).

Who may answer: the other party. The parties are the board (everyone at the
table) and the far side (a page, a remote page): an offer made at the board
is answered from afar and the other way round, never by the party that made it.

    offers = Offers()
    offer = offers.make("draw", side=1, where="remote page", ply=12)
    offers.answer(True, where="board")       # the Offer, now answered
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from damka.controller.words import say, translate

KINDS = ("draw", "takeback")
PLACES = ("board", "page", "remote page")
ANSWERS = ("accepted", "declined", "lapsed")


class OfferError(ValueError):
    """An offer or an answer that cannot be made now; the message says why in one line."""


@dataclass(frozen=True)
class Offer:
    kind: str              # "draw" or "takeback"
    side: int | None       # the side offering (None: the board as a whole)
    where: str             # "board", "page", "remote page"
    ply: int               # the game's ply when it was made
    moves: int = 0         # a take-back: how many moves (plies) back

    @property
    def party(self) -> str:
        return party(self.where)


def party(where: str) -> str:
    """The board (at the table) or afar (any page)."""
    return "board" if where == "board" else "afar"


def offer_text(offer: Offer, side_name: str = "") -> str:
    """One line for the screens and the record: 'Draw offered from the page'."""
    what = say("offer.draw") if offer.kind == "draw" else say("offer.takeback", count=offer.moves)
    by = say("offer.by", side=side_name) if side_name else ""
    return say("offer.text", what=what, by=by, where=translate(offer.where))


def last_turn_moves(sides: Sequence[int], requester: set[int] | frozenset[int], ply: int) -> int:
    """How many moves back the start of the requester's last turn is: `sides`
    gives the side of each committed move in order (a multiwarcaby turn: two
    moves of one side). 0 when the requester has made no move; the last turn
    when `requester` is empty (no side known)."""
    count = 0
    for index in range(len(sides) - 1, -1, -1):
        count += 1
        side = sides[index]
        earlier = sides[index - 1] if index else None
        if (not requester or side in requester) and earlier != side:
            return min(count, ply)
    return 0


class Offers:
    """The one pending offer of a game, if any."""

    def __init__(self) -> None:
        self.pending: Offer | None = None
        self.last: tuple[Offer, str, str] | None = None   # the last offer ended: (offer, answer, by where)

    def make(self, kind: str, side: int | None, where: str, ply: int, moves: int = 0) -> Offer:
        if kind not in KINDS:
            raise OfferError(say("offer.not_a_kind", kind=repr(kind), kinds=", ".join(KINDS)))
        if where not in PLACES:
            raise OfferError(say("offer.not_a_place", where=repr(where), places=", ".join(PLACES)))
        if self.pending is not None:
            raise OfferError(say("offer.pending", offer=offer_text(self.pending).lower()))
        if kind == "takeback" and moves <= 0:
            raise OfferError(say("session.nothing_to_take_back"))
        self.pending = Offer(kind, side, where, ply, moves if kind == "takeback" else 0)
        return self.pending

    def answer(self, accept: bool, where: str) -> Offer:
        """The pending offer answered from `where`; OfferError if none, or if its own party answers."""
        offer = self.pending
        if offer is None:
            raise OfferError(say("offer.none_pending"))
        if party(where) == offer.party:
            raise OfferError(say("offer.own", where=translate(where)))
        self.pending = None
        self.last = (offer, "accepted" if accept else "declined", where)
        return offer

    def lapse(self) -> Offer | None:
        """The pending offer ends unanswered (a move, the game's end); None if there was none."""
        offer, self.pending = self.pending, None
        if offer is not None:
            self.last = (offer, "lapsed", "")
        return offer
