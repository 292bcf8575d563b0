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

**Learners and engines** (issue 25, docs/store.md).  Every learner-owned row
carries a ``learner`` id; a :class:`Store` is scoped to one learner
(:attr:`Store.learner`) and every area reads and writes only that learner's
rows.  ``Store.open()`` is the single-learner default: a SQLite file, the local
learner (id 1, :data:`LOCAL_LEARNER`), no login.  A club
(:class:`tutor.store.club.Club`) opens the same schema on PostgreSQL (psycopg 3
and its pool) or on a SQLite file and hands out ``club.store_for(learner)``.
SQL is written once, portable; :mod:`tutor.store.dialect` makes it
PostgreSQL's in one place.  ``store.db`` is the SQLite connection on SQLite
and an equivalent ``execute``-only adapter on PostgreSQL.
"""

from __future__ import annotations

import errno
import json
import os
import sqlite3
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from tutor.files import ascii_int, shorten, shown
from tutor.i18n import t

if TYPE_CHECKING:
    from tutor.store.postgres import PostgresEngine

#: Version of the store's own bookkeeping tables (``meta``, ``schema_version``, ``users``, ``settings``).
#: Format 2 (issue 25): settings per learner, and the ``users`` table with the local learner (id 1).
FORMAT_VERSION = 2
#: The learner of the single-learner default (``Store.open()``): a row of ``users`` named "local".
LOCAL_LEARNER = 1
LOCAL_NAME = "local"
FILE_NAME = "ddz.sqlite3"
APP_DIR = "ddz-tutor"

Migration = Sequence[str] | Callable[[Any], None]


class Baseline(NamedTuple):
    """An area's whole schema at migration ``version``, in portable SQL (see :mod:`tutor.store.dialect`).

    A database where the area is new (every PostgreSQL database, and a SQLite
    file that never had the area) is created from it directly, so the schema
    is written once for both engines; the migrations before ``version`` are
    the SQLite history that older files still walk, and only the entries
    after it must be portable.
    """

    version: int
    statements: Sequence[str]


#: The bookkeeping of format 2, portable: created as it is on a new database of either engine.
BOOKKEEPING = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE schema_version (area TEXT PRIMARY KEY, version INTEGER NOT NULL)",
    """CREATE TABLE users (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL UNIQUE,
        password TEXT,
        teacher INTEGER NOT NULL DEFAULT 0 CHECK (teacher IN (0, 1)),
        created_at TEXT NOT NULL
    )""",
    """CREATE TABLE settings (
        learner INTEGER NOT NULL,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (learner, key)
    )""",
)


class StoreError(ValueError):
    """A problem with the learner's data file; the message is one line for the user.

    Each subclass names one cause and what to do about it; the CLI prints the
    line and exits 2.  Only :class:`StoreDamagedError` says "damaged", and only
    when SQLite's own checks or the schema say so.
    """


class StoreDamagedError(StoreError):
    """The file exists but is not a healthy ddz-tutor database (integrity check or schema)."""


class StoreVersionError(StoreError):
    """The file was written by a newer ddz-tutor than this one."""


class StoreLockedError(StoreError):
    """Another program holds the store's write lock (the data is fine: try again)."""


class StoreReadOnlyError(StoreError):
    """The store (or its folder) cannot be written."""


class StoreFullError(StoreError):
    """The disk is full; nothing written so far is lost."""


class StoreLocationError(StoreError):
    """The store's folder cannot be made or used (not a folder, no permission)."""


class StoreIOError(StoreError):
    """The operating system failed to read or write the file (not a sign of damage)."""


class GameBusyError(StoreError):
    """The game is being played by another ddz process ("another window"), or moved on under us (a stale version)."""


class StoreConflictError(StoreError):
    """A row that must be unique exists already (a name taken, a row written twice at once)."""


#: SQLite primary result codes (``sqlite3.Error.sqlite_errorcode & 0xFF``).
_PERM, _BUSY, _LOCKED, _READONLY, _IOERR, _CORRUPT, _FULL, _CANTOPEN, _NOTADB = 3, 5, 6, 8, 10, 11, 13, 14, 26


