"""A few evaluations' figures, pinned: a change made for speed must not change an answer.

The positions are decisions of ``ddz bench coach`` (hard-level games on fixed
deals).  Each candidate's per-sample outcomes were recorded before the planner
was made faster (issue 13); they must stay exactly the same.  A change that is
*meant* to change the coach's answers (the bots, the sampling, the budget)
re-pins them and says why in its commit.

Issue 20 made the compiled play-out and sequential sampling the default; the
pins hold the Python hard policy on one fixed step of 16 samples
(``PINNED_BUDGET``), which must still give exactly the recorded figures.
"""

from __future__ import annotations

import pytest

from tutor.bench.coach_bench import positions
from tutor.coach.evaluation import Budget, evaluate

PINNED_BUDGET = Budget()

PINNED = {
    # (deal, decision of the bench in that deal): method, [(candidate, outcome per sample)], best first
    (1, 0): ("rollout", [("pass", "0101110110000011"), ("77", "0001110110000011"), ("TT", "0001100110000011"),
                         ("KK", "0001100110000011")]),
    (2, 4): ("exact", [("T", "1011111111111111"), ("K", "1011111111111111")]),
    (4, 4): ("rollout", [("9", "1011101100110111"), ("T", "1111011100110101"), ("9999", "1011101100110111"),
                         ("pass", "1111001100110101"), ("J", "1101011100110101")]),
    (7, 3): ("rollout", [("2", "0000010101111110"), ("pass", "0000000101011110")]),
}  # fmt: skip


@pytest.mark.parametrize("deal, index", sorted(PINNED), ids=[f"deal{d}-{i}" for d, i in sorted(PINNED)])
def test_an_evaluation_gives_the_pinned_figures(deal: int, index: int) -> None:
    view, played = positions((deal,))[index]
    ev = evaluate(view, (played,), PINNED_BUDGET)
    got = [("pass" if c.move is None else c.move.notation, "".join(map(str, c.outcomes))) for c in ev.candidates]
    assert (ev.method, got) == PINNED[deal, index]
