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
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace

from tutor.engine.combos import Combo
from tutor.puzzles.glicko2 import Rating, expected_score, rate
from tutor.puzzles.model import Puzzle
from tutor.solver.position import Position

Move = Combo | None

#: The players that try every puzzle, weakest first.
POLICIES = ("easy", "medium", "quick", "hard")
#: Each policy's rating on the puzzle scale, fitted to its measured solve rates (issue 30: the daily pool of 37
#: and every 9th puzzle of the library, 98 puzzles; docs/puzzles.md, "Calibration").
POLICY_RATINGS: dict[str, float] = {"easy": 1040.0, "medium": 1070.0, "quick": 1290.0, "hard": 1360.0}
#: How sure the policies' ratings are (a fit over hundreds of puzzles: narrow).
POLICY_RD = 60.0
#: How sure the signals' estimate is before the policies try the puzzle (the library's starting deviation).
PRIOR_RD = 200.0
#: Solver budget (nodes) for judging a move off the tree during an attempt.
ATTEMPT_NODES = 400_000


def calibrated_rating(signals: int, solved_by: Iterable[str]) -> int:
    """The signals' estimate after one rating period against the four policies (rounded to tens, 600–2400)."""
    solved = set(solved_by)
    prior = Rating(float(signals), PRIOR_RD)
    games = [(Rating(POLICY_RATINGS[p], POLICY_RD), 0.0 if p in solved else 1.0) for p in POLICIES]
    after = rate(prior, games)
    return int(round(max(600.0, min(2400.0, after.rating)) / 10) * 10)


def policy_move(policy: str, pos: Position) -> Move:
    """The move ``policy`` plays for the side to move of ``pos`` (from that seat's own view)."""
    from tutor.puzzles.daily_pool import medium_pick, quick_pick, view_of

    if policy == "quick":
        return quick_pick(pos)
    if policy == "medium":
        return medium_pick(pos)
    from tutor.bots import make_bot

    return make_bot(policy, 0).play(view_of(pos))


def attempt(puzzle: Puzzle, policy: str, solver_factory: Callable[[], object] | None = None) -> bool:
    """Does ``policy`` solve ``puzzle`` (no wrong move until the solving side is out)?"""
    from tutor.puzzles.solving import Attempt
    from tutor.solver.solver import Solver

    solver = solver_factory() if solver_factory is not None else Solver(max_nodes=ATTEMPT_NODES, workers=1)
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

