"""``ddz bench coach --words``: can the coach's words be trusted (issue 29)?

The decisions are beginner-like: seat 0's turns in the classic-errors games
(:func:`tutor.bench.classic_errors.real_turns`: odd deals a beginner, even deals
the hard level), and at each turn the move played plus, for every classic
error of the seed that a legal move commits, that move — the mistakes a
learner makes, and the moves the patterns speak about.  Each is judged by the
shipped coach from the learner's view, and its words are checked:

* ``proposals``: remarks that propose a move (``instead``, measured);
* ``false_proposals``: of those, the share whose proposed move is not better
  than the move played when both are measured again at
  :data:`~tutor.bench.coach_quality.REFERENCE_FACTOR` times the samples (the
  reference budget of ``--quality``; paired on the same samples);
  ``proposals_under_5_points``: the share better by less than 0.05 there;
* ``flagged`` and ``flagged_with_reason``: flagged verdicts, and those whose
  reason is a specific pattern (not ``no_simple_reason``);
* ``praised_losses``: a move with a loss the samples tell from luck (above
  twice its noise) that a hint reason praises or a verdict calls "good" —
  every candidate of every decision is read.

Budgets are counts; the CPU seconds are printed as figures, never tested.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from tutor.bench.classic_errors import CLASSES, committing, real_turns
from tutor.bench.coach_quality import REFERENCE_FACTOR, reference_budget
from tutor.coach.advice import Verdict, judge, reason, verdict_phrase
from tutor.coach.evaluation import DEFAULT_BUDGET, NOISE_SIGMAS, Budget, Evaluation, evaluate
from tutor.coach.reasons import NO_SIMPLE_REASON, paired
from tutor.engine.combos import Combo
from tutor.engine.view import PlayerView

#: Hint reasons that speak of a measured loss (everything else recommends the move).
LOSS_REASONS = frozenset({"reason_worse", "reason_worse_because", "reason_costs", "reason_costs_best",
                          "reason_breaks_bomb", "reason_goes_out"})  # fmt: skip
#: A proposal better than the move played by less than this at the reference budget is counted apart.
CLEAR_GAIN = 0.05

Move = Combo | None


def decisions(count: int, games: int = 60) -> Iterator[tuple[int, PlayerView, Move]]:
    """(deal, view, move) of ``count`` beginner-like decisions: the move played, then each classic error's."""
    from tutor.engine.moves import legal_moves

    found = 0
    for deal, view, played in real_turns(games):
        if len(legal_moves(view.hand, view.table, view.rules)) + (view.table is not None) <= 1:
            continue  # forced: nothing to say
        moves: list[Move] = [played]
        for name in CLASSES:
            for move in committing(view, name)[:1]:
                if move not in moves:
                    moves.append(move)
        for move in moves:
            if found >= count:
                return
            found += 1
            yield deal, view, move


def proposed(verdict: Verdict) -> Move | str:
    """The move the verdict's remark proposes, or "none" (the hook a before-and-after run replaces)."""
    if verdict.explanation is None or verdict.proposal is None:
        return "none"
    return verdict.proposal.move


def specific(verdict: Verdict) -> bool:
    """Does the verdict carry a specific reason (a pattern proven by its counterfactual)?"""
    return verdict.explanation is not None and verdict.explanation.code != NO_SIMPLE_REASON


@dataclass(slots=True)
class Row:
    deal: int
    move: str
    level: str
    flagged: bool
    loss: float
    noise: float
    code: str | None
    instead: str | None = None
    gain: float | None = None
    reference_gain: float | None = None
    reference_noise: float | None = None
    praised: int = 0
    cpu: float = 0.0


