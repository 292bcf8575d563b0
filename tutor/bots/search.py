"""Determinized search: solve sampled deals exactly, play what wins most often.

When few cards remain, the hard bot stops guessing.  It draws a handful of
hidden-hand assignments consistent with its view (:mod:`tutor.bots.sampling`),
hands each one to the exact open-hand solver (:mod:`tutor.solver`) under a
node budget, and counts, for every legal move, in how many samples that move
wins.  The move that wins most often is played; ties go to the move the
ordinary (medium/hard heuristic) play would choose, so search only overrides
judgement when it knows better.

This is "perfect-information Monte Carlo", the method behind strong card
programs in Skat, Bridge and Dou Di Zhu: it ignores that the opponents do not
see our hand either, but near the end of a game, with few unknowns, it is very
strong — and it is the only way a rule-based bot finds the non-obvious winning
play (a pass, an early bomb, the right card to give up the lead with).

Budgets are counts, never wall time, so a decision does not depend on the
machine's speed or load: the same view always gives the same move.  A search
solves at most ``HardBot.samples`` deals with at most ``HardBot.node_budget``
nodes each, on a solver with fresh tables (so what an earlier decision left in
the tables cannot change which samples are decided).  Node counts are
reproducible per installation: a compiled and a pure-Python installation count
differently (docs/solver.md), so the two may decide different samples; each is
deterministic.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from tutor.bots.counting import pass_limits
from tutor.bots.sampling import Weighting, sampler
from tutor.engine.cards import packed_size
from tutor.engine.combos import Combo
from tutor.engine.moves import follow_moves_packed, lead_moves_packed
from tutor.engine.view import PlayerView
from tutor.solver import Position

if TYPE_CHECKING:
    import random
    from collections.abc import Callable

    from tutor.bots.effort import Effort
    from tutor.solver import Solver

Move = Combo | None


@dataclass(frozen=True, slots=True)
class SearchChoice:
    """The outcome of a determinized search."""

    move: Move
    #: How many samples the chosen move wins.
    wins: int
    #: Samples the solver decided within its budget.
    decided: int
    #: Wins per move, for every move that won at least once.
    tally: dict[Move, int]


def sample_position(view: PlayerView, hidden: dict[int, int]) -> Position:
    """The open-hand position of one sample, listed in turn order from the mover (the one converter:
    the view and the sample as a game, then its position — :meth:`Position.from_view`)."""
    return Position.from_view(view, hidden, from_mover=True)


def determinized_choice(
    view: PlayerView,
    solver: Solver,
    samples: int,
    rng: random.Random,
    fallback: Callable[[PlayerView], Move],
    nodes: Effort | None = None,
    weighting: Weighting | None = None,
) -> SearchChoice | None:
    """The move that wins in the most sampled deals, or None when search cannot tell.

    Everything it needs is passed in — the exact ``solver`` (for the game's
    rules, fresh tables), how many ``samples`` to draw with ``rng``, and the
    ``fallback`` play that breaks ties — so the search knows nothing of the bot
    that uses it.

    None means: no sample was decided within the budget, or every move loses
    in every sample (then the heuristic play is as good as any and keeps up the
    pressure), or there is only one legal move.  The solver nodes spent are
    counted in ``nodes`` when given (the hard bot skips its rollouts after a
    costly search).  ``weighting`` weights the deals by the others' answers and
    passes (:func:`tutor.bots.sampling.sampler`).
    """
    hand = view.hand.packed
    if view.table is None:
        moves: list[Move] = list(lead_moves_packed(hand, view.rules))
    else:
        moves = [*follow_moves_packed(hand, view.table, view.rules), None]
    if len(moves) <= 1:
        return None
    draw = sampler(view, pass_limits(view), weighting)
    tally: dict[Move, int] = {}
    decided = 0
    for _ in range(samples):
        position = sample_position(view, draw(rng))
        result = solver.solve(position, "win", all_moves=True)
        if nodes is not None:
            nodes.spend(result.nodes)
        if not result.complete:
            continue
        decided += 1
        for move in result.winning_moves:
            tally[move] = tally.get(move, 0) + 1
    if not decided or not tally:
        return None
    best = max(tally.values())
    if best == decided and len(tally) == 1:
        move = next(iter(tally))
        return SearchChoice(move, best, decided, tally)
    leaders = [m for m, w in tally.items() if w == best]
    preferred = fallback(view)
    if preferred in leaders:
        move = preferred
    else:
        move = min(leaders, key=thrift)
    return SearchChoice(move, best, decided, tally)


def thrift(move: Move) -> tuple[int, int, int]:
    """Among equally good moves: pass, then no bomb, then low cards shed in numbers
    (the tie-break of the search and of the coach's ranking)."""
    if move is None:
        return (0, 0, 0)
    return (1 + int(move.is_bomb), move.main, -packed_size(move.cards))


def exact_judgement(
    view: PlayerView,
    candidates: list[Move],
    chosen: Move,
    solver: Solver,
    samples: int,
    rng: random.Random,
    weighting: Weighting | None = None,
) -> Move:
    """The played-out decision's candidates judged again by exact solves of sampled deals (round 15).

    The play-outs rank ``candidates`` by games of a simple policy at every seat, which misjudges the middle
    game's fights for the lead (round 14: their alternative replaced a winning heuristic choice in 6 of 8
    blunders).  Where the exact solver is cheap enough, each of ``samples`` deals drawn to fit the view is
    solved with open hands and every candidate counts the deals it wins.  The play-outs' ``chosen`` move
    stays unless another candidate wins strictly more of the decided deals; among several such, the
    heuristic's choice (the first candidate), else the earliest.  Fewer than half the deals decided within
    the ``solver``'s node budget: the solves say too little and ``chosen`` stays.  Only candidates are
    judged, never the other legal moves: open-hand solves overrate moves that win only when every card
    is known, and the candidates are plays judgement already finds reasonable.
    """
    if len(candidates) <= 1:
        return chosen
    draw = sampler(view, pass_limits(view), weighting)
    wins = dict.fromkeys(candidates, 0)
    decided = 0
    for _ in range(samples):
        result = solver.solve(sample_position(view, draw(rng)), "win", all_moves=True, line=False)
        if not result.complete:
            continue
        decided += 1
        for move in result.winning_moves:
            if move in wins:
                wins[move] += 1
    if 2 * decided < samples:
        return chosen
    best = max(wins.values())
    if wins.get(chosen, 0) == best:
        return chosen
    return next(m for m in candidates if wins[m] == best)
