"""Rollout speed: the medium policy playing sampled deals to the end (tutor.bots.rollout.rollout).

Prints the median over ``--repeat`` runs of the CPU time (time.process_time) and
the wall time of the same fixed work — ``--deals`` positions, each ten plays into
a deal, ``--samples`` sampled deals each rolled out from the first legal move —
with the load average, so a figure from a busy machine says so.  Run it on two
checkouts (``PYTHONPATH=/path/to/other/checkout``) to compare before and after.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time


def work(deals: int, samples: int) -> int:
    from tutor.bots.medium import MediumBot
    from tutor.bots.rollout import rollout
    from tutor.bots.sampling import sample_hidden
    from tutor.engine.game import Game

    policy = MediumBot(1)
    wins = 0
    for number in range(deals):
        game = Game.with_landlord(number, number % 3)
        for _ in range(10):
            if game.is_over:
                break
            game.play(policy.play(game.view(game.to_move)))
        if game.is_over:
            continue
        view = game.view(game.to_move)
        first = game.legal_moves()[0]
        rng = random.Random(number)
        for _ in range(samples):
            wins += rollout(view, sample_hidden(view, rng), first, policy)
    return wins


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--samples", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    import tutor

    cpu, wall, results = [], [], set()
    for _ in range(args.repeat):
        c0, w0 = time.process_time(), time.perf_counter()
        results.add(work(args.deals, args.samples))
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
    load = os.getloadavg()
    print(f"rollouts from {os.path.dirname(tutor.__file__)}: {args.deals} positions × {args.samples} samples")
    print(f"  CPU median {statistics.median(cpu):.3f} s (min {min(cpu):.3f}), wall median {statistics.median(wall):.3f} s")
    print(f"  wins {sorted(results)} (the same work every run), load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")


if __name__ == "__main__":
    main()