@dataclass(slots=True)
class WordsFigures:
    rows: list[Row] = field(default_factory=list)
    load: tuple[float, float, float] = (0.0, 0.0, 0.0)

    def to_json(self) -> dict[str, object]:
        proposals = [r for r in self.rows if r.instead is not None]
        false = [r for r in proposals if r.reference_gain is not None and r.reference_gain <= 0]
        small = [r for r in proposals if r.reference_gain is not None and r.reference_gain < CLEAR_GAIN]
        flagged = [r for r in self.rows if r.flagged]
        with_reason = [r for r in flagged if r.code is not None and r.code != NO_SIMPLE_REASON]
        codes: dict[str, int] = {}
        for r in self.rows:
            if r.code is not None:
                codes[r.code] = codes.get(r.code, 0) + 1
        cpu = [r.cpu for r in self.rows] or [0.0]
        return {
            "benchmark": "coach-words",
            "decisions": len(self.rows),
            "proposals": len(proposals),
            "false_proposals": round(len(false) / len(proposals), 4) if proposals else 0.0,
            "false_proposal_count": len(false),
            "proposals_under_5_points": round(len(small) / len(proposals), 4) if proposals else 0.0,
            "flagged": len(flagged),
            "flagged_with_reason": len(with_reason),
            "reason_share": round(len(with_reason) / len(flagged), 4) if flagged else None,
            "praised_losses": sum(r.praised for r in self.rows),
            "codes": dict(sorted(codes.items(), key=lambda kv: (-kv[1], kv[0]))),
            "median_cpu_s": round(statistics.median(cpu), 4),
            "worst_cpu_s": round(max(cpu), 4),
            "reference_factor": REFERENCE_FACTOR,
            "load": list(self.load),
            "rows": [
                {"deal": r.deal, "move": r.move, "level": r.level, "flagged": r.flagged, "loss": round(r.loss, 4),
                 "noise": round(r.noise, 4), "code": r.code, "instead": r.instead,
                 "gain": None if r.gain is None else round(r.gain, 4),
                 "reference_gain": None if r.reference_gain is None else round(r.reference_gain, 4),
                 "reference_noise": None if r.reference_noise is None else round(r.reference_noise, 4),
                 "praised": r.praised}
                for r in self.rows
            ],  # fmt: skip
        }


def praised_losses(view: PlayerView, ev: Evaluation, verdict: Verdict) -> int:
    """Candidates with a loss told from luck that a hint praises, plus the verdict if it says "good" over one."""
    count = 0
    for c in ev.candidates:
        if c.move == ev.best.move:
            continue
        loss, noise = ev.loss(c.move), ev.loss_noise(c.move)
        if loss > 0 and loss > NOISE_SIGMAS * noise and reason(view, c.move, ev).code not in LOSS_REASONS:
            count += 1
    if verdict.loss > NOISE_SIGMAS * verdict.noise and verdict_phrase(verdict).key in ("coach.verdict_good", "coach.verdict_best"):
        count += 1
    return count


def run(
    count: int = 120,
    shipped: Budget = DEFAULT_BUDGET,
    progress: Callable[[int, int], None] | None = None,
) -> WordsFigures:
    """Judge ``count`` beginner-like decisions and check every proposal at the reference budget."""
    reference = reference_budget(shipped)
    figures = WordsFigures()
    for deal, view, move in decisions(count):
        start = time.process_time()
        verdict, ev = judge(view, move, shipped)
        cpu = time.process_time() - start
        row = Row(deal, "pass" if move is None else move.text, verdict.level, verdict.flagged, verdict.loss,
                  verdict.noise, None if verdict.explanation is None else verdict.explanation.code, cpu=cpu)  # fmt: skip
        row.praised = praised_losses(view, ev, verdict)
        instead = proposed(verdict)
        if not isinstance(instead, str):
            row.instead = "pass" if instead is None else instead.text
            if verdict.proposal is not None:
                row.gain = verdict.proposal.gain
            ref = evaluate(view, (move, instead), reference)
            a, b = ref.value(instead), ref.value(move)
            assert a is not None and b is not None
            check = paired(ref, a, b)
            row.reference_gain, row.reference_noise = check.gain, check.noise
        figures.rows.append(row)
        if progress is not None:
            progress(len(figures.rows), count)
    figures.load = os.getloadavg()
    return figures
