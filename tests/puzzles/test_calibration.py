"""Ratings from measured solve rates: the policies' attempts, the fit of their ratings, the calibrated rating."""

from __future__ import annotations

from tutor.puzzles.calibration import POLICIES, POLICY_RATINGS, attempt, calibrated_rating, fit_policy_rating, spread
from tutor.puzzles.daily_pool import in_pool
from tutor.puzzles.library import load_library
from tutor.puzzles.model import Goal, Puzzle, Source
from tutor.solver.position import Position

from tests.puzzles.helpers import chain


def test_each_policy_that_solves_a_puzzle_lowers_its_rating() -> None:
    ratings = [calibrated_rating(1400, POLICIES[:k]) for k in range(len(POLICIES) + 1)]
    assert ratings == sorted(ratings, reverse=True) and ratings[0] > 1400 > ratings[-1]
    assert all(r % 10 == 0 and 600 <= r <= 2400 for r in ratings)


def test_the_policies_are_ranked_weakest_first() -> None:
    values = [POLICY_RATINGS[p] for p in POLICIES]
    assert values == sorted(values)


def test_the_fit_recovers_the_rating_whose_expected_score_is_the_solve_rate() -> None:
    puzzles = [1000.0, 1200.0, 1400.0, 1600.0] * 10
    strong = fit_policy_rating(puzzles, [True] * 30 + [False] * 10)
    weak = fit_policy_rating(puzzles, [True] * 10 + [False] * 30)
    assert weak < 1300 < strong
    assert abs(fit_policy_rating(puzzles, [True, False] * 20) - 1300) < 15  # half solved: the middle


def test_an_attempt_fails_at_a_wrong_move_and_passes_the_answer() -> None:
    # Only 77 wins; every bot plays the pair or the queen: whatever they do, the verdict is the solver's.
    pos = Position.parse("L:77Q F:6TQA F:3")
    puzzle = Puzzle("t00001", "test", (), pos, Goal(), chain(["77", "pass", "pass", "Q"]), 1200, Source())
    results = {p: attempt(puzzle, p) for p in POLICIES}
    assert set(results.values()) <= {True, False}
    one_card = Puzzle("t00002", "test", (), Position.parse("L:Q F:6TQA F:3"), Goal(), chain(["Q"]), 700, Source())
    assert all(attempt(one_card, p) for p in POLICIES)  # going out is what everyone plays


def test_the_shipped_pool_is_calibrated_from_its_stored_attempts() -> None:
    pool = [p for p in load_library() if in_pool(p)]
    for p in pool:
        assert p.difficulty is not None and p.difficulty.solved_by is not None
        assert round(p.rating) == p.difficulty.rating == calibrated_rating(
            _signals(p), p.difficulty.solved_by)
    sample = pool[0]
    assert tuple(p for p in POLICIES if attempt(sample, p)) == sample.difficulty.solved_by  # type: ignore[union-attr]


def _signals(p: Puzzle) -> int:
    from dataclasses import replace

    from tutor.puzzles.difficulty import estimate_rating

    assert p.difficulty is not None
    return estimate_rating(replace(p.difficulty, solved_by=None))


def test_spread_is_the_nearest_rank_percentiles() -> None:
    assert spread(list(range(1, 11))) == {"p10": 1, "p25": 3, "median": 5, "p75": 8, "p90": 9}
    assert spread([]) == {}
