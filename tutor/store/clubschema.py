"""The club area's tables: sign-in sessions, assignments, classes and last activity (the accounts: tutor/store/users.py)."""

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
MIGRATIONS: list[Any] = [
    SCHEMA.statements,
    # v2 (issue 35): classes (a learner or a teacher may be in several), a class-wide assignment, last active
    (
        """CREATE TABLE class_members (
            class_name TEXT NOT NULL,
            user_id INTEGER NOT NULL,
            PRIMARY KEY (class_name, user_id)
        )""",
        "CREATE INDEX class_members_user ON class_members (user_id)",
        "ALTER TABLE assignments ADD COLUMN class_name TEXT",
        "CREATE TABLE activity (user_id INTEGER PRIMARY KEY, last_seen TEXT NOT NULL)",
    ),
    # v3 (issue 35): a password given by someone else (ddz users passwd, import) is changed at the next sign-in
    ("CREATE TABLE password_changes (user_id INTEGER PRIMARY KEY, since TEXT NOT NULL)",),
]


def register(store: Store) -> None:
    store.register_schema(AREA, MIGRATIONS, SCHEMA)
