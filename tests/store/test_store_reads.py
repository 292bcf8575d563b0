"""The store reads anywhere and names the real cause (issue 23): reads without the write lock,
on read-only media, a parent folder that cannot be entered, a broken ``locks/``, a full disk,
and a copy of the store before every schema migration."""

from __future__ import annotations

import errno
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tutor.cli.main import main
from tutor.store import Store, StoreFullError, StoreIOError, StoreLocationError, explain
from tutor.store.games import FinishedGame, GameStore
from tutor.store.locks import GameLock


def _home_with_a_game(home: Path) -> Path:
    with Store.open(home / "ddz.sqlite3") as store:
        GameStore(store).finish(FinishedGame(
            deal=2**64 - 1, level="easy", role="farmer", won=True, bid=1, multiplier=1, cost=10, delta=20,
            scored=True, hints=0, undos=0, record={"deal_number": 7}))
    return home


def test_stats_and_history_read_while_another_program_holds_the_write_lock(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = _home_with_a_game(tmp_path)
    monkeypatch.setenv("DDZ_HOME", str(home))
    monkeypatch.setattr(Store, "BUSY_TIMEOUT", 0.05)  # a read that wanted the lock would fail at once
    writer = sqlite3.connect(home / "ddz.sqlite3", isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")  # another program, mid-write
    try:
        stats = CliRunner().invoke(main, ["stats"])
        history = CliRunner().invoke(main, ["history"])
        replay = CliRunner().invoke(main, ["replay", "1"])  # the stored record is a stub: it may not replay
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    assert stats.exit_code == 0 and "+20" in stats.output, stats.output
    assert history.exit_code == 0 and "18446744073709551615" in history.output, history.output
    assert "in use by another program" not in replay.output and "cannot be replayed" in replay.output


@pytest.mark.skipif(shutil.which("unshare") is None or not sys.platform.startswith("linux"), reason="needs unshare")
def test_stats_and_history_read_a_store_on_read_only_media(tmp_path: Path) -> None:
    home = _home_with_a_game(tmp_path / "media")
    script = (f"mount --bind {home} {home} && mount -o remount,bind,ro {home} {home} && "
              f"DDZ_HOME={home} {sys.executable} -c 'from tutor.cli.main import main; main()' stats && "
              f"DDZ_HOME={home} {sys.executable} -c 'from tutor.cli.main import main; main()' history")
    probe = subprocess.run(["unshare", "-rm", "true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip("no user namespaces here")
    run = subprocess.run(["unshare", "-rm", "sh", "-c", script], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "+20" in run.stdout and "18446744073709551615" in run.stdout and run.stderr == ""


def test_a_parent_folder_that_cannot_be_entered_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    closed = tmp_path / "closed"
    (closed / "inner").mkdir(parents=True)
    real_is_dir = Path.is_dir

    def is_dir(self: Path) -> bool:  # what stat says to a user without x on "closed" (tests run as root)
        if str(self).startswith(str(closed) + "/"):
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real_is_dir(self)

    monkeypatch.setattr(Path, "is_dir", is_dir)
    monkeypatch.setattr("os.access", lambda path, mode: not str(path).startswith(str(closed)))
    with pytest.raises(StoreLocationError) as caught:
        Store.open(closed / "inner" / "home" / "ddz.sqlite3")
    assert "cann0/closed cannot be entered (permission denied)" in str(caught.value)


def test_a_broken_locks_folder_is_blamed_on_locks_not_the_store(tmp_path: Path) -> None:
    (tmp_path / "locks").write_text("not a folder")
    with pytest.raises(StoreLocationError) as caught:
        GameLock(tmp_path / "locks", "1").acquire()
    message = str(caught.value)
    assert "lock folder" in message and "locks" in message and "not a directory" in message
    assert "store itself is fine" in message


def test_a_disk_with_no_byte_left_is_full_not_an_io_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    class Stat:
        f_bavail = 0

    monkeypatch.setattr("os.statvfs", lambda path: Stat())
    error = sqlite3.OperationalError("disk I/O error")
    error.sqlite_errorcode = 778  # type: ignore[attr-defined]  # SQLITE_IOERR_WRITE
    assert isinstance(explain(error, str(tmp_path / "ddz.sqlite3")), StoreFullError)
    Stat.f_bavail = 100
    assert isinstance(explain(error, str(tmp_path / "ddz.sqlite3")), StoreIOError)


def test_the_store_is_copied_before_a_migration(tmp_path: Path) -> None:
    path = tmp_path / "ddz.sqlite3"
    with Store.open(path) as store:
        store.register_schema("area", [["CREATE TABLE t (a INTEGER)"]])
        with store.transaction() as db:
            db.execute("INSERT INTO t VALUES (41)")
        store.register_schema("other", [["CREATE TABLE o (a INTEGER)"]])
    assert sorted(p.name for p in tmp_path.iterdir() if ".bak-" in p.name) == [], "new tables: no copy"
    with Store.open(path) as store:
        store.register_schema("area", [["CREATE TABLE t (a INTEGER)"], ["UPDATE t SET a = a + 1"]])
        assert store.db.execute("SELECT a FROM t").fetchone()[0] == 42
    backups = sorted(p.name for p in tmp_path.iterdir() if ".bak-" in p.name)
    assert backups == ["ddz.sqlite3.bak-v2"]
    copy = sqlite3.connect(tmp_path / backups[0])
    assert copy.execute("SELECT a FROM t").fetchone()[0] == 41  # the data as it was before
    assert copy.execute("SELECT version FROM schema_version WHERE area = 'area'").fetchone()[0] == 1
    copy.close()
