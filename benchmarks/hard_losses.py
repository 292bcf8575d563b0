"""Where the hard bot's games are lost: the deciding moment of each, found by the exact solver.

    .venv/bin/python benchmarks/hard_losses.py [--side landlord|farmers] [--against rlcard|rhcp|medium]
        [--rhcp-dir DIR] [--decks 100] [--seed 0] [--cards 30] [--nodes 100000] [--level hard]
        [--set ATTR=VALUE ...] [--today FILE] [--oracle NAME=FILE ...] [--redecide NAME:ATTR=VALUE[,...] ...] [--json]

Plays ``--decks`` games with our level as the landlord (``--side farmers``: as both farmers, the other side's
landlord against them) — against RLCard's rule agent in RLCard's own
environment (``--against rlcard``, the default; needs ``pip install 'ddz-tutor[arena]'``), against two
RHCP-v2 farmers on RLCard's deals (``--against rhcp --rhcp-dir DIR``: tutor/bench/rhcp_arena.py, the games
of benchmarks/rhcp_arena.py) or against two medium farmers on our own deals (``--against medium``, the deals
of ``ddz arena``).  Every game the landlord
loses is then replayed with all hands open: at each landlord decision with at most ``--cards`` cards in play,
the exact solver (at most ``--nodes`` nodes) says whether the landlord still had a win and whether the move it
played kept it.  The first winning position left by a losing move is the deciding moment; the table of causes
counts them by

* the stage: was the bot's own endgame search reached there (``HardBot.search_cards``), or only its rollouts
  (``HardBot.rollout_cards``), or neither; a farmer's: its team search (``HardBot.farmer_horizon``), its
  play-outs (``HardBot.farmer_playout_cards``) or neither;
* the decision: leading or following, and the kind of combination played (or the pass);
* the farmers': which farmer erred, the one who plays right after the landlord or the one just before it;
* the cards left (the landlord's, the erring farmer's, and all in play) and the trick number.

With ``--side farmers`` the farmers' decisions are judged, either farmer's move, the team's win counted: with
open hands the team's won position stays won until one of the two errs.  For a blunder the hard bot made at a
rolled- or played-out decision the list says whether a winning move was among the candidates it weighed and
whether it played the heuristic's choice or the look-ahead's alternative (:func:`looked_at`).  ``--today FILE``
(a benchmarks/hard_paired.py ``--progress`` file of the same decks, side and opponents) counts the decks
today's bot won there as won without playing them: only the lost ones are played and judged.

``--redecide NAME:ATTR=VALUE[,ATTR=VALUE]`` (repeatable; round 14) judges a setting on today's blunders without
playing a deck again: at each blunder the erring seat's view is rebuilt, the hard bot with those class attributes
decides from it, and the list says whether that move is one of the solver's winning moves; a tally follows
(:func:`tutor.bench.losses.redecided`).  ``today`` (no change) is always the first column: it plays the blunder
again, so it should count none — a check that the view rebuilt is the one the game's bot saw.

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
from tutor.bench.losses import (
    BLUNDER, EARLIER, Moment, Strength, deciding_moment, last_lead, redecided, replay_to, strength, winning_moves,
)
from tutor.bench.oracle import deck_rows
from tutor.bots import make_bot
from tutor.bots.hard import HardBot
from tutor.engine.game import Game

LANDLORD = 0


def stage(cards: int, side: str = "landlord") -> str:
    """What the hard bot used for a decision of ``side`` with ``cards`` in play."""
    if side == "farmers":
        if cards <= HardBot().farmer_horizon():
            return "search"
        if cards <= HardBot.farmer_playout_cards:
            return "play-outs"
        return "judgement"
    if cards <= HardBot.search_cards:
        return "search"
    if cards <= HardBot.rollout_cards:
        return "rollouts"
    return "judgement"


def won_decks(path: str) -> frozenset[int]:
    """The decks whose today's game a benchmarks/hard_paired.py ``--progress`` file of one side records as won."""
    won = set()
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            if line.startswith('{"deck": '):
                row = json.loads(line)
                deck, wins = row["deck"], row["today"][0]
                if not isinstance(deck, int) or wins not in (0, 1):
                    raise ValueError(f"not a game of one side: {line[:40]!r}")
                if wins == 1:
                    won.add(deck)
    return frozenset(won)


