"""Which opponents' model does the hard bot read from the view, against whom, and how early?

    .venv/bin/python benchmarks/opponent_model.py [--against rlcard rhcp medium easy] [--rhcp-dir DIR]
        [--sides landlord|farmers|both] [--decks 40] [--seed 2200] [--samples 8] [--margin 2.0] [--beta 1.0]
        [--dump FILE]

Plays hard (today's play: the model is only read, never used) against each opponent and, before each of
hard's decisions, asks :func:`tutor.bots.opponent_model.model_fit` which of the play-outs' models
(:data:`tutor.bots.opponent_model.MODELS`) explains the opponents' past decisions in this game on sampled
hands, and which one :meth:`~tutor.bots.opponent_model.Fit.best` would choose with ``--margin``.

Printed, per opponent and side: for each stage of the game (cards in play), the decisions and the share of
them on which each model is chosen; the mean share of the opponents' scored decisions each model explains
on the sampled hands; the median cards in play at the first decision choosing another model than the prior;
and the model calls per decision (median, max).  Round 9: with ``--beta`` also the mean weight of each model of
the farmers' mixture prior (:data:`tutor.bots.model_mix.PRIOR`) by stage — the share of the played-out deals
``farmer_playout_opponents="mix"`` would give it (:func:`tutor.bots.model_mix.posterior`).  The hands the models are scored on are sampled, not the
true ones: helper "rhcp"'s fit.md measures the same models on the true hands (a perfect identifier's pick).
Round 10: ``--dump FILE`` writes each of hard's decisions (opponent, side, deck, cards in play, the opponents'
decisions scored, each model's hits) as a JSON line, so that any other prior or ``beta`` of the mixture can be
weighed offline on the same games without replaying them.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable

from tutor.bench import rhcp_arena
from tutor.bots import make_bot
from tutor.bots.hard import HardBot
from tutor.bots.model_mix import PRIOR as MIX_PRIOR
from tutor.bots.model_mix import posterior
from tutor.bots.opponent_model import MODELS, PRIOR, model_fit
from tutor.engine.combos import Combo
from tutor.engine.game import Game
from tutor.engine.view import PlayerView

STAGES = ((41, 54), (31, 40), (21, 30), (0, 20))
RHCP: list[rhcp_arena.AgentFactory] = []


def stage(cards: int) -> str:
    for low, high in STAGES:
        if low <= cards <= high:
            return f"{low}-{high}"
    return "?"


def play(against: str, deck: int, ours_landlord: bool) -> None:
    if against == "rhcp":
        rhcp_arena.play_game(deck, "hard", ours_landlord, RHCP[0], "rlcard")
    elif against == "rlcard":
        from tutor.bench import rlcard_arena

        rlcard_arena.play_game(deck, "hard", ours_landlord)
    else:
        game = Game.with_landlord(deck, 0)
        ours = [(s == 0) == ours_landlord for s in range(3)]
        bots = [make_bot("hard" if ours[s] else against, deck) for s in range(3)]
        while not game.is_over:
            game.play(bots[game.to_move].play(game.view(game.to_move)))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", nargs="+", default=["rlcard", "medium", "easy"],
                        choices=("rlcard", "rhcp", "medium", "easy"))
    parser.add_argument("--rhcp-dir")
    parser.add_argument("--sides", choices=("landlord", "farmers", "both"), default="both")
    parser.add_argument("--decks", type=int, default=40)
    parser.add_argument("--seed", type=int, default=2200)
    parser.add_argument("--samples", type=int, default=8)
    parser.add_argument("--margin", type=float, default=2.0)
    parser.add_argument("--beta", type=float, help="also the mixture's weights of its prior's models by stage")
    parser.add_argument("--dump", help="write one JSON line per decision (opponent, deck, cards, hits, decisions) "
                        "to this file, to weigh other priors and betas offline")
    args = parser.parse_args(argv)
    if "rhcp" in args.against:
        try:
            RHCP.append(rhcp_arena.load(args.rhcp_dir or ""))
        except rhcp_arena.RhcpDirError as exc:
            print(exc, file=sys.stderr)
            return 2
    dump = open(args.dump, "w", encoding="utf-8") if args.dump else None
    current = [0]
    roles = {"landlord": (True,), "farmers": (False,), "both": (True, False)}[args.sides]
    original: Callable[[HardBot, PlayerView], Combo | None] = HardBot.play
    load = os.getloadavg()
    cpu = time.process_time()
    for against in args.against:
        for landlord in roles:
            chosen: dict[str, Counter[str]] = defaultdict(Counter)
            explained: dict[str, list[float]] = defaultdict(list)
            firsts: list[int] = []
            calls: list[int] = []
            game_first: list[int | None] = [None]
            weights: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))

            def spy(bot: HardBot, view: PlayerView) -> Combo | None:
                if (view.seat == view.landlord) == landlord:
                    fit = model_fit(view, MODELS, args.samples)
                    cards = sum(view.card_counts)
                    pick = fit.best(PRIOR, args.margin)
                    chosen[stage(cards)][pick] += 1
                    if args.beta is not None:
                        for m, w in posterior(fit.hits, MIX_PRIOR, args.beta).items():
                            weights[stage(cards)][m].append(w)
                    if dump is not None:
                        dump.write(json.dumps({"against": against, "landlord": landlord, "deck": current[0],
                                               "cards": cards, "decisions": fit.decisions,
                                               "hits": fit.hits}) + "\n")
                    if fit.decisions:
                        calls.append(fit.calls)
                        for m in MODELS:
                            explained[m].append(fit.hits[m] / fit.decisions)
                    if pick != PRIOR and game_first[0] is None:
                        game_first[0] = cards
                return original(bot, view)

            HardBot.play = spy  # type: ignore[method-assign,assignment]
            try:
                for deck in range(args.seed, args.seed + args.decks):
                    game_first[0] = None
                    current[0] = deck
                    play(against, deck, landlord)
                    if game_first[0] is not None:
                        firsts.append(game_first[0])
            finally:
                HardBot.play = original  # type: ignore[method-assign,assignment]
            side = "landlord" if landlord else "farmers"
            print(f"\nhard as {side} against {against}, decks {args.seed}-{args.seed + args.decks - 1} "
                  f"(samples {args.samples}, margin {args.margin}):")
            print("| cards in play | decisions | " + " | ".join(MODELS) + " |")
            print("|---|---|" + "---|" * len(MODELS))
            for low, high in STAGES:
                row = chosen[f"{low}-{high}"]
                n = sum(row.values())
                shares = " | ".join(f"{row[m] / n:.2f}" if n else "-" for m in MODELS)
                print(f"| {low}-{high} | {n} | {shares} |")
            if args.beta is not None:
                print(f"  the mixture's mean weights (prior {MIX_PRIOR}, beta {args.beta}):")
                for low, high in STAGES:
                    row_w = weights[f"{low}-{high}"]
                    print(f"  | {low}-{high} | " + " | ".join(
                        f"{m} {statistics.fmean(row_w[m]):.2f}" for m in MIX_PRIOR if row_w[m]) + " |")
            means = ", ".join(f"{m} {statistics.fmean(explained[m]):.3f}" for m in MODELS if explained[m])
            print(f"  opponents' decisions explained on sampled hands (mean over hard's decisions): {means}")
            print(f"  games switching from {PRIOR}: {len(firsts)} of {args.decks}"
                  + (f", median first switch at {statistics.median(firsts):.0f} cards in play" if firsts else ""))
            if calls:
                print(f"  model calls a decision: median {statistics.median(calls):.0f}, max {max(calls)}")
    print(f"\nCPU {time.process_time() - cpu:.0f} s; load {load[0]:.1f} -> {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores")
    if dump is not None:
        dump.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
