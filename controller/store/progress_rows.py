"""How a learner's finished lessons and puzzles are written in the store and read back
(the tables are made by schema.py's version 3; teaching/progress.py adds them up)."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass


@dataclass(frozen=True)
class ExerciseRow:
    """One lesson or puzzle a learner finished, as stored."""

    learner: str
    kind: str          # "lesson" or "puzzle"
    variant: str
    name: str          # the lesson's name or the puzzle's id
    solved: bool
    stars: int
    hints: int
    tries: int
    rating: int        # the learner's rating after it
    time: str = ""


def add_learner(conn: sqlite3.Connection, name: str, stamp: str) -> None:
    conn.execute("INSERT OR IGNORE INTO learners (name, created) VALUES (?, ?)", (name, stamp))


def insert_exercise(conn: sqlite3.Connection, row: ExerciseRow, stamp: str) -> None:
    add_learner(conn, row.learner, stamp)
    conn.execute("INSERT INTO exercises (learner, kind, variant, name, solved, stars, hints, tries, rating, time)"
                 " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                 (row.learner, row.kind, row.variant, row.name, int(row.solved), row.stars, row.hints, row.tries,
                  row.rating, stamp))


LEARNERS = "SELECT name FROM learners ORDER BY created, name"
EXERCISES = ("SELECT learner, kind, variant, name, solved, stars, hints, tries, rating, time FROM exercises"
             " WHERE learner = ? ORDER BY id")


def exercise_from_row(row: tuple) -> ExerciseRow:
    learner, kind, variant, name, solved, stars, hints, tries, rating, time = row
    return ExerciseRow(learner, kind, variant, name, bool(solved), stars, hints, tries, rating, time)
