"""Our bots against RHCP-v2 (deecamp2019-group20/RuleBasedModelV2), the DouZero protocol, seats swapped.

RHCP-v2 is not part of this project: put a copy in a directory (docs/bots.md, "Against RHCP-v2") and name
it.  Every deck is played twice with the seats swapped (see tutor/bench/rhcp_arena.py), on RLCard's deal of
the deck when rlcard is installed (the decks of benchmarks/rlcard_arena.py), else on ours; prints WP and ADP
with 95 % intervals over decks, WP as the landlord and as the farmers, the CPU time of our decisions and
the load average.  ``--progress`` prints each deck's two games to stderr as a JSON line as it ends.

    .venv/bin/python benchmarks/rhcp_arena.py --rhcp-dir DIR [--levels hard,medium] [--decks 200]
        [--seed 0] [--deal rlcard|ours] [--json] [--progress]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from tutor.bench import rhcp_arena
from tutor.bench.arena import DealOutcome, protocol_line
from tutor.bots import LEVELS


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rhcp-dir")
    parser.add_argument("--levels", default="hard,medium")
    parser.add_argument("--decks", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--deal", choices=("rlcard", "ours"))
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--progress", action="store_true")
    args = parser.parse_args(argv)
    if not args.rhcp_dir:
        print("--rhcp-dir is required: the directory of RHCP-v2", file=sys.stderr)
        return 2
    levels = [level.strip().lower() for level in args.levels.split(",")]
    bad = [level for level in levels if level not in LEVELS]
    if bad:
        print(f"unknown level {bad[0][:40]!r}", file=sys.stderr)
        return 2
    if args.decks < 1 or args.seed < 0:
        print("--decks must be ≥ 1 and --seed ≥ 0", file=sys.stderr)
        return 2
    try:
        model = rhcp_arena.load(args.rhcp_dir)
    except rhcp_arena.RhcpDirError as exc:
        print(exc, file=sys.stderr)
        return 2
    source = args.deal or ("rlcard" if rhcp_arena.rlcard_available() else "ours")
    if source == "rlcard" and not rhcp_arena.rlcard_available():
        print("rlcard is not installed: pip install 'ddz-tutor[arena]'", file=sys.stderr)
        return 2
    rows = []
    for level in levels:
        cpu = time.process_time()
        load = os.getloadavg()
        progress = None
        if args.progress:
            def progress(outcome: DealOutcome, level: str = level, start: float = cpu) -> None:
                print(json.dumps({"level": level, "deck": outcome.number, "wins": outcome.wins,
                                  "points": outcome.points, "cpu": round(time.process_time() - start, 1),
                                  "load": round(os.getloadavg()[0], 1)}), file=sys.stderr, flush=True)
        translated: list[str] = []
        result = rhcp_arena.run(level, args.decks, model, args.seed, source, progress, translated)
        cpu = time.process_time() - cpu
        rows.append({**result.to_json(), "deal": source, "translated_wings": translated, "cpu_seconds": round(cpu, 1),
                     "load_before": [round(x, 2) for x in load], "load_after": [round(x, 2) for x in os.getloadavg()]})
        if not args.json:
            print(protocol_line(result, cpu, (load[0], os.getloadavg()[0]), f" ({source}'s deals)"), flush=True)
            print(f"  plays of ours shown to {rhcp_arena.RHCP} with distinct-rank wings: {len(translated)}"
                  + (f" ({'; '.join(translated)})" if translated else ""), flush=True)
    if args.json:
        print(json.dumps(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
