"""The store on PostgreSQL: psycopg 3 and its connection pool (the ``club`` extra).

Why psycopg 3 + psycopg_pool rather than SQLAlchemy Core: the store already
writes its SQL by hand (small, explicit statements, one schema); what it needs
from a driver is parameters, transactions and a thread-safe pool, which psycopg
provides directly, with binary wheels and no extra layer to learn or to keep
in step.  SQLAlchemy would add a large dependency to translate a handful of
statements that :mod:`tutor.store.dialect` rewrites in a dozen lines.  The
measured figure (pool vs a new connection per request) is in docs/store.md.

One :class:`PostgresEngine` per process (opened by :class:`tutor.store.club.Club`)
holds the pool.  A :class:`~tutor.store.Store` on it borrows a connection for
each statement outside a transaction (autocommit) and for the whole of each
transaction; nothing of a learner lives in the process between requests.

Transactions take ``pg_advisory_xact_lock(LOCK_KEY, learner)`` first: one
learner's read-then-write steps (a lesson's best stars, a puzzle rating) are
serialised as SQLite's ``BEGIN IMMEDIATE`` serialises them, while other
learners' transactions run in parallel.  Schema changes take the lock
``(LOCK_KEY, 0)`` so that two workers starting at once never migrate twice.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from tutor.files import ascii_int, shorten
from tutor.i18n import t
from tutor.store import (
    FORMAT_VERSION,
    StoreConflictError,
    StoreDamagedError,
    StoreError,
    StoreIOError,
    StoreLockedError,
    StoreVersionError,
    create_bookkeeping,
)
from tutor.store.dialect import postgres

if TYPE_CHECKING:
    from tutor.store import Store

#: The first key of every advisory lock the store takes (the second is the learner, or 0 for the schema).
LOCK_KEY = 0x0DD2
#: Seconds to wait for the pool to open (a server starting with its database).
POOL_TIMEOUT = 30.0
#: Seconds a request waits for a pooled connection before saying the database is busy or down (the web's
#: 503): while PostgreSQL is down, every request answers within this, and the pool reconnects by itself.
REQUEST_TIMEOUT = 5.0
#: Seconds to wait for a new connection to be made (an unreachable host: the pool tries again later).
CONNECT_TIMEOUT = 3
#: A statement that runs longer is cancelled (a hung statement never holds a request for good).
STATEMENT_TIMEOUT_MS = 15_000


def redacted(url: str) -> str:
    """The database URL as messages show it: never the password."""
    return re.sub(r"(//[^:/@]*):[^@]*@", r"\1:***@", url)


class PoolBusyError(StoreLockedError):
    """No pooled connection came free within :data:`REQUEST_TIMEOUT` while the database answers: the server is
    busy (the web says so, with ``Retry-After``), not the database down."""


def explain_pg(error: BaseException, where: str) -> StoreError:
    """A psycopg or pool error met while using the database ``where`` as one honest line."""
    import psycopg
    from psycopg_pool import PoolTimeout

    if isinstance(error, StoreError):
        return error
    text = shorten(str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__, 60)
    if isinstance(error, PoolTimeout):
        return StoreLockedError(t("store.db_busy", path=where, why=text))
    if isinstance(error, psycopg.errors.UniqueViolation):
        return StoreConflictError(t("store.conflict", path=where, why=text))
    if isinstance(error, (psycopg.errors.LockNotAvailable, psycopg.errors.QueryCanceled)):
        return StoreLockedError(t("store.locked", path=where, why=text))
    if isinstance(error, psycopg.OperationalError):
        return StoreIOError(t("store.db_unreachable", path=where, why=text))
    return StoreIOError(t("store.unknown", path=where, why=text))


class Rows:
    """A finished statement's rows (the connection has gone back to the pool): sqlite3's cursor surface."""

    def __init__(self, rows: list[tuple[Any, ...]], rowcount: int) -> None:
        self._rows = rows
        self._next = 0
        self.rowcount = rowcount

    def fetchone(self) -> Any:
        if self._next >= len(self._rows):
            return None
        self._next += 1
        return self._rows[self._next - 1]

    def fetchall(self) -> list[Any]:
        rest, self._next = self._rows[self._next:], len(self._rows)
        return rest

    def __iter__(self) -> Iterator[Any]:
        return iter(self.fetchall())


class Adapter:
    """``store.db`` on PostgreSQL: ``execute(sql, params)`` in the store's transaction, or alone."""

    def __init__(self, engine: PostgresEngine, store: Store) -> None:
        self.engine = engine
        self.store = store

    def execute(self, sql: str, parameters: Any = (), /) -> Rows:
        return self.engine.execute(self.store.tx, sql, parameters)


