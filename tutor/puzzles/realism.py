"""Is a puzzle a position a sensible game reaches, and does its goal say what it needs?

Two checks that the solver's "one winning move" proof does not make:

1. **No impossible pass.**  A puzzle may start with a play on the table made by
   someone other than the mover; every seat between that player and the mover
   passed on it.  A player whose whole hand beats the table would have played
   it and gone out, ending the game — so a position where such a seat "passed"
   comes from no real game (the audit of issue 14 found five: the landlord
   passed a trick his last card beat).
2. **A bomb goal needs the bomb.**  "Win with a bomb" promises that the bomb or
   the rocket is what wins.  When the solving side can force a win without ever
   playing one, the goal is false: the puzzle is rejected.  Proven by a small
   search of the game in which the solving side may not bomb (splitting a
   four of a kind into pairs or singles is allowed), the defenders may do
   anything; the exact solver prunes positions the solving side loses anyway.

Both are used by ``ddz puzzles validate`` (:mod:`tutor.puzzles.verify`) and by
the generator, which skips such candidates.
"""

from __future__ import annotations

from typing import Any, Protocol

from tutor.engine.combos import Combo
from tutor.engine.moves import legal_moves
from tutor.solver.position import Position, Role


class SolverLike(Protocol):
    """The one solver call this module needs (``tutor.solver.Solver`` has it)."""

    def solve(self, pos: Position, objective: Any = "win", all_moves: bool = True) -> Any: ...

#: Largest search of the bomb-free game (positions); puzzles are small endgames.
MAX_NODES = 200_000


class SearchTooBig(ValueError):
    """The bomb-free search went past its budget (the answer is unknown)."""


def impossible_passes(pos: Position) -> list[str]:
    """Every seat that passed on the table although its whole hand beat it (went out)."""
    if pos.table is None or pos.table_by is None:
        return []
    problems = []
    seat = (pos.table_by + 1) % pos.players
    while seat != pos.to_move:
        hand = pos.hands[seat]
        if any(m.cards == hand.packed for m in legal_moves(hand, pos.table)):
            role = "landlord" if pos.roles[seat] is Role.LANDLORD else "farmer"
            problems.append(f"player {seat} ({role}) passed on {pos.table.text} although {hand} beats it and"
                            " goes out: no real game reaches this position")
        seat = (seat + 1) % pos.players
    return problems


def _is_bomb(move: Combo | None) -> bool:
    return move is not None and move.is_bomb


def wins_without_bombs(pos: Position, solver: SolverLike | None = None, max_nodes: int = MAX_NODES) -> bool:
    """Can the side to move force a win without itself playing a bomb or the rocket?

    Raises:
        SearchTooBig: more than ``max_nodes`` positions were needed.
    """
    side = pos.roles[pos.to_move]
    memo: dict[Position, bool] = {}
    count = [0]

    def unrestricted_loss(p: Position) -> bool:
        if solver is None:
            return False
        result = solver.solve(p, "win", all_moves=False)
        if result.mover_wins is None:
            return False
        return bool(result.mover_wins) != (p.roles[p.to_move] is side)

    def win(p: Position) -> bool:
        if p.is_over:
            return p.winner is side
        known = memo.get(p)
        if known is not None:
            return known
        count[0] += 1
        if count[0] > max_nodes:
            raise SearchTooBig(f"the bomb-free search needs more than {max_nodes} positions")
        ours = p.roles[p.to_move] is side
        if ours:
            if unrestricted_loss(p):
                value = False
            else:
                value = any(win(p.after(m)) for m in p.legal_moves() if not _is_bomb(m))
        else:
            value = all(win(p.after(m)) for m in p.legal_moves())
        memo[p] = value
        return value

    return win(pos)
