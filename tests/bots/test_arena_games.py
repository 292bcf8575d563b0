"""The arena's games and statistics (tutor/bench/arena.py)."""

from __future__ import annotations

import pytest

from tutor.bench.arena import DealOutcome, run_arena, summarise
from tutor.bots import UnknownLevelError
from tutor.engine.rules import STANDARD


def test_a_level_against_itself_is_exactly_even() -> None:
    # Roles swapped on the same cards with the same (deterministic) bots: each deal is one win each.
    result = run_arena("medium", "medium", 4, seed=10, rules=STANDARD)
    assert result.games == 8
    assert result.wp == 0.5 and result.wp_ci == (0.5, 0.5)
    assert result.adp == 0.0


def test_arena_reports_every_figure_in_json() -> None:
    data = run_arena("medium", "easy", 3, seed=2, rules=STANDARD).to_json()
    for key in ("games", "wp", "wp_ci", "adp", "adp_ci", "games_per_second", "decision_ms_median", "decision_ms_max"):
        assert key in data
    assert data["games"] == 6
    low, high = data["wp_ci"]  # type: ignore[misc]
    assert 0.0 <= low <= data["wp"] <= high <= 1.0


def test_adp_points_double_with_each_bomb() -> None:
    outcomes = [DealOutcome(0, [1, 0], [2.0, -8.0]), DealOutcome(1, [1, 1], [4.0, 2.0])]
    result = summarise("a", "b", outcomes, {"a": [0.001]}, 1.0, bidding=False, rules=STANDARD)
    assert result.wp == 0.75
    assert result.adp == pytest.approx(0.0)
    assert result.games == 4


def test_workers_give_the_same_results() -> None:
    one = run_arena("medium", "easy", 4, seed=30, rules=STANDARD)
    two = run_arena("medium", "easy", 4, seed=30, workers=2, rules=STANDARD)
    assert (one.wp, one.adp) == (two.wp, two.adp)


def test_bidding_arena_scores_as_rules_7() -> None:
    result = run_arena("medium", "easy", 2, seed=4, bidding=True, rules=STANDARD)
    assert result.games == 6  # each deal with A in each of the three seats
    assert result.a_landlord_share is not None and 0.0 <= result.a_landlord_share <= 1.0
    # RULES §7 scores are multiples of 10 (base 10) per game.
    data = result.to_json()
    assert data["mode"] == "bidding" and "score" in data


@pytest.mark.parametrize(
    ("args", "message"),
    [(("medium", "expert", 2), "expert"), (("medium", "easy", 0), "at least one deal")],
)
def test_arena_rejects_bad_input(args: tuple[str, str, int], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run_arena(*args, rules=STANDARD)


def test_unknown_level_is_a_value_error() -> None:
    assert issubclass(UnknownLevelError, ValueError)
