"""Our bots against RLCard's rule agent in RLCard's own environment (the DouZero protocol).

Needs the optional rlcard package (``pip install 'ddz-tutor[arena]'``: rlcard 1.2.0, numpy, termcolor; no
torch).  Every deck is played twice with the seats swapped (see tutor/bench/rlcard_arena.py); prints WP and
ADP with 95 % intervals over decks, WP as the landlord and as the farmers, the CPU time of our decisions and
the load average.

    .venv/bin/python benchmarks/rlcard_arena.py [--levels hard,medium] [--decks 200] [--seed 0] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from tutor.bench import rlcard_arena
from tutor.bench.arena import protocol_line


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="hard,medium")
    parser.add_argument("--decks", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if not rlcard_arena.available():
        print("rlcard is not installed: pip install 'ddz-tutor[arena]'", file=sys.stderr)
        return 2
    rows = []
    for level in args.levels.split(","):
        cpu = time.process_time()
        load = os.getloadavg()
        result = rlcard_arena.run(level, args.decks, args.seed)
        cpu = time.process_time() - cpu
        rows.append({**result.to_json(), "cpu_seconds": round(cpu, 1),
                     "load_before": [round(x, 2) for x in load], "load_after": [round(x, 2) for x in os.getloadavg()]})
        if not args.json:
            print(protocol_line(result, cpu, (load[0], os.getloadavg()[0])))
    if args.json:
        print(json.dumps(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
