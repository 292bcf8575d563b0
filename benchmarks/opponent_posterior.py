"""How soon does the posterior over the play-outs' models name the farmers' way of playing? (round 9)

    .venv/bin/python benchmarks/opponent_posterior.py [--against rlcard rhcp medium easy] [--rhcp-dir DIR]
        [--decks 20] [--seed 3000] [--error 0.2 ...] [--prior 1 1 1 1]

Plays hard as the landlord (today's play: the posterior is only read, never used) and, before each of its
decisions, computes :func:`tutor.bots.opponent_model.posterior` over :data:`tutor.bots.opponent_model.MODELS`
from the farmers' past decisions in this game (on sampled hands, as the bot would), for each ``--error``.

Printed, per opponent and error rate: for the landlord's 1st, 2nd, ... decision of a game (and by cards in play),
the mean posterior weight of each model — the share of a mixture's play-out deals each model would get
(:func:`tutor.bots.opponent_model.allocation`) — and the mean number of farmer decisions seen.  The mechanism
round 9's "mix" relies on: against RLCard's rule agent the weight should move to "agent"/"rule" within the
first decisions, against medium and RHCP-v2 stay on (or move to) "quick".
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable

from opponent_model import RHCP, play  # the same game as benchmarks/opponent_model.py (a sibling script)
from tutor.bench import rhcp_arena
from tutor.bots.hard import HardBot
from tutor.bots.opponent_model import MODELS, opponents, past_decisions, posterior
from tutor.engine.combos import Combo
from tutor.engine.view import PlayerView

#: The landlord's decisions reported one by one; later ones are pooled.
FIRST = 8
STAGES = ((41, 54), (31, 40), (21, 30))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", nargs="+", default=["rlcard", "medium"], choices=("rlcard", "rhcp", "medium", "easy"))
    parser.add_argument("--rhcp-dir")
    parser.add_argument("--decks", type=int, default=20)
    parser.add_argument("--seed", type=int, default=3000)
    parser.add_argument("--error", type=float, nargs="+", default=[0.2])
    parser.add_argument("--prior", type=float, nargs="+", default=None)
    args = parser.parse_args(argv)
    if "rhcp" in args.against:
        try:
            RHCP.append(rhcp_arena.load(args.rhcp_dir or ""))
        except rhcp_arena.RhcpDirError as exc:
            print(exc, file=sys.stderr)
            return 2
    original: Callable[[HardBot, PlayerView], Combo | None] = HardBot.play
    load = os.getloadavg()
    cpu = time.process_time()
    for against in args.against:
        # rows[error][key] -> list of (weights, decisions seen)
        rows: dict[float, dict[str, list[dict[str, float]]]] = defaultdict(lambda: defaultdict(list))
        seen: dict[str, list[int]] = defaultdict(list)
        index = [0]

        def spy(bot: HardBot, view: PlayerView) -> Combo | None:
            if view.seat == view.landlord:
                index[0] += 1
                k = str(index[0]) if index[0] < FIRST else f"{FIRST}+"
                cards = sum(view.card_counts)
                where = next((f"{lo}-{hi}" for lo, hi in STAGES if lo <= cards <= hi), None)
                n = len(past_decisions(view, opponents(view))) if view.history else 0
                seen[k].append(n)
                for e in args.error:
                    w = posterior(view, MODELS, args.prior, e)
                    rows[e][k].append(w)
                    if where is not None:
                        rows[e][where].append(w)
            return original(bot, view)

        HardBot.play = spy  # type: ignore[method-assign,assignment]
        try:
            for deck in range(args.seed, args.seed + args.decks):
                index[0] = 0
                play(against, deck, True)
        finally:
            HardBot.play = original  # type: ignore[method-assign,assignment]
        for e in args.error:
            print(f"\nhard as landlord against {against}, decks {args.seed}-{args.seed + args.decks - 1}, "
                  f"error {e}, prior {args.prior or 'uniform'}: mean posterior weight")
            print("| landlord decision | decisions | farmer decisions seen | " + " | ".join(MODELS) + " |")
            print("|---|---|---|" + "---|" * len(MODELS))
            keys = [str(i) for i in range(1, FIRST)] + [f"{FIRST}+"] + [f"{lo}-{hi}" for lo, hi in STAGES]
            for k in keys:
                ws = rows[e][k]
                if not ws:
                    continue
                n = f"{statistics.fmean(seen[k]):.1f}" if k in seen and seen[k] else "-"
                label = k if "-" in k else f"#{k}"
                cells = " | ".join(f"{statistics.fmean(w[m] for w in ws):.2f}" for m in MODELS)
                print(f"| {label}{' cards' if '-' in k else ''} | {len(ws)} | {n} | {cells} |")
    print(f"\nCPU {time.process_time() - cpu:.0f} s; load {load[0]:.1f} -> {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
