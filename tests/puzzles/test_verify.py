"""Verification catches every false claim a puzzle can make."""

from __future__ import annotations

from dataclasses import replace

from tutor.puzzles.model import Goal, GoalType
from tutor.puzzles.themes import tag
from tutor.puzzles.verify import verify
from tutor.solver.solver import Solver

from .helpers import make_puzzle


def good():  # type: ignore[no-untyped-def]
    puzzle = make_puzzle("L:77Q F:6TQA", ["77", "pass", "Q"], goal=Goal(GoalType.WIN_IN, 2))
    return replace(puzzle, themes=tuple(tag(puzzle)))


def test_a_true_puzzle_verifies() -> None:
    verdict = verify(good(), Solver(), full=True)
    assert verdict.ok, verdict.problems


def test_a_first_move_that_is_not_the_only_win_is_caught() -> None:
    # Benchmark three-03: both 33344 and 3339 win.
    puzzle = make_puzzle("L:333449 F:7QQK2 F:66KK2", ["33344", "pass", "pass", "9"])
    verdict = verify(replace(puzzle, themes=tuple(tag(puzzle))), Solver())
    assert not verdict.ok and "winning first moves" in verdict.problems[0]


def test_a_losing_position_is_caught() -> None:
    puzzle = make_puzzle("L:7Q F:6A", ["Q", "A", "pass", "6"])
    assert "does not win" in verify(puzzle, Solver()).problems[0]


def test_a_wrong_win_in_is_caught() -> None:
    verdict = verify(replace(good(), goal=Goal(GoalType.WIN_IN, 3)), Solver())
    assert any("win in 3" in p for p in verdict.problems)


def test_a_bomb_goal_without_a_bomb_is_caught() -> None:
    verdict = verify(replace(good(), goal=Goal(GoalType.WIN_WITH_BOMB)), Solver())
    assert any("bomb" in p for p in verdict.problems)


def test_false_themes_are_caught() -> None:
    verdict = verify(replace(good(), themes=("rocket",)), Solver())
    assert any("themes" in p for p in verdict.problems)


def test_a_losing_move_deeper_in_the_tree_is_caught() -> None:
    # After 77 (the only win) and the farmer's pass, only 3 wins: Q lets the farmer's A in.
    # The tree still "ends in a win" because it has the farmer pass again.
    puzzle = make_puzzle("L:77Q3 F:6TA", ["77", "pass", "Q", "pass", "3"])
    verdict = verify(replace(puzzle, themes=tuple(tag(puzzle))), Solver())
    assert any("'Q' does not win" in p for p in verdict.problems), verdict.problems
