"""Fit the play-out model of the opponents ("fit", round 13, issue 33) and measure how well it predicts them.

Reads decision files written by benchmarks/fit_data.py (one JSON line per decision with at least two legal
moves: the seat's view and the move it made), computes each candidate's features with the compiled model's own
code (:func:`tutor.solver.playout.fit_features` — the numbers the play-out scores) and fits the weights of a
conditional logit (a softmax over the legal moves of a linear score) by maximum likelihood, by Newton's method
with a small ridge (``--ridge``): one weight vector for a farmer deciding and one for the landlord, each pooled
over every opponent of the ``--fit`` files.  The weights are rounded to integers (×``--scale``) so that the C
score is an integer sum: the same move on any machine.  ``--write`` puts them into tutor/solver/_fit.c's table
(then rebuild: ``.venv/bin/pip install -q -e '.[test]'``).

Then, for every ``--eval`` file (decks the fit never saw; RHCP-v2's decisions are never fitted on), one JSON line
per (opponent, role): the decisions, the model's mean log-likelihood per decision (and the uniform model's, for
scale), and the top-1 agreement of every compiled variant (quick, lowest, rule, agent, plan, fit: the compiled
``choose``, the move the play-out would make), each [rate, low, high] with a 95 % interval over decks.

    .venv/bin/python benchmarks/fit_model.py --fit A.jsonl,B.jsonl [--split DECK] --eval C.jsonl,D.jsonl [--write]

numpy is needed here only (installed with rlcard: ``pip install 'ddz-tutor[arena]'``); the game never imports
this file.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from tutor.bench.opponent_fit import Tally
from tutor.solver import playout

#: The features, in _fit.c's order (its enum).
FEATURES = (
    "pass", "pass_partner", "pass_short", "pass_near", "dplays", "out", "one_left", "main", "main_lead",
    "size_lead", "high", "twos", "jokers", "bomb", "bomb_near", "boss", "boss_lead", "breaks", "breaks_bomb",
    "lowest_lead", "lowest_answer", "lowest_answer_partner", "above", "lead_single", "lead_pair", "lead_trio",
    "lead_straight", "lead_pair_chain", "lead_airplane", "lead_four", "lead_single_opp1", "lead_pair_opp2",
    "lead_single_partner1", "main_short", "high_partner", "high_lead_single", "high_follow_calm", "landlord_next",
    "quick", "plan",
)
SOURCE = Path(__file__).resolve().parent.parent / "tutor" / "solver" / "_fit.c"


def read(paths: Iterable[str]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for path in paths:
        with open(path, encoding="utf-8") as fh:
            rows.extend(json.loads(line) for line in fh if line.startswith("{"))
    return rows


def _table(raw: list[int] | None) -> tuple[int, int, int, int] | None:
    return None if raw is None else (raw[0], raw[1], raw[2], raw[3])


def candidates(row: dict[str, Any]) -> tuple[list[tuple[int, ...]], int] | None:
    """The decision's candidates' features and the index of the move made (None: not among them)."""
    from tutor.solver.native import _native

    assert _native is not None
    raw = _native.fit_features(row["hand"], tuple(row["counts"]), row["landlord"], row["seat"], _table(row["table"]),
                               row["table_seat"], row["rest"])
    made = row["move"]
    for i, (move, _) in enumerate(raw):
        if (move is None and made is None) or (move is not None and made is not None and move[0] == made[0]):
            return [tuple(f) for _, f in raw], i
    return None


def role(row: dict[str, Any]) -> int:
    """0: a farmer decides, 1: the landlord (FIT_WEIGHTS' rows)."""
    return int(row["seat"] == row["landlord"])


def fit(data: list[tuple[Any, int]], ridge: float) -> Any:
    """The maximum-likelihood weights of the conditional logit (Newton's method, ridge ``ridge``)."""
    import numpy as np

    k = len(FEATURES)
    w = np.zeros(k)
    mats = [(np.asarray(x, dtype=float), y) for x, y in data]
    for _ in range(50):
        grad = -ridge * w
        hess = -ridge * np.eye(k)
        for x, y in mats:
            s = x @ w
            p = np.exp(s - s.max())
            p /= p.sum()
            mean = p @ x
            grad += x[y] - mean
            hess -= (x * p[:, None]).T @ x - np.outer(mean, mean)
        step = np.linalg.solve(hess, grad)
        w -= step
        if float(np.abs(step).max()) < 1e-6:
            break
    return w


def loglik(x: Any, y: int, w: Any) -> float:
    import numpy as np

    s = np.asarray(x, dtype=float) @ w
    top = s.max()
    return float(s[y] - top - math.log(float(np.exp(s - top).sum())))


def write(weights: list[list[int]]) -> None:
    text = SOURCE.read_text(encoding="utf-8")
    rows = "".join("    {" + ", ".join(str(v) for v in row) + "},\n" for row in weights)
    block = f"static const int32_t FIT_WEIGHTS[2][FIT_NF] = {{\n{rows}}};\n"
    new, count = re.subn(r"static const int32_t FIT_WEIGHTS\[2\]\[FIT_NF\] = \{\n.*?\n\};\n", lambda _: block, text,
                         flags=re.S)
    if count != 1:
        raise SystemExit("the weights block of _fit.c was not found")
    SOURCE.write_text(new, encoding="utf-8")


def choose(row: dict[str, Any], variant: str) -> int | None:
    from tutor.solver.native import _native

    assert _native is not None
    code = playout.variant_code(variant)
    extra = (row["rest"],) if variant in playout.READS_REST else ()
    move = _native.choose(row["hand"], tuple(row["counts"]), row["landlord"], row["seat"], _table(row["table"]),
                          row["table_seat"], code, *extra)
    return None if move is None else int(move[0])


def main(argv: list[str]) -> int:
    import numpy as np

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fit", required=True, help="decision files to fit on, comma-separated")
    parser.add_argument("--eval", default="", help="held-out decision files, comma-separated")
    parser.add_argument("--split", type=int, default=None,
                        help="fit only the --fit files' decks below SPLIT; their other decks are held out too")
    parser.add_argument("--ridge", type=float, default=1.0)
    parser.add_argument("--scale", type=float, default=1000.0)
    parser.add_argument("--write", action="store_true", help="write the weights into tutor/solver/_fit.c")
    args = parser.parse_args(argv)
    train = read(p for p in args.fit.split(",") if p)
    held = [row for row in train if args.split is not None and row["deck"] >= args.split]
    train = [row for row in train if args.split is None or row["deck"] < args.split]
    by_role: dict[int, list[tuple[Any, int]]] = {0: [], 1: []}
    missing = 0
    for row in train:
        found = candidates(row)
        if found is None:
            missing += 1
            continue
        by_role[role(row)].append(found)
    weights: list[list[int]] = []
    floats = []
    for r in (0, 1):
        w = fit(by_role[r], args.ridge)
        floats.append(w)
        weights.append([int(round(v * args.scale)) for v in w])
    print(json.dumps({"fitted": {"farmer": len(by_role[0]), "landlord": len(by_role[1])}, "unmatched": missing,
                      "opponents": sorted({f"{row['opponent']}/{row['as']}" for row in train}),
                      "weights": {name: [round(float(floats[0][i]), 3), round(float(floats[1][i]), 3)]
                                  for i, name in enumerate(FEATURES)}}), flush=True)
    if args.write:
        write(weights)
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for row in held + read(p for p in args.eval.split(",") if p):
        groups.setdefault((row["opponent"], row["as"]), []).append(row)
    variants = tuple(playout.VARIANTS)
    for (opponent, side), rows in sorted(groups.items()):
        tallies = {v: Tally() for v in variants}
        ll, uniform, n, unmatched = 0.0, 0.0, 0, 0
        for row in rows:
            found = candidates(row)
            if found is None:
                unmatched += 1
                continue
            x, y = found
            ll += loglik(x, y, floats[role(row)])
            uniform -= math.log(len(x))
            n += 1
            made = None if row["move"] is None else int(row["move"][0])
            for v in variants:
                tallies[v].add(row["deck"], choose(row, v) == made)
        rates = {v: [round(t, 4) for t in tallies[v].rate()] for v in variants}
        print(json.dumps({"opponent": opponent, "as": side, "decisions": n, "unmatched": unmatched,
                          "decks": len({row["deck"] for row in rows}),
                          "loglik": round(ll / max(n, 1), 4), "uniform": round(uniform / max(n, 1), 4),
                          "agreement": rates}), flush=True)
    del np
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
