"""A club: many learners and their teachers in one database (issue 25; docs/store.md, docs/club.md).

::

    from tutor.store.club import Club

    club = Club.open("postgresql://ddz@db.example/ddz")   # or a SQLite path; None: $DDZ_DB
    with club.store_for(learner_id) as store:              # a Store scoped to that learner
        GameStore(store).history()
    club.users.add("anna", "secret-pass")                  # tutor.store.users
    club.class_summary()                                   # tutor.store.summary
    club.close()

The club is opened once per process and shared by its threads: on
PostgreSQL it holds the connection pool, on SQLite only the file's path (each
store opens its own connection, cheaply: the file is checked once, here).
Stores from a club guard games in progress by their version in the database
alone (any worker may continue any learner's game), never by lock files.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from tutor.i18n import t
from tutor.store import LOCAL_LEARNER, Store, StoreError, default_path
from tutor.store.postgres import PostgresEngine

if TYPE_CHECKING:
    from tutor.store.summary import LearnerSummary
    from tutor.store.users import Users

#: The environment variable naming the club's database (``ddz serve --db`` and ``--db`` options win over it).
DB_VARIABLE = "DDZ_DB"


def is_postgres(url: str) -> bool:
    return url.startswith(("postgresql://", "postgres://", "postgresql:", "postgres:"))


def database_url(url: str | None = None) -> str | None:
    """The database a command should use: ``url``, else ``$DDZ_DB``, else None (the personal store)."""
    chosen = url if url else os.environ.get(DB_VARIABLE, "")
    return chosen or None


class Club:
    """One club database, shared by the threads of a process."""

    def __init__(self, url: str, engine: PostgresEngine | None, path: str | None) -> None:
        self.url = url
        self._engine = engine
        self._path = path

    @classmethod
    def open(cls, url: str | None = None, *, pool_size: int = 10) -> Club:
        """Open the club at ``url`` (``postgresql://…``, or a SQLite file's path; None: ``$DDZ_DB``,
        else the personal store's file), creating its tables if needed.

        Raises:
            StoreError: unreachable database, damaged or newer store (one line each).
        """
        chosen = database_url(url)
        if chosen is not None and is_postgres(chosen):
            try:
                engine = PostgresEngine(chosen, min_size=1, max_size=pool_size)
            except ImportError:
                raise StoreError(t("store.no_driver")) from None
            club = cls(chosen, engine, None)
        else:
            path = chosen[len("sqlite:///"):] if chosen and chosen.startswith("sqlite:///") else chosen
            where = str(Path(path).expanduser()) if path else str(default_path())
            Store.open(where).close()  # creates or checks (and migrates) the file once
            club = cls(where, None, where)
        club._register_all()
        return club

    @property
    def engine(self) -> str:
        return "sqlite" if self._engine is None else "postgresql"

    @property
    def where(self) -> str:
        """The database as messages name it (no password)."""
        return self._path if self._engine is None else self._engine.where  # type: ignore[return-value]

    def store_for(self, learner_id: int) -> Store:
        """A :class:`Store` that reads and writes only ``learner_id``'s rows (close it when done)."""
        if self._engine is not None:
            return Store(None, self._engine.where, learner=learner_id, club=True, engine=self._engine)
        assert self._path is not None
        return Store.open(self._path, learner=learner_id, club=True, check=False)

    @contextmanager
    def scratch(self) -> Iterator[Store]:
        """A store for club-wide work (users, sessions, the class summary), closed after the block."""
        store = self.store_for(LOCAL_LEARNER)
        try:
            yield store
        finally:
            store.close()

    @property
    def users(self) -> Users:
        """Accounts, sign-in sessions and assignments (:class:`tutor.store.users.Users`)."""
        from tutor.store.users import Users

        return Users(self)

    def class_summary(self) -> list[LearnerSummary]:
        """Every learner of the club (teachers and the local learner left out), for the teacher's page."""
        from tutor.store.summary import class_summary

        with self.scratch() as store:
            return class_summary(store)

    def _register_all(self) -> None:
        """Bring every area's tables up to date once, at opening (workers then skip the check)."""
        from tutor.store.areas import register_all

        with self.scratch() as store:
            register_all(store)

    def close(self) -> None:
        if self._engine is not None:
            self._engine.close()

    def __enter__(self) -> Club:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
