"""Are the hard bot's play-outs right?  Their estimate of the move they chose against how the game ended.

    .venv/bin/python benchmarks/playout_calibration.py [--sides landlord|farmers] [--decks 200] [--seed 600]
        [--set ATTR=VALUE ...] [--buckets 10] [--progress]

Each deck is played against RLCard's rule agent in RLCard's own environment (benchmarks/rlcard_arena.py's
games; hard as the landlord, or as both farmers).  Every played-out decision (the early game:
:func:`tutor.bots.rollout.best_by_playouts`) reports, through :attr:`HardBot.playout_observer`, the share of
its sampled deals the chosen move won for the bot's side — the play-outs' estimate of the game's result — and
the game's actual result is then given to each of its decisions.  If the simulated players (the compiled quick
policy for all three seats, or the variant ``--set landlord_playout_opponents=lowest`` names) played like the
real opponents, a decision estimated at 0.7 would be in a game won 70 % of the time.

Printed: the calibration table (estimate bucket → decisions, their mean estimate, the actual win rate), the
mean bias (estimate − result) with its 95 % interval over decks (a deck's decisions share one result: the deck
is the unit), the same by the stage of the game (cards in play), and the bias of the heuristic's own move's
estimate (the first candidate, not picked for its luck as the chosen one may be); how often each play-out
variant (:data:`tutor.solver.playout.VARIANTS`) makes the move the rule agent made, from the agent's seat's
view; CPU seconds and the load.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from dataclasses import dataclass

from tutor.bench.arena import Z95
from tutor.bots.hard import HardBot
from tutor.bots.rollout import Move
from tutor.engine.game import Game
from tutor.engine.view import PlayerView

#: Stages of the game by the cards still in play at the decision (the played-out ones are above the search's
#: horizon of 20).
STAGES = ((41, 54), (31, 40), (21, 30))


@dataclass(frozen=True)
class Decision:
    """One played-out decision: its deck, cards in play, the chosen move's and the heuristic's estimates."""

    deck: int
    cards: int
    chosen: float
    heuristic: float
    switched: bool


def parse_sets(items: list[str]) -> dict[str, object] | str:
    """``--set ATTR=VALUE`` as HardBot's attributes (JSON values, else text), or the error line."""
    changes: dict[str, object] = {}
    for item in items:
        name, _, text = item.partition("=")
        if not hasattr(HardBot, name):
            return f"HardBot has no attribute {name[:40]!r}"
        try:
            changes[name] = json.loads(text)
        except json.JSONDecodeError:
            changes[name] = text
    return changes


def agreement(game: Game, seats: list[int]) -> dict[str, list[int]]:
    """How often each play-out variant would have made the move the rule agent made at ``seats``:
    [same, decisions] by variant, the finished ``game`` taken back to its first play and replayed."""
    from tutor.solver.playout import VARIANTS, choose

    moves = [turn.play for turn in game.history]
    for _ in moves:
        game.pop()
    counts = {name: [0, 0] for name in VARIANTS}
    for move in moves:
        if game.to_move in seats:
            view = game.view(game.to_move)
            for name, tally in counts.items():
                tally[0] += choose(view, name) == move
                tally[1] += 1
        game.push(move)
    return counts


def deck_decisions(deck: int, landlord: bool, fidelity: dict[str, list[int]]) -> tuple[list[Decision], bool]:
    """Play ``deck`` (hard as the landlord or as both farmers): its played-out decisions and whether hard won;
    the rule agent's moves compared with the play-out variants' are added to ``fidelity``."""
    from tutor.bench import rlcard_arena

    found: list[Decision] = []

    def observe(view: PlayerView, candidates: list[Move], results: list[list[bool]], best: int) -> None:
        found.append(Decision(
            deck, sum(view.card_counts), sum(results[best]) / len(results[best]),
            sum(results[0]) / len(results[0]), best != 0,
        ))

    HardBot.playout_observer = observe
    games: list[Game] = []
    try:
        won, _, _ = rlcard_arena.play_game(deck, "hard", landlord, games=games)
    finally:
        HardBot.playout_observer = None
    theirs = [s for s in range(3) if (s == rlcard_arena.RLCARD_LANDLORD) != landlord]
    for name, (same, total) in agreement(games[0], theirs).items():
        fidelity.setdefault(name, [0, 0])
        fidelity[name][0] += same
        fidelity[name][1] += total
    return found, won


