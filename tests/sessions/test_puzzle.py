"""A whole puzzle through PuzzleSession: moves, a wrong move, the choice of readings, recording."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from tutor.puzzles.model import Goal, Puzzle, Source
from tutor.puzzles.progress import PuzzleProgress
from tutor.puzzles.solving import Outcome
from tutor.sessions.events import StatusLine
from tutor.sessions.puzzle import Correct, PuzzleOver, PuzzleSession, Wrong
from tutor.solver.position import Position
from tutor.solver.solver import Solver
from tutor.store import Store

from tests.puzzles.helpers import chain


def heads_up() -> Puzzle:
    # Only 77 wins: the pair is a boss, then Q; any single lets the farmer take over.
    pos = Position.parse("L:77Q F:6TQA")
    return Puzzle("t00001", "test", (), pos, Goal(), chain(["77", "pass", "Q"]), 1200, Source())


def test_a_whole_puzzle_typed_is_solved_and_recorded(tmp_path: Path) -> None:
    with Store.open(tmp_path / "s.sqlite3") as store:
        progress = PuzzleProgress(store)
        session = PuzzleSession(heads_up(), Solver(), progress, day=date(2026, 1, 1))
        session.start()
        events = session.select("77")
        assert isinstance(events[0], StatusLine) and events[0].ok and isinstance(events[1], Correct)
        events = session.select("q")
        over = events[-1]
        assert isinstance(over, PuzzleOver) and over.solved and over.record is not None
        assert over.record.outcome is Outcome.SOLVED and session.finished


def test_a_wrong_move_is_refuted_not_played_and_the_attempt_is_failed() -> None:
    session = PuzzleSession(heads_up(), Solver())
    session.start()
    events = session.select("7")
    assert isinstance(events[-1], Wrong) and events[-1].refutation
    assert not session.finished and session.attempt.outcome is Outcome.FAILED


def test_leaving_before_trying_records_nothing(tmp_path: Path) -> None:
    with Store.open(tmp_path / "s.sqlite3") as store:
        session = PuzzleSession(heads_up(), Solver(), PuzzleProgress(store))
        session.start()
        over = session.stop()[-1]
        assert isinstance(over, PuzzleOver) and over.record is None and not over.solved
