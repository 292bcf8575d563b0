"""Failed sign-ins of a club, counted in the database so that the limit holds across worker processes.

``ddz serve --db …`` refuses a name or a client address after too many failed
sign-ins in a window (tutor/web/auth.py).  A count kept in one process would
let an attacker spread guesses over the workers (or wait for a restart); a row
per failure here is seen by every worker.  Old rows are deleted as new ones
are written, so the table stays as small as the window.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from tutor.store import Store

AREA = "sign_ins"
MIGRATIONS: list[list[str]] = [
    [
        "CREATE TABLE sign_in_failures (key TEXT NOT NULL, failed_at TEXT NOT NULL)",
        "CREATE INDEX sign_in_failures_key ON sign_in_failures (key, failed_at)",
    ],
]
#: Failures older than this are forgotten whatever the window asked for.
KEEP = timedelta(days=1)


def _stamp(when: datetime) -> str:
    return when.astimezone(timezone.utc).isoformat(timespec="microseconds")


class SignInFailures:
    """Count, note and clear failed sign-ins by key ("name:anna", "addr:10.0.0.5") on a club-wide store."""

    def __init__(self, store: Store) -> None:
        self.store = store
        store.register_schema(AREA, MIGRATIONS)

    def count(self, key: str, within: timedelta) -> int:
        since = _stamp(datetime.now(timezone.utc) - within)
        row = self.store.db.execute(
            "SELECT COUNT(*) FROM sign_in_failures WHERE key = ? AND failed_at > ?", (key, since)).fetchone()
        return int(row[0])

    def failed(self, *keys: str) -> None:
        now = datetime.now(timezone.utc)
        with self.store.transaction() as db:
            db.execute("DELETE FROM sign_in_failures WHERE failed_at < ?", (_stamp(now - KEEP),))
            for key in keys:
                db.execute("INSERT INTO sign_in_failures (key, failed_at) VALUES (?, ?)", (key, _stamp(now)))

    def clear(self, key: str) -> None:
        with self.store.transaction() as db:
            db.execute("DELETE FROM sign_in_failures WHERE key = ?", (key,))
