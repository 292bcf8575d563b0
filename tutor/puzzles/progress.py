"""The learner's puzzle progress in the store: ratings, attempts, streak, themes, replays.

The rules live here (Glicko-2 updates, what counts as solved, the streak, what
to replay); the rows and their SQL live in :mod:`tutor.store.puzzles` (tables
``puzzle_learner``, ``puzzle_ratings``, ``puzzle_attempts``,
``puzzle_personal``, ``puzzle_games_scanned``), each scoped to the store's learner.

An attempt and both rating updates are written in one transaction.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date, datetime, timezone

from tutor.puzzles.glicko2 import Rating, rate_attempt
from tutor.puzzles.library import check_tree
from tutor.puzzles.model import Puzzle
from tutor.puzzles.solving import Attempt, Outcome
from tutor.store import Store
from tutor.store.puzzles import AREA, MIGRATIONS, SCHEMA, PuzzleRows, streak

__all__ = ["AREA", "MIGRATIONS", "PUZZLE_START_RD", "SCHEMA", "AttemptRecord", "PuzzleProgress", "Stats",
           "ThemeResult"]

#: Deviation given to a puzzle's first estimate (the generator's guess is rough).
PUZZLE_START_RD = 200.0


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
    """The puzzles area of a :class:`~tutor.store.Store` (its learner's rows)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._rows = PuzzleRows(store)

    # ---------------------------------------------------------------- ratings
    def learner_rating(self) -> Rating:
        row = self._rows.learner_rating()
        return Rating(*row) if row else Rating()

    def puzzle_rating(self, puzzle: Puzzle) -> Rating:
        row = self._rows.puzzle_rating(puzzle.id)
        return Rating(*row) if row else Rating(puzzle.rating, PUZZLE_START_RD)

    # --------------------------------------------------------------- attempts
    def record(self, attempt: Attempt, day: date, daily: bool = False) -> AttemptRecord:
        """Save an attempt (finished or abandoned); rated outcomes move both ratings."""
        puzzle = attempt.puzzle
        stamp = datetime.now(timezone.utc).isoformat(timespec="seconds")
        completed = attempt.finished and not attempt.used_solution
        with self.store.transaction():
            before = self.learner_rating()
            after = before
            if attempt.outcome in (Outcome.SOLVED, Outcome.FAILED):
                old_puzzle = self.puzzle_rating(puzzle)
                after, new_puzzle = rate_attempt(before, old_puzzle, attempt.outcome is Outcome.SOLVED)
                self._rows.save_ratings((after.rating, after.rd, after.volatility), puzzle.id,
                                        (new_puzzle.rating, new_puzzle.rd, new_puzzle.volatility))
            self._rows.add_attempt(puzzle.id, stamp, day.isoformat(), daily, attempt.outcome.value, completed,
                                   attempt.hints, attempt.mistakes, json.dumps(list(puzzle.themes)),
                                   before.rating, after.rating)
        return AttemptRecord(puzzle.id, attempt.outcome, completed, before.rating, after.rating)

    def attempted_ids(self) -> set[str]:
        return self._rows.attempted_ids()

    def attempted_on(self, puzzle_id: str, day: date) -> bool:
        return self._rows.attempted_on(puzzle_id, day.isoformat())

    # ------------------------------------------------------- personal puzzles
    def scanned(self, game_id: int) -> bool:
        return self._rows.scanned(game_id)

    def save_personal(self, game_id: int, moments: list[int], puzzles: list[Puzzle]) -> int:
        """Keep a scanned game's puzzles (one transaction: the game is marked scanned with them).

        Returns how many are new (a position met in an earlier game keeps its first entry).
        """
        stamp = datetime.now(timezone.utc).isoformat(timespec="seconds")
        found = [(puzzle.id, moment, json.dumps(puzzle.to_data())) for moment, puzzle in zip(moments, puzzles)]
        return self._rows.save_personal(game_id, found, stamp)

    def personal(self) -> list[Puzzle]:
        """The learner's own puzzles, oldest first (a damaged row is skipped, not fatal)."""
        out = []
        for data in self._rows.personal():
            try:
                puzzle = Puzzle.from_data(json.loads(data))
                check_tree(puzzle)  # legal moves all the way: a damaged row is dropped, not played
            except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
                continue
            out.append(puzzle)
        return out

    def last_outcomes(self) -> dict[str, str]:
        """Each attempted puzzle's last outcome."""
        return {puzzle: outcome for puzzle, outcome, _ in self._rows.last_attempts()}

    # ----------------------------------------------------------------- streak
    def streak(self, today: date) -> tuple[int, int]:
        """(current, best) run of consecutive days with the daily puzzle solved.

        The current run still counts when today's puzzle is not done yet (it
        runs up to yesterday); a missed day resets it.
        """
        return streak(self._rows.daily_days(), today)

    # ------------------------------------------------------------------ stats
    def to_replay(self, theme: str | None = None) -> list[str]:
        """Puzzles whose last finished attempt was not a clean solve, oldest first."""
        out = []
        for puzzle, outcome, themes in self._rows.last_attempts():
            if outcome == Outcome.SOLVED.value:
                continue
            if theme is not None and theme not in json.loads(themes):
                continue
            out.append(puzzle)
        return out

    def stats(self, today: date) -> Stats:
        rows = self._rows.outcomes()
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
