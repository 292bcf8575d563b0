"""Failed sign-ins of a club, counted in the database so that the limit holds across worker processes.

``ddz serve --db …`` refuses a name or a client address after too many failed
sign-ins in a window (tutor/web/auth.py).  A count kept in one process would
let an attacker spread guesses over the workers (or wait for a restart); a row
per failure here is seen by every worker.  Old rows are deleted as new ones
are written, so the table stays as small as the window.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import TypeVar

from tutor.store import Store

Refusal = TypeVar("Refusal")


@dataclass(frozen=True)
class Recent:
    """What the limits look at, read in the same transaction that records the attempt."""

    #: Failures of the name within the window, and the newest one's age in seconds (None: none).
    name_failures: int
    name_last_age: float | None
    #: Failures from the address within the window.
    address_failures: int

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

    def take(self, name_key: str, address_key: str, within: timedelta,
             decide: Callable[[Recent], Refusal | None]) -> str | Refusal:
        """Atomically: read the recent failures, let ``decide`` refuse, else record this attempt as a failure now.

        The attempt counts before its password is checked (:meth:`succeeded` takes it back), in one
        transaction with the count, so parallel guesses at one name are serialised: each sees the ones
        before it, and no more get checked than the limit lets through (count, then check, then record
        let 30 parallel guesses through where 5 were allowed).  Returns the attempt's stamp, or the refusal.
        """
        now = datetime.now(timezone.utc)
        since = _stamp(now - within)
        with self.store.transaction() as db:
            # SQLite: BEGIN IMMEDIATE holds the file's write lock; PostgreSQL: the club-wide advisory lock
            row = db.execute("SELECT COUNT(*), MAX(failed_at) FROM sign_in_failures WHERE key = ? AND failed_at > ?",
                             (name_key, since)).fetchone()
            last = None if row[1] is None else (now - datetime.fromisoformat(str(row[1]))).total_seconds()
            address = db.execute("SELECT COUNT(*) FROM sign_in_failures WHERE key = ? AND failed_at > ?",
                                 (address_key, since)).fetchone()
            refusal = decide(Recent(int(row[0]), last, int(address[0])))
            if refusal is not None:
                return refusal
            stamp = _stamp(now)
            db.execute("DELETE FROM sign_in_failures WHERE failed_at < ?", (_stamp(now - KEEP),))
            for key in (name_key, address_key):
                db.execute("INSERT INTO sign_in_failures (key, failed_at) VALUES (?, ?)", (key, stamp))
        return stamp

    def succeeded(self, name_key: str, address_key: str, stamp: str) -> None:
        """The password was right: the name's failures are forgotten, and this attempt from the address."""
        with self.store.transaction() as db:
            db.execute("DELETE FROM sign_in_failures WHERE key = ?", (name_key,))
            db.execute("DELETE FROM sign_in_failures WHERE key = ? AND failed_at = ?", (address_key, stamp))

    def failed(self, *keys: str) -> None:
        now = datetime.now(timezone.utc)
        with self.store.transaction() as db:
            db.execute("DELETE FROM sign_in_failures WHERE failed_at < ?", (_stamp(now - KEEP),))
            for key in keys:
                db.execute("INSERT INTO sign_in_failures (key, failed_at) VALUES (?, ?)", (key, _stamp(now)))

    def clear(self, key: str) -> int:
        """Forget ``key``'s failures (``ddz users unlock``): how many there were."""
        with self.store.transaction() as db:
            return int(db.execute("DELETE FROM sign_in_failures WHERE key = ?", (key,)).rowcount)
