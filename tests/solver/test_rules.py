"""Rules reach the solver (RULES §12): the Python search follows them; the C core refuses any but the standard."""

from __future__ import annotations

import pytest

from tutor.engine.rules import STANDARD, Rules, UnsupportedRulesError
from tutor.solver.native import NativeTwoPlayerSearch
from tutor.solver.position import Position
from tutor.solver.solver import Solver
from tutor.solver.tables import HandTables

SHORT_STRAIGHTS = Rules(name="short-straights", min_straight=4)


def test_rule_12_the_c_core_refuses_other_rules_with_one_clear_error() -> None:
    with pytest.raises(UnsupportedRulesError) as caught:
        Solver(native=True, rules=SHORT_STRAIGHTS)
    message = str(caught.value)
    assert "standard rules" in message and "'short-straights'" in message and "\n" not in message
    with pytest.raises(UnsupportedRulesError):
        NativeTwoPlayerSearch(HandTables(rules=SHORT_STRAIGHTS), SHORT_STRAIGHTS)


def test_rule_12_the_solver_answers_for_the_game_it_is_given() -> None:
    # 3456 is a straight only when four cards make one: then the landlord goes out at once.
    standard = Position.parse("L:3456 F:77")
    short = Position(standard.hands, standard.roles, rules=SHORT_STRAIGHTS)
    assert Solver(native=False, rules=STANDARD).solve(standard).mover_wins is False
    result = Solver(rules=SHORT_STRAIGHTS).solve(short)
    assert result.mover_wins is True and [m.text for m in result.winning_moves if m] == ["3456"]


def test_a_position_of_other_rules_is_refused_by_a_solver_of_the_standard_ones() -> None:
    short = Position(Position.parse("L:3456 F:77").hands, Position.parse("L:3456 F:77").roles, rules=SHORT_STRAIGHTS)
    with pytest.raises(ValueError):
        Solver(rules=STANDARD).solve(short)
