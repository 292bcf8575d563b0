"""How well does the hard landlord guess the farmers' cards?  Its sampled deals scored against the TRUE deal.

    .venv/bin/python benchmarks/landlord_inference.py [--decks 40] [--seed 600] [--samples 16] [--json]
        [--against rlcard|medium] [--ways NAME,NAME,...]

A FULL-INFORMATION DIAGNOSTIC, NOT A BOT (tutor/bench/oracle.py watches the real game; the bot decides as
always, from its view).  Hard plays the landlord against RLCard's rule agent (tutor/bench/rlcard_arena.py); at
each of its decisions in the play-outs' stage (``HardBot.landlord_search_cards`` < cards in play ≤
``HardBot.landlord_playout_cards``) the deals its play-outs would draw are drawn ``--samples`` times by each
way of guessing, and each deal is scored by the share of the farmers' cards it puts in the right farmer's hand
(the truth scores 1):

* ``uniform``: the unseen cards dealt at random, nothing else known (the floor);
* ``sampled``: today's draw (the unseen cards dealt at random, with what the passes revealed);
* ``nudged-quick-4``: nudged by 4 card swaps towards deals where the farmers' last 12 plays are the quick
  policy's (round 4's ``playout_steps=4``);
* ``nudged-agent-4`` / ``nudged-agent-16``: nudged by 4 / 16 swaps towards deals where they are RLCard's rule
  agent's (tutor/bench/rule_agent_model.py: the opponent's own policy as the model); ``nudged-agent-16-all``
  explains all their plays, not the last 12.
* ``compiled-V-16-all`` for V in quick, lowest, rule, agent (round 7): nudged by 16 swaps towards deals where
  all the farmers' plays are the compiled play-out variant V's (:func:`tutor.bots.sampling.nudged_samples`,
  what ``HardBot.playout_nudge_model`` selects).
* ``filtered-V-P`` for V in agent, rule, quick and P in 4, 16 (round 8): P deals drawn for each one kept, the
  ones explaining most of the farmers' plays under V kept (:func:`tutor.bots.sampling.filtered_samples`,
  ``HardBot.landlord_filter_pool``); ``filtered-V-P-b1`` resamples them by ``exp(−wrong)`` instead.

``--against medium`` plays the medium level as the farmers on our own deals instead (``ddz arena``'s);
``--ways`` keeps only the named ways (the Python ones are slow).

Printed: the mean share of each (over decisions, each the mean of its deals), the decisions scored, and the
CPU with the load.  benchmarks/landlord_ceiling.py says what a right guess is worth (docs/bots.md).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable

from tutor.bench import rlcard_arena
from tutor.bench.oracle import TrueDeal
from tutor.bench.rule_agent_model import draw_deals_for_rule_agent
from tutor.bots.base import turn_rng
from tutor.bots.counting import pass_limits
from tutor.bots import make_bot
from tutor.bots.hard import HardBot
from tutor.bots.rollout import draw_deals
from tutor.bots.sampling import Filter, filtered_samples, nudged_samples
from tutor.solver.playout import VARIANTS
from tutor.engine.cards import NUM_RANKS, packed_size
from tutor.engine.game import Game
from tutor.engine.view import PlayerView

Guess = Callable[[PlayerView, int], list[dict[int, int]]]


def guesses(samples: int) -> dict[str, Guess]:
    """The ways of guessing, each drawing ``samples`` deals for a view (seeded by the view, as the bot is)."""

    def way(steps: int, agent: bool, passes: bool = True, recent: int | None = 12) -> Guess:
        def draw(view: PlayerView, seed: int) -> list[dict[int, int]]:
            rng = turn_rng(seed, view)
            limits = pass_limits(view) if passes else []
            if agent:
                return draw_deals_for_rule_agent(view, rng, samples, limits, steps, recent)
            return draw_deals(view, rng, samples, limits, steps, recent)

        return draw

    def compiled(variant: str, steps: int, recent: int | None) -> Guess:
        def draw(view: PlayerView, seed: int) -> list[dict[int, int]]:
            rng = turn_rng(seed, view)
            return nudged_samples(view, rng, samples, variant, steps, pass_limits(view), recent)

        return draw

    ways = {"uniform": way(0, False, passes=False), "sampled": way(0, False), "nudged-quick-4": way(4, False),
            "nudged-agent-4": way(4, True), "nudged-agent-16": way(16, True),
            "nudged-agent-16-all": way(16, True, recent=None)}
    for variant in VARIANTS:
        ways[f"compiled-{variant}-16-all"] = compiled(variant, 16, None)

    def filtered(variant: str, pool: int, beta: float | None) -> Guess:
        def draw(view: PlayerView, seed: int) -> list[dict[int, int]]:
            rng = turn_rng(seed, view)
            return filtered_samples(view, rng, samples, Filter(variant, pool, beta), pass_limits(view))

        return draw

    for variant in ("agent", "rule", "quick"):
        for pool in (4, 16):
            ways[f"filtered-{variant}-{pool}"] = filtered(variant, pool, None)
            ways[f"filtered-{variant}-{pool}-b1"] = filtered(variant, pool, 1.0)
    return ways


def right_share(deal: dict[int, int], truth: dict[int, int]) -> float:
    """The share of the hidden cards that ``deal`` puts in the hand that holds them."""
    right = total = 0
    for seat, held in truth.items():
        guessed = deal.get(seat, 0)
        total += packed_size(held)
        right += sum(min((held >> (4 * r)) & 0xF, (guessed >> (4 * r)) & 0xF) for r in range(NUM_RANKS))
    return right / total if total else 1.0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=40)
    parser.add_argument("--seed", type=int, default=600)
    parser.add_argument("--samples", type=int, default=16)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--against", choices=["rlcard", "medium"], default="rlcard")
    parser.add_argument("--ways", default="", help="comma-separated ways to keep (default: all)")
    args = parser.parse_args(argv)
    if args.against == "rlcard" and not rlcard_arena.available():
        print("rlcard is not installed: pip install 'ddz-tutor[arena]'", file=sys.stderr)
        return 2
    ways = guesses(args.samples)
    if args.ways:
        keep = args.ways.split(",")
        unknown = [name for name in keep if name not in ways]
        if unknown:
            print(f"no way named {unknown[0][:40]!r} (one of: {', '.join(ways)})", file=sys.stderr)
            return 2
        ways = {name: ways[name] for name in keep}
    scores: dict[str, list[float]] = {name: [] for name in ways}
    truth = TrueDeal()
    deck_now = [0]

    def score(game: Game) -> None:
        cards = sum(game.card_counts)
        if not HardBot.landlord_search_cards < cards <= HardBot.landlord_playout_cards:
            return
        truth.watch(game)
        view = game.view(game.to_move)
        real = truth.hidden(view)
        for name, draw in ways.items():
            deals = draw(view, deck_now[0])
            scores[name].append(statistics.fmean(right_share(d, real) for d in deals))

    load = os.getloadavg()
    cpu = time.process_time()
    for deck in range(args.seed, args.seed + args.decks):
        deck_now[0] = deck
        if args.against == "rlcard":
            rlcard_arena.play_game(deck, "hard", True, watch=score)
            continue
        game = Game.with_landlord(deck, 0)
        bots = [HardBot(deck), make_bot("medium", deck), make_bot("medium", deck)]
        while not game.is_over:
            if game.to_move == 0:
                score(game)
            game.play(bots[game.to_move].play(game.view(game.to_move)))
    cpu = time.process_time() - cpu
    figures = {name: statistics.fmean(s) for name, s in scores.items() if s}
    decisions = len(next(iter(scores.values())))
    if args.json:
        print(json.dumps({"against": args.against, "decks": args.decks, "seed": args.seed, "decisions": decisions, "right_share": figures,
                          "cpu": round(cpu, 1), "load": [round(load[0], 1), round(os.getloadavg()[0], 1)]}))
        return 0
    who = rlcard_arena.RULE_AGENT if args.against == "rlcard" else "medium"
    print(f"hard as landlord against {who}, decks {args.seed}-{args.seed + args.decks - 1}: "
          f"{decisions} play-out decisions, {args.samples} deals each way (a FULL-INFORMATION diagnostic)")
    for name, share in figures.items():
        spread = statistics.stdev(scores[name]) if len(scores[name]) > 1 else 0.0
        print(f"  {name:<20} farmers' cards in the right hand {share:.3f} (sd over decisions {spread:.3f})")
    print(f"  CPU {cpu:.0f} s; load {load[0]:.1f} -> {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
