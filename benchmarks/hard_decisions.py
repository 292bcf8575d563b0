"""How long the hard bot takes per decision, in wall time and in CPU time, with the machine's load.

    .venv/bin/python benchmarks/hard_decisions.py [-n DEALS] [--seed FIRST] [--wildcard] [--set ATTR=VALUE ...]

Plays each deal twice with the roles swapped (hard landlord against medium
farmers, then medium against hard, as ``ddz arena`` does) and prints the
median and the worst hard decision.  ``ddz arena --json`` reports wall time
only; on a shared machine that mostly measures the other jobs, so this also
prints the CPU time of each decision (what it costs on an idle machine) and
the load average before and after.  The bot's budgets are counts
(docs/api.md), so its moves — and the CPU figures, up to noise — do not
depend on the load; only the wall figures do.  ``--set`` changes a class attribute of the hard bot first (an
experiment's cost, as in benchmarks/hard_paired.py).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time

from tutor.bots import make_bot
from tutor.engine.game import Game, Phase
from tutor.engine.rules import STANDARD, WILD


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("-n", type=int, default=30, help="deals (default 30)")
    parser.add_argument("--seed", type=int, default=0, help="first deal number (default 0)")
    parser.add_argument("--wildcard", action="store_true", help="the wildcard game (RULES §12.3)")
    parser.add_argument("--set", action="append", default=[], metavar="ATTR=VALUE", help="a HardBot attribute")
    args = parser.parse_args()
    from tutor.bots.hard import HardBot

    for item in args.set:
        name, _, text = item.partition("=")
        if not hasattr(HardBot, name):
            parser.error(f"HardBot has no attribute {name[:40]!r}")
        try:
            setattr(HardBot, name, json.loads(text))
        except json.JSONDecodeError:
            setattr(HardBot, name, text)
    rules = WILD if args.wildcard else STANDARD
    load_before = os.getloadavg()
    wall: list[float] = []
    cpu: list[float] = []
    worst = (0.0, 0, 0)
    for number in range(args.seed, args.seed + args.n):
        for hard_seats in ((0,), (1, 2)):
            game = Game.with_landlord(number, 0, rules=rules)
            bots = [make_bot("hard" if s in hard_seats else "medium", number) for s in range(3)]
            while game.phase is not Phase.OVER:
                seat = game.to_move
                view = game.view(seat)
                start, start_cpu = time.perf_counter(), time.thread_time()
                move = bots[seat].play(view)
                if seat in hard_seats:
                    wall.append(time.perf_counter() - start)
                    cpu.append(time.thread_time() - start_cpu)
                    worst = max(worst, (cpu[-1], number, len(view.history)))
                game.play(move)
    load_after = os.getloadavg()

    def ms(xs: list[float]) -> str:
        return f"median {statistics.median(xs) * 1000:.3f} ms, max {max(xs) * 1000:.1f} ms"

    print(f"hard decisions: {len(wall)} over {args.n} deals from {args.seed} ({rules.name})")
    print(f"  wall: {ms(wall)}")
    print(f"  cpu:  {ms(cpu)} (worst: deal {worst[1]}, turn {worst[2]})")
    print(f"  load average (1 min) before {load_before[0]:.2f}, after {load_after[0]:.2f}; cores {os.cpu_count()}")


if __name__ == "__main__":
    main()
