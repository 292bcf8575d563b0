"""Lesson progress and stars, kept in the learner's store next to their games.

One row per learner and lesson: the best stars so far, how often it was finished,
and the figures of the best attempt (the rows: :mod:`tutor.store.lessons`).  A row is written in one transaction when a
lesson is finished, so quitting half-way never records a lesson as done and
killing the program never leaves a half-written row.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone

from tutor.store import Store
from tutor.store.lessons import AREA, MIGRATIONS, SCHEMA, LessonRows

__all__ = ["AREA", "MIGRATIONS", "SCHEMA", "LessonProgress", "ProgressBook"]


@dataclass(frozen=True, slots=True)
class LessonProgress:
    lesson: str
    stars: int
    completions: int
    best_wrong: int
    best_hints: int
    finished_at: str


class ProgressBook:
    """Progress of every lesson of the store's learner (rows: :mod:`tutor.store.lessons`)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._rows = LessonRows(store)

    def all(self) -> dict[str, LessonProgress]:
        return {row[0]: LessonProgress(*row) for row in self._rows.progress()}

    def get(self, lesson: str) -> LessonProgress | None:
        return self.all().get(lesson)

    def record(self, lesson: str, stars: int, wrong: int, hints: int) -> LessonProgress:
        """Save a finished lesson; the best stars (and that attempt's figures) are kept."""
        if not 1 <= stars <= 3:
            raise ValueError(f"stars must be 1, 2 or 3, got {stars!r}")
        now = datetime.now(timezone.utc).isoformat(timespec="seconds")
        self._rows.record(lesson, stars, wrong, hints, now)
        progress = self.get(lesson)
        assert progress is not None
        return progress

    def reset(self, lesson: str | None = None) -> int:
        """Forget the progress of one lesson or of all; returns how many were forgotten."""
        return self._rows.reset_progress(lesson)
