"""Stores written before learner ids (issue 25) migrate in place: a backup first, every row the local learner's."""

from __future__ import annotations

import json
import sqlite3
from datetime import date
from pathlib import Path
from typing import Any

from tutor.lessons.progress import ProgressBook
from tutor.lessons.review import ReviewBook
from tutor.store import FORMAT_VERSION, Baseline, Store
from tutor.store import games as games_area
from tutor.store import lessons as lessons_area
from tutor.store import mistakes as mistakes_area
from tutor.store import puzzles as puzzles_area
from tutor.store.games import GameStore
from tutor.store.mistakes import MistakeStore
from tutor.store.puzzles import PuzzleRows

AREAS: list[tuple[str, list[Any], Baseline]] = [
    ("games", games_area.MIGRATIONS, games_area.SCHEMA),
    ("mistakes", mistakes_area.MIGRATIONS, mistakes_area.SCHEMA),
    ("lessons", lessons_area.MIGRATIONS, lessons_area.SCHEMA),
    ("puzzles", puzzles_area.MIGRATIONS, puzzles_area.SCHEMA),
]
#: Areas that have migrated since issue 25: their version just before it (the others: one short of the newest).
BEFORE_LEARNERS = {"lessons": 2, "mistakes": 2}


def _walk(db: sqlite3.Connection, steps: list[Any]) -> None:
    for step in steps:
        if callable(step):
            step(db)
        else:
            for statement in step:
                db.execute(statement)


def _old_store(path: Path) -> None:
    """A store as ddz-tutor wrote it just before issue 25: format 1, every area one version short, one row each."""
    db = sqlite3.connect(path, isolation_level=None)
    db.executescript(
        """
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        INSERT INTO meta VALUES ('format', '1');
        CREATE TABLE schema_version (area TEXT PRIMARY KEY, version INTEGER NOT NULL);
        CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        INSERT INTO settings VALUES ('lang', '"ru"');
        """
    )
    for area, migrations, baseline in AREAS:
        assert baseline.version == len(migrations), area  # the baseline is the newest schema
        before = BEFORE_LEARNERS.get(area, len(migrations) - 1)
        _walk(db, migrations[:before])
        db.execute("INSERT INTO schema_version VALUES (?, ?)", (area, before))
    db.executescript(
        """
        INSERT INTO games (id, finished_at, deal, level, role, won, bid, multiplier, cost, delta, scored, record,
            game_key) VALUES (7, 'x', '42', 'hard', 'farmer', 1, 2, 1, 20, 20, 1, '{}', NULL);
        INSERT INTO open_games (key, deal, started_at, saved_at, owner, state) VALUES ('k', '5', 'x', 'x', NULL, '{}');
        INSERT INTO mistakes (game_id, number, move, best, win_chance, best_chance, loss, level, explanation, solved,
            tries) VALUES (7, 3, '5', '6', 0.4, 0.6, 0.2, 'hard', '{"code": "split_pair"}', 0, 1);
        INSERT INTO mistakes_analysed VALUES (7);
        INSERT INTO lesson_progress VALUES ('first-deal', 3, 2, 0, 0, 'x');
        INSERT INTO lesson_review VALUES ('first-deal', 1, 0, '2026-01-01');
        INSERT INTO puzzle_learner VALUES (1, 1612.5, 80.25, 0.06);
        INSERT INTO puzzle_ratings VALUES ('p1', 1400.0, 150.0, 0.06, 3);
        INSERT INTO puzzle_attempts (puzzle, at, day, daily, outcome, completed, hints, mistakes, themes,
            rating_before, rating_after) VALUES ('p1', 'x', '2026-11-30', 1, 'solved', 1, 0, 0, '["pair"]', 1500, 1612.5);
        INSERT INTO puzzle_personal VALUES ('my-1', 7, 3, 'x', '{}');
        INSERT INTO puzzle_games_scanned VALUES (7, 1);
        """
    )
    db.close()


def test_an_old_store_migrates_in_place_with_a_backup_and_every_row_is_the_local_learners(tmp_path: Path) -> None:
    path = tmp_path / "ddz.sqlite3"
    _old_store(path)
    with Store.open(path) as store:
        assert store.get_setting("lang") == "ru" and store.learner == 1
        games = GameStore(store)
        (game,) = games.history()
        assert (game.id, game.deal, game.delta) == (7, 42, 20)
        (open_game,) = games.unfinished()
        assert open_game.key == "k" and open_game.version == 0
        (mistake,) = MistakeStore(store).for_game(7)
        assert mistake.explanation == {"code": "split_pair"} and MistakeStore(store).analysed(7)
        assert ProgressBook(store).get("first-deal").stars == 3  # type: ignore[union-attr]
        assert [(i.lesson, i.step) for i in ReviewBook(store).items()] == [("first-deal", 1)]
        rows = PuzzleRows(store)
        assert rows.learner_rating() == (1612.5, 80.25, 0.06) and rows.puzzle_rating("p1") == (1400.0, 150.0, 0.06)
        assert rows.daily_days() == [date(2026, 11, 30)] and rows.scanned(7) and json.loads(rows.personal()[0]) == {}
        for area, migrations, _ in AREAS:
            assert store.schema_version(area) == len(migrations)
        key = store.db.execute("SELECT game_key FROM games").fetchone()[0]
        assert isinstance(key, str) and len(key) == 32  # the old game without a key got one (exports name it)
    backups = sorted(p.name for p in tmp_path.iterdir() if ".bak-" in p.name)
    assert "ddz.sqlite3.bak-format1" in backups, backups  # a copy as it was, before anything changed
    first = sqlite3.connect(tmp_path / "ddz.sqlite3.bak-format1")
    assert first.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()[0] == "1"
    assert first.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 1
    first.close()
    with Store.open(path, learner=2) as other:  # a second learner in the same file sees none of it
        assert other.get_setting("lang") is None and GameStore(other).history() == []
        assert ProgressBook(other).all() == {} and PuzzleRows(other).learner_rating() is None
        assert MistakeStore(other).for_game(7) == [] and GameStore(other).unfinished() == []
    with Store.open(path) as store:
        assert store.db.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()[0] == str(FORMAT_VERSION)


def test_the_migrated_schema_is_the_baseline_schema(tmp_path: Path) -> None:
    """An old file walked through the history ends with exactly the tables a new database is created with."""
    old, new = tmp_path / "old.sqlite3", tmp_path / "new.sqlite3"
    _old_store(old)

    def shape(path: Path) -> dict[str, Any]:
        with Store.open(path) as store:
            for area, migrations, baseline in AREAS:
                store.register_schema(area, migrations, baseline)
            db = store.db
            tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'"
                                               " AND name NOT LIKE 'sqlite_%' ORDER BY name")]
            out: dict[str, Any] = {t: db.execute(f"PRAGMA table_info({t})").fetchall() for t in tables}
            out["indexes"] = sorted(r[0] for r in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%'"))
            return out

    assert shape(old) == shape(new)
