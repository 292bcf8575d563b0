"""How much do the others' passes say about their hands?  Measured weights for the hidden-hand sampler.

    .venv/bin/python benchmarks/sampling_weights.py [--fit-decks 400] [--fit-from 1000]
        [--test-decks 100] [--test-from 2000] [--draws 48] [--every 2] [--literal]

Plays ``--fit-decks`` decks both ways (our medium level against RLCard's rule agent in RLCard's own
environment, benchmarks/rlcard_arena.py's protocol; needs ``rlcard``) and counts, at every decision of a
player facing a single, a pair or a trio (:mod:`tutor.bots.revealed`), how often it passed given how many
ranks of its true hand could have answered, whether the table was its partner's, and whether its owner was
down to two cards: P(pass | cell) with the decisions counted, for the rule agent, for medium and for both
(the table the sampler uses: ``--literal`` prints it as Python for :data:`tutor.bots.revealed.PASS_RATES`).

Then, on ``--test-decks`` other decks (held out: different deals), at every ``--every``-th decision of our
seats, it draws ``--draws`` deals with today's sampler (:func:`tutor.bots.sampling.sample_hidden`) and
weights them by the likelihood of the others' answers and passes: printed are the mean log-likelihood gain
of the TRUE hidden hands under the weighted sampler over today's (log w(true) − log mean w(draws), nats a
decision, with its 95 % interval over games) and the cards a drawn deal puts in the wrong hand (mean under
today's sampler and under the weighted one).  Bots decide from their views; only this measurement sees the
true hands.  Figures are deterministic (seeded by deck).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections import defaultdict

from tutor.bench import rlcard_arena
from tutor.bench.arena import Z95
from tutor.bots.revealed import Cell, Rates, cell, follows, log_likelihood
from tutor.bots import revealed
from tutor.bots.sampling import Weighting, sample_hidden, sampler
from tutor.engine.cards import NUM_RANKS, Cards
from tutor.engine.game import Game

LANDLORD = rlcard_arena.RLCARD_LANDLORD
Counts = dict[Cell, list[int]]  # cell → [passes, decisions]


def games(first: int, decks: int) -> list[tuple[Game, list[bool]]]:
    """Each deck played twice (our medium as the landlord, then as both farmers), with which seats were ours."""
    out = []
    for deck in range(first, first + decks):
        for ours_landlord in (True, False):
            played: list[Game] = []
            rlcard_arena.play_game(deck, "medium", ours_landlord, games=played)
            out.append((played[0], [(s == LANDLORD) == ours_landlord for s in range(3)]))
    return out


def start_hands(game: Game) -> list[int]:
    hands = list(game.hands_packed)
    for turn in game.history:
        if turn.play is not None:
            hands[turn.seat] += turn.play.cards
    return hands


def count(played: list[tuple[Game, list[bool]]]) -> tuple[Counts, Counts]:
    """Passes and decisions by cell: (the rule agent's, medium's), on the true hands."""
    agent: Counts = defaultdict(lambda: [0, 0])
    ours: Counts = defaultdict(lambda: [0, 0])
    for game, mine in played:
        now = game.hands_packed
        assert game.landlord is not None
        for event in follows(game.history, 3, game.landlord, game.card_counts):
            key = cell(event, now[event.seat] + event.later)
            if key[3] == 0:
                continue  # nothing answers: a forced pass
            tally = ours if mine[event.seat] else agent
            tally[key][0] += event.passed
            tally[key][1] += 1
    return agent, ours


def rates(counts: Counts) -> dict[Cell, tuple[float, int]]:
    return {k: ((p + 1) / (n + 2), n) for k, (p, n) in sorted(counts.items())}


def name(key: Cell) -> str:
    need, partner, danger, ranks = key
    kind = {1: "single", 2: "pair", 3: "trio"}[need]
    return f"{kind:6} {'partner ' if partner else 'opponent'} {'danger' if danger else '      '} {ranks}"


def misplaced(sample: int, truth: int) -> int:
    """Cards ``sample`` (one seat's hand) holds beyond the true hand: the cards dealt to the wrong seat."""
    return sum(max(0, ((sample >> 4 * r) & 0xF) - ((truth >> 4 * r) & 0xF)) for r in range(NUM_RANKS))


def evaluate(
    played: list[tuple[Game, list[bool]]], opponents: Rates, partner: Rates, draws: int, every: int,
    pools: dict[int, list[float]] | None = None,
) -> tuple[list[float], list[float], list[float], int]:
    """Per game: mean log-likelihood gain, misplaced cards today and weighted; and the decisions measured.

    ``pools`` (pool size → per game), when given, receives the misplaced cards of ``draws // 3`` deals drawn by
    the sampler the bot uses (:func:`tutor.bots.sampling.sampler` with the stored rule agent's table and that
    many draws a deal kept).
    """
    gains, today, weighted = [], [], []
    per_pool: dict[int, list[float]] = {k: [] for k in pools or {}}
    decisions = 0
    for index, (game, mine) in enumerate(played):
        hands = start_hands(game)
        assert game.landlord is not None and game.kitty is not None
        replay = Game.from_hands([Cards(h) for h in hands], game.landlord, kitty=game.kitty)
        g_gain, g_today, g_weighted = [], [], []
        for step, turn in enumerate(game.history):
            seat = replay.to_move
            if mine[seat] and step % every == 0:
                view = replay.view(seat)
                events = follows(view.history, 3, game.landlord, view.card_counts, skip=seat)
                if events:
                    truth = {s: replay.hands_packed[s] for s in range(3) if s != seat}
                    table = {s: partner if mine[s] else opponents for s in truth}
                    rng = random.Random(f"sampling-weights:{index}:{step}")
                    deals = [sample_hidden(view, rng) for _ in range(draws)]
                    logs = [log_likelihood(events, d, table) for d in deals]
                    top = max(logs)
                    weights = [math.exp(x - top) for x in logs]
                    mean = math.log(sum(weights) / len(weights)) + top
                    g_gain.append(log_likelihood(events, truth, table) - mean)
                    other = min(truth)
                    wrong = [misplaced(d[other], truth[other]) for d in deals]
                    g_today.append(statistics.fmean(wrong))
                    g_weighted.append(sum(w * m for w, m in zip(weights, wrong)) / sum(weights))
                    for pool, found in per_pool.items():
                        draw = sampler(view, weighting=Weighting("rule-agent", pool))
                        found.append(statistics.fmean(misplaced(draw(rng)[other], truth[other])
                                                      for _ in range(max(1, draws // 3))))
                    decisions += 1
            replay.play(turn.play)
        if g_gain:
            gains.append(statistics.fmean(g_gain))
            today.append(statistics.fmean(g_today))
            weighted.append(statistics.fmean(g_weighted))
            for pool, found in per_pool.items():
                assert pools is not None
                pools[pool].append(statistics.fmean(found))
                found.clear()
    return gains, today, weighted, decisions


def interval(values: list[float]) -> str:
    mean = statistics.fmean(values)
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else float("nan")
    return f"{mean:+.3f} [{mean - half:+.3f}, {mean + half:+.3f}]"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--fit-decks", type=int, default=400)
    parser.add_argument("--fit-from", type=int, default=1000)
    parser.add_argument("--test-decks", type=int, default=100)
    parser.add_argument("--test-from", type=int, default=2000)
    parser.add_argument("--draws", type=int, default=48)
    parser.add_argument("--every", type=int, default=2)
    parser.add_argument("--pools", default="4,16", help="draws a deal kept of the bot's sampler to measure")
    parser.add_argument("--literal", action="store_true", help="print the pooled table as Python")
    args = parser.parse_args(argv)
    if min(args.fit_decks, args.test_decks, args.draws, args.every) < 1:
        print("decks, draws and --every must be at least 1", file=sys.stderr)
        return 2
    try:
        sizes = [int(k) for k in args.pools.split(",") if k]
    except ValueError:
        print(f"--pools: not sizes: {args.pools[:40]!r}", file=sys.stderr)
        return 2
    if not rlcard_arena.available():
        print("needs rlcard: pip install 'ddz-tutor[arena]'", file=sys.stderr)
        return 2
    cpu = time.process_time()
    fitted = games(args.fit_from, args.fit_decks)
    agent, ours = count(fitted)
    pooled: Counts = defaultdict(lambda: [0, 0])
    for tally in (agent, ours):
        for key, (p, n) in tally.items():
            pooled[key][0] += p
            pooled[key][1] += n
    table = rates(pooled)
    print(f"P(pass | cell) on decks {args.fit_from}-{args.fit_from + args.fit_decks - 1} ({len(fitted)} games);"
          " cell = table kind, whose table, its owner at <= 2 cards, answering ranks held")
    print(f"{'cell':28} {'rule agent':>16} {'medium':>16} {'both':>16}")
    for key in sorted(pooled):
        cols = []
        for tally in (agent, ours, pooled):
            p, n = tally.get(key, [0, 0])
            cols.append(f"{(p + 1) / (n + 2):.3f} (n={n})" if n else "-")
        print(f"{name(key):28} {cols[0]:>16} {cols[1]:>16} {cols[2]:>16}")
    tables = {"RULE_AGENT": rates(agent), "MEDIUM": rates(ours), "POOLED": table}
    if args.literal:
        for label, fit in tables.items():
            print(f"{label}: dict[Cell, tuple[float, int]] = {{")
            for key, (rate, n) in fit.items():
                print(f"    {key!r}: ({rate:.3f}, {n}),")
            print("}")
    for label, fit in tables.items():
        same = getattr(revealed, label, None) == {k: (round(r, 3), n) for k, (r, n) in fit.items()}
        print(f"tutor.bots.revealed.{label} is {'this fit' if same else 'NOT this fit'}")
    held = games(args.test_from, args.test_decks)
    print(f"held out: decks {args.test_from}-{args.test_from + args.test_decks - 1}, {len(held)} games, "
          f"{args.draws} draws a decision (95 % intervals over games)")
    for label, opponents, partner, measured in (
        ("rule agent's table for the rule agents, medium's for medium", tables["RULE_AGENT"], tables["MEDIUM"], sizes),
        ("the pooled table for everyone", table, table, []),
    ):
        pools: dict[int, list[float]] = {k: [] for k in measured}
        gains, today, weighted, decisions = evaluate(held, opponents, partner, args.draws, args.every, pools)
        print(f" {label}: {decisions} decisions of our seats")
        print(f"  log-likelihood gain of the true hidden hands, weighted - today: {interval(gains)} nats a decision")
        diff = [w - t for w, t in zip(weighted, today)]
        print(f"  cards in the wrong hand: today {statistics.fmean(today):.3f}, "
              f"weighted {statistics.fmean(weighted):.3f}, difference {interval(diff)}")
        for pool, found in pools.items():
            diff = [f - t for f, t in zip(found, today)]
            print(f"  the bot's sampler (revealed_rates='rule-agent', sample_pool={pool}): {statistics.fmean(found):.3f}"
                  f" cards in the wrong hand, difference from today {interval(diff)}")
    print(f"CPU {time.process_time() - cpu:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
