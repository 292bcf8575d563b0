"""A club's accounts: users, sign-in sessions and a teacher's assignments (issue 25).

* **Users** live in the store's bookkeeping table ``users`` (every store has
  it: the local learner is user 1, named "local", with no password and no
  sign-in).  Names are 1–32 letters, digits, ``.``, ``_`` or ``-`` starting
  with a letter or digit, unique without regard to case.  Passwords are hashed
  with **Argon2id** (argon2-cffi's defaults: memory-hard, salted, parameters in
  the hash so they can be raised later; a hash made with weaker parameters is
  replaced at the next sign-in).  A wrong name costs the same hash as a wrong
  password, so timing does not tell which names exist.
* **Sessions** (table ``sessions``): a sign-in gives a random token (256 bits)
  for the cookie; only its SHA-256 is stored, so a copy of the database signs
  nobody in.  Each has an expiry; an expired or ended session signs nobody in.
* **Assignments** (table ``assignments``): a teacher gives one learner, or the
  whole class (learner None), a lesson (``kind`` "lesson", ``ref`` its id) or a
  puzzle theme ("puzzle_theme", the theme's name).  The store checks who may
  assign; the web checks that the lesson or theme exists (the store does not
  know the course).

Errors are :class:`UserError` (a one-line :class:`~tutor.store.StoreError`).
"""

from __future__ import annotations

import builtins

import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from contextlib import AbstractContextManager
from typing import Any, Protocol

from tutor.files import quoted
from tutor.i18n import t
from tutor.store import LOCAL_LEARNER, LOCAL_NAME, Store, StoreConflictError, StoreError
from tutor.store.clubschema import register

__all__ = ["Assignment", "User", "UserError", "Users", "check_name", "check_password", "find_user", "register"]


class Club(Protocol):
    """What the accounts need of a club (:class:`tutor.store.club.Club`): a store for club-wide work."""

    def scratch(self) -> AbstractContextManager[Store]: ...

NAME = re.compile(r"^[^\W_][\w.\-]{0,31}$")
MIN_PASSWORD, MAX_PASSWORD = 8, 1024
#: How often a learner's last activity is written (a request within it changes nothing).
ACTIVITY_STEP = timedelta(minutes=1)
#: How long a sign-in lasts.
SESSION_LIFETIME = timedelta(days=14)
KINDS = ("lesson", "puzzle_theme")
MAX_REF = 64


class UserError(StoreError):
    """A name, password or assignment that cannot be used (one line for the user: exit 2 or a 4xx)."""


@dataclass(frozen=True, slots=True)
class User:
    id: int
    name: str
    is_teacher: bool
    #: The password was given by someone else (``ddz users passwd``, an import): to be changed before anything else.
    must_change: bool = False


@dataclass(frozen=True, slots=True)
class Assignment:
    id: int
    teacher_id: int
    #: None: the whole class.
    learner_id: int | None
    kind: str
    ref: str
    created_at: str
    #: The class a class-wide assignment is for (None with learner None: every learner of the club).
    class_name: str | None = None


def _now() -> datetime:
    return datetime.now(timezone.utc)


def _stamp(when: datetime) -> str:
    return when.astimezone(timezone.utc).isoformat(timespec="seconds")


def _hasher() -> Any:
    try:
        from argon2 import PasswordHasher
    except ImportError:
        raise StoreError(t("store.no_driver")) from None
    return PasswordHasher()


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def check_name(name: str) -> str:
    """``name`` if it can name an account, else :class:`UserError` naming the problem."""
    if not NAME.match(name):
        raise UserError(t("store.bad_name", name=quoted(name)))
    if name.casefold() == LOCAL_NAME:
        raise UserError(t("store.reserved_name", name=quoted(name)))
    return name


def check_class(name: str) -> str:
    """``name`` if it can name a class (as an account's name: "7b", "grade-7", "Тигры"), else :class:`UserError`."""
    if not NAME.match(name):
        raise UserError(t("club.bad_class", name=quoted(name)))
    return name


def check_password(password: str) -> str:
    if len(password) < MIN_PASSWORD:
        raise UserError(t("store.short_password", n=MIN_PASSWORD))
    if len(password) > MAX_PASSWORD:
        raise UserError(t("store.long_password", n=MAX_PASSWORD))
    return password


