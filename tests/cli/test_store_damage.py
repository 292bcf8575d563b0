"""A fuzz of store damage (issue 16): every case is answered in one line, and "damaged" only when it is.

Each scenario breaks the learner's store (or its folder, or the puzzle cache) in
one way, then runs ``ddz stats``, ``ddz history`` and ``ddz play``: each must
either work (exit 0) or print exactly one line ``error: …`` naming the store
and what to do (exit 2) — never a traceback.  Locked, read-only and full
stores are healthy, so their line must not call them damaged.
"""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from tutor.cli.main import main
from tutor.i18n import set_language
from tutor.store import Store
from tutor.store.games import FinishedGame, GameStore

COMMANDS = (["stats"], ["history"], ["play", "--deal", "3", "--level", "easy"])


@pytest.fixture(autouse=True)
def _language() -> object:
    yield
    set_language("en")


@pytest.fixture(autouse=True)
def _small_coach(small_coach: None) -> None:
    """Each ``ddz play`` here starts or resumes a game, whose coach weighs the hand's bids first (38 scenarios, a
    real weighing each: most of this file's 12 s CPU).  What is checked is how the damaged store is answered, never
    the coach's figures: the small budget (tests/conftest.py), the same code."""


def _healthy(home: Path) -> Path:
    """A store with two finished games and a game in progress."""
    home.mkdir(parents=True, exist_ok=True)
    path = home / "ddz.sqlite3"
    with Store.open(path) as store:
        games = GameStore(store)
        for deal, delta in ((1, 20), (2, -10)):
            games.finish(FinishedGame(deal=deal, level="easy", role="farmer", won=delta > 0, bid=1, multiplier=1,
                                      cost=10, delta=delta, scored=True, hints=0, undos=0,
                                      record={"deal_number": deal, "actions": []}))
    CliRunner().invoke(main, ["play", "--deal", "42", "--level", "easy"], input="pass\nquit\n",
                       env={"DDZ_HOME": str(home)})
    return path


def _sql(*statements: str) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        db = sqlite3.connect(path, isolation_level=None)
        for statement in statements:
            db.execute(statement)
        db.close()

    return damage


def _truncate(size: int) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        _checkpoint(path)
        with open(path, "r+b") as f:
            f.truncate(size)

    return damage


