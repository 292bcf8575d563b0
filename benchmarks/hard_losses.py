"""Where the hard bot's landlord games are lost: the deciding moment of each, found by the exact solver.

    .venv/bin/python benchmarks/hard_losses.py [--against rlcard|rhcp|medium] [--rhcp-dir DIR] [--decks 100]
        [--seed 0] [--cards 30] [--nodes 100000] [--level hard] [--set ATTR=VALUE ...]
        [--oracle NAME=FILE ...] [--json]

Plays ``--decks`` games with our level as the landlord — against RLCard's rule agent in RLCard's own
environment (``--against rlcard``, the default; needs ``pip install 'ddz-tutor[arena]'``), against two
RHCP-v2 farmers on RLCard's deals (``--against rhcp --rhcp-dir DIR``: tutor/bench/rhcp_arena.py, the games
of benchmarks/rhcp_arena.py) or against two medium farmers on our own deals (``--against medium``, the deals
of ``ddz arena``).  Every game the landlord
loses is then replayed with all hands open: at each landlord decision with at most ``--cards`` cards in play,
the exact solver (at most ``--nodes`` nodes) says whether the landlord still had a win and whether the move it
played kept it.  The first winning position left by a losing move is the deciding moment; the table of causes
counts them by

* the stage: was the bot's own endgame search reached there (``HardBot.search_cards``), or only its rollouts
  (``HardBot.rollout_cards``), or neither;
* the decision: leading or following, and the kind of combination played (or the pass);
* the cards left (the landlord's, and all in play) and the trick number.

A loss with no losing landlord move inside the horizon was already lost when the solver first saw it
("lost earlier"), or the budget did not decide ("unknown").  Full information is used only here, after the
game, to judge it: the bots decided from their views.  ``--set`` changes a class attribute of the hard bot
for the run (an experiment, e.g. ``--set search_cards=26``).

Then the anatomy of the lost decks (tutor/bench/losses.py): the landlord's hand as dealt (plays in the
planner's split, bombs, cards above the ace) on average over won and over lost decks; for each lost deck the
trick it led for the last time (after it, the farmers kept the lead to the end) and the cards it still held
then; and, with ``--oracle NAME=FILE`` (a ``--progress`` file of benchmarks/landlord_ceiling.py on the same
decks: the full-information diagnostic), whether that run won the deck.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import sys
import time
from dataclasses import asdict

from tutor.bench import rhcp_arena
from tutor.bench.losses import BLUNDER, EARLIER, Strength, deciding_moment, last_lead, strength
from tutor.bench.oracle import deck_rows
from tutor.bots import make_bot
from tutor.bots.hard import HardBot
from tutor.engine.game import Game

LANDLORD = 0


def stage(cards: int) -> str:
    """What the hard bot used for a decision with ``cards`` in play."""
    if cards <= HardBot.search_cards:
        return "search"
    if cards <= HardBot.rollout_cards:
        return "rollouts"
    return "judgement"


def landlord_games(
    against: str, level: str, decks: int, seed: int, rhcp: rhcp_arena.AgentFactory | None = None
) -> list[tuple[int, Game, bool]]:
    """(deck, finished game, did our landlord win) for every deck (``rhcp``: RHCP-v2's player, for ``rhcp``)."""
    out = []
    for deck in range(seed, seed + decks):
        games: list[Game] = []
        if against == "rhcp":
            assert rhcp is not None
            won, _ = rhcp_arena.play_game(deck, level, True, rhcp, "rlcard", games=games)
            out.append((deck, games[0], won))
        elif against == "rlcard":
            from tutor.bench import rlcard_arena

            won, _, _ = rlcard_arena.play_game(deck, level, True, games=games)
            out.append((deck, games[0], won))
        else:
            game = Game.with_landlord(deck, LANDLORD)
            bots = [make_bot(level if s == LANDLORD else against, deck) for s in range(3)]
            while not game.is_over:
                game.play(bots[game.to_move].play(game.view(game.to_move)))
            out.append((deck, game, game.winner == LANDLORD))
    return out


def parse_value(text: str) -> object:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def oracle_wins(path: str) -> dict[int, bool]:
    """Did the oracle's game win, by deck, from a ``--progress`` file of benchmarks/landlord_ceiling.py."""
    return {deck: bool(row["oracle"][0]) for deck, row in deck_rows(path).items()}


def mean_strength(hands: list[Strength]) -> str:
    """Plays, bombs, high cards and plan score on average over ``hands``."""
    if not hands:
        return "-"
    n = len(hands)
    return (f"plays {sum(h.plays for h in hands) / n:.2f}, bombs {sum(h.bombs for h in hands) / n:.2f}, "
            f"2s+jokers {sum(h.high for h in hands) / n:.2f}, plan score {sum(h.score for h in hands) / n:.1f}")


def anatomy(played: list[tuple[int, Game, bool]], oracles: dict[str, dict[int, bool]]) -> None:
    """Print the hands of won and lost decks, and each lost deck's last lead and the oracles' results."""
    hands = {deck: strength(game) for deck, game, _ in played}
    won = [hands[d] for d, _, w in played if w]
    lost = [(d, g) for d, g, w in played if not w]
    print(f"\nthe landlord's hand as dealt, won decks ({len(won)}): {mean_strength(won)}")
    print(f"the landlord's hand as dealt, lost decks ({len(lost)}): {mean_strength([hands[d] for d, _ in lost])}")
    if not lost:
        return
    names = list(oracles)
    print(f"\n{'deck':>5} {'plays':>5} {'bombs':>5} {'high':>4} {'last lead':>9} {'of':>3} {'LL left':>7} "
          + " ".join(f"{n:>10}" for n in names))
    for deck, game in lost:
        h, last = hands[deck], last_lead(game)
        marks = " ".join(f"{'won' if oracles[n].get(deck) else ('lost' if deck in oracles[n] else '?'):>10}"
                         for n in names)
        print(f"{deck:>5} {h.plays:>5} {h.bombs:>5} {h.high:>4} {last.trick:>9} {last.tricks:>3} "
              f"{last.cards_left:>7} {marks}")
    for name in names:
        wins = sum(1 for d, _ in lost if oracles[name].get(d))
        print(f"{name}: wins {wins} of the {len(lost)} lost decks")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", choices=("rlcard", "rhcp", "medium", "easy", "hard"), default="rlcard")
    parser.add_argument("--rhcp-dir", help="the directory of RHCP-v2 (with --against rhcp)")
    parser.add_argument("--level", default="hard")
    parser.add_argument("--decks", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cards", type=int, default=30, help="solve landlord decisions with at most this many cards in play")
    parser.add_argument("--nodes", type=int, default=100_000, help="node budget of each exact solve")
    parser.add_argument("--set", action="append", default=[], metavar="ATTR=VALUE")
    parser.add_argument("--oracle", action="append", default=[], metavar="NAME=FILE",
                        help="a --progress file of benchmarks/landlord_ceiling.py on the same decks")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    try:
        oracles = {name: oracle_wins(path) for name, _, path in (o.partition("=") for o in args.oracle)}
    except (OSError, ValueError, KeyError) as exc:
        print(f"--oracle: {str(exc)[:60]}", file=sys.stderr)
        return 2
    for item in args.set:
        name, _, value = item.partition("=")
        if not hasattr(HardBot, name):
            print(f"HardBot has no attribute {name[:40]!r}", file=sys.stderr)
            return 2
        setattr(HardBot, name, parse_value(value))
    rhcp = None
    if args.against == "rhcp":
        try:
            rhcp = rhcp_arena.load(args.rhcp_dir or "")
        except rhcp_arena.RhcpDirError as exc:
            print(exc if args.rhcp_dir else "--against rhcp needs --rhcp-dir", file=sys.stderr)
            return 2
    if args.against in ("rlcard", "rhcp"):
        from tutor.bench import rlcard_arena

        if not rlcard_arena.available():
            print("rlcard is not installed: pip install 'ddz-tutor[arena]'", file=sys.stderr)
            return 2
    load = os.getloadavg()
    cpu = time.process_time()
    played = landlord_games(args.against, args.level, args.decks, args.seed, rhcp)
    play_cpu = time.process_time() - cpu
    lost = [(deck, game) for deck, game, won in played if not won]
    moments = [deciding_moment(game, deck, args.cards, args.nodes) for deck, game in lost]
    total_cpu = time.process_time() - cpu
    wins = len(played) - len(lost)
    if args.json:
        print(json.dumps({"decks": len(played), "landlord_wins": wins,
                          "moments": [{**asdict(m), "stage": stage(m.cards_in_play)} for m in moments]}))
        return 0
    print(f"{args.level} as landlord against {args.against}: {wins}/{len(played)} won "
          f"(decks {args.seed}-{args.seed + args.decks - 1}); {len(lost)} lost games replayed by the solver "
          f"(landlord decisions with <= {args.cards} cards in play, {args.nodes:,} nodes each)")
    causes = collections.Counter(
        (m.verdict, stage(m.cards_in_play), m.decision, m.kind) if m.verdict == BLUNDER else (m.verdict, "", "", "")
        for m in moments
    )
    print(f"\n{'verdict':<13} {'stage':<10} {'decision':<8} {'kind':<17} games")
    for (verdict, where, decision, kind), n in causes.most_common():
        print(f"{verdict:<13} {where:<10} {decision:<8} {kind:<17} {n:>5}")
    blunders = [m for m in moments if m.verdict == BLUNDER]
    if blunders:
        print(f"\n{'deck':>5} {'trick':>5} {'LL':>3} {'all':>4} {'stage':<10} played -> winning instead")
        for m in blunders:
            print(f"{m.deck:>5} {m.trick:>5} {m.landlord_cards:>3} {m.cards_in_play:>4} {stage(m.cards_in_play):<10} "
                  f"{m.move} -> {m.winning}")
    earlier = [m for m in moments if m.verdict == EARLIER and m.cards_in_play]
    if earlier:
        print(f"\nlost earlier: already lost at the first solved decision, cards in play "
              f"{sorted(m.cards_in_play for m in earlier)}")
    anatomy(played, oracles)
    print(f"\nCPU {play_cpu:.0f} s playing, {total_cpu - play_cpu:.0f} s solving; "
          f"load {load[0]:.1f} -> {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