def explain(error: BaseException, path: str) -> StoreError:
    """Turn a :mod:`sqlite3` or OS error met while using the store at ``path`` into one honest line."""
    if isinstance(error, StoreError):
        return error
    where = shown(path)
    if isinstance(error, OSError) and not isinstance(error, sqlite3.Error):
        why = (error.strerror or str(error)).lower()
        if error.errno == errno.ENOSPC or (error.errno == errno.EIO and _disk_full(path)):
            return StoreFullError(t("store.full", path=where))
        if error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            return StoreReadOnlyError(t("store.cannot_write", path=where, why=why))
        return StoreIOError(t("store.cannot_use", path=where, why=why))
    code = getattr(error, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    text = shorten(str(error), 60)
    if primary in (_BUSY, _LOCKED) or "locked" in text:
        return StoreLockedError(t("store.locked", path=where, why=text))
    if primary == _READONLY or "readonly" in text:
        return StoreReadOnlyError(t("store.read_only", path=where))
    if primary == _FULL or "full" in text:
        return StoreFullError(t("store.full", path=where))
    if primary in (_CANTOPEN, _PERM):
        return StoreLocationError(t("store.cannot_open", path=where, why=text))
    if primary == _IOERR:
        if path != ":memory:" and _disk_full(path):
            return StoreFullError(t("store.full", path=where))
        return StoreIOError(t("store.io", path=where, why=text))
    if isinstance(error, sqlite3.IntegrityError) and "UNIQUE" in str(error).upper():
        return StoreConflictError(t("store.conflict", path=where, why=text))
    if primary in (_CORRUPT, _NOTADB) or isinstance(error, sqlite3.DatabaseError):
        return StoreDamagedError(t("store.damaged", path=where, why=text))
    return StoreIOError(t("store.unknown", path=where, why=text))


class _Cursor(sqlite3.Cursor):
    """A cursor whose errors arrive as one-line :class:`StoreError` s."""

    def execute(self, sql: str, parameters: Any = (), /) -> _Cursor:
        try:
            super().execute(sql, parameters)
        except sqlite3.Error as error:
            raise explain(error, _path_of(self.connection)) from None
        return self

    def fetchone(self) -> Any:
        try:
            return super().fetchone()
        except sqlite3.Error as error:
            raise explain(error, _path_of(self.connection)) from None

    def fetchall(self) -> list[Any]:
        try:
            return super().fetchall()
        except sqlite3.Error as error:
            raise explain(error, _path_of(self.connection)) from None

    def __next__(self) -> Any:
        try:
            return super().__next__()
        except sqlite3.Error as error:
            raise explain(error, _path_of(self.connection)) from None


class _Connection(sqlite3.Connection):
    """The store's connection: every statement's error is explained (see :func:`explain`)."""

    store_path = ""

    def cursor(self, factory: Any = _Cursor) -> Any:  # noqa: D102 - sqlite3 API
        return super().cursor(factory)

    def execute(self, sql: str, parameters: Any = (), /) -> Any:  # noqa: D102 - sqlite3 API
        return self.cursor().execute(sql, parameters)

    def executemany(self, sql: str, parameters: Any, /) -> Any:  # noqa: D102 - sqlite3 API
        try:
            return super().executemany(sql, parameters)
        except sqlite3.Error as error:
            raise explain(error, self.store_path) from None

    def executescript(self, script: str, /) -> Any:  # noqa: D102 - sqlite3 API
        try:
            return super().executescript(script)
        except sqlite3.Error as error:
            raise explain(error, self.store_path) from None


def _path_of(connection: Any) -> str:
    return str(getattr(connection, "store_path", "") or "?")


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


def _prepare_folder(file: Path) -> None:
    """Make the store's folder, or say in one line why it cannot be made."""
    folder = file.parent
    where = shown(folder)
    try:
        if folder.is_dir():
            return
        exists = folder.exists() or folder.is_symlink()
    except OSError as error:  # a parent folder we cannot enter: name it, not the store
        raise StoreLocationError(t("store.cannot_enter", path=shown(_closed_ancestor(folder)),
                                   why=(error.strerror or str(error)).lower())) from None
    if exists:
        raise StoreLocationError(t("store.not_a_folder", path=where))
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise StoreLocationError(t("store.under_a_file", path=where)) from None
    except OSError as error:
        why = (error.strerror or str(error)).lower()
        raise StoreLocationError(t("store.cannot_create", path=where, why=why)) from None


def _closed_ancestor(folder: Path) -> Path:
    """The first folder on the way to ``folder`` that cannot be entered (the real cause to name)."""
    here = Path(folder.anchor or ".")
    for part in folder.parts[1:] if folder.anchor else folder.parts:
        here = here / part
        if not os.access(here, os.X_OK):
            return here
    return folder


def _read_only_here(path: str) -> bool:
    """Whether the store file exists but it, or its folder, cannot be written (read-only media)."""
    file = Path(path)
    try:
        return file.is_file() and not (os.access(file, os.W_OK) and os.access(file.parent, os.W_OK))
    except OSError:
        return False


def _refuse_unless_regular(path: str) -> None:
    """A store that is a FIFO, a device or a socket is named as such (SQLite said "disk I/O error")."""
    import stat

    try:
        mode = os.stat(path).st_mode
    except OSError:
        return  # missing (a new store), or SQLite's own error names it
    if not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):  # a folder in its place: SQLite's words already
        raise StoreLocationError(t("harden.store_not_regular", path=shown(path)))


