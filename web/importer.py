"""A PDN upload read and stored beside the board, not in its way.

Reading 100,000 records takes the parser a minute, and storing them in one
transaction holds the database that long: in the request handler every page
waited, on the board's thread the board stood still. So an upload is a job
of its own, in a process of its own (a thread would share the board's
interpreter lock, and on a busy machine a thread preempted while holding it
stops the board for a few hundred ms): it opens its own database
connection, reads the records a piece of text at a time and stores them in
batches of `BATCH`, one short transaction each, so the board's own writes
wait at most one batch. A thread of the board's process only waits for the
job's progress and hands it to the pages.

Only one job runs at a time. Each record gets a key (`record_key`: its
content, and its place among equal records of the file), and a key stored
before is skipped: the same file sent twice (a retry after a time-out)
stores its games once. A bad record is passed over and counted (the first
`PROBLEMS_KEPT` reasons, with the record's number and line, go to the page);
the good ones are stored, and the file sent again once fixed adds only what
was missing. The job stops at the archive's budget ([archive] in the board
config, controller/store/budget.py): the games stored before stay, the rest of
the file is not read, and the page reads why and what to raise.

Progress goes to every page as an `ImportProgress` event of the feed (read,
stored, already there, done or the reason it stopped). Its reasons are said in
the language spoken when the file came, the board's (the job, a process of its
own, is told it).
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from damka.controller.store.budget import ArchiveBudget, ArchiveFull
from damka.controller.store.schema import StoreError
from damka.controller.store.store import Store
from damka.controller.store.pdn import iter_outcomes, record_key
from damka.controller.words import language, said, say, speaking, text_in
from damka.controller.words.wording import archive_full_text
from damka.engine.errors import EngineError
from damka.engine.reasons import reason_of

BATCH = 100             # records a transaction: the board's own writes wait for one batch at most
PAUSE_S = 0.002         # between batches: the board's own writes get the database
PIECE = 4096            # the text goes to the parser in pieces: it holds only the records of one piece
PUBLISH_S = 0.5         # progress to the pages at most this often (and at the start and the end)
PROBLEMS_KEPT = 20      # refused records whose reasons reach the page (the rest are counted)
log = logging.getLogger("damka.web")


class ImportBusy(Exception):
    """Another upload is being stored."""


@dataclass(frozen=True)
class Progress:
    job: int = 0
    name: str = ""
    state: str = "idle"     # idle, reading, done, stopped
    read: int = 0           # records read so far
    stored: int = 0         # of them new, stored now
    known: int = 0          # of them stored before (the same record imported already)
    error: str = ""
    ids: tuple[int, ...] = ()   # the first new ids (the page opens the list at them)
    refused: int = 0            # bad records passed over
    problems: tuple[str, ...] = ()   # the first of them: "game N (line L): reason"

    def data(self) -> dict[str, Any]:
        return {**asdict(self), "ids": list(self.ids), "problems": list(self.problems)}


def pieces(text: str, size: int = PIECE) -> Iterator[str]:
    """`text` in pieces: the PDN reader reads a whole piece before it gives its first record, so
    the file given whole would be read (and held) whole before anything is stored."""
    for start in range(0, len(text), size):
        yield text[start:start + size]


def keyed(records: Iterable[tuple[Any, dict]]) -> Iterator[tuple[str, Any, dict]]:
    """Each record with its key: its content's digest and how many equal records came before it."""
    seen: Counter = Counter()
    for game, details in records:
        digest = record_key(game, details)
        seen[digest] += 1
        yield f"{digest}:{seen[digest]}", game, details


def main() -> None:
    """`python -m damka.web.importer`: the job's process. Its input: one line of JSON (the store's
    path, the file's name), then the PDN text; its output: a line of JSON per change of the progress."""
    try:
        os.nice(10)          # the board and its pages first
    except OSError:
        pass
    header = json.loads(sys.stdin.readline())
    text = sys.stdin.read()

    def put(changes: dict) -> None:
        sys.stdout.write(json.dumps(changes) + "\n")
        sys.stdout.flush()

    with speaking(header.get("language", "en")):
        budget = header.get("budget")
        run_job(Path(header["store"]), text, header["name"], put, header.get("variant"),
                ArchiveBudget(**budget) if budget else None)


