"""Verification catches every false claim a puzzle can make."""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from tutor.engine.rules import STANDARD
from tutor.puzzles.model import Goal, GoalType
from tutor.puzzles.themes import tag
from tutor.puzzles.verify import verify
from tutor.solver.solver import Solver

from .helpers import make_puzzle


def good():  # type: ignore[no-untyped-def]
    # A duel: the farmer holding a lone 3 can beat nothing, so he passes throughout.
    puzzle = make_puzzle("L:77Q F:6TQA F:3", ["77", "pass", "pass", "Q"], goal=Goal(GoalType.WIN_IN, 2))
    return replace(puzzle, themes=tuple(tag(puzzle)))


def test_a_true_puzzle_verifies() -> None:
    verdict = verify(good(), Solver(rules=STANDARD), full=True)
    assert verdict.ok, verdict.problems


def test_a_first_move_that_is_not_the_only_win_is_caught() -> None:
    # Benchmark three-03: both 33344 and 3339 win.
    puzzle = make_puzzle("L:333449 F:7QQK2 F:66KK2", ["33344", "pass", "pass", "9"])
    verdict = verify(replace(puzzle, themes=tuple(tag(puzzle))), Solver(rules=STANDARD))
    assert not verdict.ok and "winning first moves" in verdict.problems[0]


def test_a_losing_position_is_caught() -> None:
    puzzle = make_puzzle("L:7Q F:6A F:3", ["Q", "A", "pass", "pass", "6"])
    assert "does not win" in verify(puzzle, Solver(rules=STANDARD)).problems[0]


def test_a_wrong_win_in_is_caught() -> None:
    verdict = verify(replace(good(), goal=Goal(GoalType.WIN_IN, 3)), Solver(rules=STANDARD))
    assert any("win in 3" in p for p in verdict.problems)


def test_a_bomb_goal_without_a_bomb_is_caught() -> None:
    verdict = verify(replace(good(), goal=Goal(GoalType.WIN_WITH_BOMB)), Solver(rules=STANDARD))
    assert any("bomb" in p for p in verdict.problems)


def test_false_themes_are_caught() -> None:
    verdict = verify(replace(good(), themes=("rocket",)), Solver(rules=STANDARD))
    assert any("themes" in p for p in verdict.problems)


def test_a_losing_move_deeper_in_the_tree_is_caught() -> None:
    # After 77 (the only win) and the farmer's pass, only 3 wins: Q lets the farmer's A in.
    # The tree still "ends in a win" because it has the farmer pass again.
    puzzle = make_puzzle("L:77Q3 F:6TA F:3", ["77", "pass", "pass", "Q", "pass", "pass", "3"])
    verdict = verify(replace(puzzle, themes=tuple(tag(puzzle))), Solver(rules=STANDARD))
    assert any("'Q' does not win" in p for p in verdict.problems), verdict.problems


def test_a_two_player_position_is_caught() -> None:
    puzzle = make_puzzle("L:77Q F:6TQA", ["77", "pass", "Q"], goal=Goal(GoalType.WIN_IN, 2))
    verdict = verify(replace(puzzle, themes=tuple(tag(puzzle))), Solver(rules=STANDARD))
    assert any("three hands" in p for p in verdict.problems), verdict.problems


def test_a_goal_that_names_the_first_move_is_a_spoiler() -> None:
    # The bomb is the first move: "win with a bomb" would say what to play.
    puzzle = make_puzzle("L:44445 F:6A F:3", ["4444", "pass", "pass", "5"], goal=Goal(GoalType.WIN_WITH_BOMB))
    verdict = verify(replace(puzzle, themes=tuple(tag(puzzle))), Solver(rules=STANDARD))
    assert any(p.startswith("spoiler") for p in verdict.problems), verdict.problems
    assert not any(p.startswith("spoiler") for p in verify(replace(puzzle, goal=Goal()), Solver(rules=STANDARD)).problems)


def test_a_set_up_that_threw_a_win_away_is_caught() -> None:
    # The landlord holding Q2X passed the farmer's 8: X, 2, Q would have won him the game.
    thrown = make_puzzle("F:9K F:4 L:Q2X", ["pass", "4"], beat="8", beat_by=1)
    verdict = verify(replace(thrown, themes=tuple(tag(thrown))), Solver(rules=STANDARD))
    assert any("threw away a forced win" in p and "player 2 (landlord)" in p for p in verdict.problems), \
        verdict.problems
    # With Q23 he had no win to throw (a farmer's 9 or K gets in): the same set-up is fair.
    fair = make_puzzle("F:9K F:4 L:Q23", ["pass", "4"], beat="8", beat_by=1)
    assert not any("threw" in p for p in verify(replace(fair, themes=tuple(tag(fair))), Solver(rules=STANDARD)).problems)


def test_a_rating_that_is_not_the_calibration_of_its_signals_is_caught() -> None:
    from tutor.puzzles.generate import Candidate, Generator
    from tutor.puzzles.model import Source
    from tutor.solver.position import Position

    made = Generator(partial(Solver, rules=STANDARD)).examine(Candidate(Position.parse("L:77Q F:6TQA F:3"), Source()))
    assert made is not None and made.difficulty is not None
    assert verify(made, Solver(rules=STANDARD), full=True).ok
    assert any("signals give" in p for p in verify(replace(made, rating=1500), Solver(rules=STANDARD)).problems)
    forged = replace(made, difficulty=replace(made.difficulty, naive=0.0))
    assert any("signals" in p for p in verify(replace(forged, rating=forged.difficulty.rating), Solver(rules=STANDARD)).problems)