class PostgresEngine:
    """One process's pool of connections to one PostgreSQL database."""

    def __init__(self, url: str, min_size: int = 1, max_size: int = 10) -> None:
        import psycopg
        from psycopg_pool import ConnectionPool

        self.url = url
        self.where = redacted(url)
        try:  # one direct try first: a wrong address fails at once with the server's reason, not after the pool's wait
            psycopg.connect(url, connect_timeout=10).close()
        except (psycopg.Error, ValueError) as error:
            raise StoreIOError(t("store.db_unreachable", path=self.where, why=_first_line(error))) from None
        #: Areas known to be up to date in this database (register_schema's fast path, shared by all stores).
        self.areas: dict[str, int] = {}
        # check: a connection is tested (one round trip) when it leaves the pool, so one broken by a
        # database restart is replaced instead of failing the request that got it
        self.pool = ConnectionPool(url, min_size=min_size, max_size=max_size, open=False, timeout=REQUEST_TIMEOUT,
                                   kwargs={"autocommit": True, "connect_timeout": CONNECT_TIMEOUT},
                                   configure=_configure, check=ConnectionPool.check_connection, name="ddz-store")
        try:
            self.pool.open(wait=True, timeout=POOL_TIMEOUT)
        except Exception as error:  # noqa: BLE001 - PoolTimeout wraps the connection failure
            self.pool.close()
            raise StoreIOError(t("store.db_unreachable", path=self.where, why=_first_line(error))) from None
        self._prepare()

    def close(self) -> None:
        self.pool.close()

    def adapter(self, store: Store) -> Adapter:
        return Adapter(self, store)

    # ---------------------------------------------------------------- statements
    def execute(self, connection: Any, sql: str, parameters: Any = ()) -> Rows:
        """Run one statement on ``connection`` (a transaction's) or on a borrowed one; rows fetched at once."""
        try:
            if connection is not None:
                return self._run(connection, sql, parameters)
            with self.pool.connection() as borrowed:
                return self._run(borrowed, sql, parameters)
        except StoreError:
            raise
        except Exception as error:
            raise self.explain(error) from None

    def explain(self, error: BaseException) -> StoreError:
        """:func:`explain_pg`, told apart: a pool timeout with every connection made and in use is the server
        busy (:class:`PoolBusyError`); one with connections missing is a database that cannot be reached."""
        from psycopg_pool import PoolTimeout

        if isinstance(error, PoolTimeout):
            stats = self.pool.get_stats()
            if stats.get("pool_size", 0) >= self.pool.max_size and not stats.get("pool_available", 0):
                text = shorten(str(error).strip().splitlines()[0] if str(error).strip() else "PoolTimeout", 60)
                return PoolBusyError(t("store.db_busy", path=self.where, why=text))
        return explain_pg(error, self.where)

    @staticmethod
    def _run(connection: Any, sql: str, parameters: Any) -> Rows:
        cursor = connection.execute(postgres(sql), tuple(parameters))
        rows = cursor.fetchall() if cursor.description is not None else []
        return Rows(rows, cursor.rowcount)

    @contextmanager
    def transaction(self, store: Store) -> Iterator[Adapter]:
        """See :meth:`tutor.store.Store.transaction`: nested blocks are savepoints on the same connection."""
        if store.tx is not None:
            depth = store._depth
            name = f"sp{depth}"
            self.execute(store.tx, f"SAVEPOINT {name}")
            store._depth += 1
            try:
                yield self.adapter(store)
            except BaseException:
                store._depth = depth
                try:
                    self.execute(store.tx, f"ROLLBACK TO SAVEPOINT {name}")
                except StoreError:
                    pass
                raise
            store._depth = depth
            self.execute(store.tx, f"RELEASE SAVEPOINT {name}")
            return
        try:
            with self.pool.connection() as connection:
                connection.execute(f"BEGIN; SELECT pg_advisory_xact_lock({LOCK_KEY}, {int(store.learner)})")
                store.tx, store._depth = connection, 1
                try:
                    yield self.adapter(store)
                except BaseException:
                    store.tx, store._depth = None, 0
                    try:
                        connection.execute("ROLLBACK")
                    except Exception:  # noqa: BLE001 - a dead connection: the pool drops it, the first error tells
                        pass
                    raise
                store.tx, store._depth = None, 0
                connection.execute("COMMIT")
        except StoreError:
            raise
        except Exception as error:
            import psycopg
            from psycopg_pool import PoolTimeout

            if isinstance(error, (psycopg.Error, PoolTimeout)):
                raise self.explain(error) from None
            raise

    def lock_schema(self, db: Adapter) -> None:
        """Inside a transaction: wait until no other worker changes the schema (released at commit)."""
        db.execute(f"SELECT pg_advisory_xact_lock({LOCK_KEY}, 0)")

    # ------------------------------------------------------------------ opening
    def _prepare(self) -> None:
        """Create the bookkeeping on an empty database, or check its format (once per process)."""
        try:
            with self.pool.connection() as connection:
                connection.execute(f"BEGIN; SELECT pg_advisory_xact_lock({LOCK_KEY}, 0)")
                try:
                    exists = _scalar(connection.execute("SELECT to_regclass('meta') IS NOT NULL").fetchone())
                    if not exists:
                        tables = _scalar(connection.execute(
                            "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema()"
                        ).fetchone())
                        if tables:
                            raise StoreDamagedError(t("store.foreign", path=self.where))
                        create_bookkeeping(_Direct(self, connection))
                    else:
                        row = connection.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
                        found = -1 if not row or ascii_int(str(row[0]), 18) is None else int(row[0])
                        if found < 0:
                            raise StoreDamagedError(t("store.damaged", path=self.where, why="format"))
                        if found > FORMAT_VERSION:
                            raise StoreVersionError(t("store.newer_format", path=self.where, found=found,
                                                      known=FORMAT_VERSION))
                        # Format 1 never existed on PostgreSQL: a database begins at format 2.
                except BaseException:
                    connection.execute("ROLLBACK")
                    raise
                connection.execute("COMMIT")
        except StoreError:
            self.pool.close()
            raise
        except Exception as error:
            self.pool.close()
            raise explain_pg(error, self.where) from None


class _Direct:
    """An ``execute`` adapter on one connection (the bookkeeping is made before any store exists)."""

    def __init__(self, engine: PostgresEngine, connection: Any) -> None:
        self.engine, self.connection = engine, connection

    def execute(self, sql: str, parameters: Any = (), /) -> Rows:
        return self.engine.execute(self.connection, sql, parameters)


def _configure(connection: Any) -> None:
    """Every new connection: statements are cut after :data:`STATEMENT_TIMEOUT_MS`."""
    connection.execute(f"SET statement_timeout = {STATEMENT_TIMEOUT_MS}")


def _scalar(row: Any) -> Any:
    return None if row is None else row[0]


def _first_line(error: BaseException) -> str:
    cause = error.__cause__ or error.__context__ or error
    text = str(cause).strip() or type(cause).__name__
    return shorten(text.splitlines()[0], 60)
