"""The lessons area of the store: each learner's lesson progress and spaced-review boxes.

The SQL of :mod:`tutor.lessons.progress` and :mod:`tutor.lessons.review` lives
here (no SQL outside ``tutor/store``); those modules keep their public API and
their rules (best stars kept, the Leitner boxes) and call these rows.

Tables of the ``lessons`` area, one row per learner and lesson (and step):

* ``lesson_progress`` — best stars, completions, the best attempt's figures;
* ``lesson_review`` — the tasks a learner missed: box and due date (issue 21), and the right answers
  given in reviews since the last miss (issue 30: two retire the task).
"""

from __future__ import annotations

from typing import Any

from tutor.store import Baseline, Store
from tutor.store.schema import rebuild_with_learner

AREA = "lessons"

_PROGRESS = """CREATE TABLE lesson_progress (
        learner INTEGER NOT NULL,
        lesson TEXT NOT NULL,
        stars INTEGER NOT NULL CHECK (stars BETWEEN 1 AND 3),
        completions INTEGER NOT NULL DEFAULT 1,
        best_wrong INTEGER NOT NULL,
        best_hints INTEGER NOT NULL,
        finished_at TEXT NOT NULL,
        PRIMARY KEY (learner, lesson)
    )"""
#: The review table of version 3 (issue 25), which the learner-id rebuild of older files makes.
_REVIEW_3 = """CREATE TABLE lesson_review (
        learner INTEGER NOT NULL,
        lesson TEXT NOT NULL,
        step INTEGER NOT NULL,
        box INTEGER NOT NULL,
        due TEXT NOT NULL,
        PRIMARY KEY (learner, lesson, step)
    )"""

SCHEMA = Baseline(4, (
    _PROGRESS,
    """CREATE TABLE lesson_review (
        learner INTEGER NOT NULL,
        lesson TEXT NOT NULL,
        step INTEGER NOT NULL,
        box INTEGER NOT NULL,
        due TEXT NOT NULL,
        rights INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (learner, lesson, step)
    )""",
))

MIGRATIONS: list[Any] = [
    [
        """CREATE TABLE lesson_progress (
            lesson TEXT PRIMARY KEY,
            stars INTEGER NOT NULL CHECK (stars BETWEEN 1 AND 3),
            completions INTEGER NOT NULL DEFAULT 1,
            best_wrong INTEGER NOT NULL,
            best_hints INTEGER NOT NULL,
            finished_at TEXT NOT NULL
        )"""
    ],
    # Issue 21: the tasks a learner missed, for spaced review (tutor/lessons/review.py).
    [
        """CREATE TABLE lesson_review (
            lesson TEXT NOT NULL,
            step INTEGER NOT NULL,
            box INTEGER NOT NULL,
            due TEXT NOT NULL,
            PRIMARY KEY (lesson, step)
        )"""
    ],
    # Issue 25: a learner id on every row (the SQLite files written before it; see tutor/store/schema.py).
    rebuild_with_learner((_PROGRESS, _REVIEW_3)),
    # Issue 30: a task leaves the review once answered right twice; count the right answers (portable SQL).
    ["ALTER TABLE lesson_review ADD COLUMN rights INTEGER NOT NULL DEFAULT 0"],
]

#: A lesson's row as the course reads it: (lesson, stars, completions, best_wrong, best_hints, finished_at).
ProgressRow = tuple[str, int, int, int, int, str]


class LessonRows:
    """One learner's lesson rows."""

    def __init__(self, store: Store) -> None:
        self.store = store
        store.register_schema(AREA, MIGRATIONS, SCHEMA)

    # ----------------------------------------------------------------- progress
    def progress(self) -> list[ProgressRow]:
        rows = self.store.db.execute(
            "SELECT lesson, stars, completions, best_wrong, best_hints, finished_at FROM lesson_progress"
            " WHERE learner = ?", (self.store.learner,)
        ).fetchall()
        return [(str(r[0]), int(r[1]), int(r[2]), int(r[3]), int(r[4]), str(r[5])) for r in rows]

    def record(self, lesson: str, stars: int, wrong: int, hints: int, now: str) -> None:
        """A finished lesson: a better result replaces the best attempt, any result counts a completion."""
        learner = self.store.learner
        with self.store.transaction() as db:
            row = db.execute(
                "SELECT stars FROM lesson_progress WHERE learner = ? AND lesson = ?", (learner, lesson)
            ).fetchone()
            if row is None:
                db.execute(
                    "INSERT INTO lesson_progress (learner, lesson, stars, completions, best_wrong, best_hints,"
                    " finished_at) VALUES (?, ?, ?, 1, ?, ?, ?)", (learner, lesson, stars, wrong, hints, now)
                )
            elif stars > int(row[0]):
                db.execute(
                    "UPDATE lesson_progress SET stars = ?, completions = completions + 1, best_wrong = ?,"
                    " best_hints = ?, finished_at = ? WHERE learner = ? AND lesson = ?",
                    (stars, wrong, hints, now, learner, lesson),
                )
            else:
                db.execute(
                    "UPDATE lesson_progress SET completions = completions + 1, finished_at = ?"
                    " WHERE learner = ? AND lesson = ?", (now, learner, lesson),
                )

    def reset_progress(self, lesson: str | None = None) -> int:
        """Forget one lesson's progress or all of it; how many rows went."""
        with self.store.transaction() as db:
            if lesson is None:
                return int(db.execute("DELETE FROM lesson_progress WHERE learner = ?", (self.store.learner,)).rowcount)
            return int(db.execute(
                "DELETE FROM lesson_progress WHERE learner = ? AND lesson = ?", (self.store.learner, lesson)
            ).rowcount)

    # ------------------------------------------------------------------- review
    def review_items(self) -> list[tuple[str, int, int, str, int]]:
        """(lesson, step, box, due, rights) of every missed task, the earliest due first."""
        rows = self.store.db.execute(
            "SELECT lesson, step, box, due, rights FROM lesson_review WHERE learner = ? ORDER BY due, lesson, step",
            (self.store.learner,),
        ).fetchall()
        return [(str(r[0]), int(r[1]), int(r[2]), str(r[3]), int(r[4])) for r in rows]

    def review_state(self, lesson: str, step: int) -> tuple[int, int] | None:
        """(box, rights) of a task in the review; None when it is not there."""
        row = self.store.db.execute(
            "SELECT box, rights FROM lesson_review WHERE learner = ? AND lesson = ? AND step = ?",
            (self.store.learner, lesson, step),
        ).fetchone()
        return None if row is None else (int(row[0]), int(row[1]))

    def set_review(self, lesson: str, step: int, box: int, due: str, rights: int = 0) -> None:
        with self.store.transaction() as db:
            db.execute(
                "INSERT INTO lesson_review (learner, lesson, step, box, due, rights) VALUES (?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (learner, lesson, step) DO UPDATE SET box = excluded.box, due = excluded.due,"
                " rights = excluded.rights",
                (self.store.learner, lesson, step, box, due, rights),
            )

    def drop_review(self, lesson: str | None = None, step: int | None = None) -> None:
        """Forget one task (learned), one lesson's tasks, or all."""
        where, values = "learner = ?", list[Any]([self.store.learner])
        if lesson is not None:
            where, values = where + " AND lesson = ?", [*values, lesson]
        if step is not None:
            where, values = where + " AND step = ?", [*values, step]
        with self.store.transaction() as db:
            db.execute(f"DELETE FROM lesson_review WHERE {where}", tuple(values))
