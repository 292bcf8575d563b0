"""How much is there to gain as landlord?  Today's hard landlord against the same bot given the TRUE hidden hands.

    .venv/bin/python benchmarks/landlord_ceiling.py [--side landlord|farmers] [--decks 200] [--seed 600] [--set ATTR=VALUE ...]
        [--only search|playouts|nudged ...] [--sampled]
        [--model quick|rule-agent] [--today FILE [--lost]] [--progress] [--json]

A FULL-INFORMATION DIAGNOSTIC, NOT A BOT.  Each deck is played with hard as the landlord against RLCard's rule
agent in RLCard's own environment (tutor/bench/rlcard_arena.py, the games of benchmarks/hard_paired.py), once by
today's bot and once by the *oracle*: the same bot with the same budgets, except that every hidden deal its search,
play-outs and rollouts sample is the real one (tutor/bench/oracle.py).  Our bots never do this in play (during
play, only the view speaks); here it measures, after the fact, what the hidden cards cost the landlord:

* decks the oracle wins and today's bot loses: lost to the hidden cards (an information/inference gap);
* decks both lose: lost by the decision procedure, or not winnable against these farmers (more search
  for the oracle, e.g. ``--set landlord_search_cards=30 --set landlord_node_budget=200000``, tells which);
* decks today's bot wins and the oracle loses: luck of the guess (the procedure errs even with the truth).

``--only`` gives the true deal to one look-ahead only (``search``: the exact endgame search; ``playouts``: the
play-outs' and rollouts' deals; ``nudged``: deals nudged towards the others' plays); ``--sampled`` to none (a
control: today's bot with the ``--set``/``--model`` changes).  ``--model rule-agent`` makes RLCard's rule agent
itself the farmers of the landlord's play-outs (tutor/bench/rule_agent_model.py: the model of the opponents;
the quick policy stays the landlord there); ``--model rule-agent-nudged`` also nudges the play-outs' sampled
deals towards deals in which the farmers' past plays are the agent's (with ``--set playout_steps=N`` swaps).  ``--lost`` plays only the decks today's bot lost (which of them
the variant wins: its WP is then over those decks only).
``--set`` changes a class attribute of the hard bot for the variant's games only (today's stay as they are).
With the true deal every sample is the same deal, and the compiled play-out is deterministic, so more play-out
deals change nothing for the oracle; more candidates or an earlier exact search do.  ``--today FILE`` reads
today's games from a ``--progress`` file of benchmarks/hard_paired.py (or of this script) on the same decks
instead of playing them again.  Printed: both WPs, the paired difference oracle − today with its 95 % interval
over decks, the decks of each kind, and the CPU of both runs with the load.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from contextlib import ExitStack

from tutor.bench import rlcard_arena
from tutor.bench.arena import Z95
from tutor.bench.oracle import SAMPLING_MODULES, TrueDeal, deck_rows, oracle_sampling
from tutor.bench.rule_agent_model import rule_agent_playouts
from tutor.bots.hard import HardBot

Result = tuple[int, float]


#: The look-aheads that get the true deal (``--only``: all by default; none with ``--sampled``).
WHERE: list[tuple[str, ...]] = [tuple(SAMPLING_MODULES)]
#: The play-outs' farmers: "quick" (today's), "rule-agent" or "rule-agent-nudged" (``--model``).
MODEL: list[str] = ["quick"]
#: Hard's side (``--side``, round 9): the landlord, or both farmers against the rule agent's landlord (the oracle
#: hands each farmer the other two hands; the play-outs' landlord is set with ``--set farmer_playout_opponents=``).
SIDE: list[str] = ["landlord"]


def landlord_game(deck: int, truth: TrueDeal | None) -> Result:
    """Hard as the landlord on ``deck``: (won, signed points: 2 doubled by each bomb); the variant's with
    ``truth`` (the true deals in :data:`WHERE`, the rule agent in the play-outs with :data:`MODEL`)."""
    if truth is None:
        won, bombs, _ = rlcard_arena.play_game(deck, "hard", SIDE[0] == "landlord")
    else:
        with ExitStack() as stack:
            stack.enter_context(oracle_sampling(truth, WHERE[0]))
            if MODEL[0] != "quick":
                stack.enter_context(rule_agent_playouts(nudged=MODEL[0] == "rule-agent-nudged"))
            won, bombs, _ = rlcard_arena.play_game(deck, "hard", SIDE[0] == "landlord", watch=truth.watch)
    points = 2.0 * (1 << bombs)
    return int(won), points if won else -points


def with_changes(changes: dict[str, object], deck: int, truth: TrueDeal | None) -> Result:
    """:func:`landlord_game` with ``changes`` set on :class:`HardBot` for this game only."""
    saved = {name: getattr(HardBot, name) for name in changes}
    try:
        for name, value in changes.items():
            setattr(HardBot, name, value)
        return landlord_game(deck, truth)
    finally:
        for name, value in saved.items():
            setattr(HardBot, name, value)


def recorded(path: str) -> dict[int, Result]:
    """Today's games by deck from a ``--progress`` file (``{"deck": n, "today": [won, points], ...}`` lines)."""
    return {deck: (int(row["today"][0]), float(row["today"][1])) for deck, row in deck_rows(path).items()}