def mean_interval(values: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95 % interval."""
    if not values:
        return math.nan, math.nan
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return statistics.fmean(values), half


def deck_bias(rows: list[tuple[Decision, bool]], estimate: str) -> tuple[float, float, int]:
    """Mean bias (estimate − result) over decks (each deck's decisions averaged first), its half-width, decks."""
    by_deck: dict[int, list[float]] = {}
    for d, won in rows:
        by_deck.setdefault(d.deck, []).append(getattr(d, estimate) - won)
    mean, half = mean_interval([statistics.fmean(v) for v in by_deck.values()])
    return mean, half, len(by_deck)


def report(rows: list[tuple[Decision, bool]], buckets: int) -> None:
    """The calibration table, the biases and the stages."""
    print(f"  {'estimate':>11}  {'decisions':>9}  {'mean est.':>9}  {'actual WP':>9}")
    for b in range(buckets):
        low, high = b / buckets, (b + 1) / buckets
        inside = [(d, w) for d, w in rows if low <= d.chosen < high or (b == buckets - 1 and d.chosen == 1.0)]
        if not inside:
            continue
        est = statistics.fmean(d.chosen for d, _ in inside)
        actual = statistics.fmean(float(w) for _, w in inside)
        print(f"  {low:.1f}-{high:.1f}  {len(inside):>9}  {est:>9.3f}  {actual:>9.3f}")
    for name, label in (("chosen", "chosen move"), ("heuristic", "heuristic's move")):
        mean, half, decks = deck_bias(rows, name)
        print(f"  bias of the {label}'s estimate (estimate - result, over {decks} decks): "
              f"{mean:+.3f} [{mean - half:+.3f}, {mean + half:+.3f}]")
    switched = [(d, w) for d, w in rows if d.switched]
    print(f"  decisions {len(rows)}, switched from the heuristic's move {len(switched)}")
    for low, high in STAGES:
        inside = [(d, w) for d, w in rows if low <= d.cards <= high]
        if inside:
            mean, half, decks = deck_bias(inside, "chosen")
            est = statistics.fmean(d.chosen for d, _ in inside)
            actual = statistics.fmean(float(w) for _, w in inside)
            print(f"  cards in play {low}-{high}: {len(inside)} decisions, estimate {est:.3f}, actual {actual:.3f}, "
                  f"bias {mean:+.3f} [{mean - half:+.3f}, {mean + half:+.3f}]")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", action="append", default=[], metavar="ATTR=VALUE")
    parser.add_argument("--sides", choices=("landlord", "farmers"), default="landlord")
    parser.add_argument("--decks", type=int, default=200)
    parser.add_argument("--seed", type=int, default=600)
    parser.add_argument("--buckets", type=int, default=10)
    parser.add_argument("--progress", action="store_true", help="one JSON line a deck as it ends")
    args = parser.parse_args(argv)
    changes = parse_sets(args.set)
    if isinstance(changes, str):
        print(changes, file=sys.stderr)
        return 2
    from tutor.bench import rlcard_arena

    if not rlcard_arena.available():
        print("rlcard is not installed: pip install 'ddz-tutor[arena]'", file=sys.stderr)
        return 2
    if args.buckets < 1 or args.decks < 1:
        print("--buckets and --decks must be at least 1", file=sys.stderr)
        return 2
    for name, value in changes.items():
        setattr(HardBot, name, value)
    load = os.getloadavg()
    cpu = time.process_time()
    rows: list[tuple[Decision, bool]] = []
    fidelity: dict[str, list[int]] = {}
    wins = 0
    for deck in range(args.seed, args.seed + args.decks):
        decisions, won = deck_decisions(deck, args.sides == "landlord", fidelity)
        wins += won
        rows += [(d, won) for d in decisions]
        if args.progress:
            print(json.dumps({"deck": deck, "won": won, "estimates": [round(d.chosen, 3) for d in decisions]}),
                  flush=True)
    print(f"play-out calibration, hard {changes} as the {args.sides} against rlcard: {args.decks} decks "
          f"({args.seed}-{args.seed + args.decks - 1}), WP {wins / args.decks:.3f}")
    if rows:
        report(rows, args.buckets)
    print("  the rule agent's moves that each play-out variant would have made (its seats' view): " + ", ".join(
        f"{name} {same / total:.3f}" for name, (same, total) in fidelity.items() if total
    ) + f" of {max(total for _, total in fidelity.values())} decisions")
    print(f"  CPU {time.process_time() - cpu:.0f} s; load {load[0]:.1f} -> {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