def _side_files(path: str) -> dict[str, bool]:
    """Which of SQLite's side files (-wal, -shm) exist now."""
    return {suffix: os.path.lexists(path + suffix) for suffix in ("-wal", "-shm")}


def _drop_new_side_files(path: str, before: dict[str, bool]) -> None:
    """Remove the -shm, and an empty -wal, that a failed read-write open made (none existed before it)."""
    for suffix, existed in before.items():
        side = path + suffix
        try:
            if not existed and (suffix == "-shm" or os.path.getsize(side) == 0):
                os.unlink(side)
        except OSError:
            pass


def _read_only_media(path: str) -> bool:
    """Whether the store's file system is mounted read-only (or its file or folder cannot be written)."""
    try:
        if os.statvfs(Path(path).parent).f_flag & getattr(os, "ST_RDONLY", 1):
            return True
    except (OSError, AttributeError):
        pass
    return _read_only_here(path)


def _wal_pending(path: str) -> bool:
    """Whether a -wal file holds committed work not yet copied into the store (an immutable read misses it)."""
    try:
        return os.path.getsize(path + "-wal") > 0
    except OSError:
        return False


def _disk_full(path: str) -> bool:
    """Whether the disk holding ``path`` has no space left (SQLite then says only "disk I/O error")."""
    try:
        info = os.statvfs(Path(path).parent)
    except (OSError, AttributeError):
        return False
    return info.f_bavail == 0


