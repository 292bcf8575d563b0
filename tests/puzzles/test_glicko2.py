"""Glicko-2 against the worked example of Glickman's paper."""

from __future__ import annotations

import pytest

from tutor.puzzles.glicko2 import Rating, expected_score, rate, rate_attempt


def test_glickman_paper_worked_example() -> None:
    player = Rating(1500, 200, 0.06)
    games = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
    after = rate(player, games, tau=0.5, clamp=False)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)


def test_no_games_only_widens_the_deviation() -> None:
    player = Rating(1500, 200, 0.06)
    after = rate(player, [], clamp=False)
    assert after.rating == 1500
    assert after.rd == pytest.approx(200.2714, abs=1e-3)


def test_solving_raises_the_learner_and_lowers_the_puzzle() -> None:
    learner, puzzle = Rating(), Rating(1500, 80)
    won_learner, won_puzzle = rate_attempt(learner, puzzle, solved=True)
    assert won_learner.rating > learner.rating
    assert won_puzzle.rating < puzzle.rating
    lost_learner, lost_puzzle = rate_attempt(learner, puzzle, solved=False)
    assert lost_learner.rating < learner.rating
    assert lost_puzzle.rating > puzzle.rating


def test_expected_score_is_symmetric() -> None:
    a, b = Rating(1600, 100), Rating(1400, 100)
    assert expected_score(a, b) > 0.5
    assert expected_score(a, b) + expected_score(b, a) == pytest.approx(1.0)


def test_one_attempt_moves_a_rating_by_at_most_the_cap() -> None:
    learner, puzzle = Rating(), Rating(700, 200)
    lost, _ = rate_attempt(learner, puzzle, solved=False)
    assert lost.rating == pytest.approx(1500 - 200)
    assert rate(learner, [(puzzle, 0.0)]).rating < 1300  # uncapped it would drop further
