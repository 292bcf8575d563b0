"""The lessons' solver wrapper is bounded by nodes, never by the clock (issue 11).

A teaching verdict must come out the same on an idle and a busy machine: the oracle's
budget counts positions expanded, and when it runs out the answer is "cannot prove"
(SolverUnsureError), never another verdict.
"""

from __future__ import annotations

import pytest

from tutor.engine.rules import STANDARD
from tutor.lessons.oracle import DEFAULT_NODES, Oracle, SolverUnsureError
from tutor.solver import Position, Solver

#: Three-player positions (the Python team search, the slower one) that need hundreds of nodes.
POSITIONS = ["L:3456789TJQ F:KKAA2 F:33QQ7", "L:3334447789TT F:KKAA2XQQ F:5566JJ", "L:33345678TTJQ F:99KKA2D F:4455667"]


def test_the_default_oracle_counts_nodes_and_has_no_clock() -> None:
    solver = Oracle().solver
    assert solver.max_nodes == DEFAULT_NODES
    assert solver.max_seconds is None


@pytest.mark.parametrize("text", POSITIONS)
def test_a_budget_either_proves_the_exact_answer_or_says_it_cannot(text: str) -> None:
    pos = Position.parse(text)
    exact = Solver(rules=STANDARD).solve(pos)
    assert exact.complete
    answers = {}
    for budget in (1, 10, 50, 100, 200, 400, 800, 1_600, DEFAULT_NODES):
        oracle = Oracle(Solver(max_nodes=budget, rules=STANDARD))
        try:
            answers[budget] = oracle.winning_moves(pos)
        except SolverUnsureError:
            answers[budget] = None
            # Nothing was cached as an answer; asked again, the solver starts from what its table
            # learned the first time, so it may now prove it: then the exact answer, nothing else.
            try:
                again = oracle.winning_moves(pos)
            except SolverUnsureError:
                again = None
            assert again is None or again == exact.winning_moves, (budget, again)
    assert answers[1] is None, "one node cannot prove a real position"
    assert answers[DEFAULT_NODES] == exact.winning_moves
    assert all(found is None or found == exact.winning_moves for found in answers.values()), answers


@pytest.mark.parametrize("text", POSITIONS[1:])
def test_plays_to_win_under_a_small_budget_cannot_prove_rather_than_guess(text: str) -> None:
    pos = Position.parse(text)
    move = pos.legal_moves()[0]
    exact = Oracle(Solver(rules=STANDARD)).plays_to_win(pos, move)
    with pytest.raises(SolverUnsureError):
        Oracle(Solver(max_nodes=5, rules=STANDARD)).plays_to_win(pos, move)
    assert Oracle().plays_to_win(pos, move) == exact
