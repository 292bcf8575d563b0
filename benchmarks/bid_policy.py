"""Which bid evaluation ranks bids best within the speed budget?  (issue 20, bid precision)

The auction decisions of ``ddz bench coach`` (seat 0's bid after the medium
bots' bids before it; ``--deals`` of them) are evaluated by a reference — the
hard level's judgement playing the games on ``--ref`` samples — and by each
contender (``policy:step:cap``: the play-out policy, the samples per step of
the sequential sampling, the cap).  The samples of the first ``step`` are the
same deals for every contender and the reference (they do not depend on the
policy).  Reported per contender: how often it names the reference's best
bid, the share of candidate pairs it orders as the reference does, the regret
(the reference's expected score lost by taking the contender's best bid, base
stakes), the noise of the contender's losses, and its CPU seconds per decision.

    python benchmarks/bid_policy.py [--deals 48] [--ref 128] hard:16:16 hard:16:64 quick:64:512
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from itertools import combinations

from tutor.bench.coach_bench import bid_positions
from tutor.coach.bidding import BidBudget, BidEvaluation, evaluate_bid


def _scores(ev: BidEvaluation) -> dict[int, float]:
    return {c.bid: c.expected for c in ev.candidates}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=48)
    parser.add_argument("--ref", type=int, default=128)
    parser.add_argument("contenders", nargs="+")
    args = parser.parse_args()
    budgets = {}
    for spec in args.contenders:
        policy, step, cap = spec.split(":")
        budgets[spec] = BidBudget(samples=int(step), max_samples=int(cap), policy=policy)
    reference = BidBudget(samples=args.ref, policy="hard")
    stats = {k: {"best": 0, "pairs": 0, "alike": 0, "regret": [], "noise": [], "cpu": [], "samples": []} for k in budgets}
    views = bid_positions(tuple(range(1, args.deals + 1)))
    for view in views:
        ref = _scores(evaluate_bid(view, reference))
        top = max(ref, key=lambda b: (ref[b], -b))
        for name, budget in budgets.items():
            start = time.process_time()
            ev = evaluate_bid(view, budget)
            row = stats[name]
            row["cpu"].append(time.process_time() - start)
            row["samples"].append(ev.samples)
            got = _scores(ev)
            row["best"] += ev.best.bid == top
            row["regret"].append(ref[top] - ref[ev.best.bid])
            row["noise"].append(max((ev.loss_noise(c.bid) for c in ev.candidates[1:]), default=0.0))
            for a, b in combinations(sorted(ref), 2):
                if abs(ref[a] - ref[b]) > 1e-9:
                    row["pairs"] += 1
                    row["alike"] += (ref[a] > ref[b]) == (got[a] > got[b])
    n = len(views)
    print(json.dumps({
        "benchmark": "bid-policy", "decisions": n, "reference": f"hard:{args.ref}", "load": os.getloadavg(),
        "contenders": {name: {
            "same_best": round(r["best"] / n, 3), "pairs_ordered_alike": round(r["alike"] / max(1, r["pairs"]), 3),
            "mean_regret": round(statistics.mean(r["regret"]), 3), "worst_regret": round(max(r["regret"]), 3),
            "median_noise": round(statistics.median(r["noise"]), 3), "median_samples": statistics.median(r["samples"]),
            "cpu_median_s": round(statistics.median(r["cpu"]), 3), "cpu_worst_s": round(max(r["cpu"]), 3),
        } for name, r in stats.items()},
    }, indent=1))  # fmt: skip


if __name__ == "__main__":
    main()
