"""``ddz bench coach --quality``: are the shipped coach's verdicts the ones a far larger budget gives?

The decisions come from games in which a beginner (the easy level, RULES §10)
holds the learner's seat and the hard level's judgement the two others — the
games a learner plays, with the mistakes a learner makes.  Each decision is
judged twice from the learner's view: at the shipped budget
(:data:`tutor.coach.evaluation.DEFAULT_BUDGET`) and at a reference budget
:data:`REFERENCE_FACTOR` times larger (its cap on samples; its noise targets
are halved, so it stops later too).  Reported, per the issue:

* ``agreement``: of the decisions the reference flags (inaccuracy or worse,
  told from luck), the share the shipped coach flags too;
* ``false_alarms``: the share of all decisions the shipped coach flags and
  the reference does not;
* ``misses``: per reference band, the decisions it flags and the shipped coach
  does not;
* ``level_agreement``: the share of decisions given the very same band;
* the noise of the shipped loss where the verdict depends on it (a loss
  between 0.05 and 0.40) — median, worst, and the share at most 0.04 — and the
  CPU seconds of the shipped evaluation per decision.

The reference is the same method with more samples: it measures the noise of
the shipped figures, not the play-out policy's own bias (docs/coach.md says
what that policy is and how it was checked).  It lives in ``tutor.bench``
because it reads a clock (CPU time) for its figures; the verdicts do not.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace

from tutor.coach.advice import FLAGGED, Verdict, judge
from tutor.coach.evaluation import DEFAULT_BUDGET, Budget
from tutor.bots.base import Bot
from tutor.engine.combos import Combo
from tutor.engine.rules import STANDARD
from tutor.engine.view import PlayerView

#: The reference budget's cap on samples, as a multiple of the shipped one.
REFERENCE_FACTOR = 16
#: The loss range in which a verdict depends on the figure (issue 20).
DEPENDS = (0.05, 0.40)
#: The learner's seat.
SEAT = 0


def reference_budget(shipped: Budget = DEFAULT_BUDGET) -> Budget:
    """``REFERENCE_FACTOR`` times the shipped cap, steps four times larger, noise targets halved."""
    cap = max(shipped.max_samples, shipped.samples)
    return replace(
        shipped,
        samples=4 * shipped.samples,
        max_samples=REFERENCE_FACTOR * cap,
        target_noise=shipped.target_noise / 2,
        chance_noise=shipped.chance_noise / 2,
    )


def beginner_decisions(count: int, first_deal: int = 1) -> Iterator[tuple[int, int, PlayerView, Combo | None]]:
    """(deal, move number, view, move played) of the beginner's non-forced decisions, deal after deal.

    Seat 0 is the easy level; seats 1 and 2 the hard level's judgement
    (without its look-ahead, so the games are quick to make); the landlord
    rotates with the deal number.  Deterministic.
    """
    from tutor.bots.easy import EasyBot
    from tutor.bots.hard import HardBot
    from tutor.engine.game import Game

    found = 0
    deal = first_deal
    while found < count:
        game = Game.with_landlord(deal, deal % STANDARD.players, rules=STANDARD)  # the classic game
        bots: list[Bot] = [EasyBot(deal), HardBot(deal * 10 + 1, search=False, rollouts=False),
                HardBot(deal * 10 + 2, search=False, rollouts=False)]  # fmt: skip
        number = 0
        while not game.is_over and found < count:
            seat = game.to_move
            view = game.view(seat)
            move = bots[seat].play(view)
            if seat == SEAT:
                number += 1
                if len(game.legal_moves()) > 1:
                    found += 1
                    yield deal, number, view, move
            game.play(move)
        deal += 1


@dataclass(slots=True)
class Judged:
    deal: int
    number: int
    move: str
    shipped: Verdict
    reference: Verdict
    cpu: float
    samples: int
    reference_samples: int


@dataclass(slots=True)
class QualityFigures:
    decisions: int
    agreement: float | None
    level_agreement: float
    false_alarms: float
    misses: dict[str, int]
    flagged_reference: dict[str, int]
    flagged_shipped: int
    median_noise: float | None
    worst_noise: float | None
    precise_share: float | None
    median_cpu_s: float
    worst_cpu_s: float
    median_samples: float
    reference_samples: float
    load: tuple[float, float, float]
    judged: list[Judged] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        return {
            "benchmark": "coach-quality",
            "decisions": self.decisions,
            "agreement": _round(self.agreement),
            "level_agreement": round(self.level_agreement, 4),
            "false_alarms": round(self.false_alarms, 4),
            "misses": self.misses,
            "flagged_by_reference": self.flagged_reference,
            "flagged_by_shipped": self.flagged_shipped,
            "median_noise": _round(self.median_noise),
            "worst_noise": _round(self.worst_noise),
            "precise_share": _round(self.precise_share),
            "median_cpu_s": round(self.median_cpu_s, 4),
            "worst_cpu_s": round(self.worst_cpu_s, 4),
            "median_samples": self.median_samples,
            "median_reference_samples": self.reference_samples,
            "reference_factor": REFERENCE_FACTOR,
            "load": list(self.load),
            "rows": [
                {"deal": j.deal, "move_number": j.number, "move": j.move, "shipped": j.shipped.level,
                 "shipped_flagged": j.shipped.flagged, "loss": round(j.shipped.loss, 4),
                 "noise": round(j.shipped.noise, 4), "reference": j.reference.level,
                 "reference_flagged": j.reference.flagged, "reference_loss": round(j.reference.loss, 4),
                 "reference_noise": round(j.reference.noise, 4), "cpu_s": round(j.cpu, 4)}
                for j in self.judged
            ],  # fmt: skip
        }


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 4)


def run(
    decisions: int = 200,
    shipped: Budget = DEFAULT_BUDGET,
    progress: Callable[[int, int], None] | None = None,
) -> QualityFigures:
    """Judge ``decisions`` beginner decisions at the shipped and the reference budget."""
    reference = reference_budget(shipped)
    judged: list[Judged] = []
    for deal, number, view, move in beginner_decisions(decisions):
        start = time.process_time()
        verdict, ev = judge(view, move, shipped)
        cpu = time.process_time() - start
        ref, ref_ev = judge(view, move, reference)
        text = "pass" if move is None else move.text
        judged.append(Judged(deal, number, text, verdict, ref, cpu, ev.samples, ref_ev.samples))
        if progress is not None:
            progress(len(judged), decisions)
    return summarize(judged)


def summarize(judged: list[Judged]) -> QualityFigures:
    n = len(judged)
    ref_flagged = [j for j in judged if j.reference.flagged]
    both = [j for j in ref_flagged if j.shipped.flagged]
    false = [j for j in judged if j.shipped.flagged and not j.reference.flagged]
    misses = {level: sum(1 for j in ref_flagged if j.reference.level == level and not j.shipped.flagged)
              for level in FLAGGED}  # fmt: skip
    per_level = {level: sum(1 for j in ref_flagged if j.reference.level == level) for level in FLAGGED}
    depends = [j.shipped.noise for j in judged if DEPENDS[0] < j.shipped.loss < DEPENDS[1]]
    cpu = [j.cpu for j in judged] or [0.0]
    return QualityFigures(
        decisions=n,
        agreement=len(both) / len(ref_flagged) if ref_flagged else None,
        level_agreement=sum(1 for j in judged if j.shipped.level == j.reference.level) / n if n else 0.0,
        false_alarms=len(false) / n if n else 0.0,
        misses=misses,
        flagged_reference=per_level,
        flagged_shipped=sum(1 for j in judged if j.shipped.flagged),
        median_noise=statistics.median(depends) if depends else None,
        worst_noise=max(depends) if depends else None,
        precise_share=sum(1 for x in depends if x <= 0.04) / len(depends) if depends else None,
        median_cpu_s=statistics.median(cpu),
        worst_cpu_s=max(cpu),
        median_samples=statistics.median([j.samples for j in judged] or [0]),
        reference_samples=statistics.median([j.reference_samples for j in judged] or [0]),
        load=os.getloadavg(),
        judged=judged,
    )
