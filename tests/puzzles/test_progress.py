"""Rating, streak, per-theme results and replays in the store."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest

from tutor.engine.rules import STANDARD
from tutor.puzzles.glicko2 import DEFAULT_RATING
from tutor.puzzles.progress import PuzzleProgress
from tutor.puzzles.solving import Attempt, Outcome
from tutor.solver.solver import Solver
from tutor.store import Store

from .helpers import make_puzzle

DAY = date(2025, 5, 1)


@pytest.fixture()
def progress(club: Any) -> Iterator[PuzzleProgress]:
    """A club learner's progress, on SQLite and on PostgreSQL (tests/conftest.py: ``club``)."""
    with club.store_for(3) as store:
        yield PuzzleProgress(store)


def puzzle(theme: str = "heads_up"):  # type: ignore[no-untyped-def]
    return make_puzzle("L:77Q F:6TQA", ["77", "pass", "Q"], themes=(theme,), rating=1500)


def solved(p) -> Attempt:  # type: ignore[no-untyped-def]
    attempt = Attempt(p, Solver(rules=STANDARD))
    attempt.play("77")
    attempt.play("Q")
    return attempt


def failed(p) -> Attempt:  # type: ignore[no-untyped-def]
    attempt = Attempt(p, Solver(rules=STANDARD))
    attempt.play("Q")
    return attempt


def test_rating_moves_up_on_a_solve_and_down_on_a_failure(progress: PuzzleProgress) -> None:
    p = puzzle()
    record = progress.record(solved(p), DAY)
    assert record.rating_after > DEFAULT_RATING
    assert progress.learner_rating().rating == pytest.approx(record.rating_after)
    assert progress.puzzle_rating(p).rating < 1500
    record = progress.record(failed(p), DAY)
    assert record.rating_after < record.rating_before


def test_hint_makes_the_attempt_unrated(progress: PuzzleProgress) -> None:
    attempt = Attempt(puzzle(), Solver(rules=STANDARD))
    attempt.hint()
    attempt.play("77")
    attempt.play("Q")
    assert attempt.outcome is Outcome.ASSISTED
    record = progress.record(attempt, DAY)
    assert record.change == 0
    assert progress.learner_rating().rating == DEFAULT_RATING


def test_daily_streak_counts_consecutive_days(progress: PuzzleProgress) -> None:
    p = puzzle()
    for k in range(3):
        progress.record(solved(p), DAY + timedelta(days=k), daily=True)
    assert progress.streak(DAY + timedelta(days=2)) == (3, 3)
    assert progress.streak(DAY + timedelta(days=3)) == (3, 3)  # today's not done yet
    assert progress.streak(DAY + timedelta(days=4)) == (0, 3)  # a day was missed
    progress.record(solved(p), DAY + timedelta(days=5), daily=True)
    assert progress.streak(DAY + timedelta(days=5)) == (1, 3)


def test_per_theme_results_and_replays(progress: PuzzleProgress) -> None:
    a, b = puzzle("bomb_finish"), make_puzzle("L:77Q F:6TQA", ["77", "pass", "Q"], themes=("rocket",),
                                              beat=None)
    b = type(b)("zzzzzz", b.title, b.themes, b.position, b.goal, b.solution, b.rating, b.source)
    progress.record(failed(a), DAY)
    progress.record(solved(b), DAY)
    stats = progress.stats(DAY)
    themes = {r.theme: r for r in stats.themes}
    assert themes["bomb_finish"].failed == 1 and themes["rocket"].solved == 1
    assert stats.to_replay == [a.id]
    assert progress.to_replay("rocket") == []
    progress.record(solved(a), DAY)
    assert progress.to_replay() == []


def test_store_survives_reopening(tmp_path: Path) -> None:
    path = tmp_path / "ddz.sqlite3"
    with Store.open(path) as store:
        PuzzleProgress(store).record(solved(puzzle()), DAY)
    with Store.open(path) as store:
        assert PuzzleProgress(store).learner_rating().rating > DEFAULT_RATING

