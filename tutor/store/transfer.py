"""One learner's data as JSON lines, out of any store and into any other (``ddz store export/import``).

The file (UTF-8, one JSON object per line)::

    {"format": "ddz-tutor-export", "version": 1, "learner": "anna", "exported_at": "…", "areas": {"games": 5, …}}
    {"table": "games", "row": {"game_key": "…", "finished_at": "…", …}}
    …
    {"end": {"rows": 123}}

Every learner-owned table (:data:`tutor.store.areas.LEARNER_TABLES`) is
written column by column (:data:`COLUMNS`), without the learner id and without
database ids: finished games are named by their ``game_key`` and the rows that
point at a game (mistakes, personal puzzles) carry that key, so an export of
the same data reads the same from SQLite or PostgreSQL, and an import gives
the games new ids in the target database.  Rows come in a fixed order
(ids, then keys), floats as Python writes them (exact), so a round trip
SQLite → PostgreSQL → SQLite exports the very same lines.

An import checks the whole file first (each line, each column's type, the
end line's count: a truncated file is refused), then writes it in **one
transaction** into a learner who has no data yet (``replace`` empties them
first, in the same transaction): it lands whole or not at all.  The export
is written to a temporary file and renamed (:func:`tutor.files.atomic_write_text`).
"""

from __future__ import annotations

import json
import math
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from tutor.files import atomic_write_text, quoted, shown
from tutor.i18n import t
from tutor.store import Store, StoreError
from tutor.store.areas import LEARNER_TABLES, delete_learner_rows, has_rows, register_all

FORMAT = "ddz-tutor-export"
VERSION = 1
#: Largest file an import reads (a learner's years of games are a few megabytes).
MAX_BYTES = 512 * 1024 * 1024

#: Per table: its exported columns with their kind ("int", "float", "text", "game": a finished game's key;
#: a trailing "?" allows null), and the ORDER BY that makes the export deterministic.
COLUMNS: dict[str, tuple[tuple[tuple[str, str], ...], str]] = {
    "settings": ((("key", "text"), ("value", "text")), "key"),
    "games": ((("game_key", "text"), ("finished_at", "text"), ("deal", "text"), ("level", "text"), ("role", "text"),
               ("won", "int"), ("bid", "int"), ("multiplier", "int"), ("cost", "int"), ("delta", "int"),
               ("scored", "int"), ("hints", "int"), ("undos", "int"), ("record", "text"), ("abandoned", "int"),
               ("rules", "text"), ("factors", "text")), "id"),
    "open_games": ((("key", "text"), ("deal", "text"), ("started_at", "text"), ("saved_at", "text"),
                    ("version", "int"), ("state", "text")), "id"),
    "mistakes": ((("game_id", "game"), ("number", "int"), ("move", "text"), ("best", "text"), ("win_chance", "float"),
                  ("best_chance", "float"), ("loss", "float"), ("level", "text"), ("explanation", "text"),
                  ("solved", "int"), ("tries", "int"), ("noise", "float?"), ("chance_err", "float?"),
                  ("best_err", "float?")), "game_id, number"),
    "mistakes_analysed": ((("game_id", "game"),), "game_id"),
    "mistakes_costs": ((("game_id", "game"), ("number", "int"), ("move", "text"), ("loss", "float"),
                        ("noise", "float"), ("code", "text")), "game_id, number"),
    "lesson_progress": ((("lesson", "text"), ("stars", "int"), ("completions", "int"), ("best_wrong", "int"),
                         ("best_hints", "int"), ("finished_at", "text")), "lesson"),
    "lesson_review": ((("lesson", "text"), ("step", "int"), ("box", "int"), ("due", "text")), "lesson, step"),
    "puzzle_learner": ((("rating", "float"), ("rd", "float"), ("volatility", "float")), "learner"),
    "puzzle_ratings": ((("puzzle", "text"), ("rating", "float"), ("rd", "float"), ("volatility", "float"),
                        ("plays", "int")), "puzzle"),
    "puzzle_attempts": ((("puzzle", "text"), ("at", "text"), ("day", "text"), ("daily", "int"), ("outcome", "text"),
                         ("completed", "int"), ("hints", "int"), ("mistakes", "int"), ("themes", "text"),
                         ("rating_before", "float"), ("rating_after", "float")), "id"),
    "puzzle_personal": ((("id", "text"), ("game", "game"), ("moment", "int"), ("created", "text"), ("data", "text")),
                        "id"),
    "puzzle_games_scanned": ((("game", "game"), ("found", "int")), "game"),
    "puzzle_streak": ((("best", "int"), ("runs", "int"), ("last", "int"), ("best_at", "text"), ("last_at", "text")),
                      "learner"),
}


