"""``ddz bench coach --heldout``: the coach's words checked against exact answers (issue 29).

An independent check, on positions the coach was never tuned on: small
endgames (the endgames of games no other bench plays, :data:`FIRST_DEAL` on), each described as ``ddz analyze``
takes it (hand, landlord, counts, the trick, the cards gone).  For every
position the **exact** win chance of each legal move is computed over *every*
split of the hidden cards between the two other hands (each split weighted by
how many deals of the unseen cards give it: the uniform prior), each split
proven by the solver with every winning first move.  Then every legal move is
judged by ``ddz analyze --json --move`` (run in-process, its JSON read back:
the keys a user sees), and the words are checked against the exact figures:

* ``weak_proposals``: remarks whose ``instead`` is not better than the move
  played by at least 5 points of exact win chance (target 0);
* ``text_only``: remarks that carry no ``instead`` (a proposal in the words
  only; target 0);
* ``clear_losses`` and ``clear_with_reason``: moves that lose 20 points or
  more (exactly), and those whose remark has a specific code (not
  ``no_simple_reason``): target a share of 0.8;
* ``verdicts_within_one_class``: the coach's verdict against the class of the
  exact loss (best, good, inaccuracy, mistake, blunder): at most one apart.

Budgets are counts (solver nodes); the CPU seconds are printed, never tested.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import product
from typing import Any

from tutor.coach.evaluation import BLUNDER, INACCURACY, MISTAKE
from tutor.engine.cards import BIG_JOKER, FULL_DECK, format_packed
from tutor.engine.combos import Combo
from tutor.engine.moves import legal_moves
from tutor.engine.view import PlayerView

#: The held-out games: deals no other bench or test plays (the words and classic benches play 1–60).
FIRST_DEAL = 2901
#: Positions taken from one game at most (the endgames of many games, not many turns of a few).
PER_GAME = 2
#: Largest number of hidden cards (the splits to prove grow as C(n, k): at most 252 here).
MAX_HIDDEN = 10
#: Largest hand: the coach's own exact mode then proves every sample within its node budget.
MAX_HAND = 8
#: Node budget of one proof (a split not proven within it drops the position: its answer is not exact).
NODES = 400_000
CLEAR_LOSS = 0.20
PROPOSAL_MARGIN = 0.05
CLASSES = ("best", "good", "inaccuracy", "mistake", "blunder")
SEATS = ("you", "right", "left")


def exact_class(loss: float) -> str:
    """The verdict band of an exact loss (the coach's thresholds, docs/coach.md; 0.2 as 1 - 0.8 is 0.2)."""
    loss = round(loss, 9)
    if loss <= 0:
        return "best"
    if loss < INACCURACY:
        return "good"
    if loss < MISTAKE:
        return "inaccuracy"
    if loss < BLUNDER:
        return "mistake"
    return "blunder"


@dataclass(frozen=True, slots=True)
class HeldOut:
    """A position as ``ddz analyze`` options, and the view it describes."""

    hand: str
    landlord: str
    counts: str
    trick: str
    gone: str

    def args(self) -> list[str]:
        out = ["analyze", "--hand", self.hand, "--landlord", self.landlord, "--counts", self.counts, "--gone", self.gone]
        return out + (["--trick", self.trick] if self.trick else [])

    def view(self) -> PlayerView:
        from tutor.coach.describe import describe, to_view

        return to_view(describe(self.hand, self.landlord, self.counts, self.trick, self.gone))


def positions(count: int, first_deal: int = FIRST_DEAL) -> Iterator[HeldOut]:
    """``count`` endgames of real games, described as ``ddz analyze`` takes them: seat 0 on lead with at most
    :data:`MAX_HAND` cards, at most :data:`MAX_HIDDEN` hidden, a choice to make; at most :data:`PER_GAME` a game.

    Leads only: with no play of the others in the description the coach's samples are drawn uniformly
    (nothing to nudge them towards, :func:`tutor.bots.sampling.likely_samples`), the same prior as the
    exact reference — an answer to a play would be judged on deals nudged to explain that play."""
    from tutor.bench.classic_errors import real_turns

    made = 0
    taken: dict[int, int] = {}
    for deal, view, _ in real_turns(10_000, first_deal):
        if made >= count:
            return
        hidden = sum(view.card_counts[s] for s in range(view.players) if s != view.seat)
        if view.table is not None or hidden > MAX_HIDDEN or len(view.hand) > MAX_HAND or taken.get(deal, 0) >= PER_GAME:
            continue
        if len(legal_moves(view.hand, view.table, view.rules)) + (view.table is not None) < 2:
            continue
        taken[deal] = taken.get(deal, 0) + 1
        made += 1
        yield described(view)


def described(view: PlayerView) -> HeldOut:
    """The view as ``ddz analyze`` options: the trick's last play on the table, everything else seen as gone."""
    assert view.landlord is not None
    trick = ""
    on_table = 0
    if view.table is not None and view.table_seat is not None:
        on_table = view.table.cards
        trick = f"{SEATS[view.table_seat]}:{view.table.text}" + (",left:pass" if view.table_seat == 1 else "")
    gone = FULL_DECK.packed - view.hand.packed - view.unseen().packed - on_table
    counts = f"right={view.card_counts[1]},left={view.card_counts[2]}"
    return HeldOut(str(view.hand), SEATS[view.landlord], counts, trick, format_packed(gone))


def splits(view: PlayerView) -> Iterator[tuple[dict[int, int], int]]:
    """Every split of the unseen cards between the two other seats: (hidden hands, how many deals give it)."""
    unseen = view.unseen()
    seats = [s for s in range(view.players) if s != view.seat]
    need = view.card_counts[seats[0]]
    ranks = [r for r in range(BIG_JOKER + 1) if unseen.count(r)]
    for takes in product(*(range(unseen.count(r) + 1) for r in ranks)):
        if sum(takes) != need:
            continue
        first = sum(k << (4 * r) for k, r in zip(takes, ranks))
        weight = math.prod(math.comb(unseen.count(r), k) for k, r in zip(takes, ranks))
        yield {seats[0]: first, seats[1]: unseen.packed - first}, weight


def exact_chances(view: PlayerView, nodes: int = NODES) -> dict[str, float] | None:
    """Every legal move's exact win chance (move text → chance), or None when a split was not proven."""
    from tutor.solver import Position, Solver

    solver = Solver(max_nodes=nodes, workers=1, rules=view.rules)
    moves: list[Combo | None] = list(legal_moves(view.hand, view.table, view.rules))
    if view.table is not None:
        moves.append(None)
    wins = dict.fromkeys(moves, 0)
    total = 0
    for hidden, weight in splits(view):
        result = solver.solve(Position.from_view(view, hidden, from_mover=True), "win", all_moves=True, line=False)
        if not result.complete:
            return None
        total += weight
        for move in result.winning_moves:
            if move in wins:
                wins[move] += weight
    # Keyed by the text a learner types; cards with several readings are read as the plainest (as ddz analyze).
    from tutor.engine.combos import plainest

    chances: dict[str, float] = {}
    for text in {_text(m) for m in moves}:
        readings = [m for m in moves if _text(m) == text]
        chosen = readings[0] if len(readings) == 1 or None in readings else plainest(readings)  # type: ignore[arg-type]
        chances[text] = wins[chosen] / total
    best = max(wins.values()) / total
    chances[BEST] = best
    return chances


#: The key of :func:`exact_chances`'s answer that holds the best chance over every reading.
BEST = "*best*"


def _text(move: Combo | None) -> str:
    return "pass" if move is None else move.text


@dataclass(slots=True)
class Checked:
    """One move judged: the exact figures and what ``ddz analyze --json`` said."""

    position: int
    move: str
    exact_loss: float
    exact_class: str
    verdict: str
    code: str | None
    instead: str | None
    instead_gain: float | None
    text_only: bool


@dataclass(slots=True)
class HeldOutFigures:
    rows: list[Checked] = field(default_factory=list)
    positions: int = 0
    dropped: int = 0
    cpu: float = 0.0
    load: tuple[float, float, float] = (0.0, 0.0, 0.0)

    def to_json(self) -> dict[str, Any]:
        proposals = [r for r in self.rows if r.instead is not None]
        weak = [r for r in proposals if r.instead_gain is None or r.instead_gain < PROPOSAL_MARGIN - 1e-9]
        clear = [r for r in self.rows if r.exact_loss >= CLEAR_LOSS - 1e-9]
        specific = [r for r in clear if r.code is not None and r.code != "no_simple_reason"]
        within = [r for r in self.rows if abs(CLASSES.index(r.verdict) - CLASSES.index(r.exact_class)) <= 1]
        return {
            "benchmark": "coach-heldout",
            "first_deal": FIRST_DEAL,
            "positions": self.positions,
            "dropped_positions": self.dropped,
            "moves": len(self.rows),
            "proposals": len(proposals),
            "weak_proposals": len(weak),
            "text_only": sum(1 for r in self.rows if r.text_only),
            "clear_losses": len(clear),
            "clear_with_reason": len(specific),
            "clear_reason_share": round(len(specific) / len(clear), 4) if clear else None,
            "verdicts_within_one_class": len(within),
            "cpu_s": round(self.cpu, 2),
            "load": list(self.load),
            "rows": [{"position": r.position, "move": r.move, "exact_loss": round(r.exact_loss, 4),
                      "exact_class": r.exact_class, "verdict": r.verdict, "code": r.code, "instead": r.instead,
                      "instead_gain": None if r.instead_gain is None else round(r.instead_gain, 4)}
                     for r in self.rows],  # fmt: skip
        }

    @property
    def ok(self) -> bool:
        data = self.to_json()
        share = data["clear_reason_share"]
        return bool(data["weak_proposals"] == 0 and data["text_only"] == 0 and (share is None or share >= 0.8)
                    and data["verdicts_within_one_class"] == data["moves"])  # fmt: skip


#: ``ddz analyze … --move MOVE --json`` of a position, its JSON read back (the front end runs the command:
#: :func:`tutor.cli.bench_coach.analyze_json`; a bench may not import the front end).
Analyze = Callable[[HeldOut, str], dict[str, Any]]


def check(index: int, position: HeldOut, chances: dict[str, float], analyze: Analyze) -> list[Checked]:
    """Every legal move of ``position`` judged by ``ddz analyze --json`` and checked against ``chances``."""
    best = chances[BEST]
    rows = []
    for move, chance in sorted(chances.items()):
        if move == BEST:
            continue
        data = analyze(position, move)
        remarks = data.get("remarks") or []
        remark = remarks[0] if remarks else {}
        instead = remark.get("instead")
        gain = None
        if instead is not None:
            gain = chances.get(instead, -1.0) - chance if instead in chances else None
        loss = best - chance
        rows.append(Checked(index, move, loss, exact_class(loss), str(data["move"]["verdict"]), remark.get("code"),
                            instead, gain, bool(remarks) and any("instead" not in r for r in remarks)))  # fmt: skip
    return rows


def run(count: int, analyze: Analyze, progress: Callable[[int, int], None] | None = None) -> HeldOutFigures:
    figures = HeldOutFigures()
    start = time.process_time()
    for index, position in enumerate(positions(count)):
        chances = exact_chances(position.view())
        if chances is None or len(chances) < 3:  # the best, and at least two moves to choose from
            figures.dropped += 1
        else:
            figures.positions += 1
            figures.rows += check(index, position, chances, analyze)
        if progress is not None:
            progress(index + 1, count)
    figures.cpu = time.process_time() - start
    figures.load = os.getloadavg()
    return figures
