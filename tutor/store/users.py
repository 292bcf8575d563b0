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


@dataclass(frozen=True, slots=True)
class Assignment:
    id: int
    teacher_id: int
    #: None: the whole class.
    learner_id: int | None
    kind: str
    ref: str
    created_at: str


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
    def add(self, name: str, password: str, teacher: bool = False) -> User:
        """A new account.

        Raises:
            UserError: a bad name or password, or the name is taken.
        """
        check_name(name)
        check_password(password)
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
            except StoreConflictError:  # added by another process at the same instant
                raise UserError(t("store.name_taken", name=quoted(name))) from None
        return User(int(row[0]), name, teacher)

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
                db.execute("DELETE FROM assignments WHERE learner = ? OR teacher = ?", (user.id, user.id))
                db.execute("DELETE FROM users WHERE id = ?", (user.id,))
        return user

    def set_password(self, name: str, password: str) -> None:
        """A new password; every session of the account ends (sign in again)."""
        check_password(password)
        user = self.get(name)
        if user is None:
            raise UserError(t("store.no_user", name=quoted(name)))
        digest = _hasher().hash(password)
        with self.club.scratch() as store:
            with store.transaction() as db:
                db.execute("UPDATE users SET password = ? WHERE id = ?", (digest, user.id))
                db.execute("DELETE FROM sessions WHERE user_id = ?", (user.id,))

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
            row = store.db.execute(
                "SELECT u.id, u.name, u.teacher FROM sessions s JOIN users u ON u.id = s.user_id"
                " WHERE s.token_hash = ? AND s.expires_at > ?", (_token_hash(token), _stamp(_now())),
            ).fetchone()
        return None if row is None else User(int(row[0]), str(row[1]), bool(row[2]))

    def end_session(self, token: str) -> None:
        with self.club.scratch() as store, store.transaction() as db:
            db.execute("DELETE FROM sessions WHERE token_hash = ?", (_token_hash(token),))

    # ------------------------------------------------------------- assignments
    def assign(self, teacher_id: int, learner_id: int | None, kind: str, ref: str) -> Assignment:
        """A teacher gives a learner (or, with None, the whole class) a lesson or a puzzle theme.

        Raises:
            UserError: not a teacher, no such learner, an unknown kind or an empty/long ref.
        """
        teacher = self.by_id(teacher_id)
        if teacher is None or not teacher.is_teacher:
            raise UserError(t("store.not_teacher"))
        if learner_id is not None:
            learner = self.by_id(learner_id)
            if learner is None or learner.id == LOCAL_LEARNER:
                raise UserError(t("store.no_user", name=quoted(learner_id)))
        if kind not in KINDS:
            raise UserError(t("store.bad_kind", kind=quoted(kind), kinds=", ".join(KINDS)))
        if not ref or len(ref) > MAX_REF or not ref.isprintable():
            raise UserError(t("store.bad_ref", ref=quoted(ref)))
        stamp = _stamp(_now())
        with self.club.scratch() as store, store.transaction() as db:
            row = db.execute(
                "INSERT INTO assignments (teacher, learner, kind, ref, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id",
                (teacher_id, learner_id, kind, ref, stamp),
            ).fetchone()
        return Assignment(int(row[0]), teacher_id, learner_id, kind, ref, stamp)

    def assignments_for(self, learner_id: int) -> builtins.list[Assignment]:
        """The learner's own assignments and the whole class's, newest first."""
        with self.club.scratch() as store:
            rows = store.db.execute(
                "SELECT id, teacher, learner, kind, ref, created_at FROM assignments"
                " WHERE learner = ? OR learner IS NULL ORDER BY id DESC", (learner_id,),
            ).fetchall()
        return [_assignment(r) for r in rows]

    def assignments_by(self, teacher_id: int) -> builtins.list[Assignment]:
        """Everything ``teacher_id`` assigned, newest first (for the teacher's page)."""
        with self.club.scratch() as store:
            rows = store.db.execute(
                "SELECT id, teacher, learner, kind, ref, created_at FROM assignments WHERE teacher = ? ORDER BY id DESC",
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
                      str(row[5]))
