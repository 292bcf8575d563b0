"""Reads of a store that cannot be written, and the real cause named (issue 32).

A full disk is simulated without root with ``RLIMIT_FSIZE`` = 0 in a child process (every write
to a file fails as it would on a full disk: SQLite cannot make its ``-shm``); read-only media
with a read-only bind mount in a user namespace (``unshare -rm``), as tests/store/test_store_reads.py
does.  ``stats``, ``history`` and ``store export`` read; ``play`` names the store, not ``locks/``;
no ``-shm``/``-wal`` is left behind; an old-format store is named under its own name; a FIFO in
the store's place is "not a regular file", not "disk I/O error".  (The audit,
benchmarks/hardening_audit.py, checks a real full tmpfs and a read-only mount as root.)
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tutor.cli.main import main
from tutor.store import Store
from tutor.store.games import FinishedGame, GameStore

resource = pytest.importorskip("resource")

#: The child: no file may grow (SIGXFSZ ignored: the write fails with EFBIG, as on a full disk).
CHILD = r"""
import json, resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
from click.testing import CliRunner
from tutor.cli.main import main
from tutor.store import Store, StoreError
from tutor.store.transfer import export_lines
out = []
for args, script in json.loads(sys.argv[1]):
    result = CliRunner().invoke(main, args, input=script)
    out.append([args, result.exit_code, result.output, repr(result.exception)])
try:
    with Store.open() as store:
        out.append([["export_lines"], 0, str(len(list(export_lines(store, "local")))), ""])
except StoreError as error:
    out.append([["export_lines"], 2, str(error), ""])
print(json.dumps(out))
"""


def _home_with_games(home: Path, format_one: bool = False) -> Path:
    home.mkdir(parents=True, exist_ok=True)
    with Store.open(home / "ddz.sqlite3") as store:
        games = GameStore(store)
        for deal in (11, 12):
            games.finish(FinishedGame(deal=deal, level="easy", role="farmer", won=True, bid=1, multiplier=1, cost=10,
                                      delta=20, scored=True, hints=0, undos=0, record={"deal_number": deal}))
    db = sqlite3.connect(home / "ddz.sqlite3")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    if format_one:
        db.execute("UPDATE meta SET value = '1' WHERE key = 'format'")
        db.commit()
    db.execute("PRAGMA journal_mode=DELETE")  # no side files: as a store closed cleanly leaves it
    db.close()
    return home


def _run_full(home: Path, runs: list[tuple[list[str], str]]) -> list[tuple[list[str], int, str, str]]:
    import json

    child = subprocess.run([sys.executable, "-c", CHILD, json.dumps(runs)], capture_output=True, text=True, check=False,
                           timeout=300, env={**os.environ, "DDZ_HOME": str(home)})
    assert child.returncode == 0, child.stderr[-2000:]
    return [tuple(x) for x in json.loads(child.stdout)]  # type: ignore[misc]


def _one_line(output: str) -> str:
    lines = [line for line in output.splitlines() if line.startswith("error: ")]
    assert len(lines) == 1 and output.strip().splitlines()[-1] == lines[0] and "Traceback" not in output, output
    assert len(lines[0]) < 400
    return lines[0]


def test_on_a_full_disk_reads_work_and_play_names_the_store(tmp_path: Path) -> None:
    home = _home_with_games(tmp_path / "home")
    results = _run_full(home, [(["stats"], ""), (["history"], ""), (["play", "--deal", "9", "--level", "easy"],
                                                                     "pass\nquit\n")])
    (_, stats, out_stats, _), (_, history, out_history, _), (_, play, out_play, _), (_, _, exported, _) = results
    assert stats == 0 and "+40" in out_stats, out_stats
    assert history == 0 and "11" in out_history and "12" in out_history, out_history
    assert int(exported) >= 4  # header, two games, end line
    assert play == 2
    line = _one_line(out_play)
    assert "ddz.sqlite3" in line and "locks" not in line, line
    assert sorted(p.name for p in home.iterdir() if p.name.startswith("ddz")) == ["ddz.sqlite3"], "no -shm/-wal left"


def test_an_old_format_store_that_cannot_be_written_is_named_not_its_backup(tmp_path: Path) -> None:
    home = _home_with_games(tmp_path / "home", format_one=True)
    (_, code, output, _), *_ = _run_full(home, [(["stats"], "")])
    line = _one_line(output)
    assert code == 2 and "ddz.sqlite3 is of an older format" in line and ".bak" not in line, line
    assert sorted(p.name for p in home.iterdir() if p.name.startswith("ddz")) == ["ddz.sqlite3"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_in_the_store_s_place_is_named_as_such(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "ddz.sqlite3")
    for args in (["stats"], ["history"], ["store", "export", str(tmp_path / "out.jsonl")]):
        result = CliRunner().invoke(main, args, env={"DDZ_HOME": str(tmp_path)})
        line = _one_line(result.output)
        assert result.exit_code == 2 and "not a regular file" in line and "disk I/O" not in line, line


@pytest.mark.skipif(shutil.which("unshare") is None or not sys.platform.startswith("linux"), reason="needs unshare")
def test_on_read_only_media_export_reads_and_play_blames_the_store(tmp_path: Path) -> None:
    if subprocess.run(["unshare", "-rm", "true"], capture_output=True, check=False).returncode != 0:
        pytest.skip("no user namespaces here")
    home = _home_with_games(tmp_path / "media")
    old = _home_with_games(tmp_path / "old", format_one=True)
    out = tmp_path / "out.jsonl"
    ddz = f"{sys.executable} -c 'from tutor.cli.main import main; main()'"
    script = (f"mount --bind {home} {home} && mount -o remount,bind,ro {home} {home} && "
              f"mount --bind {old} {old} && mount -o remount,bind,ro {old} {old} && "
              f"DDZ_HOME={home} {ddz} store export {out} && "
              f"(printf 'pass\\nquit\\n' | DDZ_HOME={home} {ddz} play --deal 9 --level easy; echo play=$?) && "
              f"(DDZ_HOME={old} {ddz} stats; echo old=$?)")
    run = subprocess.run(["unshare", "-rm", "sh", "-c", script], capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 0 and out.exists() and len(out.read_text().splitlines()) >= 4, run.stderr[-2000:]
    assert "play=2" in run.stdout and "old=2" in run.stdout, run.stdout[-2000:]
    errors = [line for line in run.stderr.splitlines() if line.startswith("error: ")]
    assert len(errors) == 2, run.stderr[-2000:]
    assert "media/ddz.sqlite3 is read-only" in errors[0] and "locks" not in errors[0], errors[0]
    assert "old/ddz.sqlite3 is of an older format" in errors[1] and ".bak" not in errors[1], errors[1]
