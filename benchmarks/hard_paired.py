"""Does a change to the hard bot win more?  The same decks played by today's bot and by the changed one.

    .venv/bin/python benchmarks/hard_paired.py --set ATTR=VALUE [--set ...] [--against rlcard|rhcp|medium]
        [--rhcp-dir DIR] [--sides landlord|farmers|both] [--decks 100] [--seed 0] [--progress] [--json]

Each deck is played by the hard bot as it is and by the hard bot with the ``--set`` class attributes changed
(an experiment: e.g. ``--set search_cards=26``), against RLCard's rule agent in RLCard's own environment (the
DouZero protocol of benchmarks/rlcard_arena.py), against RHCP-v2 on RLCard's deals (``--against rhcp
--rhcp-dir DIR``: benchmarks/rhcp_arena.py's games) or against medium on our own deals (``ddz arena``'s).  With
``--sides both`` a deck is played with the seats swapped, as the arena does; a change that only touches the
landlord's play needs only ``--sides landlord`` (the farmers' games are the same move for move).

Printed: each bot's WP (and ADP) on those games, and the paired difference changed − today with its 95 %
interval over decks (the deck is the unit: its games are correlated), the decks that differ each way, and the
CPU time of both runs with the load.  A change is worth keeping only when the interval is clear of 0.
``--progress`` prints each deck's games as they end (a run stopped early still says something); ``--today FILE``
takes today's games from such a file of an earlier (or still running) run of the same decks, against and sides
instead of playing them again (today's bot is deterministic: the same deck gives the same games), so several
changes can be measured against one run of today's bot; its CPU then counts only the decks it had to play.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time

from tutor.bench import rhcp_arena
from tutor.bench.arena import Z95
from tutor.bots import make_bot
from tutor.bots.hard import HardBot
from tutor.engine.game import Game

LANDLORD = 0


#: RHCP-v2's player, loaded by ``main`` for ``--against rhcp``.
RHCP: list[rhcp_arena.AgentFactory] = []


def play(against: str, deck: int, ours_landlord: bool) -> tuple[int, float]:
    """One game: (did our side win, our points: 2 doubled by each bomb, signed)."""
    if against == "rhcp":
        won, bombs = rhcp_arena.play_game(deck, "hard", ours_landlord, RHCP[0], "rlcard")
    elif against == "rlcard":
        from tutor.bench import rlcard_arena

        won, bombs, _ = rlcard_arena.play_game(deck, "hard", ours_landlord)
    else:
        game = Game.with_landlord(deck, LANDLORD)
        ours = [(s == LANDLORD) == ours_landlord for s in range(3)]
        bots = [make_bot("hard" if ours[s] else against, deck) for s in range(3)]
        while not game.is_over:
            game.play(bots[game.to_move].play(game.view(game.to_move)))
        won, bombs = (game.winner == LANDLORD) == ours_landlord, game.bombs_played
    points = 2.0 * (1 << bombs)
    return int(won), points if won else -points


def changed(changes: dict[str, object]) -> dict[str, object]:
    """Set ``changes`` on :class:`HardBot`; the values they replace (to put back)."""
    saved = {name: getattr(HardBot, name) for name in changes}
    for name, value in changes.items():
        setattr(HardBot, name, value)
    return saved


def deck_result(against: str, sides: str, deck: int, changes: dict[str, object]) -> tuple[int, float, float]:
    """One deck (its games by ``sides``) with ``changes``: (wins, points, CPU seconds)."""
    roles = {"landlord": (True,), "farmers": (False,), "both": (True, False)}[sides]
    saved = changed(changes)
    cpu = time.process_time()
    try:
        games = [play(against, deck, r) for r in roles]
    finally:
        changed(saved)
    return sum(w for w, _ in games), sum(p for _, p in games), time.process_time() - cpu


def recorded(path: str, deck: int) -> tuple[int, float, float] | None:
    """Today's games of ``deck`` from a ``--progress`` file (read again each time: it may still be growing)."""
    try:
        with open(path, encoding="utf-8") as lines:
            for line in lines:
                if line.startswith('{"deck": '):
                    row = json.loads(line)
                    if row["deck"] == deck:
                        return int(row["today"][0]), float(row["today"][1]), 0.0
    except OSError:
        return None
    return None