class Store:
    """An open learner database, scoped to one learner.  Create with :meth:`open` (or a club's
    ``store_for``); close with :meth:`close`.

    A store is used by one thread at a time (each web request gets its own from the club).
    """

    def __init__(self, connection: sqlite3.Connection | None, path: str, *, learner: int = LOCAL_LEARNER,
                 club: bool = False, engine: PostgresEngine | None = None) -> None:
        self._sqlite = connection
        self._engine = engine
        self.path = path
        #: The learner whose rows this store reads and writes.
        self.learner = learner
        #: Opened by a club: games in progress are guarded by their version alone, not by lock files
        #: (any worker process may continue any learner's game).
        self.club = club
        self._depth = 0
        #: PostgreSQL: the connection of the transaction open now (None: statements borrow one from the pool).
        self.tx: Any = None
        self._areas: dict[str, int] = {}

    @property
    def engine(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return "sqlite" if self._engine is None else "postgresql"

    @property
    def db(self) -> Any:
        """The connection to run statements on: SQLite's own, or PostgreSQL's ``execute`` adapter."""
        if self._engine is not None:
            return self._engine.adapter(self)
        assert self._sqlite is not None
        return self._sqlite

    # ------------------------------------------------------------------ opening
    #: Seconds to wait for another program's write to finish before saying the store is locked.
    BUSY_TIMEOUT = 10.0

    @classmethod
    def open(cls, path: str | os.PathLike[str] | None = None, *, learner: int = LOCAL_LEARNER,
             club: bool = False, check: bool = True) -> Store:
        """Open (creating if needed) the SQLite store at ``path`` or the default location.

        ``learner``/``club``/``check`` are for :class:`tutor.store.club.Club` (a club on a SQLite file
        opens one store per request and checks the file once, not on every request).

        Raises:
            StoreLocationError: its folder is not a folder or cannot be created.
            StoreDamagedError: the file is not a consistent SQLite database (SQLite says so).
            StoreVersionError: the file comes from a newer version of ddz-tutor.
            StoreLockedError, StoreReadOnlyError, StoreFullError, StoreIOError: see :func:`explain`.
        """
        where = str(default_path() if path is None else path)
        if where == ":memory:":
            return cls._connect(where, where, learner, club, check)
        _prepare_folder(Path(where))
        _refuse_unless_regular(where)
        sides = _side_files(where)
        cause: StoreError
        if Path(where).is_file() and _read_only_media(where):
            # SQLite would open it read-only by itself (a rollback-journal store) and fail at the first write
            # with "attempt to write a readonly database": go read-only at once, with the cause known.
            cause = StoreReadOnlyError(t("store.read_only", path=shown(where)))
        else:
            try:
                return cls._connect(where, where, learner, club, check)
            except (StoreReadOnlyError, StoreLocationError, StoreIOError, StoreFullError) as error:
                cause = error
                if not Path(where).is_file():
                    raise
        # Read-only media, a folder we may not write, a full disk (issue 32): SQLite's -wal/-shm side
        # files cannot be made, so a read-write open fails even to read.  Read the file as it is,
        # without them, and keep the real cause: the first write (or game lock) raises it, naming the store.
        _drop_new_side_files(where, sides)
        if not isinstance(cause, (StoreFullError, StoreReadOnlyError)) and _read_only_media(where):
            cause = StoreReadOnlyError(t("store.read_only", path=shown(where)))  # EROFS said "unable to open"
        if _wal_pending(where):
            raise cause  # committed work in the -wal that an immutable read would not see: say why instead
        store = cls._connect(Path(where).resolve().as_uri() + "?immutable=1", where, learner, club, check,
                             read_only_cause=cause)
        return store

    @classmethod
    def _connect(cls, target: str, where: str, learner: int = LOCAL_LEARNER, club: bool = False,
                 check: bool = True, read_only_cause: StoreError | None = None) -> Store:
        try:
            connection = sqlite3.connect(target, isolation_level=None, timeout=cls.BUSY_TIMEOUT,
                                         factory=_Connection, uri=target.startswith("file:"),
                                         check_same_thread=not club)
        except sqlite3.Error as error:
            raise explain(error, where) from None
        assert isinstance(connection, _Connection)
        connection.store_path = where
        store = cls(connection, where, learner=learner, club=club)
        store.read_only_cause = read_only_cause
        try:
            if check:
                store._check_and_prepare()
            else:
                store._pragmas()
        except BaseException as error:
            connection.close()
            if isinstance(error, (sqlite3.Error, OSError)):
                raise explain(error, where) from None
            raise
        return store

    def _pragmas(self) -> None:
        db = self.db
        if self.path != ":memory:" and self.read_only_cause is None and not _read_only_here(self.path):
            db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")

    def _check_and_prepare(self) -> None:
        db = self.db
        result = db.execute("PRAGMA quick_check").fetchone()
        if not result or result[0] != "ok":
            why = shorten(result[0] if result else "no answer", 60)
            raise StoreDamagedError(t("store.damaged", path=shown(self.path), why=why))
        self._pragmas()
        if self._format_known():
            return  # a store in use: only read here, so reading never waits for another program's write lock
        if self.read_only_cause is not None:  # an old store that cannot be written: named as such (issue 32)
            has_meta = self.db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").fetchone()
            row = self.db.execute("SELECT value FROM meta WHERE key = 'format'").fetchone() if has_meta else None
            found = ascii_int(str(row[0]), 9) if row else None
            if found is not None and found < FORMAT_VERSION:
                raise type(self.read_only_cause)(t("harden.old_format_cannot_write", path=shown(self.path),
                                                   found=found, known=FORMAT_VERSION))
        with self.transaction():
            db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            row = db.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
            if row is None:
                tables = {
                    r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
                } - {"meta"}
                if tables:
                    raise StoreDamagedError(t("store.foreign", path=shown(self.path)))
                create_bookkeeping(db, skip_meta=True)
                return
            try:
                found = int(row[0])
            except ValueError:
                why = f"format {shorten(repr(row[0]), 20)}"
                raise StoreDamagedError(t("store.damaged", path=shown(self.path), why=why)) from None
            if found > FORMAT_VERSION:
                raise StoreVersionError(
                    t("store.newer_format", path=shown(self.path), found=found, known=FORMAT_VERSION)
                )
        if found < FORMAT_VERSION:
            self._back_up(f"format{found}")
            with self.transaction() as db:
                from tutor.store.schema import format_1_to_2

                format_1_to_2(db)

    def _format_known(self) -> bool:
        """The bookkeeping is there and of the current format (checked without the write lock)."""
        has_meta = self.db.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name IN ('meta', 'schema_version', 'settings')"
        ).fetchall()
        if len(has_meta) < 3:
            return False
        row = self.db.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
        if row is None:
            return False
        try:
            found = int(row[0])
        except ValueError:
            return False  # the transaction below says it is damaged
        if found > FORMAT_VERSION:
            raise StoreVersionError(t("store.newer_format", path=shown(self.path), found=found, known=FORMAT_VERSION))
        return found == FORMAT_VERSION

    #: Why this store was opened read-only (immutable), when it was: the error of the read-write open.
    read_only_cause: StoreError | None = None

    def check_writable(self) -> None:
        """Raise the real reason this store cannot be written (a full disk, read-only media), if it cannot.

        A store opened read-only because the read-write open failed reads as usual; the first
        attempt to write — a transaction, a game's lock, an upgrade — says why in the store's name
        (issue 32: ``ddz play`` on read-only media blamed ``locks/``, an old store its backup).
        """
        if self.read_only_cause is not None:
            cause = self.read_only_cause
            raise type(cause)(str(cause))

    def close(self) -> None:
        if self._sqlite is not None:
            self._sqlite.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------- transactions
    @contextmanager
    def transaction(self) -> Iterator[Any]:
        """All-or-nothing block of work.  Nested blocks become savepoints.

        SQLite: ``BEGIN IMMEDIATE`` takes the write lock up front, so two running
        copies of ddz cannot interleave half-finished updates.  PostgreSQL: the
        transaction first takes this learner's advisory lock, so one learner's
        writes are serialised the same way while other learners' run in parallel.
        """
        if self._engine is not None:
            with self._engine.transaction(self) as tx:
                yield tx
            return
        self.check_writable()
        db = self.db
        depth = self._depth
        name = f"sp{depth}"
        db.execute("BEGIN IMMEDIATE" if depth == 0 else f"SAVEPOINT {name}")
        self._depth += 1
        try:
            yield db
        except BaseException:
            self._depth = depth
            try:
                if depth == 0:
                    db.execute("ROLLBACK")
                else:
                    db.execute(f"ROLLBACK TO {name}")
                    db.execute(f"RELEASE {name}")
            except StoreError:
                pass  # SQLite already rolled back (a full disk, an I/O error): the first error tells
            raise
        self._depth = depth
        try:
            db.execute("COMMIT" if depth == 0 else f"RELEASE {name}")
        except StoreError:
            if depth == 0 and db.in_transaction:
                try:
                    db.execute("ROLLBACK")
                except StoreError:
                    pass
            raise

    # ------------------------------------------------------------------ schemas
    def schema_version(self, area: str) -> int:
        row = self.db.execute("SELECT version FROM schema_version WHERE area = ?", (area,)).fetchone()
        return int(row[0]) if row else 0

    def register_schema(self, area: str, migrations: Sequence[Migration], baseline: Baseline | None = None) -> None:
        """Bring ``area``'s tables up to ``len(migrations)``; idempotent.

        A new area is created from ``baseline`` (when given) and then walks the
        migrations after it; an area that exists walks the migrations from its version.
        Up to date (the usual case) is seen without the write lock, so ``stats`` or
        ``history`` read while another program writes, and on read-only media.
        Before migrating an area that has tables already, the store is copied to
        ``ddz.sqlite3.bak-vN`` (N: the sum of every area's version before it).

        Raises:
            StoreVersionError: the store holds a newer version of this area.
        """
        target = len(migrations)
        if self._areas.get(area) == target or (self._engine is not None and self._engine.areas.get(area) == target):
            return
        current = self.schema_version(area)
        if current == target:
            self._know(area, target)
            return
        if 0 < current < target:
            self.check_writable()
            self._back_up()
        try:
            with self.transaction() as db:
                if self._engine is not None:
                    self._engine.lock_schema(db)
                current = self.schema_version(area)
                if current > target:
                    raise StoreVersionError(
                        t("store.newer_area", path=shown(self.path), area=area, found=current, known=target)
                    )
                steps = list(enumerate(migrations))[current:]
                if current == 0 and baseline is not None and baseline.version <= target:
                    for statement in baseline.statements:
                        db.execute(statement)
                    steps = steps[baseline.version:]
                for _, step in steps:
                    if callable(step):
                        step(db)
                    else:
                        for statement in step:
                            db.execute(statement)
                if current < target:
                    db.execute(
                        "INSERT INTO schema_version (area, version) VALUES (?, ?)"
                        " ON CONFLICT (area) DO UPDATE SET version = excluded.version",
                        (area, target),
                    )
        except sqlite3.Error as error:
            raise explain(error, self.path) from None
        self._know(area, target)

    def _know(self, area: str, version: int) -> None:
        self._areas[area] = version
        if self._engine is not None:
            self._engine.areas[area] = version

    def _back_up(self, name: str | None = None) -> None:
        """Copy the whole store (SQLite's backup: consistent, WAL included) before a migration, atomically.

        The copy is ``<file>.bak-vN`` before an area's migration (N: the sum of the area versions), or
        ``<file>.bak-format1`` before the bookkeeping's own (format 1 → 2, issue 25).  A PostgreSQL
        database is the administrator's to back up (pg_dump); nothing is copied there.
        """
        if self.path == ":memory:" or self._sqlite is None:
            return
        if name is None:
            total = self.db.execute("SELECT COALESCE(SUM(version), 0) FROM schema_version").fetchone()[0]
            name = f"v{int(total)}"
        target = Path(f"{self.path}.bak-{name}")
        partial = target.with_name(target.name + ".partial")
        try:
            copy = sqlite3.connect(partial)
            try:
                self._sqlite.backup(copy)
            finally:
                copy.close()
            os.replace(partial, target)
        except (sqlite3.Error, OSError) as error:
            try:
                partial.unlink()
            except OSError:
                pass
            raise explain(error, str(target)) from None  # no copy, no migration: nothing is risked

    # ----------------------------------------------------------------- settings
    def get_setting(self, key: str, default: Any = None) -> Any:
        """A stored setting of this learner (any JSON value), or ``default``."""
        row = self.db.execute(
            "SELECT value FROM settings WHERE learner = ? AND key = ?", (self.learner, key)
        ).fetchone()
        if row is None:
            return default
        try:
            return json.loads(row[0])
        except ValueError:
            return default

    def set_setting(self, key: str, value: Any) -> None:
        with self.transaction() as db:
            db.execute(
                "INSERT INTO settings (learner, key, value) VALUES (?, ?, ?)"
                " ON CONFLICT (learner, key) DO UPDATE SET value = excluded.value",
                (self.learner, key, json.dumps(value)),
            )

    def settings(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        rows = self.db.execute("SELECT key, value FROM settings WHERE learner = ? ORDER BY key", (self.learner,))
        for key, value in rows:
            try:
                out[key] = json.loads(value)
            except ValueError:
                continue
        return out


def create_bookkeeping(db: Any, skip_meta: bool = False) -> None:
    """The tables of format :data:`FORMAT_VERSION` on a new database, with the local learner (id 1)."""
    from datetime import datetime, timezone

    for statement in BOOKKEEPING[1 if skip_meta else 0:]:
        db.execute(statement)
    db.execute("INSERT INTO meta (key, value) VALUES ('format', ?)", (str(FORMAT_VERSION),))
    stamp = datetime.now(timezone.utc).isoformat(timespec="seconds")
    row = db.execute(
        "INSERT INTO users (name, name_key, password, teacher, created_at) VALUES (?, ?, NULL, 0, ?) RETURNING id",
        (LOCAL_NAME, LOCAL_NAME, stamp),
    ).fetchone()
    assert int(row[0]) == LOCAL_LEARNER, row


__all__ = [
    "FORMAT_VERSION",
    "LOCAL_LEARNER",
    "Baseline",
    "StoreConflictError",
    "GameBusyError",
    "Store",
    "StoreDamagedError",
    "StoreError",
    "StoreFullError",
    "StoreIOError",
    "StoreLocationError",
    "StoreLockedError",
    "StoreReadOnlyError",
    "StoreVersionError",
    "explain",
    "data_home",
    "default_path",
]
