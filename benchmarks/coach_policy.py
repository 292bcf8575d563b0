"""The coach's quick play-out against the hard policy, on the positions of ``ddz bench coach``.

Each decision is judged twice from the learner's view: by the shipped coach
(sequential sampling on the compiled quick play-out) and by the hard level's
judgement as the play-out policy at a fixed 64 samples.  Prints one row per
decision (level, flagged, loss, win chance for each) and a JSON summary: how
often the flag agrees, how many each flags, the median differences.  It
measures the policy's bias as well as both figures' noise (the hard one carries
about ±0.06 at 64 samples).  Slow: the hard policy is Python.

    python benchmarks/coach_policy.py
"""

from __future__ import annotations

import json
import statistics

from tutor.bench import coach_bench
from tutor.coach.advice import judge
from tutor.coach.evaluation import DEFAULT_BUDGET, Budget

HARD = Budget(policy="hard", samples=64)


def main() -> None:
    rows = []
    for view, move in coach_bench.positions():
        quick, _ = judge(view, move, DEFAULT_BUDGET)  # type: ignore[arg-type]
        hard, _ = judge(view, move, HARD)  # type: ignore[arg-type]
        rows.append((quick.level, quick.flagged, round(quick.loss, 3), round(quick.win_chance, 3),
                     hard.level, hard.flagged, round(hard.loss, 3), round(hard.win_chance, 3)))  # fmt: skip
        print(rows[-1], flush=True)
    print(json.dumps({
        "n": len(rows),
        "flag_agreement": sum(r[1] == r[5] for r in rows) / len(rows),
        "hard_flagged": sum(r[5] for r in rows),
        "quick_flagged": sum(r[1] for r in rows),
        "median_abs_chance_diff": statistics.median(abs(r[3] - r[7]) for r in rows),
        "median_abs_loss_diff": statistics.median(abs(r[2] - r[6]) for r in rows),
    }))  # fmt: skip


if __name__ == "__main__":
    main()
