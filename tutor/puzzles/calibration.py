"""Ratings calibrated from measured solve rates: the bots and the coach's quick policy try every puzzle.

Four players of known strength attempt each puzzle the way a learner does
(:class:`tutor.puzzles.solving.Attempt`: the other side answers with the
tree's toughest defence, a move off the tree is judged by the solver, and the
first wrong move fails the attempt):

* ``easy``, ``medium`` and ``hard`` — the bots, each deciding from its own
  seat's view (a bot never sees hidden hands; the puzzle's open hands are the
  learner's privilege);
* ``quick`` — the coach's compiled quick policy (:func:`tutor.bots.rollout.playout_line`).

Each policy's rating on the puzzle scale (:data:`POLICY_RATINGS`) was fitted
once so that its expected score over the measured puzzles — against each puzzle's
rating from its signals (:func:`tutor.puzzles.difficulty.estimate_rating`) — is
its measured solve rate (:func:`fit_policy_rating`; the figures are in
docs/puzzles.md, "Calibration").  A puzzle's calibrated rating is then one
Glicko-2 rating period: the signals' estimate (deviation :data:`PRIOR_RD`)
"plays" the four policies, losing to each that solved it
(:func:`calibrated_rating`).  Learners' results move it further, as before.

Budgets, never clocks: the bots' own budgets (samples, nodes) and the solver's
node budget bound every attempt, so the same puzzle gives the same figures anywhere.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace

from typing import Any

from tutor.engine.combos import Combo
# The policies, their fitted ratings and the calibrated rating live with the other signals
# (tutor/puzzles/difficulty.py: a puzzle's rating is computed there); re-exported here.
from tutor.puzzles.difficulty import POLICIES, POLICY_RATINGS, POLICY_RD, PRIOR_RD, calibrated_rating
from tutor.puzzles.glicko2 import Rating, expected_score
from tutor.puzzles.model import Puzzle
from tutor.solver.position import Position, Role

Move = Combo | None

#: Solver budget (nodes) for judging a move off the tree during an attempt.
ATTEMPT_NODES = 400_000


def policy_move(policy: str, pos: Position) -> Move:
    """The move ``policy`` plays for the side to move of ``pos`` (from that seat's own view)."""
    if policy == "quick":
        return quick_pick(pos)
    if policy == "medium":
        return medium_pick(pos)
    from tutor.bots import make_bot

    return make_bot(policy, 0).play(view_of(pos))


def _game_of(pos: Position) -> Any:
    """The position as a game (hands and trick), so a bot can be shown its view."""
    from tutor.engine.game import Game

    landlord = pos.roles.index(Role.LANDLORD)
    return Game.at_trick(list(pos.hands), landlord, pos.to_move, pos.table, pos.table_by)


def view_of(pos: Position) -> Any:
    """The view of the player to move (a bot is shown its own seat only, as in a game)."""
    return _game_of(pos).view(pos.to_move)


def medium_pick(pos: Position) -> Move:
    """The move the medium bot plays here (it sees only its own view, as in a game)."""
    from tutor.bots import make_bot

    return _legal_twin(pos, make_bot("medium", 0).play(view_of(pos)))


def _quick_wins_for(pos: Position, side: Role) -> bool:
    """Does ``side`` win the compiled quick policy's play-out from here (False when it is not built)?"""
    from tutor.solver import playout as quick

    if not quick.available(pos.rules) or pos.players != 3:
        return False
    landlord = pos.roles.index(Role.LANDLORD)
    winner = quick.playout([h.packed for h in pos.hands], landlord, pos.to_move, pos.table, pos.table_by)
    return winner >= 0 and pos.roles[winner] is side


def quick_pick(pos: Position) -> Move:
    """The move the coach's quick policy plays here (the first move of its play-out)."""
    from tutor.solver import playout as quick

    if not quick.available(pos.rules) or pos.players != 3:
        return medium_pick(pos)
    landlord = pos.roles.index(Role.LANDLORD)
    _, line = quick.playout_line([h.packed for h in pos.hands], landlord, pos.to_move, pos.table, pos.table_by)
    return _legal_twin(pos, line[0]) if line else None


def _legal_twin(pos: Position, move: Move) -> Move:
    """The legal move of ``pos`` equal to ``move`` (the compiled policy returns its own combo objects)."""
    for legal in pos.legal_moves():
        if legal == move or (legal is not None and move is not None and legal.cards == move.cards
                             and legal.kind == move.kind):
            return legal
    return move


def attempt(puzzle: Puzzle, policy: str, solver_factory: Callable[[], object] | None = None) -> bool:
    """Does ``policy`` solve ``puzzle`` (no wrong move until the solving side is out)?"""
    from tutor.puzzles.solving import Attempt
    from tutor.solver.solver import Solver

    solver = (solver_factory() if solver_factory is not None
              else Solver(max_nodes=ATTEMPT_NODES, workers=1, rules=puzzle.position.rules))
    run = Attempt(puzzle, solver)  # type: ignore[arg-type]
    run.start()
    while not run.finished:
        pos = run.position
        if pos.roles[pos.to_move] is not puzzle.solver_side:  # pragma: no cover - Attempt answers for them
            raise AssertionError("the other side's move was not made")
        move = _legal(pos, policy_move(policy, pos))
        if not run.play(move).correct:
            return False
    return True


def _legal(pos: Position, move: Move) -> Move:
    for legal in pos.legal_moves():
        if legal == move or (legal is not None and move is not None and legal.cards == move.cards
                             and legal.kind == move.kind):
            return legal
    raise ValueError(f"the policy played {move!r}, not a legal move here")


def solved_by(puzzle: Puzzle, policies: Sequence[str] = POLICIES) -> tuple[str, ...]:
    """The policies that solve ``puzzle``."""
    return tuple(p for p in policies if attempt(puzzle, p))


def calibrate(puzzle: Puzzle, policies: Sequence[str] = POLICIES) -> Puzzle:
    """``puzzle`` with the policies' results stored and its rating calibrated from them."""
    if puzzle.difficulty is None:
        raise ValueError(f"puzzle {puzzle.id} has no measured signals to calibrate")
    difficulty = replace(puzzle.difficulty, solved_by=solved_by(puzzle, policies))
    return replace(puzzle, difficulty=difficulty, rating=difficulty.rating)


def fit_policy_rating(signal_ratings: Sequence[float], solved: Sequence[bool]) -> float:
    """The rating whose expected score against the puzzles (at their signal ratings) is the solve rate.

    Bisection on the Glicko expected score (monotonic in the rating); the rate is kept off 0 and 1
    so a perfect record gives a finite figure.
    """
    if not signal_ratings:
        raise ValueError("no puzzles to fit")
    share = min(max(sum(solved) / len(solved), 0.5 / len(solved)), 1 - 0.5 / len(solved))
    low, high = -1000.0, 4000.0
    for _ in range(60):
        mid = (low + high) / 2
        me = Rating(mid, POLICY_RD)
        score = sum(expected_score(me, Rating(r, PRIOR_RD)) for r in signal_ratings) / len(signal_ratings)
        low, high = (mid, high) if score < share else (low, mid)
    return round((low + high) / 2, 1)


def spread(ratings: Sequence[float]) -> dict[str, float]:
    """p10 / p25 / median / p75 / p90 of ``ratings`` (nearest rank)."""
    ordered = sorted(ratings)
    if not ordered:
        return {}

    def at(q: float) -> float:
        return float(ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))])

    return {"p10": at(0.10), "p25": at(0.25), "median": at(0.5), "p75": at(0.75), "p90": at(0.90)}



__all__ = ["POLICIES", "POLICY_RATINGS", "POLICY_RD", "PRIOR_RD", "attempt", "calibrate", "calibrated_rating",
           "fit_policy_rating", "medium_pick", "policy_move", "quick_pick", "solved_by", "spread", "view_of"]
