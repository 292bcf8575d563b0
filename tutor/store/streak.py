"""The puzzle-streak area of the store: each learner's best streak and last run.

The SQL of :mod:`tutor.puzzles.streak` lives here (no SQL outside ``tutor/store``).

One table, one row per learner (the ``learner`` column, as every learner-owned row):

* ``puzzle_streak`` — the best streak (puzzles solved in a row before the first
  wrong move), how many runs were played, the last run's length and when.

An area of its own (issue 30) rather than a migration of the ``puzzles`` area:
the two evolve apart, and a new area is created from its baseline on either engine.
"""

from __future__ import annotations

from typing import Any

from tutor.store import Baseline, Store

AREA = "puzzle_streak"

SCHEMA = Baseline(1, (
    """CREATE TABLE puzzle_streak (
        learner INTEGER PRIMARY KEY,
        best INTEGER NOT NULL CHECK (best >= 0),
        runs INTEGER NOT NULL CHECK (runs >= 0),
        last INTEGER NOT NULL CHECK (last >= 0),
        best_at TEXT NOT NULL,
        last_at TEXT NOT NULL
    )""",
))

MIGRATIONS: list[Any] = [list(SCHEMA.statements)]


class StreakRows:
    """One learner's streak row."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.learner = store.learner
        store.register_schema(AREA, MIGRATIONS, SCHEMA)

    def read(self) -> tuple[int, int, int] | None:
        """(best, runs, last) or None before the first run."""
        row = self.store.db.execute(
            "SELECT best, runs, last FROM puzzle_streak WHERE learner = ?", (self.learner,)
        ).fetchone()
        return None if row is None else (int(row[0]), int(row[1]), int(row[2]))

    def finish_run(self, length: int, stamp: str) -> int:
        """Record a finished run of ``length`` solved puzzles; the best streak after it (one transaction)."""
        with self.store.transaction() as db:
            db.execute(
                "INSERT INTO puzzle_streak (learner, best, runs, last, best_at, last_at) VALUES (?, ?, 1, ?, ?, ?)"
                " ON CONFLICT (learner) DO UPDATE SET runs = puzzle_streak.runs + 1, last = excluded.last,"
                " last_at = excluded.last_at,"
                " best_at = CASE WHEN excluded.best > puzzle_streak.best THEN excluded.best_at"
                " ELSE puzzle_streak.best_at END,"
                " best = CASE WHEN excluded.best > puzzle_streak.best THEN excluded.best ELSE puzzle_streak.best END",
                (self.learner, length, length, stamp, stamp),
            )
            row = db.execute("SELECT best FROM puzzle_streak WHERE learner = ?", (self.learner,)).fetchone()
        return int(row[0])
