"""Lesson progress and stars, kept in the learner's store next to their games.

One row per lesson: the best stars so far, how often it was finished, and the
figures of the best attempt.  A row is written in one transaction when a
lesson is finished, so quitting half-way never records a lesson as done and
killing the program never leaves a half-written row.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone

from tutor.store import Store

AREA = "lessons"

MIGRATIONS: list[list[str]] = [
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
]


@dataclass(frozen=True, slots=True)
class LessonProgress:
    lesson: str
    stars: int
    completions: int
    best_wrong: int
    best_hints: int
    finished_at: str


class ProgressBook:
    """Progress of every lesson, stored in a :class:`~tutor.store.Store`."""

    def __init__(self, store: Store) -> None:
        self.store = store
        store.register_schema(AREA, MIGRATIONS)

    def all(self) -> dict[str, LessonProgress]:
        rows = self.store.db.execute(
            "SELECT lesson, stars, completions, best_wrong, best_hints, finished_at FROM lesson_progress"
        ).fetchall()
        return {row[0]: LessonProgress(*row) for row in rows}

    def get(self, lesson: str) -> LessonProgress | None:
        return self.all().get(lesson)

    def record(self, lesson: str, stars: int, wrong: int, hints: int) -> LessonProgress:
        """Save a finished lesson; the best stars (and that attempt's figures) are kept."""
        if not 1 <= stars <= 3:
            raise ValueError(f"stars must be 1, 2 or 3, got {stars!r}")
        now = datetime.now(timezone.utc).isoformat(timespec="seconds")
        with self.store.transaction() as db:
            row = db.execute("SELECT stars FROM lesson_progress WHERE lesson = ?", (lesson,)).fetchone()
            if row is None:
                db.execute(
                    "INSERT INTO lesson_progress VALUES (?, ?, 1, ?, ?, ?)", (lesson, stars, wrong, hints, now)
                )
            elif stars > row[0]:
                db.execute(
                    "UPDATE lesson_progress SET stars = ?, completions = completions + 1, best_wrong = ?,"
                    " best_hints = ?, finished_at = ? WHERE lesson = ?",
                    (stars, wrong, hints, now, lesson),
                )
            else:
                db.execute(
                    "UPDATE lesson_progress SET completions = completions + 1, finished_at = ? WHERE lesson = ?",
                    (now, lesson),
                )
        progress = self.get(lesson)
        assert progress is not None
        return progress

    def reset(self, lesson: str | None = None) -> int:
        """Forget the progress of one lesson or of all; returns how many were forgotten."""
        with self.store.transaction() as db:
            if lesson is None:
                return db.execute("DELETE FROM lesson_progress").rowcount
            return db.execute("DELETE FROM lesson_progress WHERE lesson = ?", (lesson,)).rowcount