def played_games(
    against: str, level: str, decks: int, seed: int, rhcp: rhcp_arena.AgentFactory | None = None,
    side: str = "landlord", known: frozenset[int] = frozenset(),
) -> list[tuple[int, Game | None, bool]]:
    """(deck, finished game, did our side win) for every deck, our level playing ``side``
    (``rhcp``: RHCP-v2's player, for ``rhcp``); the decks in ``known`` are counted won without playing them."""
    ours_landlord = side == "landlord"
    out: list[tuple[int, Game | None, bool]] = []
    for deck in range(seed, seed + decks):
        if deck in known:
            out.append((deck, None, True))
            continue
        games: list[Game] = []
        if against == "rhcp":
            assert rhcp is not None
            won, _ = rhcp_arena.play_game(deck, level, ours_landlord, rhcp, "rlcard", games=games)
            out.append((deck, games[0], won))
        elif against == "rlcard":
            from tutor.bench import rlcard_arena

            won, _, _ = rlcard_arena.play_game(deck, level, ours_landlord, games=games)
            out.append((deck, games[0], won))
        else:
            game = Game.with_landlord(deck, LANDLORD)
            bots = [make_bot(level if (s == LANDLORD) == ours_landlord else against, deck) for s in range(3)]
            while not game.is_over:
                game.play(bots[game.to_move].play(game.view(game.to_move)))
            out.append((deck, game, (game.winner == LANDLORD) == ours_landlord))
    return out


def looked_at(game: Game, m: Moment, level: str, nodes: int) -> str:
    """For a blunder of the hard bot at a rolled- or played-out decision: were the winning moves among the
    moves it weighed ("won in list" or "won not in list"), and did the look-ahead overturn the heuristic's
    choice ("look-ahead's pick") or keep it ("heuristic's pick")?  "" elsewhere.

    The candidates are rebuilt from the decision's view, as the bot built them (its seed is the deck's, as in
    the arenas); which of them the look-ahead preferred is read from the move actually played.
    """
    bot = make_bot(level, m.deck)
    if m.verdict != BLUNDER or not isinstance(bot, HardBot):
        return ""
    replay = replay_to(game, m.turn)
    view = replay.view(replay.to_move)
    heuristic = bot.heuristic_play(view)
    if bot.should_search(view):
        return ""
    if bot.should_play_out(view):
        weighed = bot.playout_candidates(view, heuristic)
    elif bot.should_roll_out(view):
        weighed = bot.candidates(view, heuristic)
    else:
        return ""
    winning = winning_moves(replay, nodes) or []
    played = game.history[m.turn].play
    listed = "won in list" if any(w in weighed for w in winning) else "won not in list"
    return f"{listed}, {'heuristic' if played == heuristic else 'look-ahead'}'s pick"


def cause(m: Moment, side: str) -> tuple[str, str, str, str, str]:
    """The row of the table of causes a moment counts in: verdict, stage, farmer, decision, kind."""
    if m.verdict != BLUNDER:
        return (m.verdict, "", "", "", "")
    return (m.verdict, stage(m.cards_in_play, side), m.farmer, m.decision, m.kind)


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


def parse_setting(text: str) -> tuple[str, dict[str, object]]:
    """``NAME:ATTR=VALUE[,ATTR=VALUE]`` as (NAME, {ATTR: VALUE}); an unknown attribute raises ValueError."""
    name, sep, rest = text.partition(":")
    if not sep or not name:
        raise ValueError(f"not NAME:ATTR=VALUE: {text[:40]!r}")
    changes: dict[str, object] = {}
    for item in rest.split(","):
        attr, _, value = item.partition("=")
        if not hasattr(HardBot, attr):
            raise ValueError(f"HardBot has no attribute {attr[:40]!r}")
        changes[attr] = parse_value(value)
    return name, changes