class Users:
    """The accounts of a club (each call borrows a store of the club and gives it back)."""

    def __init__(self, club: Club) -> None:
        self.club = club

    # ------------------------------------------------------------------- users
    def add(self, name: str, password: str, teacher: bool = False, classes: tuple[str, ...] = (),
            *, one_time: bool = False) -> User:
        """A new account (a member of ``classes``); ``one_time``: its owner changes the password at the first sign-in.

        Raises:
            UserError: a bad name, class or password, or the name is taken.
        """
        check_name(name)
        check_password(password)
        for class_name in classes:
            check_class(class_name)
        digest = _hasher().hash(password)
        with self.club.scratch() as store:
            try:
                with store.transaction() as db:
                    if db.execute("SELECT 1 FROM users WHERE name_key = ?", (name.casefold(),)).fetchone():
                        raise UserError(t("store.name_taken", name=quoted(name)))
                    row = db.execute(
                        "INSERT INTO users (name, name_key, password, teacher, created_at) VALUES (?, ?, ?, ?, ?)"
                        " RETURNING id", (name, name.casefold(), digest, int(teacher), _stamp(_now())),
                    ).fetchone()
                    for class_name in classes:
                        db.execute("INSERT INTO class_members (class_name, user_id) VALUES (?, ?)",
                                   (class_name, int(row[0])))
                    if one_time:
                        db.execute("INSERT INTO password_changes (user_id, since) VALUES (?, ?)",
                                   (int(row[0]), _stamp(_now())))
            except StoreConflictError:  # added by another process at the same instant
                raise UserError(t("store.name_taken", name=quoted(name))) from None
        return User(int(row[0]), name, teacher, one_time)

    def get(self, name: str) -> User | None:
        with self.club.scratch() as store:
            return find_user(store, name)

    def by_id(self, user_id: int) -> User | None:
        with self.club.scratch() as store:
            row = store.db.execute("SELECT id, name, teacher FROM users WHERE id = ?", (user_id,)).fetchone()
        return None if row is None else User(int(row[0]), str(row[1]), bool(row[2]))

    def list(self) -> list[User]:  # noqa: A003 - the contract's name (club-api.md)
        """Every account (not the local learner), by name."""
        with self.club.scratch() as store:
            rows = store.db.execute(
                "SELECT id, name, teacher FROM users WHERE id <> ? ORDER BY name_key", (LOCAL_LEARNER,)
            ).fetchall()
        return [User(int(r[0]), str(r[1]), bool(r[2])) for r in rows]

    def remove(self, name: str) -> User:
        """Delete an account with all its data, sessions and assignments, in one transaction.

        Raises:
            UserError: no such account.
        """
        from tutor.store.areas import delete_learner_rows

        user = self.get(name)
        if user is None:
            raise UserError(t("store.no_user", name=quoted(name)))
        with self.club.scratch() as store:
            with store.transaction() as db:
                delete_learner_rows(store, user.id)
                db.execute("DELETE FROM sessions WHERE user_id = ?", (user.id,))
                db.execute("DELETE FROM class_members WHERE user_id = ?", (user.id,))
                db.execute("DELETE FROM activity WHERE user_id = ?", (user.id,))
                db.execute("DELETE FROM assignments WHERE learner = ? OR teacher = ?", (user.id, user.id))
                db.execute("DELETE FROM users WHERE id = ?", (user.id,))
        return user

    def set_password(self, name: str, password: str, *, one_time: bool = False) -> None:
        """A new password; every session of the account ends (sign in again).

        ``one_time``: given by someone else (a teacher's reset): its owner must change it at the next sign-in.
        """
        check_password(password)
        user = self.get(name)
        if user is None:
            raise UserError(t("store.no_user", name=quoted(name)))
        digest = _hasher().hash(password)
        with self.club.scratch() as store:
            with store.transaction() as db:
                db.execute("UPDATE users SET password = ? WHERE id = ?", (digest, user.id))
                db.execute("DELETE FROM sessions WHERE user_id = ?", (user.id,))
                db.execute("DELETE FROM password_changes WHERE user_id = ?", (user.id,))
                if one_time:
                    db.execute("INSERT INTO password_changes (user_id, since) VALUES (?, ?)",
                               (user.id, _stamp(_now())))

    def change_own_password(self, user: User, password: str) -> str:
        """The signed-in ``user`` chose a password: kept, the other sign-ins end; the new session's token."""
        self.set_password(user.name, password)
        return self.create_session(user.id)

    # ----------------------------------------------------------------- classes
    def join(self, user_id: int, class_name: str) -> None:
        """Put an account in a class (already in it: nothing changes)."""
        check_class(class_name)
        with self.club.scratch() as store, store.transaction() as db:
            db.execute("INSERT INTO class_members (class_name, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
                       (class_name, user_id))

    def leave(self, user_id: int, class_name: str) -> bool:
        with self.club.scratch() as store, store.transaction() as db:
            gone = db.execute("DELETE FROM class_members WHERE class_name = ? AND user_id = ?", (class_name, user_id))
            return int(gone.rowcount) > 0

    def classes_of(self, user_id: int) -> builtins.list[str]:
        """The classes an account is in, by name."""
        with self.club.scratch() as store:
            rows = store.db.execute("SELECT class_name FROM class_members WHERE user_id = ? ORDER BY class_name",
                                    (user_id,)).fetchall()
        return [str(r[0]) for r in rows]

    def classes(self) -> dict[int, builtins.list[str]]:
        """Every account's classes (accounts in none left out)."""
        with self.club.scratch() as store:
            rows = store.db.execute("SELECT user_id, class_name FROM class_members ORDER BY class_name").fetchall()
        found: dict[int, builtins.list[str]] = {}
        for user_id, class_name in rows:
            found.setdefault(int(user_id), []).append(str(class_name))
        return found

    def learners_of(self, teacher_id: int) -> set[int] | None:
        """The learners a teacher sees: the members of the teacher's classes; None (every learner) for a
        teacher in no class (a club with one class need not name it)."""
        with self.club.scratch() as store:
            mine = store.db.execute("SELECT class_name FROM class_members WHERE user_id = ?", (teacher_id,)).fetchall()
            if not mine:
                return None
            rows = store.db.execute(
                "SELECT DISTINCT m.user_id FROM class_members m JOIN class_members t ON t.class_name = m.class_name"
                " JOIN users u ON u.id = m.user_id WHERE t.user_id = ? AND u.teacher = 0", (teacher_id,)).fetchall()
        return {int(r[0]) for r in rows}

    def last_active(self) -> dict[int, str]:
        """Each account's last request (UTC stamp, to the minute), for the teacher's page."""
        with self.club.scratch() as store:
            rows = store.db.execute("SELECT user_id, last_seen FROM activity").fetchall()
        return {int(r[0]): str(r[1]) for r in rows}

    def verify(self, name: str, password: str) -> User | None:
        """The account when ``password`` is its password, else None (same cost either way)."""
        from argon2.exceptions import InvalidHashError, VerificationError

        hasher = _hasher()
        with self.club.scratch() as store:
            row = store.db.execute(
                "SELECT id, name, teacher, password FROM users WHERE name_key = ? AND id <> ?",
                (name.casefold(), LOCAL_LEARNER),
            ).fetchone()
        if row is None or row[3] is None:
            hasher.hash(password)  # as slow as a real check: no timing tells which names exist
            return None
        try:
            hasher.verify(str(row[3]), password)
        except (VerificationError, InvalidHashError):
            return None
        if hasher.check_needs_rehash(str(row[3])):
            with self.club.scratch() as store, store.transaction() as db:
                db.execute("UPDATE users SET password = ? WHERE id = ?", (hasher.hash(password), int(row[0])))
        return User(int(row[0]), str(row[1]), bool(row[2]))

    # ---------------------------------------------------------------- sessions
    def create_session(self, user_id: int, lifetime: timedelta = SESSION_LIFETIME) -> str:
        """A new sign-in for ``user_id``: the token for the cookie (only its hash is stored)."""
        token = secrets.token_urlsafe(32)
        now = _now()
        with self.club.scratch() as store, store.transaction() as db:
            db.execute("DELETE FROM sessions WHERE expires_at <= ?", (_stamp(now),))  # keeps the table small
            db.execute(
                "INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
                (_token_hash(token), user_id, _stamp(now), _stamp(now + lifetime)),
            )
        return token

    def user_for_session(self, token: str) -> User | None:
        """The signed-in user of ``token``; None when unknown, ended or expired."""
        if not token or len(token) > 200:
            return None
        with self.club.scratch() as store:
            now = _now()
            row = store.db.execute(
                "SELECT u.id, u.name, u.teacher, p.user_id FROM sessions s JOIN users u ON u.id = s.user_id"
                " LEFT JOIN password_changes p ON p.user_id = u.id"
                " WHERE s.token_hash = ? AND s.expires_at > ?", (_token_hash(token), _stamp(now)),
            ).fetchone()
            if row is not None:  # last active, written at most once a minute (one statement, rarely a write)
                store.db.execute(
                    "INSERT INTO activity (user_id, last_seen) VALUES (?, ?) ON CONFLICT (user_id) DO UPDATE"
                    " SET last_seen = excluded.last_seen WHERE activity.last_seen < ?",
                    (int(row[0]), _stamp(now), _stamp(now - ACTIVITY_STEP)))
        return None if row is None else User(int(row[0]), str(row[1]), bool(row[2]), row[3] is not None)

    def end_session(self, token: str) -> None:
        with self.club.scratch() as store, store.transaction() as db:
            db.execute("DELETE FROM sessions WHERE token_hash = ?", (_token_hash(token),))

    # ------------------------------------------------------------- assignments
    def assign(self, teacher_id: int, learner_id: int | None, kind: str, ref: str,
               class_name: str | None = None) -> Assignment:
        """A teacher gives a learner (or, with None, ``class_name``, or every learner) a lesson or a puzzle theme.

        A teacher in classes assigns only to their classes' learners and to their own classes.

        Raises:
            UserError: not a teacher, no such learner (or not theirs), an unknown kind or an empty/long ref.
        """
        teacher = self.by_id(teacher_id)
        if teacher is None or not teacher.is_teacher:
            raise UserError(t("store.not_teacher"))
        if learner_id is not None:
            learner = self.by_id(learner_id)
            if learner is None or learner.id == LOCAL_LEARNER:
                raise UserError(t("store.no_user", name=quoted(learner_id)))
        visible = self.learners_of(teacher_id)
        if learner_id is not None and visible is not None and learner_id not in visible:
            raise UserError(t("store.no_user", name=quoted(learner_id)))
        if learner_id is None and visible is not None and class_name not in self.classes_of(teacher_id):
            raise UserError(t("club.not_your_class", name=quoted(class_name or "")))
        if learner_id is not None:
            class_name = None
        elif class_name is not None:
            check_class(class_name)
        if kind not in KINDS:
            raise UserError(t("store.bad_kind", kind=quoted(kind), kinds=", ".join(KINDS)))
        if not ref or len(ref) > MAX_REF or not ref.isprintable():
            raise UserError(t("store.bad_ref", ref=quoted(ref)))
        stamp = _stamp(_now())
        with self.club.scratch() as store, store.transaction() as db:
            row = db.execute(
                "INSERT INTO assignments (teacher, learner, kind, ref, created_at, class_name) VALUES (?, ?, ?, ?, ?, ?)"
                " RETURNING id", (teacher_id, learner_id, kind, ref, stamp, class_name),
            ).fetchone()
        return Assignment(int(row[0]), teacher_id, learner_id, kind, ref, stamp, class_name)

    def assignments_for(self, learner_id: int) -> builtins.list[Assignment]:
        """The learner's own assignments, their classes' and the whole club's, newest first."""
        with self.club.scratch() as store:
            rows = store.db.execute(
                "SELECT id, teacher, learner, kind, ref, created_at, class_name FROM assignments"
                " WHERE learner = ? OR (learner IS NULL AND (class_name IS NULL OR class_name IN"
                " (SELECT class_name FROM class_members WHERE user_id = ?))) ORDER BY id DESC", (learner_id, learner_id),
            ).fetchall()
        return [_assignment(r) for r in rows]

    def assignments_by(self, teacher_id: int) -> builtins.list[Assignment]:
        """Everything ``teacher_id`` assigned, newest first (for the teacher's page)."""
        with self.club.scratch() as store:
            rows = store.db.execute(
                "SELECT id, teacher, learner, kind, ref, created_at, class_name FROM assignments WHERE teacher = ?"
                " ORDER BY id DESC",
                (teacher_id,),
            ).fetchall()
        return [_assignment(r) for r in rows]

    def unassign(self, teacher_id: int, assignment_id: int) -> bool:
        """Withdraw one of the teacher's assignments; False when there was none."""
        with self.club.scratch() as store, store.transaction() as db:
            gone = db.execute("DELETE FROM assignments WHERE id = ? AND teacher = ?", (assignment_id, teacher_id))
            return int(gone.rowcount) > 0


def find_user(store: Store, name: str) -> User | None:
    """The account named ``name`` (any case) in ``store``'s database; the local learner is no account."""
    row = store.db.execute(
        "SELECT id, name, teacher FROM users WHERE name_key = ? AND id <> ?", (name.casefold(), LOCAL_LEARNER)
    ).fetchone()
    return None if row is None else User(int(row[0]), str(row[1]), bool(row[2]))


def _assignment(row: Any) -> Assignment:
    return Assignment(int(row[0]), int(row[1]), None if row[2] is None else int(row[2]), str(row[3]), str(row[4]),
                      str(row[5]), None if row[6] is None else str(row[6]))
