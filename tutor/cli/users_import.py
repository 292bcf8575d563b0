"""``ddz users import FILE.csv``: a class's accounts at once, each with a fresh password printed once.

The file is what a school's spreadsheet exports: a header line naming the
columns (``name`` required; ``class`` and ``role`` — ``learner`` or ``teacher`` —
optional), then one account per line, separated by commas or semicolons (a
spreadsheet in a Russian locale writes semicolons), UTF-8 with or without a
byte-order mark.  Every line is checked — names, classes, roles, duplicates in
the file, names the club already has — before any account is added, so a bad
file adds nothing.  Each account gets a random password (10 characters without
look-alikes such as 0/O, 1/l: about 49 bits), shown once on standard output;
only its argon2 hash is stored.  Hand each learner theirs; ``ddz users passwd``
sets another.
"""

from __future__ import annotations

import csv
import io
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tutor.cli.errors import UserError
from tutor.i18n import t

#: Characters of a generated password: no 0/o, 1/l/i look-alikes.
ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
#: A class list, not a database dump.
MAX_BYTES = 1 << 20
ROLES = ("learner", "teacher")


@dataclass(frozen=True)
class Row:
    name: str
    classes: tuple[str, ...]
    teacher: bool


def new_password() -> str:
    """Ten random characters in two groups of five (easy to read aloud and type on a phone)."""
    chars = "".join(secrets.choice(ALPHABET) for _ in range(10))
    return f"{chars[:5]}-{chars[5:]}"


def _where(file: str, line: int, why: str) -> UserError:
    return UserError(t("club.import_bad_line", file=repr(Path(file).name[:40]), line=line, why=why))


def read_rows(file: str) -> list[Row]:
    """Every account of the file, checked; :class:`UserError` naming the first bad line."""
    from tutor.store.users import UserError as BadValue
    from tutor.store.users import check_class, check_name

    try:
        with open(file, "rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
    except OSError as error:
        raise UserError(t("club.import_unreadable", file=repr(file[:40]), why=error.strerror or type(error).__name__)) \
            from None
    if len(raw) > MAX_BYTES:
        raise UserError(t("club.import_too_big", file=repr(file[:40]), n=MAX_BYTES // 1024))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UserError(t("club.import_not_utf8", file=repr(file[:40]))) from None
    first = text.split("\n", 1)[0]
    delimiter = ";" if ";" in first and "," not in first else ","
    lines = list(csv.reader(io.StringIO(text), delimiter=delimiter))
    header = [cell.strip().lower() for cell in (lines[0] if lines else [])]
    if "name" not in header or any(cell not in ("name", "class", "role") for cell in header):
        raise _where(file, 1, t("club.import_header"))
    rows: list[Row] = []
    seen: set[str] = set()
    for number, cells in enumerate(lines[1:], 2):
        if not any(cell.strip() for cell in cells):
            continue
        if len(cells) > len(header):
            raise _where(file, number, t("club.import_columns", n=len(header)))
        values = dict(zip(header, (cell.strip() for cell in cells)))
        try:
            name = check_name(values.get("name", ""))
            classes = tuple(check_class(part.strip()) for part in values.get("class", "").split("|") if part.strip())
        except BadValue as error:
            raise _where(file, number, str(error)) from None
        role = values.get("role", "").lower() or "learner"
        if role not in ROLES:
            raise _where(file, number, t("club.import_role", value=repr(role[:40])))
        if name.casefold() in seen:
            raise _where(file, number, t("club.import_twice", name=name))
        seen.add(name.casefold())
        rows.append(Row(name, classes, role == "teacher"))
    if not rows:
        raise UserError(t("club.import_empty", file=repr(file[:40])))
    return rows


def add_all(club: Any, rows: list[Row], file: str) -> list[tuple[str, str]]:
    """Add every row's account (none when one of the names is taken): (name, password) of each."""
    taken = {user.name.casefold() for user in club.users.list()}
    for row in rows:
        if row.name.casefold() in taken:
            raise UserError(t("club.import_exists", file=repr(Path(file).name[:40]), name=row.name))
    added = []
    for row in rows:
        password = new_password()
        club.users.add(row.name, password, teacher=row.teacher, classes=row.classes, one_time=True)
        added.append((row.name, password))
    return added
