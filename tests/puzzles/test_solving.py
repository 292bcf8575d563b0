"""Solving a puzzle: checked moves, refutations, hints, the solution, rated or not."""

from __future__ import annotations

import pytest

from tutor.engine.combos import Kind
from tutor.engine.rules import STANDARD
from tutor.puzzles.model import Goal, GoalType, Node, Puzzle, Source
from tutor.puzzles.solving import Attempt, Outcome
from tutor.solver.position import Position
from tutor.solver.solver import Solver

from .helpers import chain


def heads_up() -> Puzzle:
    # Only 77 wins: the pair is a boss, then Q; any single lets the farmer take over.
    pos = Position.parse("L:77Q F:6TQA")
    return Puzzle("t00001", "test", (), pos, Goal(), chain(["77", "pass", "Q"]), 1200, Source())


def team() -> Puzzle:
    # The farmer leads 88, the partner overtakes with 99 and runs out.
    pos = Position.parse("F:34889T L:6QKA2 F:66799")
    line = ["88", "pass", "99", "pass", "pass", "66", "pass", "pass", "7"]
    return Puzzle("t00002", "test", (), pos, Goal(), chain(line), 1500, Source())


def test_right_moves_solve_it_and_the_defence_answers() -> None:
    attempt = Attempt(heads_up(), Solver(rules=STANDARD))
    check = attempt.play("77")
    assert check.correct and not check.solved
    assert [p.text for p in check.replies] == ["pass"]
    check = attempt.play("Q")
    assert check.correct and check.solved
    assert attempt.outcome is Outcome.SOLVED and attempt.rated


def test_wrong_move_shows_the_refutation_and_allows_a_retry_unrated() -> None:
    attempt = Attempt(heads_up(), Solver(rules=STANDARD))
    check = attempt.play("Q")
    assert not check.correct
    assert check.refutation[0].text == "Q"
    assert check.refutation[-1].by_learner is False  # the farmer plays the last card
    assert attempt.position == heads_up().position  # the wrong move was not made
    assert attempt.outcome is Outcome.FAILED
    attempt.play("77")
    attempt.play("Q")
    assert attempt.finished and attempt.outcome is Outcome.FAILED and attempt.mistakes == 1


def test_hint_names_the_kind_then_the_move_and_unrates() -> None:
    attempt = Attempt(heads_up(), Solver(rules=STANDARD))
    level, move = attempt.hint()
    assert level == 1 and move is not None and move.kind == Kind.PAIR
    level, move = attempt.hint()
    assert level == 2 and move is not None and move.text == "77"
    assert attempt.outcome is Outcome.ASSISTED and not attempt.rated


def test_solution_plays_it_out() -> None:
    attempt = Attempt(team(), Solver(rules=STANDARD))
    played = attempt.show_solution()
    assert [p.text for p in played] == team().solution.main_line()
    assert attempt.finished and attempt.outcome is Outcome.ASSISTED


def test_learner_plays_both_farmers_in_a_team_puzzle() -> None:
    attempt = Attempt(team(), Solver(rules=STANDARD))
    check = attempt.play("88")
    assert [p.text for p in check.replies] == ["pass"]
    assert attempt.learner_to_move and attempt.position.to_move == 2  # the partner's turn
    assert attempt.play("99").correct


def test_off_tree_winning_move_is_accepted_and_the_solver_defends() -> None:
    # Tree says A then 33; leading 33 first wins too at the second turn.
    pos = Position.parse("L:33A2 F:4")
    tree = Node("2", (Node("pass", (Node("A", (Node("pass", (Node("33"),)),)),)),))
    attempt = Attempt(Puzzle("t00003", "test", (), pos, Goal(), tree, 1000, Source()), Solver(rules=STANDARD))
    attempt.play("2")
    check = attempt.play("33")
    assert check.correct
    assert attempt.play("A").solved


def test_win_in_goal_rejects_a_slower_win() -> None:
    pos = Position.parse("L:334455 F:6")
    puzzle = Puzzle("t00004", "test", (), pos, Goal(GoalType.WIN_IN, 1), chain(["334455"]), 1000, Source())
    attempt = Attempt(puzzle, Solver(rules=STANDARD))
    assert not attempt.play("33").correct  # wins, but in three plays, not one
    assert attempt.play("334455").solved


def test_not_the_learners_turn_is_an_error() -> None:
    attempt = Attempt(heads_up(), Solver(rules=STANDARD))
    attempt.show_solution()
    with pytest.raises(ValueError):
        attempt.play("Q")


def test_a_move_the_solver_cannot_settle_is_neither_played_nor_a_mistake() -> None:
    """A move off the tree that the solver cannot settle within its budget is not called wrong (unproven): it is
    not played, not counted, and the attempt stays rated; the tree's own move needs no proof."""
    attempt = Attempt(heads_up(), Solver(rules=STANDARD, max_nodes=1))
    check = attempt.play("Q")
    assert check.unclear and not check.correct and not check.refutation
    assert attempt.mistakes == 0 and attempt.outcome is Outcome.UNFINISHED
    assert attempt.position == heads_up().position
    assert attempt.play("77").correct


def test_a_move_proven_to_lose_is_still_wrong_not_unclear() -> None:
    check = Attempt(heads_up(), Solver(rules=STANDARD)).play("Q")
    assert not check.correct and not check.unclear
