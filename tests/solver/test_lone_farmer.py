"""The lone-farmer shortcut (tutor/solver/lone_farmer.py): the same answers as the plain team search."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from test_solver_vs_brute import random_position
from tutor.engine.rules import STANDARD
from tutor.solver import Position, Solver
from tutor.solver.lone_farmer import LoneFarmer
from tutor.solver.native import available
from tutor.solver.search import TeamSearch
from tutor.solver.team_native import NativeTeamSearch

pytestmark = pytest.mark.skipif(not available(), reason="the shortcut runs on the compiled core")


def _settled(solver: Solver) -> int:
    """Positions the solver's lone-farmer shortcuts settled (in Python, or inside the compiled team search)."""
    return sum(team.shortcut.settled for team in solver._team.values()
               if isinstance(team, TeamSearch) and isinstance(team.shortcut, LoneFarmer)) + sum(
        team.settled for team in solver._team.values() if isinstance(team, NativeTeamSearch))


def test_same_verdicts_and_winning_moves_as_the_plain_search() -> None:
    rng = random.Random(30)
    settled = 0
    for _ in range(120):
        pos = random_position(rng, 3, 7, rng.random() < 0.5)
        if pos.table is None:
            pos = replace(pos, to_move=rng.randrange(3))
        plain = Solver(workers=1, rules=STANDARD).solve(pos, all_moves=True, line=False)
        solver = Solver(workers=1, lone_farmer=True, rules=STANDARD)
        got = solver.solve(pos, all_moves=True, line=False)
        assert got.mover_wins is plain.mover_wins, pos.format()
        assert set(got.winning_moves) == set(plain.winning_moves), pos.format()
        settled += _settled(solver)
    assert settled > 100  # the shortcut did settle positions (else this test checks nothing)


def test_a_farmer_alone_settles_the_position_for_either_side() -> None:
    # The farmer after the landlord holds the rocket and a pair: he wins alone whatever the landlord leads.
    pos = Position.parse("L:3456 F:XD99 F:4")
    solver = Solver(workers=1, lone_farmer=True, rules=STANDARD)
    assert solver.solve(pos, all_moves=True).mover_wins is False
    assert _settled(solver) > 0
    shortcut = LoneFarmer(solver._two, (0, 1, 1), None)  # type: ignore[arg-type]
    hands = pos.packed
    assert shortcut(hands, 0, 0, 0) is False  # the landlord to lead: lost
    assert shortcut(hands, 1, 0, 0) is True  # the strong farmer to lead: won
    assert shortcut(hands, 2, 0, 0) is True  # the farmer on one card leads it (he alone wins)


def test_only_three_players_with_one_landlord() -> None:
    solver = Solver(workers=1, lone_farmer=True, rules=STANDARD)
    with pytest.raises(ValueError):
        LoneFarmer(solver._two, (0, 1), None)  # type: ignore[arg-type]
