"""The learner's data: one SQLite file, written only inside transactions.

Everything the trainer remembers between runs — the running score, settings, the
game in progress, finished games, and later lesson progress and puzzle ratings —
lives in one SQLite database (stdlib :mod:`sqlite3`, no server, one file that a
user can back up or delete).  This module is the small generic layer every area
uses; each area keeps its own tables and its own migrations.

Where the file is
    ``$DDZ_HOME/ddz.sqlite3`` when ``DDZ_HOME`` is set (tests and portable
    installs use that), otherwise the platform's user data folder:
    ``$XDG_DATA_HOME/ddz-tutor`` or ``~/.local/share/ddz-tutor`` on Linux,
    ``~/Library/Application Support/ddz-tutor`` on macOS and
    ``%APPDATA%\\ddz-tutor`` on Windows.  See :func:`data_home`.

The API (the whole of it)::

    from tutor.store import Store

    store = Store.open()                       # or Store.open(path) / Store.open(":memory:")
    store.register_schema("puzzles", [         # once per process, before use
        ["CREATE TABLE puzzle_rating (puzzle TEXT PRIMARY KEY, rating REAL, rd REAL)"],
        ["ALTER TABLE puzzle_rating ADD COLUMN solved INTEGER NOT NULL DEFAULT 0"],
    ])
    with store.transaction() as db:            # db is the sqlite3.Connection
        db.execute("INSERT OR REPLACE INTO puzzle_rating VALUES (?, ?, ?, 0)", ("p1", 1500.0, 350.0))
    store.get_setting("lang", "en"); store.set_setting("lang", "ru")   # JSON values

* **Migrations** are a list per area: entry ``i`` takes the area from version
  ``i`` to ``i + 1`` and is a list of SQL statements (or a callable receiving the
  connection).  They run in one transaction together with the version bump, so a
  crash mid-migration leaves the old version intact.  Never edit a shipped entry;
  append a new one.
* **Transactions**: every write goes through :meth:`Store.transaction`
  (``BEGIN IMMEDIATE`` … ``COMMIT``; any exception rolls back; nesting uses
  savepoints).  The database runs with ``journal_mode=WAL`` and
  ``synchronous=FULL``, so killing the program at any instant loses at most the
  transaction that was open — the file is never left half-written.
* **Errors** are :class:`StoreError` (a ``ValueError``, so the CLI prints one
  line): :class:`StoreDamagedError` for a file that is not a healthy database,
  :class:`StoreVersionError` for a store written by a newer ddz-tutor.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

#: Version of the store's own bookkeeping tables (``meta``, ``schema_version``, ``settings``).
FORMAT_VERSION = 1
FILE_NAME = "ddz.sqlite3"
APP_DIR = "ddz-tutor"

Migration = Sequence[str] | Callable[[sqlite3.Connection], None]


class StoreError(ValueError):
    """A problem with the learner's data file; the message is one line for the user."""


class StoreDamagedError(StoreError):
    """The file exists but is not a healthy ddz-tutor database."""


class StoreVersionError(StoreError):
    """The file was written by a newer ddz-tutor than this one."""


def data_home() -> Path:
    """The folder that holds the learner's data (``DDZ_HOME`` overrides the default)."""
    override = os.environ.get("DDZ_HOME")
    if override:
        return Path(override).expanduser()
    if sys.platform == "win32":
        base = os.environ.get("APPDATA") or str(Path.home() / "AppData" / "Roaming")
        return Path(base) / APP_DIR
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / APP_DIR
    xdg = os.environ.get("XDG_DATA_HOME")
    return (Path(xdg) if xdg else Path.home() / ".local" / "share") / APP_DIR


def default_path() -> Path:
    return data_home() / FILE_NAME


