"""``ddz store export FILE`` and ``ddz store import FILE``: one learner's data between stores (issue 25).

The personal store (SQLite in DDZ_HOME) and a club database (``--db`` or
``$DDZ_DB``: PostgreSQL, or another SQLite file) hold the same tables; the file
in between is JSON lines (:mod:`tutor.store.transfer`).  Bad files and unknown
learners are one line and exit 2; an import writes all or nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from tutor.cli.errors import GivenPath, handle_user_errors
from tutor.cli.help_text import TranslatedGroup
from tutor.cli.say import say
from tutor.files import quoted, shown
from tutor.i18n import t
from tutor.store import LOCAL_LEARNER, LOCAL_NAME, Store


@contextmanager
def learner_store(db: str | None, learner: str | None) -> Iterator[tuple[Store, str]]:
    """The store of ``learner`` (None: the local learner) in ``db`` (None: $DDZ_DB, else the personal store)."""
    from tutor.store.club import Club, database_url
    from tutor.store.users import find_user

    if database_url(db) is None:  # the personal store: only read here until the command's own work
        with Store.open() as store:
            if learner is None:
                yield store, LOCAL_NAME
                return
            user = find_user(store, learner)
            if user is None:
                raise ValueError(t("store.no_user", name=quoted(learner)))
        with Store.open(learner=user.id) as store:
            yield store, user.name
        return
    with Club.open(db) as club:
        user_id, name = LOCAL_LEARNER, LOCAL_NAME
        if learner is not None:
            user = club.users.get(learner)
            if user is None:
                raise ValueError(t("store.no_user", name=quoted(learner)))
            user_id, name = user.id, user.name
        with club.store_for(user_id) as store:
            yield store, name


@click.group("store", cls=TranslatedGroup)
def store_group() -> None:
    # Help text: help.store.  Gathers export and import.
    pass


@store_group.command("export")
@click.argument("file", type=GivenPath(dir_okay=False, path_type=Path))
@click.option("--learner", default=None)
@click.option("--db", "db", default=None)
@handle_user_errors
def export_command(file: Path, learner: str | None, db: str | None) -> None:
    # Help text: help.store.export.
    from tutor.store.transfer import export_file

    with learner_store(db, learner) as (store, name):
        moved = export_file(store, name, file)
    say(t("store.exported", n=moved.total, learner=name, path=shown(file)))


@store_group.command("import")
@click.argument("file", type=GivenPath(dir_okay=False, path_type=Path))
@click.option("--learner", default=None)
@click.option("--db", "db", default=None)
@click.option("--replace", is_flag=True)
@handle_user_errors
def import_command(file: Path, learner: str | None, db: str | None, replace: bool) -> None:
    # Help text: help.store.import.  The file is checked whole before the store is opened.
    from tutor.store.transfer import import_rows, read_export

    _, rows = read_export(file)
    with learner_store(db, learner) as (store, name):
        moved = import_rows(store, rows, replace=replace)
    say(t("store.imported", n=moved.total, learner=name, path=shown(file)))


COMMANDS = [store_group]
