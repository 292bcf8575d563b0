"""What the daily pool's generator costs (issue 30): CPU per pool puzzle, with and without the probe.

Plays the bot games of ``--deals`` deals from ``--first`` (seed 5, as the shipped pool) and examines
their candidates three times: with the probe of the top-ranked moves (``DailyGenerator.examine``, its
solver with the lone-farmer shortcut, as shipped), with the probe on the plain search, and without it
(a probe that proves nothing).  The puzzles must be the same (the probe only rejects
earlier what the proof rejects anyway); the figures are CPU seconds (``time.process_time``) and
solver nodes are budgets, so the puzzles are the same on any machine.

    .venv/bin/python benchmarks/daily_pool.py [--first 600000] [--deals 30]

With ``--caps 8 10 20`` it compares hand caps instead (:data:`tutor.puzzles.daily_pool.HAND_CAP`; 20 trims
no hand): the candidates and puzzles of the same deals with each cap, the CPU a puzzle (games included),
the median of legal first moves and of the biggest hand.
"""

from __future__ import annotations

import argparse
import os
import time
from functools import partial
from typing import Any


class _NoProbe:
    def is_winning_move(self, pos: Any, move: Any) -> None:
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=600_000)
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--caps", type=int, nargs="*", default=None)
    args = parser.parse_args()
    if args.caps:
        compare_caps(args.first, args.deals, args.seed, args.caps)
        return
    from tutor.engine.rules import STANDARD
    from tutor.puzzles.daily_pool import ROOT_NODES, DailyGenerator, game_candidates
    from tutor.solver.solver import Solver

    factory = partial(Solver, max_nodes=ROOT_NODES, workers=1, rules=STANDARD)
    cpu = time.process_time()
    deals = range(args.first, args.first + args.deals)
    candidates = [c for n in deals for c in game_candidates(n, args.seed)]
    games_cpu = time.process_time() - cpu
    results = {}
    from tutor.puzzles.daily_pool import PROBE_NODES

    plain = partial(Solver, max_nodes=PROBE_NODES, workers=1, rules=STANDARD)  # the probe without the lone-farmer shortcut
    both = (("probe", DailyGenerator(factory)), ("plain probe", DailyGenerator(factory, plain)),
            ("no probe", DailyGenerator(factory, _NoProbe)))
    for name, generator in both:
        cpu = time.process_time()
        found = [p.id for c in candidates if (p := generator.examine(c)) is not None]
        results[name] = (found, time.process_time() - cpu, generator.probed_out)
    print(f"deals {deals[0]}-{deals[-1]} (seed {args.seed}): {len(candidates)} candidates,"
          f" bot games {games_cpu:.1f} s CPU")
    for name, (found, spent, probed) in results.items():
        per = (spent + games_cpu) / len(found) if found else float("nan")
        print(f"  {name:11}: {len(found)} puzzles, examine {spent:.1f} s CPU ({probed} ended by the probe),"
              f" {per:.1f} s CPU a puzzle with the games")
    assert results["probe"][0] == results["no probe"][0] == results["plain probe"][0], \
        "the probe changed which puzzles are kept"
    print(f"same puzzles: yes; load {os.getloadavg()[0]:.1f} (1 min)")


def compare_caps(first: int, deals: int, seed: int, caps: list[int]) -> None:
    """The generator on the same deals with each hand cap (figures: puzzles, CPU, legal moves, hand size)."""
    from statistics import median

    from tutor.engine.rules import STANDARD
    from tutor.puzzles.daily_pool import ROOT_NODES, DailyGenerator, game_candidates
    from tutor.solver.solver import Solver

    factory = partial(Solver, max_nodes=ROOT_NODES, workers=1, rules=STANDARD)
    for cap in caps:
        generator = DailyGenerator(factory)
        cpu = time.process_time()
        found: dict[str, Any] = {}
        candidates = 0
        for number in range(first, first + deals):
            for candidate in game_candidates(number, seed, hand_cap=cap):
                candidates += 1
                if (puzzle := generator.examine(candidate)) is not None:
                    found.setdefault(puzzle.id, puzzle)
        spent = time.process_time() - cpu
        puzzles = list(found.values())
        legal = [len(p.position.legal_moves()) for p in puzzles]
        biggest = [max(len(h) for h in p.position.hands) for p in puzzles]
        figures = (f"{spent / len(puzzles):.2f} s a puzzle with the games; legal first moves median {median(legal)},"
                   f" biggest hand median {median(biggest)}") if puzzles else "no puzzle"
        print(f"cap {cap}: deals {first}-{first + deals - 1} (seed {seed}): {candidates} candidates, {len(puzzles)} puzzles,"
              f" {spent:.1f} s CPU ({figures}); load {os.getloadavg()[0]:.1f}", flush=True)


if __name__ == "__main__":
    main()