def _scribble(seed: int) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        _checkpoint(path)
        data = bytearray(path.read_bytes())
        rng = random.Random(seed)
        start = rng.choice([0, 16, 100, len(data) // 2, max(0, len(data) - 4096)])
        for i in range(start, min(len(data), start + rng.choice([8, 64, 512, 4096]))):
            data[i] = rng.randrange(256)
        path.write_bytes(bytes(data))

    return damage


def _checkpoint(path: Path) -> None:
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()


def _replace_with(content: bytes | None) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        for extra in (Path(f"{path}-wal"), Path(f"{path}-shm")):
            extra.unlink(missing_ok=True)
        path.unlink()
        if content is None:
            path.mkdir()
        else:
            path.write_bytes(content)

    return damage


def _junk_wal(path: Path) -> None:
    _checkpoint(path)
    Path(f"{path}-wal").write_bytes(b"\x37\x7f\x06\x82" + bytes(range(256)) * 20)


SCENARIOS: dict[str, Callable[[Path], None]] = {
    "empty file": _truncate(0),
    "truncated header": _truncate(50),
    "truncated to one page": _truncate(4096),
    "random bytes": _replace_with(bytes(random.Random(1).randrange(256) for _ in range(9000))),
    "text file": _replace_with(b"hello, this is not a database\n" * 100),
    "a folder in its place": _replace_with(None),
    "junk write-ahead log": _junk_wal,
    "foreign schema": _sql("DROP TABLE meta", "CREATE TABLE foreign_data (x)"),
    "newer format": _sql("UPDATE meta SET value = '99' WHERE key = 'format'"),
    "newer games area": _sql("UPDATE schema_version SET version = 99 WHERE area = 'games'"),
    "garbage format": _sql("UPDATE meta SET value = 'x' WHERE key = 'format'"),
    "dropped games table": _sql("DROP TABLE games"),
    "dropped open games table": _sql("DROP TABLE open_games"),
    "dropped settings table": _sql("DROP TABLE settings"),
    "saved game not JSON": _sql("UPDATE open_games SET state = '{not json'"),
    "saved game not an object": _sql("UPDATE open_games SET state = '[1, 2]'"),
    "saved game malformed field": _sql("UPDATE open_games SET state = json_set(state, '$.record.actions', 7)"),
    "saved game huge number": _sql("UPDATE open_games SET state = json_set(state, '$.hints', 1e300)"),
    "finished record not JSON": _sql("UPDATE games SET record = 'x{'"),
    "finished deal not a number": _sql("UPDATE games SET deal = 'abc'"),
    "settings not JSON": _sql("INSERT OR REPLACE INTO settings (learner, key, value) VALUES (1, 'level', '{')"),
    **{f"scribble {seed}": _scribble(seed) for seed in range(12)},
}


def _one_line_or_fine(home: Path, args: list[str], script: str = "quit\n") -> str:
    result = CliRunner().invoke(main, args, input=script, env={"DDZ_HOME": str(home)})
    assert result.exit_code in (0, 2), (args, result.output, result.exception)
    if result.exit_code == 2:
        # The error is one line, and the last (a game may have been shown before the disk filled up).
        lines = result.output.strip().splitlines()
        errors = [line for line in lines if line.startswith("error: ")]
        assert len(errors) == 1 and lines[-1] == errors[0] and "Traceback" not in result.output, (args, result.output)
        return errors[0]
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), result.exception
    return ""


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_every_kind_of_store_damage_is_one_line_or_harmless(tmp_path: Path, name: str) -> None:
    home = tmp_path / "ddz"
    SCENARIOS[name](_healthy(home))
    for args in COMMANDS:
        line = _one_line_or_fine(home, args)
        if line:
            assert "ddz.sqlite3" in line and ("move it away" in line or "upgrade" in line or "DDZ_HOME" in line
                                              or "again" in line), line


@pytest.mark.parametrize(
    ("name", "setup", "words"),
    [
        ("locked", "lock", "in use by another program"),
        ("read-only", "PRAGMA query_only = ON", "read-only"),
        ("disk full", "max_page_count", "is full; nothing saved is lost"),
    ],
)
def test_healthy_stores_that_cannot_be_written_are_never_called_damaged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, setup: str, words: str
) -> None:
    home = tmp_path / "ddz"
    path = _healthy(home)
    holder = None
    if setup == "lock":
        monkeypatch.setattr(Store, "BUSY_TIMEOUT", 0.05)
        holder = sqlite3.connect(path, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")
    else:
        original = Store._check_and_prepare

        def then_break(self: Store) -> None:
            original(self)
            if "max_page_count" not in setup:
                self.db.execute(setup)
                return
            # The disk fills up: no room beyond the pages there now; each save is made big enough to need one.
            pages = self.db.execute("PRAGMA page_count").fetchone()[0]
            self.db.execute(f"PRAGMA max_page_count = {pages}")

        save = GameStore.save_current
        monkeypatch.setattr(GameStore, "save_current", lambda games, state: save(games, {**state, "pad": "x" * 20000}))
        monkeypatch.setattr(Store, "_check_and_prepare", then_break)
    try:
        # Resume the saved game and play a few moves (a write after every decision).
        script = "y\n" + "pass\n" * 3 + "quit\n"
        lines = [_one_line_or_fine(home, ["play", "--deal", str(deal), "--level", "easy"], script) for deal in (5, 6)]
    finally:
        if holder is not None:
            holder.close()
    failures = [line for line in lines if line]
    assert failures, f"{name}: nothing failed"
    for line in failures:
        assert words in line and "damaged" not in line and "ddz.sqlite3" in line, line
    monkeypatch.undo()
    with Store.open(path) as store:  # nothing lost
        games = GameStore(store)
        assert store.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert games.stats()["games"] == 2 and any(g.deal == "42" for g in games.unfinished()), name


def test_the_data_folder_being_a_file_or_under_a_file_is_one_line(tmp_path: Path) -> None:
    a_file = tmp_path / "file"
    a_file.write_text("x")
    for home in (a_file, a_file / "below"):
        for args in (*COMMANDS, ["puzzle", "stats"], ["learn"]):
            line = _one_line_or_fine(home, args)
            assert "DDZ_HOME" in line and "damaged" not in line, line


def test_a_damaged_puzzle_cache_is_rebuilt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    from tutor.paths import puzzles_dir
    from tutor.puzzles import library

    monkeypatch.setenv("DDZ_HOME", str(tmp_path / "ddz"))
    folder = tmp_path / "puzzles"
    folder.mkdir()
    shutil.copy(puzzles_dir() / "composed.yaml", folder)  # a small file: each rebuild is quick
    library._load_cached.cache_clear()
    good = len(library.load_library(folder))
    assert good > 0
    cache = library._cache_path()
    payload = json.loads(cache.read_text())
    broken = {
        "not JSON": "{",
        "a list": "[]",
        "empty puzzles": json.dumps({**payload, "puzzles": []}),
        "puzzles not objects": json.dumps({**payload, "puzzles": [1, 2]}),
        "bad checksum": json.dumps({**payload, "puzzles": payload["puzzles"][:1] * 2}),
        "wrong fields, right checksum": json.dumps(
            {**payload, "puzzles": [{"id": "x"}], "sha256": library._checksum([{"id": "x"}])}
        ),
        "a folder in its place": None,
    }
    for name, text in broken.items():
        cache.unlink()
        if text is None:
            cache.mkdir()
        else:
            cache.write_text(text)
        library._load_cached.cache_clear()
        assert len(library.load_library(folder)) == good, name
        if text is None:
            cache.rmdir()
            continue
        assert json.loads(cache.read_text())["sha256"] == payload["sha256"], f"{name}: cache not rebuilt"
    library._load_cached.cache_clear()
