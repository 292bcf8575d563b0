"""A puzzle streak through StreakSession: rising ratings, the run ends at the first wrong move, the best kept."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tutor.engine.rules import STANDARD
from tutor.puzzles.model import Goal, Puzzle, Source
from tutor.puzzles.progress import PuzzleProgress
from tutor.puzzles.streak import START, StreakProgress, ladder
from tutor.sessions.puzzle import Correct, PuzzleOver, Wrong
from tutor.sessions.streak import StreakOver, StreakSession, StreakStep
from tutor.solver.position import Position
from tutor.solver.solver import Solver
from tutor.store import Store

from tests.puzzles.helpers import chain


def duel(rating: float, ident: str) -> Puzzle:
    # Only 77 wins: the pair is a boss, then Q; any single lets the farmer take over.
    return Puzzle(ident, "test", (), Position.parse("L:77Q F:6TQA"), Goal(), chain(["77", "pass", "Q"]),
                  rating, Source())


def library() -> list[Puzzle]:
    return [duel(600 + 40 * i, f"t{i:05d}") for i in range(30)]


def solve(run: StreakSession) -> list[object]:
    events: list[object] = []
    events += run.select("77")
    events += run.select("q")
    return events


def test_the_ladder_rises_and_never_repeats() -> None:
    puzzles = library()
    for seed in range(5):
        run = ladder(puzzles, random.Random(seed))
        ratings = [p.rating for p in run]
        assert ratings == sorted(ratings) and len({p.id for p in run}) == len(run) >= 8
        assert abs(ratings[0] - START) <= 100  # it starts easy, near the first step


def test_solved_puzzles_lead_on_and_the_first_wrong_move_ends_the_run(tmp_path: Path) -> None:
    with Store.open(tmp_path / "s.sqlite3") as store:
        run = StreakSession(library(), Solver(rules=STANDARD), PuzzleProgress(store), seed=1)
        first = run.start()
        assert isinstance(first[0], StreakStep) and first[0].number == 1 and first[0].solved == 0
        events = solve(run)
        assert any(isinstance(e, PuzzleOver) and e.solved for e in events)
        step = next(e for e in events if isinstance(e, StreakStep))
        assert step.number == 2 and step.solved == 1 and step.rating >= first[0].rating
        solve(run)
        events = run.select("q")  # a single: the farmer takes over
        assert isinstance(events[-2], Wrong) and events[-2].refutation
        over = events[-1]
        assert isinstance(over, StreakOver) and over.solved == 2 and over.best == 2 and over.new_best
        assert run.finished and run.select("77") == []
        # a shorter run keeps the best
        again = StreakSession(library(), Solver(rules=STANDARD), PuzzleProgress(store), seed=2)
        again.start()
        end = again.select("q")[-1]
        assert isinstance(end, StreakOver) and end.solved == 0 and end.best == 2 and not end.new_best
        assert StreakProgress(store).record().runs == 2


def test_the_solution_or_a_stop_ends_the_run_and_hints_are_not_given() -> None:
    run = StreakSession(library(), Solver(rules=STANDARD), None, seed=3)
    run.start()
    assert run.hint() == []
    events = run.solution()
    assert isinstance(events[-1], StreakOver) and events[-1].solved == 0 and events[-1].best is None
    other = StreakSession(library(), Solver(rules=STANDARD), None, seed=3)
    other.start()
    correct = other.select("77")
    assert any(isinstance(e, Correct) for e in correct)
    assert isinstance(other.stop()[-1], StreakOver) and other.finished


def test_the_best_streak_is_kept_per_learner(tmp_path: Path) -> None:
    path = tmp_path / "club.sqlite3"
    with Store.open(path) as store:
        StreakProgress(store).finish(5)
    with Store.open(path, learner=2) as other:
        assert StreakProgress(other).record().best == 0
        StreakProgress(other).finish(3)
        StreakProgress(other).finish(1)
        record = StreakProgress(other).record()
        assert (record.best, record.runs, record.last) == (3, 2, 1)
    with Store.open(path) as store:
        assert StreakProgress(store).record().best == 5
        rows = store.db.execute("SELECT learner, best FROM puzzle_streak ORDER BY learner").fetchall()
        assert [tuple(r) for r in rows] == [(1, 5), (2, 3)]


def test_an_empty_library_is_refused() -> None:
    with pytest.raises(ValueError, match="no puzzles"):
        StreakSession([], Solver(rules=STANDARD))
