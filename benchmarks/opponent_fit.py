"""How often each compiled play-out variant makes the opponents' actual move (a diagnostic for issue 33).

Our level (hard by default) plays the landlord against an opponent's two farmers; at every decision of the
opponent with more than one legal move, each variant of tutor.solver.playout.choose (quick, lowest, rule,
agent) is asked from that seat's own view and compared with the move the opponent made (the same cards, or
both a pass).  Prints one JSON line per opponent: per variant the share of agreements when leading, when
following and in all, each [rate, low, high] with a 95 % interval over decks, the numbers of decisions and
of forced ones (one legal move: left out).  See tutor/bench/opponent_fit.py.

    .venv/bin/python benchmarks/opponent_fit.py [--opponents rhcp,rlcard,medium] [--rhcp-dir DIR]
        [--level hard] [--decks 50] [--seed 0] [--as farmers|landlord]

Opponents: ``rhcp`` (RHCP-v2 from --rhcp-dir, on RLCard's deals: benchmarks/rhcp_arena.py's landlord games),
``rlcard`` (RLCard's rule agent in its own environment: benchmarks/rlcard_arena.py's), or one of our levels
(``easy``, ``medium``, ``hard``: on our deals, as ``ddz arena``).  ``--as landlord``: the opponent's decisions
as the landlord against our level's farmers instead (the model the farmers' play-outs use).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from tutor.bench import opponent_fit, rhcp_arena, rlcard_arena
from tutor.bots import LEVELS


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opponents", default="rhcp,rlcard,medium")
    parser.add_argument("--rhcp-dir")
    parser.add_argument("--level", default="hard")
    parser.add_argument("--decks", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--as", dest="role", choices=("farmers", "landlord"), default="farmers",
                        help="the opponent's side (default: the farmers, against our level as the landlord)")
    args = parser.parse_args(argv)
    opponents = [name.strip().lower() for name in args.opponents.split(",") if name.strip()]
    bad = [name for name in opponents if name not in ("rhcp", "rlcard", *LEVELS)]
    if bad or args.level not in LEVELS:
        print(f"unknown opponent or level {(bad or [args.level])[0][:40]!r}", file=sys.stderr)
        return 2
    if args.decks < 1 or args.seed < 0:
        print("--decks must be ≥ 1 and --seed ≥ 0", file=sys.stderr)
        return 2
    model = None
    if "rhcp" in opponents:
        try:
            model = rhcp_arena.load(args.rhcp_dir or "")
        except rhcp_arena.RhcpDirError as exc:
            print(exc if args.rhcp_dir else "the rhcp opponent needs --rhcp-dir", file=sys.stderr)
            return 2
    if {"rhcp", "rlcard"} & set(opponents) and not rlcard_arena.available():
        print("rlcard is not installed: pip install 'ddz-tutor[arena]'", file=sys.stderr)
        return 2
    decks = range(args.seed, args.seed + args.decks)
    farmers = args.role == "farmers"
    for name in opponents:
        load = os.getloadavg()[0]
        cpu = time.process_time()
        if name == "rhcp":
            assert model is not None
            decisions = opponent_fit.rhcp_decisions(decks, model, args.level, farmers=farmers)
        elif name == "rlcard":
            decisions = opponent_fit.rule_agent_decisions(decks, args.level, farmers)
        else:
            decisions = opponent_fit.level_decisions(decks, name, args.level, farmers)
        figures = opponent_fit.tally(decisions)
        row = {"opponent": name, "as": args.role, "against": args.level, "seed": args.seed, **figures,
               "cpu": round(time.process_time() - cpu, 1),
               "load": [round(load, 1), round(os.getloadavg()[0], 1)]}
        print(json.dumps(row), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
