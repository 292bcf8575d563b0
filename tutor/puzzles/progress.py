"""The learner's puzzle progress in the store: ratings, attempts, streak, themes, replays.

Tables of the ``puzzles`` area (see :mod:`tutor.store` for the store itself):

* ``puzzle_learner`` — the learner's Glicko-2 rating (one row);
* ``puzzle_ratings`` — each puzzle's Glicko-2 rating once someone here played it
  (before that the library's estimate stands, with a wide deviation);
* ``puzzle_attempts`` — every finished or abandoned attempt: the local date,
  whether it was the daily puzzle, the outcome, hints, mistakes, the themes and
  the learner's rating before and after;
* ``puzzle_personal`` — puzzles made from the learner's own games (a proven win
  they missed, :mod:`tutor.puzzles.personal`), each as the puzzle's JSON form;
* ``puzzle_games_scanned`` — the finished games already looked at for them.

An attempt and both rating updates are written in one transaction.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone

from tutor.puzzles.glicko2 import Rating, rate_attempt
from tutor.puzzles.library import check_tree
from tutor.puzzles.model import Puzzle
from tutor.puzzles.solving import Attempt, Outcome
from tutor.store import Store

AREA = "puzzles"
#: Deviation given to a puzzle's first estimate (the generator's guess is rough).
PUZZLE_START_RD = 200.0

MIGRATIONS: list[list[str]] = [
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
]


@dataclass(frozen=True, slots=True)
class AttemptRecord:
    """What was saved for one attempt, and the rating change it made."""

    puzzle: str
    outcome: Outcome
    completed: bool
    rating_before: float
    rating_after: float

    @property
    def change(self) -> float:
        return self.rating_after - self.rating_before


@dataclass(frozen=True, slots=True)
class ThemeResult:
    theme: str
    attempts: int
    solved: int
    failed: int


@dataclass(frozen=True, slots=True)
class Stats:
    """Everything ``ddz puzzle stats`` shows."""

    rating: Rating
    attempts: int
    solved: int
    failed: int
    assisted: int
    streak: int
    best_streak: int
    themes: list[ThemeResult]
    to_replay: list[str]


class PuzzleProgress:
    """The puzzles area of a :class:`~tutor.store.Store`."""

    def __init__(self, store: Store) -> None:
        self.store = store
        store.register_schema(AREA, MIGRATIONS)

    # ---------------------------------------------------------------- ratings
    def learner_rating(self) -> Rating:
        row = self.store.db.execute("SELECT rating, rd, volatility FROM puzzle_learner WHERE slot = 1").fetchone()
        return Rating(*row) if row else Rating()

    def puzzle_rating(self, puzzle: Puzzle) -> Rating:
        row = self.store.db.execute(
            "SELECT rating, rd, volatility FROM puzzle_ratings WHERE puzzle = ?", (puzzle.id,)
        ).fetchone()
        return Rating(*row) if row else Rating(puzzle.rating, PUZZLE_START_RD)

    # --------------------------------------------------------------- attempts
    def record(self, attempt: Attempt, day: date, daily: bool = False) -> AttemptRecord:
        """Save an attempt (finished or abandoned); rated outcomes move both ratings."""
        puzzle = attempt.puzzle
        before = self.learner_rating()
        after = before
        stamp = datetime.now(timezone.utc).isoformat(timespec="seconds")
        with self.store.transaction() as db:
            if attempt.outcome in (Outcome.SOLVED, Outcome.FAILED):
                old_puzzle = self.puzzle_rating(puzzle)
                after, new_puzzle = rate_attempt(before, old_puzzle, attempt.outcome is Outcome.SOLVED)
                db.execute(
                    "INSERT OR REPLACE INTO puzzle_learner VALUES (1, ?, ?, ?)",
                    (after.rating, after.rd, after.volatility),
                )
                db.execute(
                    """INSERT INTO puzzle_ratings VALUES (?, ?, ?, ?, 1)
                       ON CONFLICT (puzzle) DO UPDATE SET rating = excluded.rating, rd = excluded.rd,
                       volatility = excluded.volatility, plays = plays + 1""",
                    (puzzle.id, new_puzzle.rating, new_puzzle.rd, new_puzzle.volatility),
                )
            db.execute(
                """INSERT INTO puzzle_attempts (puzzle, at, day, daily, outcome, completed, hints, mistakes,
                   themes, rating_before, rating_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                (
                    puzzle.id,
                    stamp,
                    day.isoformat(),
                    int(daily),
                    attempt.outcome.value,
                    int(attempt.finished and not attempt.used_solution),
                    attempt.hints,
                    attempt.mistakes,
                    json.dumps(list(puzzle.themes)),
                    before.rating,
                    after.rating,
                ),
            )
        return AttemptRecord(
            puzzle.id, attempt.outcome, attempt.finished and not attempt.used_solution, before.rating, after.rating
        )

    def attempted_ids(self) -> set[str]:
        return {row[0] for row in self.store.db.execute("SELECT DISTINCT puzzle FROM puzzle_attempts")}

    def attempted_on(self, puzzle_id: str, day: date) -> bool:
        row = self.store.db.execute(
            "SELECT 1 FROM puzzle_attempts WHERE puzzle = ? AND day = ? LIMIT 1", (puzzle_id, day.isoformat())
        ).fetchone()
        return row is not None

    # ------------------------------------------------------- personal puzzles
    def scanned(self, game_id: int) -> bool:
        row = self.store.db.execute("SELECT 1 FROM puzzle_games_scanned WHERE game = ?", (game_id,)).fetchone()
        return row is not None

    def save_personal(self, game_id: int, moments: list[int], puzzles: list[Puzzle]) -> int:
        """Keep a scanned game's puzzles (one transaction: the game is marked scanned with them).

        Returns how many are new (a position met in an earlier game keeps its first entry).
        """
        stamp = datetime.now(timezone.utc).isoformat(timespec="seconds")
        new = 0
        with self.store.transaction() as db:
            for moment, puzzle in zip(moments, puzzles):
                cursor = db.execute(
                    "INSERT OR IGNORE INTO puzzle_personal (id, game, moment, created, data) VALUES (?, ?, ?, ?, ?)",
                    (puzzle.id, game_id, moment, stamp, json.dumps(puzzle.to_data())),
                )
                new += cursor.rowcount
            db.execute("INSERT OR REPLACE INTO puzzle_games_scanned VALUES (?, ?)", (game_id, len(puzzles)))
        return new

    def personal(self) -> list[Puzzle]:
        """The learner's own puzzles, oldest first (a damaged row is skipped, not fatal)."""
        out = []
        for (data,) in self.store.db.execute("SELECT data FROM puzzle_personal ORDER BY created, id").fetchall():
            try:
                puzzle = Puzzle.from_data(json.loads(data))
                check_tree(puzzle)  # legal moves all the way: a damaged row is dropped, not played
            except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
                continue
            out.append(puzzle)
        return out

    def last_outcomes(self) -> dict[str, str]:
        """Each attempted puzzle's last outcome."""
        rows = self.store.db.execute(
            "SELECT puzzle, outcome FROM puzzle_attempts WHERE id IN (SELECT MAX(id) FROM puzzle_attempts"
            " GROUP BY puzzle)"
        ).fetchall()
        return {puzzle: outcome for puzzle, outcome in rows}

    # ----------------------------------------------------------------- streak
    def _daily_days(self) -> list[date]:
        rows = self.store.db.execute(
            "SELECT DISTINCT day FROM puzzle_attempts WHERE daily = 1 AND completed = 1 ORDER BY day"
        ).fetchall()
        return [date.fromisoformat(r[0]) for r in rows]

    def streak(self, today: date) -> tuple[int, int]:
        """(current, best) run of consecutive days with the daily puzzle solved.

        The current run still counts when today's puzzle is not done yet (it
        runs up to yesterday); a missed day resets it.
        """
        days = self._daily_days()
        best = run = 0
        previous: date | None = None
        for day in days:
            run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
            best = max(best, run)
            previous = day
        if previous is None or (today - previous).days > 1:
            return 0, best
        return run, best

    # ------------------------------------------------------------------ stats
    def to_replay(self, theme: str | None = None) -> list[str]:
        """Puzzles whose last finished attempt was not a clean solve, oldest first."""
        rows = self.store.db.execute(
            """SELECT puzzle, outcome, themes FROM puzzle_attempts
               WHERE id IN (SELECT MAX(id) FROM puzzle_attempts GROUP BY puzzle) ORDER BY id"""
        ).fetchall()
        out = []
        for puzzle, outcome, themes in rows:
            if outcome == Outcome.SOLVED.value:
                continue
            if theme is not None and theme not in json.loads(themes):
                continue
            out.append(puzzle)
        return out

    def stats(self, today: date) -> Stats:
        rows = self.store.db.execute("SELECT outcome, themes FROM puzzle_attempts").fetchall()
        counts = {o.value: 0 for o in Outcome}
        per_theme: dict[str, list[int]] = {}
        for outcome, themes in rows:
            counts[outcome] += 1
            for theme in json.loads(themes):
                entry = per_theme.setdefault(theme, [0, 0, 0])
                entry[0] += 1
                entry[1] += outcome == Outcome.SOLVED.value
                entry[2] += outcome == Outcome.FAILED.value
        current, best = self.streak(today)
        return Stats(
            rating=self.learner_rating(),
            attempts=len(rows),
            solved=counts[Outcome.SOLVED.value],
            failed=counts[Outcome.FAILED.value],
            assisted=counts[Outcome.ASSISTED.value],
            streak=current,
            best_streak=best,
            themes=[ThemeResult(t, *v) for t, v in sorted(per_theme.items())],
            to_replay=self.to_replay(),
        )
