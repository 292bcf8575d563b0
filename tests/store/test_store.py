"""The generic store: schemas, transactions, crash safety, damaged and newer files."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tutor.store import (
    FORMAT_VERSION,
    Store,
    StoreDamagedError,
    StoreVersionError,
    data_home,
    default_path,
)

NOTES = [["CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)"]]


def test_ddz_home_overrides_the_data_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("DDZ_HOME", str(tmp_path / "home"))
    assert data_home() == tmp_path / "home"
    assert default_path() == tmp_path / "home" / "ddz.sqlite3"
    store = Store.open()
    store.close()
    assert (tmp_path / "home" / "ddz.sqlite3").exists()


def test_default_folder_follows_xdg_on_linux(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("DDZ_HOME", raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert data_home() == tmp_path / "ddz-tutor"


def test_settings_round_trip_json_values(tmp_path: Path) -> None:
    with Store.open(tmp_path / "s.db") as store:
        assert store.get_setting("lang", "en") == "en"
        store.set_setting("lang", "ru")
        store.set_setting("counter", True)
    with Store.open(tmp_path / "s.db") as store:
        assert store.get_setting("lang") == "ru"
        assert store.settings() == {"counter": True, "lang": "ru"}


def test_migrations_run_once_and_in_order(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    with Store.open(path) as store:
        store.register_schema("notes", NOTES)
        store.register_schema("notes", NOTES)  # idempotent
        assert store.schema_version("notes") == 1
        with store.transaction() as db:
            db.execute("INSERT INTO notes (text) VALUES ('a')")
    grown = NOTES + [["ALTER TABLE notes ADD COLUMN stars INTEGER NOT NULL DEFAULT 0"]]
    with Store.open(path) as store:
        store.register_schema("notes", grown)
        assert store.schema_version("notes") == 2
        assert store.db.execute("SELECT text, stars FROM notes").fetchall() == [("a", 0)]


def test_failed_migration_leaves_the_old_version(tmp_path: Path) -> None:
    with Store.open(tmp_path / "f.db") as store:
        store.register_schema("notes", NOTES)
        broken = NOTES + [["ALTER TABLE notes ADD COLUMN x INTEGER", "THIS IS NOT SQL"]]
        with pytest.raises(StoreDamagedError):
            store.register_schema("notes", broken)
        assert store.schema_version("notes") == 1
        columns = [r[1] for r in store.db.execute("PRAGMA table_info(notes)")]
        assert columns == ["id", "text"]


def test_exception_inside_a_transaction_rolls_everything_back(tmp_path: Path) -> None:
    with Store.open(tmp_path / "t.db") as store:
        store.register_schema("notes", NOTES)
        with pytest.raises(RuntimeError):
            with store.transaction() as db:
                db.execute("INSERT INTO notes (text) VALUES ('lost')")
                store.set_setting("also", "lost")  # nested: a savepoint
                raise RuntimeError("boom")
        assert store.db.execute("SELECT COUNT(*) FROM notes").fetchone()[0] == 0
        assert store.get_setting("also") is None
        with store.transaction() as db:  # the store is still usable
            db.execute("INSERT INTO notes (text) VALUES ('kept')")
        assert store.db.execute("SELECT text FROM notes").fetchall() == [("kept",)]


def test_nested_failure_rolls_back_only_the_inner_block(tmp_path: Path) -> None:
    with Store.open(tmp_path / "n.db") as store:
        store.register_schema("notes", NOTES)
        with store.transaction() as db:
            db.execute("INSERT INTO notes (text) VALUES ('outer')")
            with pytest.raises(KeyError):
                with store.transaction():
                    db.execute("INSERT INTO notes (text) VALUES ('inner')")
                    raise KeyError("x")
        assert store.db.execute("SELECT text FROM notes").fetchall() == [("outer",)]


_KILLED_WRITER = textwrap.dedent(
    """
    import os, sys
    from tutor.store import Store
    store = Store.open(sys.argv[1])
    store.register_schema("notes", [["CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)"]])
    with store.transaction() as db:
        for i in range(20000):
            db.execute("INSERT INTO notes (text) VALUES (?)", ("x" * 200,))
        print("ready", flush=True)
        os.kill(os.getpid(), 9)   # killed mid-transaction, nothing committed
    """
)


def test_killing_the_program_mid_transaction_never_corrupts(tmp_path: Path) -> None:
    path = tmp_path / "k.db"
    with Store.open(path) as store:
        store.register_schema("notes", NOTES)
        with store.transaction() as db:
            db.execute("INSERT INTO notes (text) VALUES ('before')")
    proc = subprocess.run(
        [sys.executable, "-c", _KILLED_WRITER, str(path)], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == -signal.SIGKILL
    assert "ready" in proc.stdout
    with Store.open(path) as store:  # opens cleanly: quick_check passed
        assert store.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert store.db.execute("SELECT text FROM notes").fetchall() == [("before",)]


def test_garbage_file_is_a_one_line_damaged_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.db"
    path.write_bytes(b"this is not a database at all" * 100)
    with pytest.raises(StoreDamagedError) as info:
        Store.open(path)
    assert "damaged" in str(info.value) and "\n" not in str(info.value)
    assert isinstance(info.value, ValueError)


def test_foreign_sqlite_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE mine (x)")
    con.commit()
    con.close()
    with pytest.raises(StoreDamagedError, match="not a ddz-tutor store"):
        Store.open(path)


def test_newer_store_format_asks_to_upgrade(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    Store.open(path).close()
    con = sqlite3.connect(path)
    con.execute("UPDATE meta SET value = ? WHERE key = 'format'", (str(FORMAT_VERSION + 1),))
    con.commit()
    con.close()
    with pytest.raises(StoreVersionError, match="newer ddz-tutor"):
        Store.open(path)


def test_newer_area_version_asks_to_upgrade(tmp_path: Path) -> None:
    path = tmp_path / "area.db"
    with Store.open(path) as store:
        store.register_schema("notes", NOTES + [["CREATE TABLE more (x)"]])
    with Store.open(path) as store:
        with pytest.raises(StoreVersionError, match="newer ddz-tutor"):
            store.register_schema("notes", NOTES)


def test_truncated_file_is_reported_not_crashed(tmp_path: Path) -> None:
    path = tmp_path / "trunc.db"
    with Store.open(path) as store:
        store.register_schema("notes", NOTES)
        with store.transaction() as db:
            db.executemany("INSERT INTO notes (text) VALUES (?)", [("y" * 500,)] * 200)
        store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = path.read_bytes()
    path.write_bytes(data[:100] + b"\x00" * 50 + data[150 : len(data) // 2])
    for suffix in ("-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    with pytest.raises(StoreDamagedError):
        store = Store.open(path)
        store.register_schema("notes", NOTES)
        store.db.execute("SELECT COUNT(*) FROM notes").fetchone()
