"""A PDN upload read and stored beside the board, not in its way.

Reading 100,000 records takes the parser a minute, and storing them in one
transaction holds the database that long: in the request handler every page
waited, on the board's thread the board stood still. So an upload is a job
of its own, in a process of its own (a thread would share the board's
interpreter lock, and on a busy machine a thread preempted while holding it
stops the board for a few hundred ms): it opens its own database
connection, reads the records a piece of text at a time and stores them in
batches of `BATCH`, one short transaction each, so the board's own writes
wait at most one batch. (Not through the board's writer: its connection is
the board loop's alone, and SQLite keeps two processes apart as long as
neither touches the file but through SQLite: controller/store/schema.py.)
A thread of the board's process only waits for the job's progress and hands
it to the pages.

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

The job is the board's and ends with it: a board killed (a crash, a power cut
seen by the service manager, kill -9) must not leave a process writing its
database. On Linux the job asks for SIGTERM when its parent goes
(PR_SET_PDEATHSIG), and looks whether its parent is still the board that
started it (getppid) before each batch and after any failed report; either
way it stops between two transactions: what it stored stays, the batch it
was reading is not stored. (The signal comes when the board's thread that
started the job ends: `_watch`, which lives as long as the job.) The service
(deploy/damka.service, KillMode=control-group) ends it with the board too.
"""

from __future__ import annotations

import ctypes
import json
import logging
import os
import signal
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
    path, the file's name, the board's process id), then the PDN text; its output: a line of JSON
    per change of the progress."""
    try:
        os.nice(10)          # the board and its pages first
    except OSError:
        pass
    header = json.loads(sys.stdin.readline())
    board = BoardWatch(int(header.get("parent") or os.getppid()))
    text = sys.stdin.read()

    def put(changes: dict) -> None:
        try:
            sys.stdout.write(json.dumps(changes) + "\n")
            sys.stdout.flush()
        except OSError:      # nobody reads any more: the board is gone
            board.gone = True

    with speaking(header.get("language", "en")):
        budget = header.get("budget")
        run_job(Path(header["store"]), text, header["name"], put, header.get("variant"),
                ArchiveBudget(**budget) if budget else None, stopping=board.left)


class BoardWatch:
    """The board that started this job, watched: `left()` once it is gone (its SIGTERM, asked
    for with PR_SET_PDEATHSIG; a parent other than `pid`; or its end of the pipe closed)."""

    PR_SET_PDEATHSIG = 1

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.gone = False
        signal.signal(signal.SIGTERM, self._told)
        if sys.platform == "linux":
            try:
                libc = ctypes.CDLL(None, use_errno=True)
                libc.prctl(self.PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
            except (OSError, AttributeError):
                pass          # getppid below still sees it, a batch later
        self.left()           # (the board may have gone before the prctl)

    def _told(self, signum: int, frame: object) -> None:
        self.gone = True      # the batch under way commits; no other starts

    def left(self) -> bool:
        if os.getppid() != self.pid:
            self.gone = True
        return self.gone


def run_job(store_path: Path, text: str, name: str, put: Callable[[dict], None],
            variant: str | None = None, budget: ArchiveBudget | None = None,
            stopping: Callable[[], bool] = lambda: False) -> None:
    """The import job: `put` gets each change of the progress (a dict), at most every PUBLISH_S.
    A record with no tag naming its game is read as `variant` (None: as its FEN and moves say).
    It stops at `budget` (None: none). Its words are in the language spoken here.
    `stopping()` true: the board is gone, the job stops before its next transaction."""
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
            if stopping():
                break
            batch.append(item)
            if len(batch) >= BATCH:
                flush(batch)
                batch = []
        if stopping():   # between two transactions: what was stored stays, the batch read is dropped
            log.warning("import of %s: the board is gone; stopped after %d games stored", name, stored)
            return
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
        # (This thread lives until the job ends: the job's PR_SET_PDEATHSIG watches it.)
        process = subprocess.Popen([sys.executable, "-m", "damka.web.importer"], stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, text=True, encoding="utf-8")
        ended = False
        try:
            assert process.stdin is not None and process.stdout is not None
            process.stdin.write(json.dumps({"store": str(self.store_path), "name": name, "variant": variant,
                                            "language": spoken, "parent": os.getpid(),
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