class TransferError(StoreError):
    """A file that is not a ddz-tutor export, or one that cannot be imported here (one line, exit 2)."""


@dataclass(frozen=True, slots=True)
class Moved:
    """What an export or import carried: rows per table."""

    rows: dict[str, int]

    @property
    def total(self) -> int:
        return sum(self.rows.values())


# ------------------------------------------------------------------ export
def export_lines(store: Store, learner_name: str) -> Iterator[str]:
    """The export of ``store``'s learner, line by line (see the module docstring)."""
    try:
        register_all(store)
        missing: set[str] = set()
    except StoreError:
        # A store opened read-only (read-only media, a full disk: issue 32) where an area was never
        # created: it has no rows to export.  Anything else (an area that needs an upgrade) says why.
        if store.read_only_cause is None:
            raise
        present = {str(r[0]) for r in store.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        missing = {table for _, table in LEARNER_TABLES if table not in present}
    db, me = store.db, store.learner
    keys = {} if "games" in missing else {
        int(r[0]): str(r[1]) for r in db.execute("SELECT id, game_key FROM games WHERE learner = ?", (me,))}
    bodies: list[str] = []
    counts: dict[str, int] = {}
    for _, table in LEARNER_TABLES:
        columns, order = COLUMNS[table]
        names = ", ".join(name for name, _ in columns)
        counts[table] = 0
        if table in missing:
            continue
        for row in db.execute(f"SELECT {names} FROM {table} WHERE learner = ? ORDER BY {order}", (me,)).fetchall():
            out: dict[str, Any] = {}
            for (name, kind), value in zip(columns, row):
                if kind == "game":
                    value = keys.get(int(value))
                    if value is None:
                        break  # a row about a game that is not in the history: nothing to point at
                elif value is not None:
                    value = float(value) if kind.startswith("float") else int(value) if kind == "int" else str(value)
                out[name] = value
            else:
                bodies.append(json.dumps({"table": table, "row": out}, ensure_ascii=False, sort_keys=True))
                counts[table] += 1
    header = {"format": FORMAT, "version": VERSION, "learner": learner_name,
              "exported_at": datetime.now(timezone.utc).isoformat(timespec="seconds"), "areas": counts}
    yield json.dumps(header, ensure_ascii=False, sort_keys=True)
    yield from bodies
    yield json.dumps({"end": {"rows": len(bodies)}}, sort_keys=True)


def export_file(store: Store, learner_name: str, path: Path) -> Moved:
    """Write the export to ``path`` atomically; what it holds."""
    lines = list(export_lines(store, learner_name))
    try:
        atomic_write_text(path, "\n".join(lines) + "\n")
    except OSError as error:
        why = (error.strerror or str(error)).lower()
        raise TransferError(t("store.cannot_write_export", path=shown(path), why=why)) from None
    return Moved(json.loads(lines[0])["areas"])


# ------------------------------------------------------------------ import
def read_export(path: Path) -> tuple[dict[str, Any], list[tuple[str, dict[str, Any]]]]:
    """The header and the rows of an export file, checked whole (:class:`TransferError` names the first problem)."""
    where = shown(path)
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError as error:
        raise TransferError(t("store.cannot_read_export", path=where,
                              why=(error.strerror or str(error)).lower())) from None
    if len(data) > MAX_BYTES:
        raise TransferError(t("store.export_too_big", path=where))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise TransferError(t("store.export_not_text", path=where)) from None
    lines = text.splitlines()
    if not lines:
        raise TransferError(t("store.not_an_export", path=where))
    header = _json_line(lines[0], 1, where)
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise TransferError(t("store.not_an_export", path=where))
    if header.get("version") != VERSION:
        raise TransferError(t("store.export_version", path=where, found=quoted(header.get("version")), known=VERSION))
    rows: list[tuple[str, dict[str, Any]]] = []
    end: Any = None
    for number, line in enumerate(lines[1:], start=2):
        if end is not None:
            raise TransferError(t("store.export_bad_line", path=where, line=number, why="after the end line"))
        item = _json_line(line, number, where)
        if isinstance(item, dict) and set(item) == {"end"}:
            end = item["end"]
            continue
        if not isinstance(item, dict) or set(item) != {"table", "row"} or item["table"] not in COLUMNS:
            raise TransferError(t("store.export_bad_line", path=where, line=number, why="not a table row"))
        rows.append((item["table"], _checked_row(item["table"], item["row"], number, where)))
    if not isinstance(end, dict) or end.get("rows") != len(rows):
        raise TransferError(t("store.export_truncated", path=where))
    return header, rows


def _json_line(line: str, number: int, where: str) -> Any:
    try:
        return json.loads(line)
    except (ValueError, RecursionError):
        raise TransferError(t("store.export_bad_line", path=where, line=number, why="not JSON")) from None


def _checked_row(table: str, row: Any, number: int, where: str) -> dict[str, Any]:
    columns, _ = COLUMNS[table]
    if not isinstance(row, dict) or set(row) != {name for name, _ in columns}:
        raise TransferError(t("store.export_bad_line", path=where, line=number, why=f"not the columns of {table}"))
    for name, kind in columns:
        value = row[name]
        if value is None and kind.endswith("?"):
            continue
        base = kind.rstrip("?")
        good = (isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**63 if base == "int"
                else isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
                if base == "float" else isinstance(value, str) and len(value) < 50_000_000)
        if not good:
            raise TransferError(t("store.export_bad_line", path=where, line=number, why=f"{table}.{name}"))
    return row


def import_rows(store: Store, rows: list[tuple[str, dict[str, Any]]], replace: bool = False) -> Moved:
    """Write checked rows into ``store``'s learner in one transaction.

    Raises:
        TransferError: the learner has data already (and not ``replace``), or a game is missing for a row.
    """
    register_all(store)
    me = store.learner
    counts = {table: 0 for _, table in LEARNER_TABLES}
    order = {table: i for i, (_, table) in enumerate(LEARNER_TABLES)}
    with store.transaction() as db:
        if has_rows(store, me):
            if not replace:
                raise TransferError(t("store.import_not_empty"))
            delete_learner_rows(store, me)
        ids: dict[str, int] = {}
        for table, row in sorted(rows, key=lambda item: order[item[0]]):  # stable: each table keeps its order
            values = dict(row)
            if table in ("games", "open_games"):
                key = "game_key" if table == "games" else "key"
                if db.execute(f"SELECT 1 FROM {table} WHERE {key} = ?", (values[key],)).fetchone():
                    values[key] = secrets.token_hex(16)  # the same game is in this database already (another learner)
            for name, kind in COLUMNS[table][0]:
                if kind == "game":
                    if values[name] not in ids:
                        raise TransferError(t("store.import_no_game", table=table))
                    values[name] = ids[values[name]]
            names = ["learner", *values]
            sql = (f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})"
                   + (" RETURNING id" if table == "games" else ""))
            cursor = db.execute(sql, (me, *values.values()))
            if table == "games":
                ids[row["game_key"]] = int(cursor.fetchone()[0])
            counts[table] += 1
    return Moved(counts)