def redecide_all(
    game: Game, m: Moment, settings: list[tuple[str, dict[str, object]]], level: str, nodes: int,
) -> dict[str, bool | None]:
    """For each setting, does the bot with it play a winning move at the blunder ``m`` (None: not a blunder)?"""
    out: dict[str, bool | None] = {}
    for name, changes in settings:
        saved = {attr: getattr(HardBot, attr) for attr in changes}
        for attr, value in changes.items():
            setattr(HardBot, attr, value)
        try:
            out[name] = redecided(game, m, make_bot(level, m.deck).play, nodes)
        finally:
            for attr, value in saved.items():
                setattr(HardBot, attr, value)
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", choices=("rlcard", "rhcp", "medium", "easy", "hard"), default="rlcard")
    parser.add_argument("--rhcp-dir", help="the directory of RHCP-v2 (with --against rhcp)")
    parser.add_argument("--side", choices=("landlord", "farmers"), default="landlord",
                        help="whose losses: our level as the landlord, or as both farmers")
    parser.add_argument("--level", default="hard")
    parser.add_argument("--decks", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cards", type=int, default=30, help="solve our side's decisions with at most this many cards in play")
    parser.add_argument("--nodes", type=int, default=100_000, help="node budget of each exact solve")
    parser.add_argument("--set", action="append", default=[], metavar="ATTR=VALUE")
    parser.add_argument("--today", metavar="FILE",
                        help="a hard_paired.py --progress file of the same decks, side and against: the decks "
                             "today's bot won there are not played again (only without --set)")
    parser.add_argument("--oracle", action="append", default=[], metavar="NAME=FILE",
                        help="a --progress file of benchmarks/landlord_ceiling.py on the same decks")
    parser.add_argument("--redecide", action="append", default=[], metavar="NAME:ATTR=VALUE[,ATTR=VALUE]",
                        help="at each blunder, would the bot with these settings play a winning move?")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    try:
        settings: list[tuple[str, dict[str, object]]] = (
            [("today", {})] + [parse_setting(text) for text in args.redecide] if args.redecide else []
        )
    except ValueError as exc:
        print(f"--redecide: {exc}", file=sys.stderr)
        return 2
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
    side = args.side
    try:
        known = won_decks(args.today) if args.today else frozenset()
    except (OSError, ValueError, KeyError, IndexError, TypeError):
        print(f"cannot read the games of {args.today[:40]!r}", file=sys.stderr)
        return 2
    if known and (args.set or args.level != "hard"):
        print("--today holds today's hard bot: not with --set or --level", file=sys.stderr)
        return 2
    played = played_games(args.against, args.level, args.decks, args.seed, rhcp, side, known)
    play_cpu = time.process_time() - cpu
    lost = [(deck, game) for deck, game, won in played if not won and game is not None]
    moments = [deciding_moment(game, deck, args.cards, args.nodes, side) for deck, game in lost]
    looks = [looked_at(game, m, args.level, args.nodes) for (_, game), m in zip(lost, moments)]
    again = [redecide_all(game, m, settings, args.level, args.nodes) if m.verdict == BLUNDER else {}
             for (_, game), m in zip(lost, moments)]
    total_cpu = time.process_time() - cpu
    wins = len(played) - len(lost)
    if args.json:
        print(json.dumps({"side": side, "decks": len(played), "wins": wins,
                          **({"landlord_wins": wins} if side == "landlord" else {}),
                          "moments": [{**asdict(m), "stage": stage(m.cards_in_play, side), "looked_at": look,
                                       **({"redecided": redo} if redo else {})}
                                      for m, look, redo in zip(moments, looks, again)]}))
        return 0
    whose = "landlord" if side == "landlord" else "farmer"
    print(f"{args.level} as {'landlord' if side == 'landlord' else 'both farmers'} against {args.against}: "
          f"{wins}/{len(played)} won (decks {args.seed}-{args.seed + args.decks - 1}); {len(lost)} lost games "
          f"replayed by the solver ({whose} decisions with <= {args.cards} cards in play, {args.nodes:,} nodes each)")
    causes = collections.Counter(cause(m, side) for m in moments)
    print(f"\n{'verdict':<13} {'stage':<10} {'farmer':<7} {'decision':<8} {'kind':<17} games")
    for (verdict, where, farmer, decision, kind), n in causes.most_common():
        print(f"{verdict:<13} {where:<10} {farmer:<7} {decision:<8} {kind:<17} {n:>5}")
    blunders = [m for m in moments if m.verdict == BLUNDER]
    if blunders:
        print(f"\n{'deck':>5} {'trick':>5} {'LL':>3} {'F':>3} {'all':>4} {'stage':<10} {'farmer':<7} "
              f"played -> winning instead")
        for m, look in zip(moments, looks):
            if m.verdict == BLUNDER:
                print(f"{m.deck:>5} {m.trick:>5} {m.landlord_cards:>3} {m.farmer_cards or '':>3} {m.cards_in_play:>4} "
                      f"{stage(m.cards_in_play, side):<10} {m.farmer:<7} {m.move} -> {m.winning}"
                      + (f"  ({look})" if look else ""))
    if settings and blunders:
        print(f"\nredecided at the {len(blunders)} blunders (W: a winning move, l: a losing one, ?: not decided)")
        print(f"{'deck':>5} {'turn':>4} " + " ".join(f"{name:>10}" for name, _ in settings))
        for m, redo in zip(moments, again):
            if m.verdict == BLUNDER:
                marks = ("?" if redo[n] is None else "W" if redo[n] else "l" for n, _ in settings)
                print(f"{m.deck:>5} {m.turn:>4} " + " ".join(f"{mark:>10}" for mark in marks))
        print(f"{'won':>10} " + " ".join(f"{sum(1 for r in again if r.get(n)):>10}" for n, _ in settings))
    earlier = [m for m in moments if m.verdict == EARLIER and m.cards_in_play]
    if earlier:
        print(f"\nlost earlier: already lost at the first solved decision, cards in play "
              f"{sorted(m.cards_in_play for m in earlier)}")
    if side == "landlord":  # the landlord's hand as dealt; decks --today counted won were not played
        anatomy([(deck, game, won) for deck, game, won in played if game is not None], oracles)
    print(f"\nCPU {play_cpu:.0f} s playing, {total_cpu - play_cpu:.0f} s solving; "
          f"load {load[0]:.1f} -> {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
