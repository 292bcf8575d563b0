"""Dump an opponent's decisions, each from its seat's view, for the fitted play-out model (issue 33, round 13).

Plays the games of benchmarks/opponent_fit.py (tutor/bench/opponent_fit.py: RLCard's rule agent in its own
environment, RHCP-v2 on RLCard's deals, or one of our levels on our deals) and writes one JSON line per
decision of the opponent with at least two legal moves: what its seat could see (its hand, the card counts,
the landlord, the table and who played it, the cards still out) and the move it made.  The lines are the
input of benchmarks/fit_model.py; nothing in them is hidden from the deciding seat.

    .venv/bin/python benchmarks/fit_data.py --opponent rlcard|rhcp|medium|easy|hard [--as farmers|landlord]
        [--level hard] [--seed 0] [--decks 50] [--rhcp-dir DIR] > decisions.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys

from tutor.bench import opponent_fit, rhcp_arena


def row(decision: opponent_fit.Decision, opponent: str, role: str) -> dict[str, object]:
    """One decision as a JSON object (a Combo as [cards, kind, length, main], a pass as null)."""
    view = decision.view
    table = view.table
    move = decision.move
    return {
        "opponent": opponent, "as": role, "deck": decision.deck, "seat": view.seat, "landlord": view.landlord,
        "hand": view.hand.packed, "counts": list(view.card_counts),
        "table": None if table is None else [table.cards, int(table.kind), table.length, table.main],
        "table_seat": -1 if view.table_seat is None else view.table_seat, "rest": view.unseen().packed,
        "move": None if move is None else [move.cards, int(move.kind), move.length, move.main],
        "choices": decision.choices,
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opponent", required=True)
    parser.add_argument("--as", dest="role", choices=("farmers", "landlord"), default="farmers")
    parser.add_argument("--level", default="hard")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--decks", type=int, default=50)
    parser.add_argument("--rhcp-dir")
    args = parser.parse_args(argv)
    decks = range(args.seed, args.seed + args.decks)
    farmers = args.role == "farmers"
    for deck in decks:
        if args.opponent == "rhcp":
            model = rhcp_arena.load(args.rhcp_dir or "")
            found = opponent_fit.rhcp_decisions([deck], model, args.level, farmers=farmers)
        elif args.opponent == "rlcard":
            found = opponent_fit.rule_agent_decisions([deck], args.level, farmers)
        else:
            found = opponent_fit.level_decisions([deck], args.opponent, args.level, farmers)
        for decision in found:
            if decision.choices > 1:
                print(json.dumps(row(decision, args.opponent, args.role)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
