"""The move generator in the wildcard game (RULES §12.3) against the classic one, on the same hands.

    .venv/bin/python benchmarks/wild_movegen.py [--hands N] [--runs R] [--seed S]

Every lead move of N seeded random 20-card hands, first under the standard
rules, then with a wild rank (drawn per hand from the same seed), each timed
in CPU (``time.process_time``) over R runs; prints the medians, moves per
second, the wild hands' share of plays with a stand-in, and the load.  The
classic path never enters the wild pass (``ddz bench movegen`` compares the
classic path with another build).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from tutor.engine.cards import DECK_COUNTS, Cards
from tutor.engine.moves import lead_moves_packed
from tutor.engine.rules import STANDARD


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    deck = [r for r, n in enumerate(DECK_COUNTS) for _ in range(n)]
    hands = [Cards.from_ranks(rng.sample(deck, 20)).packed for _ in range(args.hands)]
    wild = [STANDARD.with_wild(rng.randrange(13)) for _ in hands]
    load = os.getloadavg()[0]
    for name, rules_of in (("classic", lambda i: STANDARD), ("wild", lambda i: wild[i])):
        times = []
        total = stand_ins = 0
        for _ in range(args.runs):
            start = time.process_time()
            moves = [lead_moves_packed(h, rules_of(i)) for i, h in enumerate(hands)]
            times.append(time.process_time() - start)
            total = sum(len(m) for m in moves)
            stand_ins = sum(1 for ms in moves for m in ms if m.wild)
        cpu = statistics.median(times)
        print(f"{name:8} {total:8} moves ({stand_ins} with a stand-in) in {cpu:.3f} s CPU (median of {args.runs}): "
              f"{total / cpu:,.0f} moves/s, {len(hands) / cpu:,.0f} hands/s")
    print(f"load average (1 min) before {load:.2f}, after {os.getloadavg()[0]:.2f}; cores {os.cpu_count()}")


if __name__ == "__main__":
    main()