def interval(diffs: list[float]) -> tuple[float, float, float]:
    mean = statistics.fmean(diffs)
    half = Z95 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
    return mean, mean - half, mean + half


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", action="append", default=[], metavar="ATTR=VALUE")
    parser.add_argument("--against", choices=("rlcard", "rhcp", "medium", "easy"), default="rlcard")
    parser.add_argument("--rhcp-dir", help="the directory of RHCP-v2 (with --against rhcp)")
    parser.add_argument("--sides", choices=("landlord", "farmers", "both"), default="landlord")
    parser.add_argument("--decks", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--progress", action="store_true", help="one JSON line a deck as it ends")
    parser.add_argument("--today", metavar="FILE", help="today's games from an earlier --progress run")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    changes: dict[str, object] = {}
    for item in args.set:
        name, _, text = item.partition("=")
        if not hasattr(HardBot, name):
            print(f"HardBot has no attribute {name[:40]!r}", file=sys.stderr)
            return 2
        try:
            changes[name] = json.loads(text)
        except json.JSONDecodeError:
            changes[name] = text
    if args.against == "rhcp":
        try:
            RHCP.append(rhcp_arena.load(args.rhcp_dir or ""))
        except rhcp_arena.RhcpDirError as exc:
            print(exc if args.rhcp_dir else "--against rhcp needs --rhcp-dir", file=sys.stderr)
            return 2
    if args.against in ("rlcard", "rhcp"):
        from tutor.bench import rlcard_arena

        if not rlcard_arena.available():
            print("rlcard is not installed: pip install 'ddz-tutor[arena]'", file=sys.stderr)
            return 2
    decks = range(args.seed, args.seed + args.decks)
    load = os.getloadavg()
    base_w: list[int] = []
    base_p: list[float] = []
    new_w: list[int] = []
    new_p: list[float] = []
    base_cpu = new_cpu = 0.0
    # Deck by deck, today's bot then the changed one: stopped early, the run still gives paired figures
    # on the decks it finished (``--progress`` prints one line a deck).
    for deck in decks:
        earlier = recorded(args.today, deck) if args.today else None
        w, p, c = earlier if earlier is not None else deck_result(args.against, args.sides, deck, {})
        base_w.append(w)
        base_p.append(p)
        base_cpu += c
        w, p, c = deck_result(args.against, args.sides, deck, changes) if changes else (w, p, c)
        new_w.append(w)
        new_p.append(p)
        new_cpu += c
        if args.progress:
            print(json.dumps({"deck": deck, "today": [base_w[-1], base_p[-1]], "changed": [w, p]}), flush=True)
    games = len(decks) * (2 if args.sides == "both" else 1)
    dw = interval([float(b - a) for a, b in zip(base_w, new_w)])
    dp = interval([b - a for a, b in zip(base_p, new_p)])
    per = games / len(decks)
    figures = {
        "changes": changes, "against": args.against, "sides": args.sides, "decks": len(decks), "games": games,
        "wp_today": sum(base_w) / games, "wp_changed": sum(new_w) / games,
        "adp_today": sum(base_p) / games, "adp_changed": sum(new_p) / games,
        "wp_diff": [x / per for x in dw], "adp_diff": [x / per for x in dp],
        "decks_better": sum(b > a for a, b in zip(base_w, new_w)),
        "decks_worse": sum(b < a for a, b in zip(base_w, new_w)),
        "cpu_today": round(base_cpu, 1), "cpu_changed": round(new_cpu, 1),
        "load": [round(load[0], 1), round(os.getloadavg()[0], 1)],
    }
    if args.json:
        print(json.dumps(figures))
        return 0
    print(f"hard {changes} vs today, against {args.against}, {args.sides}: {len(decks)} decks, {games} games "
          f"(decks {args.seed}-{args.seed + args.decks - 1})")
    print(f"  WP  today {figures['wp_today']:.3f}  changed {figures['wp_changed']:.3f}  "
          f"diff {dw[0] / per:+.3f} [{dw[1] / per:+.3f}, {dw[2] / per:+.3f}]  "
          f"decks better {figures['decks_better']}, worse {figures['decks_worse']}")
    print(f"  ADP today {figures['adp_today']:+.3f}  changed {figures['adp_changed']:+.3f}  "
          f"diff {dp[0] / per:+.3f} [{dp[1] / per:+.3f}, {dp[2] / per:+.3f}]")
    print(f"  CPU today {base_cpu:.0f} s, changed {new_cpu:.0f} s; load {load[0]:.1f} -> {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
