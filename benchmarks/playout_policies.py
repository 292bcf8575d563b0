"""Which compiled play-out policy plays better?  Whole games from random deals, one policy per side.

    .venv/bin/python benchmarks/playout_policies.py [--a plan] [--b quick] [--deals 20000] [--seed 0]

Round 12 (issue 33): the hard bot's play-outs play every seat by a compiled policy
(:mod:`tutor.solver.playout`), and a play-out that plays both sides badly misjudges which candidate is
better.  This is the mechanism check of a new policy before any deck is spent: on the same random deals (the
landlord holds 20 cards, no auction), policy ``--a`` plays one side and ``--b`` the other, and each side's
result is compared, deal by deal, with ``--b`` playing all three seats (paired: only the policy differs).

Printed, for the landlord and for the farmers: the side's win rate with ``--a`` and with ``--b``, their paired
difference with its 95 % interval; the CPU seconds per thousand play-outs of each policy (all seats); the load.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import time

from tutor.bench.arena import Z95
from tutor.solver import playout as quick

DECK = [r for r in range(13) for _ in range(4)] + [13, 14]


def deal(rng: random.Random) -> tuple[list[int], int]:
    """Three packed hands (17, 17 and the landlord's 20) and the landlord's seat."""
    cards = DECK[:]
    rng.shuffle(cards)
    landlord = rng.randrange(3)
    hands = [0, 0, 0]
    for i, r in enumerate(cards):
        seat = landlord if i >= 34 else (landlord + 1 + i // 17) % 3
        hands[seat] += 1 << (4 * r)
    return hands, landlord


def paired(a: list[bool], b: list[bool]) -> tuple[float, float]:
    """The mean of ``a − b`` and its 95 % half-width."""
    diffs = [int(x) - int(y) for x, y in zip(a, b)]
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, Z95 * math.sqrt(var / n)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--a", default="plan")
    parser.add_argument("--b", default="quick")
    parser.add_argument("--deals", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    deals = [deal(rng) for _ in range(args.deals)]
    results: dict[str, list[bool]] = {"b": [], "a-landlord": [], "a-farmers": [], "a": []}
    for hands, landlord in deals:
        farmers = [s for s in range(3) if s != landlord]
        results["b"].append(quick.playout(hands, landlord, landlord, None, None, base=args.b) == landlord)
        results["a"].append(quick.playout(hands, landlord, landlord, None, None, base=args.a) == landlord)
        results["a-landlord"].append(
            quick.playout(hands, landlord, landlord, None, None, args.a, [landlord], base=args.b) == landlord
        )
        results["a-farmers"].append(
            quick.playout(hands, landlord, landlord, None, None, args.a, farmers, base=args.b) == landlord
        )
    cpu: dict[str, float] = {}
    for k, name in (("a", args.a), ("b", args.b)):  # timed apart, the hand memo warm for both
        t = time.process_time()
        for hands, landlord in deals:
            quick.playout(hands, landlord, landlord, None, None, base=name)
        cpu[k] = time.process_time() - t
    n = len(deals)
    base = results["b"]
    print(f"{n} deals, seed {args.seed}; {args.b} everywhere: landlord wins {sum(base) / n:.4f}")
    m, h = paired(results["a-landlord"], base)
    print(f"landlord {args.a} vs {args.b} farmers: landlord wins {sum(results['a-landlord']) / n:.4f}"
          f"  paired {m:+.4f} ± {h:.4f}")
    m, h = paired(results["a-farmers"], base)
    print(f"farmers {args.a} vs {args.b} landlord: farmers win {1 - sum(results['a-farmers']) / n:.4f}"
          f"  paired {-m:+.4f} ± {h:.4f}")
    print(f"{args.a} everywhere: landlord wins {sum(results['a']) / n:.4f}")
    for k, name in (("a", args.a), ("b", args.b)):
        print(f"cpu {name}: {1000 * cpu[k] / n:.3f} s per 1000 play-outs (whole games)")
    print(f"load {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
