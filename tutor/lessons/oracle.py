"""The solver, as lessons use it: is this move winning, and how do the others reply.

Lessons never hard-code "this wins": every such claim is asked of the exact
solver (issue 3), both when a lesson file is validated and when a learner
answers.  This wrapper asks about a lesson position as the solver's
:class:`~tutor.solver.position.Position` (:func:`tutor.lessons.table.solver_position`),
caches results (a learner may try several moves in the same position), and
picks opponents' replies.
"""

from __future__ import annotations

from tutor.engine.combos import Combo
from tutor.engine.rules import STANDARD, Rules
from tutor.solver import Position, Solver

Move = Combo | None

#: Node budget of one solver call.  A teaching verdict never depends on the clock (a busy
#: machine must not turn "proven" into "unknown"): the budget counts positions expanded.
#: The shipped course needs at most 258 nodes a call; 500,000 is about 5 s of CPU in the
#: three-player search at its slowest, and a position that needs more is "too big to prove"
#: (SolverUnsureError), never given another verdict.
DEFAULT_NODES = 500_000


class SolverUnsureError(ValueError):
    """The solver ran out of budget: the lesson position is too big to prove."""


class Oracle:
    """Cached solver answers for lesson positions.

    Args:
        solver: the solver to ask (injected, so tests and tools can share one);
            by default one bounded by :data:`DEFAULT_NODES` per call.
    """

    def __init__(self, solver: Solver | None = None) -> None:
        self.solver = solver or Solver(max_nodes=DEFAULT_NODES, rules=STANDARD)
        #: A solver per other rule set a lesson position follows (RULES §12), on the same budget.
        self._others: dict[Rules, Solver] = {}
        self._winning: dict[Position, list[Move]] = {}
        self._plays: dict[tuple[Position, Move], int | None] = {}

    def _solver(self, pos: Position) -> Solver:
        """The solver of ``pos``'s rules: the injected one, or one like it under the position's rules."""
        if pos.rules == self.solver.rules:
            return self.solver
        other = self._others.get(pos.rules)
        if other is None:
            other = self._others[pos.rules] = Solver(max_nodes=self.solver.max_nodes, rules=pos.rules)
        return other

    def winning_moves(self, pos: Position) -> list[Move]:
        """Every winning move of the side to move (empty when it loses).

        Raises:
            SolverUnsureError: the budget ran out.
        """
        cached = self._winning.get(pos)
        if cached is None:
            result = self._solver(pos).solve(pos)
            if not result.complete or result.mover_wins is None:
                raise SolverUnsureError(f"the solver could not decide {pos} within its budget")
            cached = list(result.winning_moves)
            self._winning[pos] = cached
        return cached

    def plays_to_win(self, pos: Position, move: Move) -> int | None:
        """How many plays the mover's side needs to win after ``move`` under best play
        (``move`` itself counted when it is a play), or None when ``move`` loses.

        Raises:
            SolverUnsureError: the budget ran out.
        """
        key = (pos, move)
        if key in self._plays:
            return self._plays[key]
        side = pos.roles[pos.to_move]
        own = 0 if move is None else 1
        child = pos.after(move)
        value: int | None
        if child.is_over:
            value = own if child.winner is side else None
        else:
            result = self._solver(child).solve(child, "fastest", all_moves=False)
            if not result.complete or result.mover_wins is None or result.win_in is None:
                raise SolverUnsureError(f"the solver could not decide {child} within its budget")
            mine = child.roles[child.to_move] is side
            value = own + result.win_in if result.mover_wins == mine else None
        self._plays[key] = value
        return value

    def is_winning(self, pos: Position, move: Move) -> bool:
        """Does ``move`` win for the side to move?"""
        return move in self.winning_moves(pos)

    def reply(self, pos: Position) -> Move:
        """The move a strong player makes here: a winning move if there is one,
        otherwise the solver's most stubborn defence."""
        wins = self.winning_moves(pos)
        if wins:
            return wins[0]
        line = self._solver(pos).solve(pos, all_moves=False).line
        if line:
            return line[0][1]
        return pos.legal_moves()[0]

    def refutation(self, pos: Position, move: Move, plies: int = 6) -> list[tuple[int, Move]]:
        """How the other side beats ``move``: a short line from the position after it."""
        child = pos.after(move)
        line = self._solver(child).solve(child, all_moves=False).line
        return [(pos.to_move, move), *line[:plies]]
