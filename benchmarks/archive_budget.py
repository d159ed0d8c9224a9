"""Storage anyone with the pairing code can fill (issue 36): what the page's uploads store now.

    python benchmarks/archive_budget.py [--games 50000] [--megabytes 512]

A real server on 127.0.0.1 serves the App on the virtual board (tests/web_rig.py) with an
archive budget of `--games` and `--megabytes` (the defaults: the board config's). Uploaded
through the page with the pairing code, one after the other:

1. the issue's 220 KB request: 20,000 tag-only records (before: 20,000 games, 12.3 MB, 102 s);
2. the issue's 2 MiB request, as games of one move each (tags alone are now refused): about
   210,000 records (before: 190,632 tag-only games, 82.5 MB, 376 s);
3. the same 2 MiB with one letter changed (before: all of them stored again).

Prints for each: the answer or the job's end, the games stored, the database's size (its
pages in use and the file) and the time taken.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from damka.controller.store.budget import ArchiveBudget, MEGABYTE  # noqa: E402
from upload_rig import SHORT, TAG_ONLY, get  # noqa: E402
from web_support import Served, request  # noqa: E402

UPLOAD_MAX = 2 * 1024 * 1024 - 64   # the page's request limit, less the JSON around the text


def sizes(db: Path) -> tuple[float, float]:
    """The pages in use and the file, in MB (read-only connection of its own)."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        pages, free, size = (conn.execute(f"PRAGMA {name}").fetchone()[0]
                             for name in ("page_count", "freelist_count", "page_size"))
    return (pages - free) * size / MEGABYTE, db.stat().st_size / MEGABYTE


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=ArchiveBudget().games)
    parser.add_argument("--megabytes", type=int, default=ArchiveBudget().megabytes)
    args = parser.parse_args()
    uploads = [("220 KB of tag-only records", "".join(TAG_ONLY.format(n) for n in range(20_000))),
               ("2 MiB of one-move games", SHORT * (UPLOAD_MAX // len(json.dumps(SHORT))))]
    uploads.append(("the same, one letter changed", uploads[1][1].replace("1.32-28", "1.33-28", 1)))
    with tempfile.TemporaryDirectory() as tmp:
        served = Served(Path(tmp), archive=ArchiveBudget(games=args.games, megabytes=args.megabytes))
        try:
            print(f"budget: {args.games} games, {args.megabytes} MB")
            for what, text in uploads:
                started = time.monotonic()
                status, answer = request(served, "POST", "/api/games/import", {"pdn": text, "name": "up.pdn"},
                                         code=served.code)
                if status == 200:   # the job started: its end
                    while (end := get(served, "/api/import")[1])["state"] == "reading":
                        time.sleep(0.2)
                    said = f"{end['state']}: {end['stored']} stored, {end['refused']} refused; {end['error']}"
                else:
                    said = f"{status}: {answer.get('error')}"
                took = time.monotonic() - started
                games = served.rig.do(lambda: served.store.count_games())
                used, file = sizes(served.store.path)
                print(f"{what} ({len(text) / 1e6:.2f} MB): {said}\n"
                      f"    {took:.1f} s; archive {games} games, {used:.1f} MB in use, file {file:.1f} MB")
        finally:
            served.close()


if __name__ == "__main__":
    main()
