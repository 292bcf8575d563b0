"""The answers of the coach's jobs, waiting for the learner's next request (club mode, issue 35).

A ``ddz worker`` runs a job (a verdict, the auction's line, the review: tutor/sessions/coachjobs.py) and
puts its answer here, under the learner and the game's key; the web request that next holds the learner's
game takes the answers of its pending jobs into the session.  The answers of a game stay until its review is
taken (the review reads them all), and a day at most (an abandoned game's are swept by the next put).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

from tutor.store import Store
from tutor.store.web_slots import learner_of

AREA = "coach_answers"
MIGRATIONS: list[list[str]] = [
    [
        """CREATE TABLE coach_answers (
            learner INTEGER NOT NULL,
            game TEXT NOT NULL,
            job TEXT NOT NULL,
            data TEXT NOT NULL,
            created_at TEXT NOT NULL,
            PRIMARY KEY (learner, game, job)
        )""",
    ],
]
#: How long an answer nobody took is kept.
KEEP = timedelta(days=1)
#: On PostgreSQL each answer put is announced on this channel ("learner:game"), so a web process holding a
#: page's wait (tutor/store/notices.py) answers it at once instead of the page asking every second.
CHANNEL = "ddz_coach"


class CoachAnswers:
    """One learner's job answers (the store's learner)."""

    def __init__(self, store: Store) -> None:
        store.register_schema(AREA, MIGRATIONS)
        self.store = store
        self.learner = learner_of(store)

    def put(self, game: str, job: str, data: dict[str, Any]) -> None:
        """Keep ``data``, the answer of ``job`` of ``game`` (a job run twice keeps its first answer)."""
        now = datetime.now(UTC)
        with self.store.transaction() as db:
            db.execute("DELETE FROM coach_answers WHERE learner = ? AND created_at < ?",
                       (self.learner, (now - KEEP).isoformat()))
            db.execute("INSERT INTO coach_answers (learner, game, job, data, created_at) VALUES (?, ?, ?, ?, ?)"
                       " ON CONFLICT (learner, game, job) DO NOTHING",
                       (self.learner, game, job, json.dumps(data), now.isoformat()))
            if self.store.engine == "postgresql":  # sent when the transaction commits (the answer is there)
                db.execute("SELECT pg_notify(?, ?)", (CHANNEL, f"{self.learner}:{game}"))

    def answered(self, game: str, jobs: list[str]) -> bool:
        """Whether any of ``jobs`` of ``game`` has its answer here: the page's cheap question while it waits
        (one indexed read; the table is built only once something came)."""
        if not jobs:
            return False
        marks = ", ".join("?" for _ in jobs)
        row = self.store.db.execute(f"SELECT 1 FROM coach_answers WHERE learner = ? AND game = ? AND job IN ({marks})"
                                    " LIMIT 1", (self.learner, game, *jobs)).fetchone()
        return row is not None

    def of_game(self, game: str) -> list[dict[str, Any]]:
        """Every answer kept for ``game``."""
        rows = self.store.db.execute("SELECT data FROM coach_answers WHERE learner = ? AND game = ?",
                                     (self.learner, game)).fetchall()
        found = []
        for (data,) in rows:
            try:
                item = json.loads(data)
            except ValueError:
                continue
            if isinstance(item, dict):
                found.append(item)
        return found

    def forget(self, game: str) -> None:
        """The game's answers are all taken (its review was the last)."""
        self.store.db.execute("DELETE FROM coach_answers WHERE learner = ? AND game = ?", (self.learner, game))
