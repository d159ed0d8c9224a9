"""The stored games for the page: the list, a replay (pieces after every move), PDN out and in.

Reading opens the database read-only on the server's thread (an SQLite
connection of its own, `mode=ro`, closed at once); an imported file is stored
by the import job (`importer.py`), in a process and a connection of its own.
Nothing here touches the file but through SQLite: this is the board's process,
and any other descriptor of the file closed in it would drop the board's locks
(controller/store/schema.py says why, issue 36 what it cost).
"""

from __future__ import annotations

import itertools
import logging
from typing import Any

from damka.controller.store.rows import StoredGame
from damka.controller.store.schema import StoreError
from damka.controller.store.store import Store
from damka.controller.store.pdn import export_pdn, iter_outcomes
from damka.controller.app.menus import variant_choices
from damka.controller.words import said, say, translate
from damka.engine.errors import EngineError
from damka.engine.reasons import reason_of

log = logging.getLogger("damka.web")
MAX_ID = 2 ** 63 - 1   # SQLite's largest row id: a bigger number is no game (not an OverflowError)


class ArchiveError(Exception):
    def __init__(self, message: str, status: int = 404) -> None:
        super().__init__(message)
        self.status = status


def _open(store: Store | None) -> Store:
    if store is None:
        raise ArchiveError(say("web.no_store"), 404)
    try:
        return Store(store.path, readonly=True, verify=False)   # (the board checked its file when it opened it)
    except (StoreError, OSError) as error:
        log.warning("the page cannot read the games: %s", error)   # the path is for the log, not for anyone
        raise ArchiveError(say("web.unreadable"), 503) from None


PAGE = 100        # games in one page of the list
MAX_PAGE = 500


def page_of(before: str | None, limit: str | None) -> tuple[int | None, int]:
    """The query of `GET /api/games?before=ID&limit=N`, checked (ArchiveError 400)."""
    def number(text: str, name: str, top: int) -> int:
        if not text.isdigit() or len(text) > 19 or not 0 < int(text) <= top:
            raise ArchiveError(f"{name}: a number from 1 to {top}", 400)
        return int(text)
    return (None if before is None else number(before, "before", MAX_ID),
            PAGE if limit is None else number(limit, "limit", MAX_PAGE))


def list_games(store: Store | None, before: int | None = None, limit: int = PAGE) -> dict[str, Any]:
    """A page of the list, newest first; `next`: the `before` of the following page (None: the last)."""
    reader = _open(store)
    try:
        games = reader.latest_games(limit + 1, before)
        total = reader.count_games()
    finally:
        reader.close()
    more = len(games) > limit
    games = games[:limit]
    titles = dict(variant_choices())   # the variant as the menus name it, in the language spoken here
    return {"games": [{"id": g.id, "created": g.created, "variant": g.variant, "players": list(g.players),
                       "title": titles.get(g.variant, g.variant),
                       "moves": g.moves, "result": g.result, "finished": g.finished, "mode": g.mode}
                      for g in games],
            "total": total, "next": games[-1].id if more else None}


def _load(store: Store | None, game_id: int) -> StoredGame:
    if not 0 < game_id <= MAX_ID:
        raise ArchiveError(say("web.no_stored_game", id=game_id))
    reader = _open(store)
    try:
        return reader.load_game(game_id)
    except (StoreError, KeyError, LookupError, ValueError) as error:
        log.warning("the page cannot show game %d: %s", game_id, error)   # the error names the database's path
        raise ArchiveError(say("web.cannot_show", id=game_id)) from None
    finally:
        reader.close()


def replay(store: Store | None, game_id: int) -> dict[str, Any]:
    """The game's moves and the pieces after each (index 0: the start), for the slider."""
    stored = _load(store, game_id)
    game = stored.game
    variant = game.variant
    geometry = variant.geometry
    squares = [[geometry.name(i), *geometry.file_rank(i)] for i in geometry.squares]
    boards = [{name: code for name, index in ((geometry.name(i), i) for i in geometry.squares)
               if (code := variant.piece_at(position, index))} for position in game.positions]
    files = [geometry.file_rank(i)[0] for i in geometry.squares]
    ranks = [geometry.file_rank(i)[1] for i in geometry.squares]
    return {"id": stored.id, "variant": stored.variant, "title": translate(variant.title), "players": list(stored.players),
            "created": stored.created, "result": export_result(stored),
            "moves": [m.text for m in stored.moves], "boards": boards, "squares": squares,
            "files": [min(files), max(files)], "ranks": [min(ranks), max(ranks)]}


def export_result(stored: StoredGame) -> str:
    """The result as the PDN writes it (the variant's own form: 2-0, 1-0, small points, *)."""
    from damka.controller.store.rows import result_text

    return result_text(stored.variant, stored.result)


def pdn(store: Store | None, game_id: int) -> str:
    return export_pdn(_load(store, game_id))


FIRST_RECORDS = 10   # an upload none of whose first records can be stored is refused in its answer
FIRST_CHARS = 32768  # ... read from at most its first 32 KiB: the check runs in the board's process


def check_first_record(text: str, name: str, variant: str | None = None) -> None:
    """CommandError 400 when none of the file's first records can be stored (not PDN, or
    PDN of a game Damka does not play): the usual bad upload is refused in its answer. A file
    with good records among them goes to the import job, which passes over the bad ones.

    Only the first FIRST_CHARS are read: the check shares the board's interpreter, and a 2 MB
    file of stray tokens (one record, an error each) took it 3.5-5 s of CPU read whole. When
    they end inside a record, that record is not judged; with no record judged bad enough to
    refuse the file, it goes to the import job (its own process), which says what it found."""
    from damka.web.driver import CommandError
    from damka.web.importer import pieces

    window = text[:FIRST_CHARS]
    cut = len(window) < len(text)
    try:
        outcomes = list(itertools.islice(iter_outcomes(pieces(window, 1024), variant=variant), FIRST_RECORDS + 1))
    except (EngineError, ValueError) as error:
        raise CommandError(say("import.not_imported", why=said(reason_of(error))), 400) from None
    # Cut inside a record, the window's last record may be whole in the file: it is not judged.
    judged = outcomes[:-1] if cut and len(outcomes) <= FIRST_RECORDS else outcomes[:FIRST_RECORDS]
    if any(outcome.record is not None for outcome in outcomes) or (cut and len(judged) < FIRST_RECORDS):
        return
    first = say("import.first_problem", name=name, number=judged[0].number, line=judged[0].line,
                reason=said(judged[0].reason)) if judged else say("import.no_record")
    raise CommandError(say("import.not_imported", why=first), 400)
