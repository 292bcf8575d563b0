"""The club area's tables: sign-in sessions and assignments (the accounts themselves: tutor/store/users.py)."""

from __future__ import annotations

from typing import Any

from tutor.store import Baseline, Store

AREA = "club"
SCHEMA = Baseline(1, (
    """CREATE TABLE sessions (
        token_hash TEXT PRIMARY KEY,
        user_id INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL
    )""",
    "CREATE INDEX sessions_user ON sessions (user_id)",
    """CREATE TABLE assignments (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        teacher INTEGER NOT NULL,
        learner INTEGER,
        kind TEXT NOT NULL CHECK (kind IN ('lesson', 'puzzle_theme')),
        ref TEXT NOT NULL,
        created_at TEXT NOT NULL
    )""",
))
MIGRATIONS: list[Any] = [SCHEMA.statements]


def register(store: Store) -> None:
    store.register_schema(AREA, MIGRATIONS, SCHEMA)