def run_job(store_path: Path, text: str, name: str, put: Callable[[dict], None],
            variant: str | None = None, budget: ArchiveBudget | None = None) -> None:
    """The import job: `put` gets each change of the progress (a dict), at most every PUBLISH_S.
    A record with no tag naming its game is read as `variant` (None: as its FEN and moves say).
    It stops at `budget` (None: none). Its words are in the language spoken here."""
    last = 0.0

    def report(**changes: Any) -> None:
        nonlocal last
        now = time.monotonic()
        if changes.get("state") or now - last >= PUBLISH_S:
            last = now
            put(changes)

    try:
        store = Store(store_path)
    except (StoreError, OSError) as error:
        log.warning("import of %s: the store cannot be opened: %s", name, error)
        put({"state": "stopped", "error": say("web.cannot_store")})
        return
    read = stored = known = refused = 0
    first: list[int] = []
    problems: list[str] = []

    def good_records() -> Iterator[tuple[Any, dict]]:
        """The records that can be stored; each bad one counted, the first reasons kept."""
        nonlocal refused
        for outcome in iter_outcomes(pieces(text), variant=variant):
            if outcome.record is not None:
                yield outcome.record
                continue
            refused += 1
            if len(problems) < PROBLEMS_KEPT:
                problems.append(say("import.problem", number=outcome.number, line=outcome.line,
                                    reason=said(outcome.reason)))

    def flush(batch: list) -> None:
        nonlocal read, stored, known
        if batch:
            try:
                ids, already = store.add_new_records(batch, budget=budget)
            except ArchiveFull as full:   # what it stored is kept: counted, then the job stops
                first.extend(full.ids[:max(0, 20 - len(first))])
                read, stored, known = read + len(full.ids) + full.known, stored + len(full.ids), known + full.known
                raise
            first.extend(ids[:max(0, 20 - len(first))])
            read, stored, known = read + len(batch), stored + len(ids), known + already
            report(read=read, stored=stored, known=known, ids=list(first), refused=refused, problems=list(problems))
            time.sleep(PAUSE_S)

    try:
        batch: list[tuple[str, Any, dict]] = []
        for item in keyed(good_records()):
            batch.append(item)
            if len(batch) >= BATCH:
                flush(batch)
                batch = []
        flush(batch)
        report(state="done", read=read, stored=stored, known=known, ids=list(first), refused=refused,
               problems=list(problems))
    except ArchiveFull as full:
        report(state="stopped", read=read, stored=stored, known=known, ids=list(first), refused=refused,
               problems=list(problems), error=archive_full_text(full, name, stored))
    except (EngineError, ValueError) as error:
        why = said(reason_of(error))
        report(state="stopped", read=read, stored=stored, known=known, ids=list(first),
               error=say("import.not_imported", why=why) if not read else
               say("import.stopped", read=read, stored=stored, why=why))
    except StoreError as error:
        log.warning("import of %s: %s", name, error)
        report(state="stopped", read=read, stored=stored, known=known, ids=list(first),
               error=say("import.stopped", read=read, stored=stored, why=say("web.cannot_store")))
    finally:
        store.close()


class Importer:
    """The one import job at a time of a board's store; `publish(progress)` from the watching thread.
    Each job stops at `budget` (None: none)."""

    def __init__(self, store_path: Path | None, publish: Callable[[Progress], None],
                 budget: ArchiveBudget | None = None) -> None:
        self.store_path = store_path
        self.publish = publish
        self.budget = budget
        self.progress = Progress()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def start(self, text: str, name: str, variant: str | None = None) -> Progress:
        """Start storing `text`'s records (`variant`: of those with no tag naming their game);
        ImportBusy while another upload is stored."""
        if self.store_path is None:
            raise ImportBusy(say("web.no_store"))
        with self._lock:
            if self.progress.state == "reading":
                raise ImportBusy(say("web.importing", name=self.progress.name))
            self.progress = Progress(job=self.progress.job + 1, name=name, state="reading")
            self._thread = threading.Thread(target=self._watch, args=(text, name, variant, language()),
                                            name="damka-import", daemon=True)
            progress = self.progress
        self.publish(progress)
        self._thread.start()
        return progress

    def wait(self, timeout: float | None = None) -> Progress:
        """The job's end (for the tests and `close`)."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)
        return self.progress

    def _watch(self, text: str, name: str, variant: str | None = None, spoken: str = "en") -> None:
        """The board's side of a job: start its process, hand it the text, pass its progress
        on, and notice when it ends without saying so. `spoken`: the language spoken when the
        file came (the board's)."""
        process = subprocess.Popen([sys.executable, "-m", "damka.web.importer"], stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, text=True, encoding="utf-8")
        ended = False
        try:
            assert process.stdin is not None and process.stdout is not None
            process.stdin.write(json.dumps({"store": str(self.store_path), "name": name, "variant": variant,
                                            "language": spoken,
                                            "budget": asdict(self.budget) if self.budget else None}) + "\n")
            process.stdin.write(text)
            process.stdin.close()
            for line in process.stdout:
                changes = json.loads(line)
                self._set(**changes)
                ended = changes.get("state") in ("done", "stopped")
        except (OSError, ValueError) as error:
            log.warning("import of %s: %s", name, error)
        finally:
            code = process.wait()
            if not ended:
                self._set(state="stopped", error=text_in(spoken, "import.died", code=code))

    def _set(self, **changes: Any) -> None:
        with self._lock:
            if "ids" in changes:
                changes["ids"] = tuple(changes["ids"])
            self.progress = replace(self.progress, **changes)
            progress = self.progress
        self.publish(progress)


if __name__ == "__main__":
    main()
