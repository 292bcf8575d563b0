"""Moving an existing SQLite store to learner ids, in place (issue 25; docs/store.md).

Stores written before issue 25 hold one learner's rows and no ``learner``
column.  Each area's new migration entry rebuilds its tables from the area's
:class:`~tutor.store.Baseline` (the one schema, shared with PostgreSQL), copies
every row across as the local learner's (id 1), and drops the old table, all
inside the migration's transaction (after the store's backup copy): a crash
leaves the old tables and the old version intact.

SQLite cannot add a column to a primary key, hence the rebuild rather than
``ALTER TABLE … ADD COLUMN``.  These helpers are SQLite-only, like every
migration entry before an area's baseline: a PostgreSQL database starts at
the baseline and never runs them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from tutor.store import BOOKKEEPING, FORMAT_VERSION, LOCAL_LEARNER, LOCAL_NAME

_CREATE_TABLE = re.compile(r"^\s*CREATE\s+TABLE\s+(\w+)", re.IGNORECASE)


def _columns(db: Any, table: str) -> list[str]:
    return [str(row[1]) for row in db.execute(f"PRAGMA table_info({table})").fetchall()]


def _sequence(db: Any, table: str) -> int | None:
    """AUTOINCREMENT's high-water mark for ``table`` (ids are never reused, even of deleted rows)."""
    try:
        row = db.execute("SELECT seq FROM sqlite_sequence WHERE name = ?", (table,)).fetchone()
    except Exception:  # noqa: BLE001 - no AUTOINCREMENT table yet: no sqlite_sequence either
        return None
    return None if row is None else int(row[0])


def rebuild_with_learner(statements: Sequence[str], fill: dict[str, str] | None = None) -> Callable[[Any], None]:
    """A migration entry: rebuild every table of ``statements`` (a baseline) with the learner column.

    ``fill`` gives, per column that the old table lacks (or holds NULL in) and
    that must not be empty, the SQL expression that fills it for the old rows (e.g. a key).
    """
    fill = fill or {}

    def migrate(db: Any) -> None:
        tables = [(m.group(1), sql) for sql in statements if (m := _CREATE_TABLE.match(sql))]
        others = [sql for sql in statements if not _CREATE_TABLE.match(sql)]
        sequences: dict[str, int] = {}
        for table, _ in tables:
            seq = _sequence(db, table)
            if seq is not None:
                sequences[table] = seq
            db.execute(f"ALTER TABLE {table} RENAME TO {table}_before_learners")
        for table, sql in tables:
            db.execute(sql)
            old = set(_columns(db, f"{table}_before_learners"))
            new = _columns(db, table)
            copied = [c for c in new if (c in old or c in fill) and c != "learner"]
            names = ", ".join(["learner", *copied])
            values = ", ".join([str(LOCAL_LEARNER), *(
                c if c not in fill else f"COALESCE({c}, {fill[c]})" if c in old else fill[c] for c in copied)])
            db.execute(f"INSERT INTO {table} ({names}) SELECT {values} FROM {table}_before_learners")
            db.execute(f"DROP TABLE {table}_before_learners")
        for table, seq in sequences.items():
            db.execute("UPDATE sqlite_sequence SET seq = MAX(seq, ?) WHERE name = ?", (seq, table))
        for sql in others:  # indexes: their old names went with the old tables
            db.execute(sql)

    return migrate


def format_1_to_2(db: Any) -> None:
    """The store's own bookkeeping, format 1 → 2: the users table (local learner) and settings per learner."""
    from datetime import datetime, timezone

    users, settings = BOOKKEEPING[2], BOOKKEEPING[3]
    db.execute(users)
    stamp = datetime.now(timezone.utc).isoformat(timespec="seconds")
    db.execute("INSERT INTO users (id, name, name_key, password, teacher, created_at) VALUES (?, ?, ?, NULL, 0, ?)",
               (LOCAL_LEARNER, LOCAL_NAME, LOCAL_NAME, stamp))
    rebuild_with_learner([settings])(db)
    db.execute("UPDATE meta SET value = ? WHERE key = 'format'", (str(FORMAT_VERSION),))
