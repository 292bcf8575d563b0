"""``ddz users add|list|remove|passwd|unlock|import``: the accounts of a club (``ddz serve --db …``).

Passwords come from standard input, never from the command line (which other
users of the machine can read in the process list): typed twice without echo at
a terminal, or one line from a pipe (``printf '%s\\n' "$PW" | ddz users add ann``).
The store hashes them (argon2); this module only reads, checks and passes them on.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from tutor.cli.errors import UserError, handle_user_errors
from tutor.cli.help_text import TranslatedCommand, TranslatedGroup
from tutor.cli.say import say
from tutor.i18n import t

#: The shortest password accepted (the store hashes whatever it is given).
MIN_PASSWORD = 8


def club_url(db: str | None) -> str:
    """``--db`` or ``DDZ_DB`` (click reads the variable), refused when neither is given."""
    if not db or not db.strip():
        raise UserError(t("club.db_needed"))
    return db.strip()


def open_club(db: str | None) -> Any:
    """The club at ``db`` (its store layer says in one line why it cannot be opened)."""
    url = club_url(db)
    try:
        from tutor.store.club import Club
    except ImportError:
        raise UserError(t("club.needs_club_extra")) from None
    try:
        return Club.open(url)
    except ImportError:
        raise UserError(t("club.needs_club_extra")) from None


def read_password(name: str) -> str:
    """The new password: prompted twice without echo at a terminal, else one line of standard input."""
    if sys.stdin.isatty():
        first = click.prompt(t("club.password_prompt", name=name), hide_input=True, err=True)
        again = click.prompt(t("club.password_again"), hide_input=True, err=True)
        if first != again:
            raise UserError(t("club.password_mismatch"))
        password = str(first)
    else:
        password = sys.stdin.readline().rstrip("\r\n")
        if not password:
            raise UserError(t("club.password_empty"))
    if len(password) < MIN_PASSWORD:
        raise UserError(t("club.password_short", n=MIN_PASSWORD))
    return password


db_option = click.option("--db", envvar="DDZ_DB", default=None)


@click.group("users", cls=TranslatedGroup)
def users_group() -> None:
    # Help text: help.users.
    pass


@users_group.command("add", cls=TranslatedCommand)
@click.argument("name")
@click.option("--teacher", is_flag=True, default=False)
@click.option("--class", "classes", multiple=True)
@db_option
@handle_user_errors
def add_command(name: str, teacher: bool, classes: tuple[str, ...], db: str | None) -> None:
    from tutor.store.users import check_class, check_name

    name = check_name(name)  # before the password is asked for
    for class_name in classes:
        check_class(class_name)
    club = open_club(db)
    try:
        if club.users.get(name) is not None:
            raise UserError(t("club.user_exists", name=name))
        club.users.add(name, read_password(name), teacher=teacher, classes=classes)
    finally:
        club.close()
    say(t("club.users_added", name=name, role=t("club.role_teacher" if teacher else "club.role_learner")))


@users_group.command("list", cls=TranslatedCommand)
@db_option
@handle_user_errors
def list_command(db: str | None) -> None:
    club = open_club(db)
    try:
        users = club.users.list()
        classes = club.users.classes()
    finally:
        club.close()
    if not users:
        say(t("club.users_none"))
        return
    width = max(len(t("club.col_name")), *(len(user.name) for user in users))
    roles = {user.id: t("club.role_teacher" if user.is_teacher else "club.role_learner") for user in users}
    role_width = max(len(t("club.col_role")), *(len(role) for role in roles.values()))
    click.echo(f"{t('club.col_name'):<{width}}  {t('club.col_role'):<{role_width}}  {t('club.col_classes')}".rstrip())
    for user in users:
        click.echo(f"{user.name:<{width}}  {roles[user.id]:<{role_width}}  {', '.join(classes.get(user.id, []))}".rstrip())
    say(t("club.users_count", n=len(users)))


@users_group.command("remove", cls=TranslatedCommand)
@click.argument("name")
@click.option("--yes", is_flag=True, default=False)
@db_option
@handle_user_errors
def remove_command(name: str, yes: bool, db: str | None) -> None:
    club = open_club(db)
    try:
        _known(club, name)
        if not yes:  # everything of theirs goes: asked first (a script says --yes)
            if not can_ask():
                raise UserError(t("club.remove_needs_yes"))
            if not click.confirm(t("club.remove_confirm", name=name), default=False, err=True):
                raise UserError(t("club.remove_kept"))
        club.users.remove(name)  # every row of theirs, what they had open in a browser included
    finally:
        club.close()
    say(t("club.users_removed", name=name))


def can_ask() -> bool:
    """Whether someone at a terminal can answer a question."""
    return sys.stdin.isatty()


def _known(club: Any, name: str) -> Any:
    user = club.users.get(name)
    if user is None:
        raise UserError(t("club.user_unknown", name=repr(name if len(name) <= 40 else name[:40] + "…")))
    return user


@users_group.command("passwd", cls=TranslatedCommand)
@click.argument("name")
@db_option
@click.option("--keep", is_flag=True, default=False)
@handle_user_errors
def passwd_command(name: str, db: str | None, keep: bool = False) -> None:
    # A teacher (or whoever runs the club) resets a learner's forgotten password; their sessions end, and
    # the learner chooses their own at the next sign-in (--keep: the password given stays theirs).
    club = open_club(db)
    try:
        user = _known(club, name)
        club.users.set_password(user.name, read_password(user.name), one_time=not keep)
    finally:
        club.close()
    say(t("club.users_password_set", name=user.name))


@users_group.command("unlock", cls=TranslatedCommand)
@click.argument("name")
@db_option
@handle_user_errors
def unlock_command(name: str, db: str | None) -> None:
    from tutor.store.sign_ins import SignInFailures

    club = open_club(db)
    try:
        user = _known(club, name)
        with club.scratch() as store:
            gone = SignInFailures(store).clear(f"name:{user.name.casefold()}")
    finally:
        club.close()
    say(t("club.users_unlocked", name=user.name, n=gone))


@users_group.command("import", cls=TranslatedCommand)
@click.argument("file", type=click.Path(dir_okay=False, path_type=str))
@db_option
@handle_user_errors
def import_command(file: str, db: str | None) -> None:
    # CSV: name[,class[,role]] with a header line naming the columns; every row is checked before any is added.
    from tutor.cli.users_import import add_all, read_rows

    rows = read_rows(file)
    club = open_club(db)
    try:
        added = add_all(club, rows, file)
    finally:
        club.close()
    width = max(len(name) for name, _ in added)
    for name, password in added:
        click.echo(f"{name:<{width}}  {password}")
    say(t("club.import_done", n=len(added)), err=True)


COMMANDS = [users_group]
