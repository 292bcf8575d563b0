"""One of each (docs/architecture): only trick.py counts passes, only auction.py compares bids.

A variant is a ``Rules`` value because the rule it changes lives in one place:
a second copy of the auction or the two-pass rule would keep playing the old
game.  This test reads every module of ``tutor/`` and refuses the shapes such
a copy takes.  The solver's compiled core (C, not scanned) has its own packed
copy of the trick rule; it is checked against the Python search move for move
(tests/solver/test_native.py), and the Python state against Game
(tests/bots/test_fast_copies.py).
"""

from __future__ import annotations

import re
from pathlib import Path

import tutor

ROOT = Path(tutor.__file__).parent

#: Shapes of a pass counter: ``passes += 1``, ``passes + 1``, ``passes >= 2``, ``passes == 2``.
PASS_COUNTING = re.compile(r"\bpasses\s*(\+=|\+\s*1|>=|==\s*\d)")
#: Shapes of a bid comparison: the highest of the bids, a bid against the highest, the top bid ending it.
BID_COMPARING = re.compile(
    r"max\(\(?\w+ for _, \w+ in [\w.]*bids"
    r"|\bbid\s*(<=|<|>=|>)\s*(high|highest)\b"
    r"|\b(amount|bid|b)\s*==\s*(self\.)?rules\.top_bid"
    r"|\bbid\s*==\s*3\b"
)


def _offenders(pattern: re.Pattern[str], allowed: set[str]) -> list[str]:
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel in allowed:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#", 1)[0]
            if pattern.search(code):
                found.append(f"tutor/{rel}:{number}: {line.strip()}")
    return found


def test_only_trick_py_counts_passes() -> None:
    assert _offenders(PASS_COUNTING, {"engine/trick.py"}) == []


def test_only_auction_py_compares_bids() -> None:
    assert _offenders(BID_COMPARING, {"engine/auction.py"}) == []


def test_the_guard_catches_a_copy() -> None:
    # The patterns recognise the copies this redesign removed (so the guard cannot pass vacuously).
    assert BID_COMPARING.search("high = max((b for _, b in view.bids), default=0)")
    assert BID_COMPARING.search("if bid and bid <= highest:")
    assert BID_COMPARING.search("if amount == self.rules.top_bid:")
    assert PASS_COUNTING.search("passes += 1")
    assert PASS_COUNTING.search("if passes >= 2:")
