"""The puzzles area of the store: each learner's ratings, attempts and own puzzles.

The SQL of :mod:`tutor.puzzles.progress` lives here; that module keeps the
rules (Glicko-2, what counts as solved, the streak) and calls these rows.

Tables of the ``puzzles`` area, every row a learner's:

* ``puzzle_learner`` — the learner's Glicko-2 rating (one row per learner);
* ``puzzle_ratings`` — each puzzle's Glicko-2 rating as this learner's play
  moved it (per learner, as it was when each learner had a store of their own;
  docs/store.md says why a club does not pool them yet);
* ``puzzle_attempts`` — every finished or abandoned attempt: the local date,
  whether it was the daily puzzle, the outcome, hints, mistakes, the themes and
  the learner's rating before and after;
* ``puzzle_personal`` — puzzles made from the learner's own games, each as the
  puzzle's JSON form; ``puzzle_games_scanned`` — the games already looked at.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from tutor.store import Baseline, Store
from tutor.store.schema import rebuild_with_learner

AREA = "puzzles"

SCHEMA = Baseline(3, (
    """CREATE TABLE puzzle_learner (
        learner INTEGER PRIMARY KEY,
        rating REAL NOT NULL, rd REAL NOT NULL, volatility REAL NOT NULL
    )""",
    """CREATE TABLE puzzle_ratings (
        learner INTEGER NOT NULL,
        puzzle TEXT NOT NULL,
        rating REAL NOT NULL, rd REAL NOT NULL, volatility REAL NOT NULL,
        plays INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (learner, puzzle)
    )""",
    """CREATE TABLE puzzle_attempts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        learner INTEGER NOT NULL,
        puzzle TEXT NOT NULL,
        at TEXT NOT NULL,
        day TEXT NOT NULL,
        daily INTEGER NOT NULL CHECK (daily IN (0, 1)),
        outcome TEXT NOT NULL CHECK (outcome IN ('solved', 'failed', 'assisted', 'unfinished')),
        completed INTEGER NOT NULL CHECK (completed IN (0, 1)),
        hints INTEGER NOT NULL,
        mistakes INTEGER NOT NULL,
        themes TEXT NOT NULL,
        rating_before REAL NOT NULL,
        rating_after REAL NOT NULL
    )""",
    """CREATE TABLE puzzle_personal (
        learner INTEGER NOT NULL,
        id TEXT NOT NULL,
        game INTEGER NOT NULL,
        moment INTEGER NOT NULL,
        created TEXT NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (learner, id)
    )""",
    "CREATE TABLE puzzle_games_scanned (game INTEGER PRIMARY KEY, learner INTEGER NOT NULL, found INTEGER NOT NULL)",
    "CREATE INDEX puzzle_attempts_puzzle ON puzzle_attempts (learner, puzzle)",
))

MIGRATIONS: list[Any] = [
    [
        """CREATE TABLE puzzle_learner (
            slot INTEGER PRIMARY KEY CHECK (slot = 1),
            rating REAL NOT NULL, rd REAL NOT NULL, volatility REAL NOT NULL
        )""",
        """CREATE TABLE puzzle_ratings (
            puzzle TEXT PRIMARY KEY,
            rating REAL NOT NULL, rd REAL NOT NULL, volatility REAL NOT NULL,
            plays INTEGER NOT NULL DEFAULT 0
        )""",
        """CREATE TABLE puzzle_attempts (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            puzzle TEXT NOT NULL,
            at TEXT NOT NULL,
            day TEXT NOT NULL,
            daily INTEGER NOT NULL CHECK (daily IN (0, 1)),
            outcome TEXT NOT NULL CHECK (outcome IN ('solved', 'failed', 'assisted', 'unfinished')),
            completed INTEGER NOT NULL CHECK (completed IN (0, 1)),
            hints INTEGER NOT NULL,
            mistakes INTEGER NOT NULL,
            themes TEXT NOT NULL,
            rating_before REAL NOT NULL,
            rating_after REAL NOT NULL
        )""",
        "CREATE INDEX puzzle_attempts_puzzle ON puzzle_attempts (puzzle)",
    ],
    [
        """CREATE TABLE puzzle_personal (
            id TEXT PRIMARY KEY,
            game INTEGER NOT NULL,
            moment INTEGER NOT NULL,
            created TEXT NOT NULL,
            data TEXT NOT NULL
        )""",
        "CREATE TABLE puzzle_games_scanned (game INTEGER PRIMARY KEY, found INTEGER NOT NULL)",
    ],
    # Issue 25: a learner id on every row (the SQLite files written before it; see tutor/store/schema.py).
    rebuild_with_learner(SCHEMA.statements),
]

#: A Glicko-2 rating as stored: (rating, deviation, volatility).
RatingRow = tuple[float, float, float]


class PuzzleRows:
    """One learner's puzzle rows."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.learner = store.learner
        store.register_schema(AREA, MIGRATIONS, SCHEMA)

    # ---------------------------------------------------------------- ratings
    def learner_rating(self) -> RatingRow | None:
        row = self.store.db.execute(
            "SELECT rating, rd, volatility FROM puzzle_learner WHERE learner = ?", (self.learner,)
        ).fetchone()
        return None if row is None else (float(row[0]), float(row[1]), float(row[2]))

    def puzzle_rating(self, puzzle: str) -> RatingRow | None:
        row = self.store.db.execute(
            "SELECT rating, rd, volatility FROM puzzle_ratings WHERE learner = ? AND puzzle = ?", (self.learner, puzzle)
        ).fetchone()
        return None if row is None else (float(row[0]), float(row[1]), float(row[2]))

    def save_ratings(self, learner: RatingRow, puzzle: str, rated: RatingRow) -> None:
        """Both ratings after a rated attempt (the puzzle's plays counted)."""
        with self.store.transaction() as db:
            db.execute(
                "INSERT INTO puzzle_learner (learner, rating, rd, volatility) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (learner) DO UPDATE SET rating = excluded.rating, rd = excluded.rd,"
                " volatility = excluded.volatility", (self.learner, *learner),
            )
            db.execute(
                "INSERT INTO puzzle_ratings (learner, puzzle, rating, rd, volatility, plays) VALUES (?, ?, ?, ?, ?, 1)"
                " ON CONFLICT (learner, puzzle) DO UPDATE SET rating = excluded.rating, rd = excluded.rd,"
                " volatility = excluded.volatility, plays = puzzle_ratings.plays + 1",
                (self.learner, puzzle, *rated),
            )

    # --------------------------------------------------------------- attempts
    def add_attempt(self, puzzle: str, at: str, day: str, daily: bool, outcome: str, completed: bool, hints: int,
                    mistakes: int, themes: str, rating_before: float, rating_after: float) -> None:
        with self.store.transaction() as db:
            db.execute(
                "INSERT INTO puzzle_attempts (learner, puzzle, at, day, daily, outcome, completed, hints, mistakes,"
                " themes, rating_before, rating_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (self.learner, puzzle, at, day, int(daily), outcome, int(completed), hints, mistakes, themes,
                 rating_before, rating_after),
            )

    def attempted_ids(self) -> set[str]:
        rows = self.store.db.execute("SELECT DISTINCT puzzle FROM puzzle_attempts WHERE learner = ?", (self.learner,))
        return {str(row[0]) for row in rows}

    def attempted_on(self, puzzle: str, day: str) -> bool:
        row = self.store.db.execute(
            "SELECT 1 FROM puzzle_attempts WHERE learner = ? AND puzzle = ? AND day = ? LIMIT 1",
            (self.learner, puzzle, day),
        ).fetchone()
        return row is not None

    def outcomes(self) -> list[tuple[str, str]]:
        """(outcome, themes JSON) of every attempt."""
        rows = self.store.db.execute(
            "SELECT outcome, themes FROM puzzle_attempts WHERE learner = ? ORDER BY id", (self.learner,)
        ).fetchall()
        return [(str(r[0]), str(r[1])) for r in rows]

    def last_attempts(self) -> list[tuple[str, str, str]]:
        """(puzzle, outcome, themes JSON) of each puzzle's last attempt, in the order of those attempts."""
        rows = self.store.db.execute(
            "SELECT puzzle, outcome, themes FROM puzzle_attempts WHERE id IN (SELECT MAX(id) FROM puzzle_attempts"
            " WHERE learner = ? GROUP BY puzzle) ORDER BY id", (self.learner,)
        ).fetchall()
        return [(str(r[0]), str(r[1]), str(r[2])) for r in rows]

    def daily_days(self) -> list[date]:
        """The days the daily puzzle was completed, in order."""
        rows = self.store.db.execute(
            "SELECT DISTINCT day FROM puzzle_attempts WHERE learner = ? AND daily = 1 AND completed = 1 ORDER BY day",
            (self.learner,),
        ).fetchall()
        return [date.fromisoformat(str(r[0])) for r in rows]

    # ------------------------------------------------------- personal puzzles
    def scanned(self, game_id: int) -> bool:
        row = self.store.db.execute(
            "SELECT 1 FROM puzzle_games_scanned WHERE learner = ? AND game = ?", (self.learner, game_id)
        ).fetchone()
        return row is not None

    def save_personal(self, game_id: int, found: list[tuple[str, int, str]], stamp: str) -> int:
        """Keep a scanned game's puzzles ((id, moment, data JSON) each) and mark it scanned; how many are new."""
        new = 0
        with self.store.transaction() as db:
            for puzzle, moment, data in found:
                cursor = db.execute(
                    "INSERT INTO puzzle_personal (learner, id, game, moment, created, data) VALUES (?, ?, ?, ?, ?, ?)"
                    " ON CONFLICT (learner, id) DO NOTHING",
                    (self.learner, puzzle, game_id, moment, stamp, data),
                )
                new += max(0, int(cursor.rowcount))
            db.execute(
                "INSERT INTO puzzle_games_scanned (game, learner, found) VALUES (?, ?, ?)"
                " ON CONFLICT (game) DO UPDATE SET found = excluded.found",
                (game_id, self.learner, len(found)),
            )
        return new

    def personal(self) -> list[str]:
        """The JSON of the learner's own puzzles, oldest first."""
        rows = self.store.db.execute(
            "SELECT data FROM puzzle_personal WHERE learner = ? ORDER BY created, id", (self.learner,)
        ).fetchall()
        return [str(r[0]) for r in rows]


def streak(days: list[date], today: date) -> tuple[int, int]:
    """(current, best) run of consecutive days in ``days`` (sorted).

    The current run still counts when today is not in it yet (it runs up to
    yesterday); a missed day resets it.
    """
    best = run = 0
    previous: date | None = None
    for day in days:
        run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    if previous is None or (today - previous).days > 1:
        return 0, best
    return run, best