class Store:
    """An open learner database.  Create with :meth:`open`; close with :meth:`close`."""

    def __init__(self, connection: sqlite3.Connection, path: str) -> None:
        self.db = connection
        self.path = path
        self._depth = 0

    # ------------------------------------------------------------------ opening
    @classmethod
    def open(cls, path: str | os.PathLike[str] | None = None) -> Store:
        """Open (creating if needed) the store at ``path`` or the default location.

        Raises:
            StoreDamagedError: the file is not a readable, consistent SQLite database.
            StoreVersionError: the file comes from a newer version of ddz-tutor.
        """
        where = str(default_path() if path is None else path)
        if where != ":memory:":
            Path(where).parent.mkdir(parents=True, exist_ok=True)
        try:
            connection = sqlite3.connect(where, isolation_level=None, timeout=10.0)
        except sqlite3.Error as error:
            raise StoreDamagedError(f"cannot open the ddz-tutor store {where!r}: {error}") from None
        store = cls(connection, where)
        try:
            store._check_and_prepare()
        except StoreError:
            connection.close()
            raise
        except sqlite3.DatabaseError as error:
            connection.close()
            raise StoreDamagedError(
                f"the ddz-tutor store {where!r} is damaged ({error}); move it away to start afresh"
            ) from None
        return store

    def _check_and_prepare(self) -> None:
        db = self.db
        result = db.execute("PRAGMA quick_check").fetchone()
        if not result or result[0] != "ok":
            raise StoreDamagedError(
                f"the ddz-tutor store {self.path!r} is damaged ({result[0] if result else 'no answer'}); "
                "move it away to start afresh"
            )
        if self.path != ":memory:":
            db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        with self.transaction():
            db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            row = db.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
            if row is None:
                tables = {
                    r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
                } - {"meta"}
                if tables:
                    raise StoreDamagedError(
                        f"{self.path!r} is a database but not a ddz-tutor store; move it away to start afresh"
                    )
                db.execute("INSERT INTO meta VALUES ('format', ?)", (str(FORMAT_VERSION),))
                db.execute(
                    "CREATE TABLE schema_version (area TEXT PRIMARY KEY, version INTEGER NOT NULL)"
                )
                db.execute("CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            else:
                try:
                    found = int(row[0])
                except ValueError:
                    raise StoreDamagedError(
                        f"the ddz-tutor store {self.path!r} is damaged (format {row[0]!r})"
                    ) from None
                if found > FORMAT_VERSION:
                    raise StoreVersionError(
                        f"the store {self.path!r} was written by a newer ddz-tutor "
                        f"(format {found}, this one knows {FORMAT_VERSION}); please upgrade"
                    )

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------- transactions
    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """All-or-nothing block of work.  Nested blocks become savepoints.

        ``BEGIN IMMEDIATE`` takes the write lock up front, so two running copies
        of ddz cannot interleave half-finished updates.
        """
        db = self.db
        depth = self._depth
        name = f"sp{depth}"
        db.execute("BEGIN IMMEDIATE" if depth == 0 else f"SAVEPOINT {name}")
        self._depth += 1
        try:
            yield db
        except BaseException:
            self._depth = depth
            if depth == 0:
                db.execute("ROLLBACK")
            else:
                db.execute(f"ROLLBACK TO {name}")
                db.execute(f"RELEASE {name}")
            raise
        self._depth = depth
        db.execute("COMMIT" if depth == 0 else f"RELEASE {name}")

    # ------------------------------------------------------------------ schemas
    def schema_version(self, area: str) -> int:
        row = self.db.execute("SELECT version FROM schema_version WHERE area = ?", (area,)).fetchone()
        return int(row[0]) if row else 0

    def register_schema(self, area: str, migrations: Sequence[Migration]) -> None:
        """Bring ``area``'s tables up to ``len(migrations)``; idempotent.

        Raises:
            StoreVersionError: the store holds a newer version of this area.
        """
        try:
            with self.transaction() as db:
                current = self.schema_version(area)
                if current > len(migrations):
                    raise StoreVersionError(
                        f"the store {self.path!r} holds {area!r} data from a newer ddz-tutor "
                        f"(version {current}, this one knows {len(migrations)}); please upgrade"
                    )
                for step in migrations[current:]:
                    if callable(step):
                        step(db)
                    else:
                        for statement in step:
                            db.execute(statement)
                if current < len(migrations):
                    db.execute(
                        "INSERT OR REPLACE INTO schema_version VALUES (?, ?)", (area, len(migrations))
                    )
        except sqlite3.DatabaseError as error:
            raise StoreDamagedError(
                f"the ddz-tutor store {self.path!r} could not be prepared for {area!r}: {error}"
            ) from None

    # ----------------------------------------------------------------- settings
    def get_setting(self, key: str, default: Any = None) -> Any:
        """A stored setting (any JSON value), or ``default``."""
        row = self.db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        if row is None:
            return default
        try:
            return json.loads(row[0])
        except ValueError:
            return default

    def set_setting(self, key: str, value: Any) -> None:
        with self.transaction() as db:
            db.execute("INSERT OR REPLACE INTO settings VALUES (?, ?)", (key, json.dumps(value)))

    def settings(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in self.db.execute("SELECT key, value FROM settings ORDER BY key"):
            try:
                out[key] = json.loads(value)
            except ValueError:
                continue
        return out


__all__ = [
    "FORMAT_VERSION",
    "Store",
    "StoreDamagedError",
    "StoreError",
    "StoreVersionError",
    "data_home",
    "default_path",
]