def paired(diffs: list[float]) -> tuple[float, float, float]:
    """Mean of the per-deck differences and its 95 % interval (the deck is the unit)."""
    mean = statistics.fmean(diffs)
    half = Z95 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
    return mean, mean - half, mean + half


def parse_changes(items: list[str]) -> dict[str, object]:
    """``ATTR=VALUE`` pairs (the value read as JSON when it is JSON, else as text).

    Raises:
        ValueError: For an attribute :class:`HardBot` does not have.
    """
    changes: dict[str, object] = {}
    for item in items:
        name, _, text = item.partition("=")
        if not hasattr(HardBot, name):
            raise ValueError(f"HardBot has no attribute {name[:40]!r}")
        try:
            changes[name] = json.loads(text)
        except json.JSONDecodeError:
            changes[name] = text
    return changes


def label(changes: dict[str, object], model: str) -> str:
    """What the variant is, in the printed report."""
    where = "+".join(WHERE[0])
    parts = [f"the FULL-INFORMATION oracle (true deals in {where})" if where else "sampled deals as today"]
    if model != "quick":
        parts.append(f"play-outs against the {model}")
    if changes:
        parts.append(str(changes))
    return ", ".join(parts) + " (a diagnostic, not a bot)"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=200)
    parser.add_argument("--seed", type=int, default=600)
    parser.add_argument("--set", action="append", default=[], metavar="ATTR=VALUE", help="for the oracle's games")
    parser.add_argument("--only", choices=tuple(SAMPLING_MODULES), action="append",
                        help="the true deal for this look-ahead only (repeatable; default: all)")
    parser.add_argument("--sampled", action="store_true", help="no true deals (with --model: the model alone)")
    parser.add_argument("--model", choices=("quick", "rule-agent", "rule-agent-nudged"), default="quick",
                        help="who plays the farmers in the landlord's play-outs (default: the quick policy, as today)")
    parser.add_argument("--side", choices=("landlord", "farmers"), default="landlord",
                        help="hard's side (farmers: both farmers; --model must stay quick, use --set farmer_playout_opponents=)")
    parser.add_argument("--today", metavar="FILE", help="today's games from a --progress file of the same decks")
    parser.add_argument("--lost", action="store_true",
                        help="only the decks today's bot lost (with --today): which of them the variant wins")
    parser.add_argument("--progress", action="store_true", help="one JSON line a deck as it ends")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    try:
        changes = parse_changes(args.set)
        earlier = recorded(args.today) if args.today else {}
    except (ValueError, OSError) as exc:
        print(str(exc)[:80], file=sys.stderr)
        return 2
    if not rlcard_arena.available():
        print("rlcard is not installed: pip install 'ddz-tutor[arena]'", file=sys.stderr)
        return 2
    if args.only:
        WHERE[0] = tuple(args.only)
    if args.sampled:
        WHERE[0] = ()
    MODEL[0] = args.model
    SIDE[0] = args.side
    if args.side == "farmers" and args.model != "quick":
        print("--model sets the landlord's play-outs only: with --side farmers use --set farmer_playout_opponents=",
              file=sys.stderr)
        return 2
    if args.lost and not earlier:
        print("--lost needs --today FILE", file=sys.stderr)
        return 2
    decks = [d for d in range(args.seed, args.seed + args.decks) if not args.lost or not earlier.get(d, (1, 0.0))[0]]
    if not decks:
        print("no deck to play", file=sys.stderr)
        return 2
    load = os.getloadavg()
    today: list[Result] = []
    oracle: list[Result] = []
    today_cpu = oracle_cpu = 0.0
    truth = TrueDeal()
    for deck in decks:
        cpu = time.process_time()
        today.append(earlier[deck] if deck in earlier else landlord_game(deck, None))
        today_cpu += time.process_time() - cpu
        cpu = time.process_time()
        oracle.append(with_changes(changes, deck, truth))
        oracle_cpu += time.process_time() - cpu
        if args.progress:
            print(json.dumps({"deck": deck, "today": today[-1], "oracle": oracle[-1]}), flush=True)
    if WHERE[0] and not truth.draws:
        print("the oracle was never asked for a deal: nothing was measured", file=sys.stderr)
        return 1
    n = len(today)
    kinds = {
        "oracle_only": [d for d, t, o in zip(decks, today, oracle) if o[0] > t[0]],
        "both_lose": [d for d, t, o in zip(decks, today, oracle) if not o[0] and not t[0]],
        "today_only": [d for d, t, o in zip(decks, today, oracle) if t[0] > o[0]],
    }
    dw = paired([float(o[0] - t[0]) for t, o in zip(today, oracle)])
    dp = paired([o[1] - t[1] for t, o in zip(today, oracle)])
    figures = {
        "changes": changes, "side": args.side, "oracle_in": WHERE[0], "model": args.model, "decks": n, "seed": args.seed,
        "wp_today": sum(t[0] for t in today) / n, "wp_oracle": sum(o[0] for o in oracle) / n,
        "adp_today": sum(t[1] for t in today) / n, "adp_oracle": sum(o[1] for o in oracle) / n,
        "wp_diff": list(dw), "adp_diff": list(dp), **kinds, "oracle_draws": truth.draws,
        "cpu_today": round(today_cpu, 1), "cpu_oracle": round(oracle_cpu, 1),
        "load": [round(load[0], 1), round(os.getloadavg()[0], 1)],
    }
    if args.json:
        print(json.dumps(figures))
        return 0
    which = "today's lost decks of " if args.lost else ""
    print(f"hard as {args.side} against {rlcard_arena.RULE_AGENT}, {which}decks {args.seed}-{args.seed + args.decks - 1} "
          f"({n}): today vs "
          f"{label(changes, args.model)}")
    print(f"  WP  today {figures['wp_today']:.3f}  variant {figures['wp_oracle']:.3f}  "
          f"diff {dw[0]:+.3f} [{dw[1]:+.3f}, {dw[2]:+.3f}]")
    print(f"  ADP today {figures['adp_today']:+.3f}  variant {figures['adp_oracle']:+.3f}  "
          f"diff {dp[0]:+.3f} [{dp[1]:+.3f}, {dp[2]:+.3f}]")
    print(f"  lost by today, won by the variant ({len(kinds['oracle_only'])}): {kinds['oracle_only']}")
    print(f"  lost by both ({len(kinds['both_lose'])}): {kinds['both_lose']}")
    print(f"  won by today, lost by the variant ({len(kinds['today_only'])}): {kinds['today_only']}")
    print(f"  CPU today {today_cpu:.0f} s{' (recorded)' if earlier else ''}, variant {oracle_cpu:.0f} s "
          f"({truth.draws:,} true deals handed out); load {load[0]:.1f} -> {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
