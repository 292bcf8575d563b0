"""Hard's own call/rob/open decisions against medium's thresholds, on the same deals (RULES §12.1, §12.2).

``ddz arena --landlord hard --farmers medium --auction rob`` gives hard's figures;
this says whether its expected-score auction (:mod:`tutor.bots.auction_sense`)
is what makes them.  Every deal is played three times (hard in each seat
against two medium bots) twice: with hard's own decisions, and with hard's
play but medium's thresholds for calling, robbing and showing.  The paired
difference of hard's score per game (RULES §7, §12) has a much smaller
spread than either figure alone.  Prints both means, the paired difference
with its 95% interval, hard's landlord share in each, CPU and wall time and
the load average.

    python benchmarks/rob_levels.py --deals 60 --seed 200 [--open-hand]
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import time


def _scores(numbers: list[int], open_hand: bool, own: bool) -> tuple[list[float], int]:
    """Hard's score per deal (the mean of its three seats) and its landlord games."""
    from tutor.bench.arena import _bidding_deal
    from tutor.bots.hard import HardBot
    from tutor.bots.medium import MediumBot
    from tutor.engine.rules import ROB, ROB_OPEN

    saved = HardBot.bid, HardBot.show_hand
    if not own:  # hard's play, medium's thresholds for the auction and the open hand
        HardBot.bid, HardBot.show_hand = MediumBot.bid, MediumBot.show_hand  # type: ignore[method-assign]
    try:
        rules = ROB_OPEN if open_hand else ROB
        outcomes = [_bidding_deal(n, "hard", "medium", {"hard": [], "medium": []}, rules) for n in numbers]
    finally:
        HardBot.bid, HardBot.show_hand = saved  # type: ignore[method-assign]
    return [statistics.fmean(o.points) for o in outcomes], sum(o.a_landlord for o in outcomes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--seed", type=int, default=200)
    parser.add_argument("--open-hand", action="store_true")
    args = parser.parse_args()
    numbers = list(range(args.seed, args.seed + args.deals))
    load = os.getloadavg()
    cpu, wall = time.process_time(), time.perf_counter()
    own, own_ll = _scores(numbers, args.open_hand, own=True)
    base, base_ll = _scores(numbers, args.open_hand, own=False)
    diff = [a - b for a, b in zip(own, base)]
    half = 1.96 * statistics.stdev(diff) / math.sqrt(len(diff)) if len(diff) > 1 else float("nan")
    games = 3 * len(numbers)
    print(f"deals {len(numbers)} (seeds {numbers[0]}-{numbers[-1]}), rob auction{' + open hand' if args.open_hand else ''}")
    print(f"hard, own decisions:        score/game {statistics.fmean(own):+.2f}, landlord {own_ll / games:.1%}")
    print(f"hard, medium's thresholds:  score/game {statistics.fmean(base):+.2f}, landlord {base_ll / games:.1%}")
    print(f"paired difference:          {statistics.fmean(diff):+.2f} [{statistics.fmean(diff) - half:+.2f}, "
          f"{statistics.fmean(diff) + half:+.2f}] (95%)")
    print(f"CPU {time.process_time() - cpu:.0f} s, wall {time.perf_counter() - wall:.0f} s, "
          f"load {load[0]:.1f} -> {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
