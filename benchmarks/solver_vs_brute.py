"""The solver against the brute-force oracle on the whole random sweeps (the tests check a quarter or a third).

tests/solver/test_solver_vs_brute.py and tests/solver/test_score.py check the first positions of
each sweep on every run; this runs every position of every sweep (the same random sequences, so
the tests' positions are among them) and prints, per sweep, the positions that agree, the CPU
time (time.process_time) and the wall time, with the load average: run it after a change of the
solver's search.  Any disagreement stops it with the position (an AssertionError).

    .venv/bin/python benchmarks/solver_vs_brute.py
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "solver"))

import test_score  # noqa: E402 - the oracle and the sweeps live with the tests
import test_solver_vs_brute as vs  # noqa: E402


def main() -> None:
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    sweeps = [
        *[(f"random, {p} players, {'table' if t else 'leading'}", lambda p=p, t=t: vs.sweep_random(p, t, vs.FULL[f"random-{p}"]))
          for p in (2, 3) for t in (False, True)],
        ("fresh solver = shared solver", lambda: vs.sweep_fresh(vs.FULL["fresh"])),
        *[(f"fastest, {p} players", lambda p=p: vs.sweep_fastest(p, vs.FULL[f"fastest-{p}"])) for p in (2, 3)],
        ("two-player core = team core", lambda: vs.sweep_cores(vs.FULL["cores"])),
        ("score (most bombs)", lambda: test_score.sweep_score(test_score.FULL)[0]),
    ]
    total_cpu = 0.0
    for name, sweep in sweeps:
        cpu, wall = time.process_time(), time.perf_counter()
        agreed = sweep()
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        total_cpu += cpu
        print(f"{name:34} {agreed:5d} positions agree   CPU {cpu:6.2f} s   wall {wall:6.2f} s")
    print(f"all agree; CPU {total_cpu:.1f} s; load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
