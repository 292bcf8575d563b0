"""Exact open-hand endgame solver for two and three players (issue 3).

Usage::

    from tutor.solver import Position, Solver
    pos = Position.parse("L:DAQQJJT999844 F:X22AAT886633")
    res = Solver(max_seconds=5, rules=STANDARD).solve(pos)
    res.mover_wins, res.winning_moves, res.line

See :mod:`tutor.solver.position` for the turn model (who leads after passes)
and :mod:`tutor.solver.search` for the algorithm.
"""

from __future__ import annotations

from tutor.solver.position import InvalidPositionError, Position, Role, table_reading
from tutor.solver.solver import SolveResult, Solver

__all__ = ["InvalidPositionError", "Position", "Role", "SolveResult", "Solver", "table_reading"]
