"""The web table's session slots: what a learner has open in the browser, saved between requests.

``ddz serve`` keeps one session per activity (the game, a lesson, a puzzle, a
mistakes exercise).  A single-learner server keeps it in its process; a club
server (several processes, many learners) keeps it here, one row per learner
and activity, so that any worker can serve the next request.

:func:`web_slot` runs a request's whole work in one transaction that holds the
slot's row: the row is written first (``UPDATE … SET version = version``), which
takes its write lock in PostgreSQL (and SQLite's ``BEGIN IMMEDIATE`` takes the
file's), so two workers acting on the same slot take turns, and the second one
reads what the first one saved (its revision check then refuses a stale action).
Everything else the request writes through the same store is in that
transaction: a request is all or nothing.

The data is opaque to the store (the web layer's snapshot, as text).
"""

from __future__ import annotations

import base64
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from tutor.store import Store

AREA = "web_slots"
MIGRATIONS: list[list[str]] = [
    [
        """CREATE TABLE web_slots (
            learner INTEGER NOT NULL,
            activity TEXT NOT NULL,
            version INTEGER NOT NULL DEFAULT 0,
            data TEXT,
            PRIMARY KEY (learner, activity)
        )""",
    ],
]
ACTIVITIES = ("game", "lesson", "puzzle", "mistakes")


@dataclass
class WebSlot:
    """The row as the request found it; :meth:`save` replaces its data when the block ends."""

    version: int
    data: bytes | None
    saved: bytes | None = None

    def save(self, data: bytes) -> None:
        self.saved = data


def learner_of(store: Store) -> int:
    """The learner a store speaks for (1, the local learner, in the single-learner store)."""
    learner = getattr(store, "learner", 1)
    return int(learner) if isinstance(learner, int) else 1


@contextmanager
def web_slot(store: Store, activity: str) -> Iterator[WebSlot]:
    """Hold ``activity``'s slot of the store's learner for the block (one transaction, its row locked)."""
    if activity not in ACTIVITIES:
        raise ValueError(activity)
    store.register_schema(AREA, MIGRATIONS)
    learner = learner_of(store)
    key = (learner, activity)
    with store.transaction() as db:
        db.execute("INSERT INTO web_slots (learner, activity, version) VALUES (?, ?, 0)"
                   " ON CONFLICT (learner, activity) DO NOTHING", key)
        db.execute("UPDATE web_slots SET version = version WHERE learner = ? AND activity = ?", key)
        row = db.execute("SELECT version, data FROM web_slots WHERE learner = ? AND activity = ?", key).fetchone()
        slot = WebSlot(int(row[0]), base64.b64decode(row[1]) if row[1] else None)
        yield slot
        if slot.saved is not None:
            db.execute("UPDATE web_slots SET version = version + 1, data = ? WHERE learner = ? AND activity = ?",
                       (base64.b64encode(slot.saved).decode("ascii"), *key))


